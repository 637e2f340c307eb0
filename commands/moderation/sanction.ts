import { ApplicationCommandOptionType } from 'discord.js';
import { z } from 'zod';
import { invalidInputText } from '../../src/errors.js';
import { localized } from '../../src/i18n/definitions.js';
import { lookup, type Translator } from '../../src/i18n/i18n.js';
import type { Subcommand } from '../../src/interactions/types.js';
import { banMember, describedBan, liftBan } from '../../utils/moderation/banActions.js';
import { MODERATION_MESSAGES } from '../../utils/moderation/messages.js';
import { parseBanLength, SCOPES } from '../../utils/moderation/scopes.js';
import { memberOption, parseOptions, refuseBot } from '../options.js';

const SCOPE_OPTION = {
  type: ApplicationCommandOptionType.String,
  ...localized(MODERATION_MESSAGES, 'admin.commands.scope'),
  required: true,
  choices: SCOPES.map((scope) => ({
    name: lookup(MODERATION_MESSAGES.en, `choices.${scope}`) ?? scope,
    value: scope,
    name_localizations: { de: lookup(MODERATION_MESSAGES.de, `choices.${scope}`) ?? scope },
  })),
} as const;

const MEMBER_OPTION = {
  type: ApplicationCommandOptionType.User,
  ...localized(MODERATION_MESSAGES, 'admin.commands.member'),
  required: true,
} as const;

const scope = z.enum(SCOPES);

/** `/admin sanction ban member scope reason [duration]`: up to 7 days for moderators, longer or for good for admins. */
export const sanctionBan: Subcommand = {
  access: 'moderator',
  definition: {
    type: ApplicationCommandOptionType.Subcommand,
    ...localized(MODERATION_MESSAGES, 'admin.commands.ban'),
    options: [
      MEMBER_OPTION,
      SCOPE_OPTION,
      {
        type: ApplicationCommandOptionType.String,
        ...localized(MODERATION_MESSAGES, 'admin.commands.reason'),
        required: true,
        max_length: 200,
      },
      {
        type: ApplicationCommandOptionType.String,
        ...localized(MODERATION_MESSAGES, 'admin.commands.duration'),
        max_length: 10,
      },
    ],
  },
  async run({ deps, invocation, actor, i18n, serverI18n }) {
    const options = parseOptions(
      z.object({
        member: memberOption,
        scope,
        reason: z.string().min(1).max(200),
        duration: z.string().optional(),
      }),
      invocation,
    );
    refuseBot(invocation, options.member);
    const lengthMs = options.duration === undefined ? null : parseBanLength(options.duration);
    if (options.duration !== undefined && lengthMs === null) {
      throw invalidInputText(`"${options.duration}" is not a duration`, 'moderation:errors.badDuration', {
        duration: options.duration,
      });
    }
    const { outcome, sanction } = await banMember(deps.services, serverI18n, {
      actionId: invocation.id,
      member: options.member,
      scope: options.scope,
      lengthMs,
      reason: options.reason,
      by: actor.id,
      byAdmin: actor.isAdmin,
    });
    return { ephemeral: true, content: i18n.t(`moderation:admin.${outcome}`, describedBan(sanction, i18n)) };
  },
};

/** `/admin sanction lift member scope`: ends a ban at once. */
export const sanctionLift: Subcommand = {
  access: 'moderator',
  definition: {
    type: ApplicationCommandOptionType.Subcommand,
    ...localized(MODERATION_MESSAGES, 'admin.commands.lift'),
    options: [MEMBER_OPTION, SCOPE_OPTION],
  },
  async run({ deps, invocation, actor, i18n, serverI18n }) {
    const options = parseOptions(z.object({ member: memberOption, scope }), invocation);
    const lifted = await liftBan(deps.services, serverI18n, {
      actionId: invocation.id,
      member: options.member,
      scope: options.scope,
      by: actor.id,
    });
    const words = (t: Translator) => ({
      member: options.member,
      scope: t.t(`moderation:scopes.${options.scope}`),
    });
    if (!lifted) return { ephemeral: true, content: i18n.t('moderation:admin.noBan', words(i18n)) };
    return { ephemeral: true, content: i18n.t('moderation:admin.lifted', words(i18n)) };
  },
};

/** `/admin sanction list [member]`: the bans in force. */
export const sanctionList: Subcommand = {
  access: 'moderator',
  definition: {
    type: ApplicationCommandOptionType.Subcommand,
    ...localized(MODERATION_MESSAGES, 'admin.commands.list'),
    options: [{ ...MEMBER_OPTION, required: false }],
  },
  async run({ deps, invocation, i18n }) {
    const { member } = parseOptions(z.object({ member: memberOption.optional() }), invocation);
    const bans = await deps.services.moderation.list(member);
    if (bans.length === 0) return { ephemeral: true, content: i18n.t('moderation:admin.none') };
    const lines = bans.map((ban) => i18n.t('moderation:admin.line', describedBan(ban, i18n)));
    return { ephemeral: true, content: [i18n.t('moderation:admin.listTitle'), ...lines].join('\n') };
  },
};
