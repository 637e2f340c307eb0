import {
  ApplicationCommandOptionType,
  InteractionContextType,
  PermissionFlagsBits,
  type RESTPostAPIChatInputApplicationCommandsJSONBody,
} from 'discord.js';
import { z } from 'zod';
import type { CommandModule } from '../src/interactions/types.js';
import { RUNTIME_SETTINGS, SETTING_KEYS } from '../src/runtimeConfig/settings.js';
import { formatCookies } from '../utils/amounts.js';
import { grantCookies } from '../utils/cookieEconomy.js';
import { AppError } from '../utils/errors.js';
import { balanceAfter } from '../utils/ledger/ledger.js';
import { mention, parseOptions, SNOWFLAKE } from './options.js';

const ADMIN_COLOR = 0x5865f2;

const data = {
  name: 'admin',
  description: 'Bot administration (admins only)',
  contexts: [InteractionContextType.Guild],
  // Hidden from members without Manage Server; the handler re-checks the bot's own admin list.
  default_member_permissions: PermissionFlagsBits.ManageGuild.toString(),
  options: [
    {
      type: ApplicationCommandOptionType.SubcommandGroup,
      name: 'runtime',
      description: 'Settings that change while the bot runs',
      options: [
        {
          type: ApplicationCommandOptionType.Subcommand,
          name: 'show',
          description: 'Every setting: value, default, last change',
        },
        {
          type: ApplicationCommandOptionType.Subcommand,
          name: 'set',
          description: 'Change one setting',
          options: [
            {
              type: ApplicationCommandOptionType.String,
              name: 'key',
              description: 'Which setting',
              required: true,
              choices: SETTING_KEYS.map((key) => ({ name: key, value: key })),
            },
            {
              type: ApplicationCommandOptionType.String,
              name: 'value',
              description: 'The new value (a number, or on/off)',
              required: true,
              max_length: 100,
            },
          ],
        },
      ],
    },
    {
      type: ApplicationCommandOptionType.SubcommandGroup,
      name: 'cookies',
      description: 'Cookie administration',
      options: [
        {
          type: ApplicationCommandOptionType.Subcommand,
          name: 'grant',
          description: 'Create Cookies for a member (event prizes); audited',
          options: [
            {
              type: ApplicationCommandOptionType.User,
              name: 'user',
              description: 'Who receives them',
              required: true,
            },
            {
              type: ApplicationCommandOptionType.Integer,
              name: 'amount',
              description: 'How many Cookies',
              required: true,
              min_value: 1,
            },
            {
              type: ApplicationCommandOptionType.String,
              name: 'reason',
              description: 'Why (kept in the audit log)',
              max_length: 200,
            },
          ],
        },
      ],
    },
  ],
} satisfies RESTPostAPIChatInputApplicationCommandsJSONBody;

const setOptions = z.object({
  key: z.string().min(1),
  value: z.string().min(1, 'must not be empty').max(100),
});
const grantOptions = z.object({
  user: z.string().regex(SNOWFLAKE, 'must be a member'),
  amount: z.number().int('must be a whole number').min(1, 'must be at least 1').max(Number.MAX_SAFE_INTEGER),
  reason: z.string().max(200).default(''),
});

function show(value: unknown): string {
  return typeof value === 'boolean' ? (value ? 'on' : 'off') : String(value);
}

export const adminCommand: CommandModule = {
  data,
  access: 'admin',
  category: 'Administration',

  async execute(ctx) {
    const { deps, invocation, actor } = ctx;
    const path = `${invocation.group} ${invocation.subcommand}`;
    switch (path) {
      case 'runtime show': {
        const settings = await deps.runtimeConfig.list();
        return {
          ephemeral: true,
          embeds: [
            {
              title: 'Runtime settings',
              color: ADMIN_COLOR,
              fields: settings.map((s) => ({
                name: s.key,
                value: [
                  `**${show(s.value)}** (default ${show(s.default)})`,
                  s.description,
                  s.updatedBy
                    ? `changed by ${mention(s.updatedBy)} <t:${Math.floor((s.updatedAt?.getTime() ?? 0) / 1000)}:R>`
                    : 'never changed',
                ].join('\n'),
              })),
              footer: 'Change one with /admin runtime set',
            },
          ],
        };
      }
      case 'runtime set': {
        const { key, value } = parseOptions(setOptions, invocation);
        const change = await deps.runtimeConfig.set(key, value, actor.id);
        return {
          ephemeral: true,
          content: `⚙️ **${change.key}**: ${show(change.before)} → **${show(change.after)}**. ${RUNTIME_SETTINGS[change.key].description}.`,
        };
      }
      case 'cookies grant': {
        const { user, amount, reason } = parseOptions(grantOptions, invocation);
        const outcome = await grantCookies(deps, {
          opId: `cookies.grant:${invocation.id}`,
          adminId: actor.id,
          to: user,
          amount,
          reason,
        });
        deps.log.info(
          { event: 'admin.cookies.grant', adminId: actor.id, to: user, amount, reason },
          'cookies granted',
        );
        // The balance right after the grant is unknown when its reply was lost: show the current one.
        const now = balanceAfter(outcome, user) ?? (await deps.ledger.balanceOf('cookies', user));
        return {
          ephemeral: true,
          content: `🎁 Granted **${formatCookies(amount)}** to ${mention(user)}; they now have ${formatCookies(now)}.`,
        };
      }
      default:
        throw new AppError('NOT_FOUND', `unknown subcommand ${path}`);
    }
  },
};
