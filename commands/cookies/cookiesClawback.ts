import { ApplicationCommandOptionType } from 'discord.js';
import { z } from 'zod';
import { localized } from '../../src/i18n/definitions.js';
import type { Subcommand } from '../../src/interactions/types.js';
import { COOKIES_MESSAGES } from '../../utils/cookies/messages.js';
import { clawBackCookies } from '../../utils/cookies/moderatorActions.js';
import { AMOUNT_MAX, memberAmount } from '../../utils/money/amounts.js';
import { memberOption, parseOptions } from '../options.js';

const options = z.object({
  user: memberOption,
  amount: memberAmount,
  reason: z.string().max(200).default(''),
});

/** `/admin cookies clawback user amount [reason]`: moderators take Cookies back, at most the free balance; audited. */
export const cookiesClawback: Subcommand = {
  access: 'moderator',
  definition: {
    type: ApplicationCommandOptionType.Subcommand,
    ...localized(COOKIES_MESSAGES, 'admin.commands.clawback'),
    options: [
      {
        type: ApplicationCommandOptionType.User,
        ...localized(COOKIES_MESSAGES, 'admin.commands.clawbackUser'),
        required: true,
      },
      {
        type: ApplicationCommandOptionType.Integer,
        ...localized(COOKIES_MESSAGES, 'admin.commands.clawbackAmount'),
        required: true,
        min_value: 1,
        max_value: AMOUNT_MAX,
      },
      {
        type: ApplicationCommandOptionType.String,
        ...localized(COOKIES_MESSAGES, 'admin.commands.clawbackReason'),
        max_length: 200,
      },
    ],
  },
  async run({ deps, invocation, actor, i18n, serverI18n }) {
    const { user, amount, reason } = parseOptions(options, invocation);
    const opId = `cookies.clawback:${invocation.id}`;
    const { taken, balance } = await clawBackCookies(deps.services, serverI18n, {
      opId,
      moderatorId: actor.id,
      member: user,
      amount,
      reason,
    });
    const key =
      taken === 0
        ? 'cookies:admin.clawback.nothing'
        : taken < amount
          ? 'cookies:admin.clawback.tookPart'
          : 'cookies:admin.clawback.took';
    return {
      ephemeral: true,
      content: i18n.t(key, {
        taken: i18n.cookies(taken),
        asked: i18n.cookies(amount),
        from: user,
        balance: i18n.cookies(balance),
      }),
    };
  },
};
