import {
  ApplicationCommandOptionType,
  InteractionContextType,
  type RESTPostAPIChatInputApplicationCommandsJSONBody,
} from 'discord.js';
import { z } from 'zod';
import type { CommandModule } from '../src/interactions/types.js';
import { renderLeaderboard } from '../src/render/leaderboardImage.js';
import { formatCookies } from '../utils/amounts.js';
import { cookieLeaderboard, giveCookies, previewGive } from '../utils/cookieEconomy.js';
import { AppError } from '../utils/errors.js';
import { balanceAfter } from '../utils/ledger/ledger.js';
import { mention, parseOptions, SNOWFLAKE } from './options.js';

const COOKIE_COLOR = 0xc8813b;

const data = {
  name: 'cookies',
  description: 'Your Cookies: balance, giving and the leaderboard',
  contexts: [InteractionContextType.Guild],
  options: [
    {
      type: ApplicationCommandOptionType.Subcommand,
      name: 'balance',
      description: 'Show how many Cookies you (or another member) have',
      options: [
        {
          type: ApplicationCommandOptionType.User,
          name: 'user',
          description: 'Whose balance (default: yours)',
        },
      ],
    },
    {
      type: ApplicationCommandOptionType.Subcommand,
      name: 'give',
      description: 'Give some of your Cookies to another member',
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
      ],
    },
    {
      type: ApplicationCommandOptionType.Subcommand,
      name: 'leaderboard',
      description: 'The members with the most Cookies, as an image',
    },
  ],
} satisfies RESTPostAPIChatInputApplicationCommandsJSONBody;

const balanceOptions = z.object({ user: z.string().regex(SNOWFLAKE).optional() });
const giveOptions = z.object({
  user: z.string().regex(SNOWFLAKE, 'must be a member'),
  amount: z.number().int('must be a whole number').min(1, 'must be at least 1').max(Number.MAX_SAFE_INTEGER),
});

export const cookiesCommand: CommandModule = {
  data,
  access: 'everyone',
  category: 'Cookies',
  defer: (invocation) => (invocation.subcommand === 'leaderboard' ? { ephemeral: false } : null),

  async execute(ctx) {
    const { deps, invocation, actor } = ctx;
    switch (invocation.subcommand) {
      case 'balance': {
        const { user } = parseOptions(balanceOptions, invocation);
        const target = user ?? actor.id;
        const cookies = await deps.ledger.balanceOf('cookies', target);
        const who = target === actor.id ? 'You have' : `${mention(target)} has`;
        return {
          ephemeral: true,
          embeds: [
            {
              title: 'Cookie balance',
              color: COOKIE_COLOR,
              description: `${who} **${formatCookies(cookies)}**.`,
            },
          ],
        };
      }
      case 'give': {
        const { user, amount } = parseOptions(giveOptions, invocation);
        if (!(await deps.runtimeConfig.get('cookies.give_enabled'))) {
          throw new AppError('INVALID_INPUT', 'giving Cookies is switched off right now');
        }
        const maxAmount = await deps.runtimeConfig.get('cookies.give_max');
        const { balance } = await previewGive(deps, { from: actor.id, to: user, amount, maxAmount });
        return {
          ephemeral: true,
          content: `Give **${formatCookies(amount)}** to ${mention(user)}? You have ${formatCookies(balance)}.`,
          buttons: [
            { customId: `cookies:give:${actor.id}:${user}:${amount}`, label: 'Give', style: 'success' },
            { customId: `cookies:cancel:${actor.id}`, label: 'Cancel', style: 'secondary' },
          ],
        };
      }
      case 'leaderboard': {
        const size = await deps.runtimeConfig.get('cookies.leaderboard_size');
        const rows = await cookieLeaderboard(deps, size);
        const names = await deps.profiles.names(rows.map((r) => r.userId));
        const image = renderLeaderboard(
          'Cookie leaderboard',
          rows.map((r) => ({
            rank: r.rank,
            name: names.get(r.userId) ?? `Member …${r.userId.slice(-4)}`,
            value: r.cookies,
          })),
        );
        return {
          embeds: [
            {
              title: 'Cookie leaderboard',
              color: COOKIE_COLOR,
              description:
                rows.length === 0 ? 'Nobody has any Cookies yet.' : `Top ${rows.length} by Cookies.`,
              imageFile: 'leaderboard.png',
            },
          ],
          files: [{ name: 'leaderboard.png', data: image.png }],
        };
      }
      default:
        throw new AppError('NOT_FOUND', `unknown subcommand ${invocation.subcommand ?? '(none)'}`);
    }
  },

  components: {
    give: {
      async run(ctx, [from, to, amountText]) {
        const { deps, invocation, actor } = ctx;
        if (actor.id !== from || !to || !amountText)
          throw new AppError('NOT_AUTHORIZED', 'this button belongs to someone else');
        const amount = Number(amountText);
        const maxAmount = await deps.runtimeConfig.get('cookies.give_max');
        // The prompt message identifies the give: a second click on it replays the first.
        const outcome = await giveCookies(deps, {
          opId: `cookies.give:${invocation.messageId ?? invocation.id}`,
          from: actor.id,
          to,
          amount,
          maxAmount,
        });
        const left = balanceAfter(outcome, actor.id);
        const prefix = outcome.replayed ? 'Already done: you gave' : 'You gave';
        return {
          update: true,
          ephemeral: true,
          content: `✅ ${prefix} **${formatCookies(amount)}** to ${mention(to)}.${left === null ? '' : ` You have ${formatCookies(left)} left.`}`,
          buttons: [],
        };
      },
    },
    cancel: {
      async run(ctx, [from]) {
        if (ctx.actor.id !== from)
          throw new AppError('NOT_AUTHORIZED', 'this button belongs to someone else');
        return { update: true, ephemeral: true, content: 'Cancelled. No Cookies were moved.', buttons: [] };
      },
    },
  },
};
