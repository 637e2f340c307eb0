import { ApplicationCommandOptionType } from 'discord.js';
import { z } from 'zod';
import { localized } from '../../src/i18n/definitions.js';
import type { Subcommand } from '../../src/interactions/types.js';
import { COOKIES_MESSAGES } from '../../utils/cookies/messages.js';
import { grantCookies } from '../../utils/cookies/moderatorActions.js';
import { parseOptions } from '../options.js';
import { RECIPIENT_OPTIONS, recipientSchema } from './recipient.js';

const options = recipientSchema.extend({ reason: z.string().max(200).default('') });

export const cookiesGrant: Subcommand = {
  definition: {
    type: ApplicationCommandOptionType.Subcommand,
    ...localized(COOKIES_MESSAGES, 'admin.commands.grant'),
    options: [
      ...RECIPIENT_OPTIONS,
      {
        type: ApplicationCommandOptionType.String,
        ...localized(COOKIES_MESSAGES, 'admin.commands.grantReason'),
        max_length: 200,
      },
    ],
  },
  async run({ deps, invocation, actor, i18n, serverI18n }) {
    const { user, amount, reason } = parseOptions(options, invocation);
    const opId = `cookies.grant:${invocation.id}`;
    const { balance: now } = await grantCookies(deps.services, serverI18n, {
      opId,
      moderatorId: actor.id,
      member: user,
      amount,
      reason,
    });
    return {
      ephemeral: true,
      content: i18n.t('cookies:admin.grant.granted', {
        amount: i18n.cookies(amount),
        to: user,
        balance: i18n.cookies(now),
      }),
    };
  },
};
