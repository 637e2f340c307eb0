import { ApplicationCommandOptionType } from 'discord.js';
import { z } from 'zod';
import { invalidInputText } from '../../src/errors.js';
import { localized } from '../../src/i18n/definitions.js';
import type { Subcommand } from '../../src/interactions/types.js';
import { parsePlacePoints } from '../../utils/money/amounts.js';
import { clawBackPoints } from '../../utils/place/clawback.js';
import { PLACE_MESSAGES } from '../../utils/place/messages.js';
import { memberOption, parseOptions } from '../options.js';

const options = z.object({ user: memberOption, points: z.string(), reason: z.string().max(200).default('') });

/** `/admin place clawback user points [reason]`: moderators take points back (0.001 precision), at most the balance; audited. */
export const placeClawback: Subcommand = {
  access: 'moderator',
  definition: {
    type: ApplicationCommandOptionType.Subcommand,
    ...localized(PLACE_MESSAGES, 'admin.commands.placeClawback'),
    options: [
      {
        type: ApplicationCommandOptionType.User,
        ...localized(PLACE_MESSAGES, 'admin.commands.placeClawbackUser'),
        required: true,
      },
      {
        type: ApplicationCommandOptionType.String,
        ...localized(PLACE_MESSAGES, 'admin.commands.placeClawbackPoints'),
        required: true,
        max_length: 20,
      },
      {
        type: ApplicationCommandOptionType.String,
        ...localized(PLACE_MESSAGES, 'admin.commands.grantReason'),
        max_length: 200,
      },
    ],
  },
  async run({ deps, invocation, actor, i18n, serverI18n }) {
    const { user, points, reason } = parseOptions(options, invocation);
    let amount: number;
    try {
      amount = parsePlacePoints(points, i18n.locale);
    } catch {
      amount = 0;
    }
    if (amount <= 0)
      throw invalidInputText(`"${points}" is not an amount of points`, 'place:admin.place.badPoints', {
        points,
      });
    const opId = `place.clawback:${invocation.id}`;
    const { taken, balance } = await clawBackPoints(deps.services, serverI18n, {
      opId,
      moderatorId: actor.id,
      member: user,
      milli: amount,
      reason,
    });
    const key =
      taken === 0
        ? 'place:admin.place.clawedBackNothing'
        : taken < amount
          ? 'place:admin.place.clawedBackPart'
          : 'place:admin.place.clawedBack';
    return {
      ephemeral: true,
      content: i18n.t(key, {
        taken: i18n.points(taken),
        asked: i18n.points(amount),
        from: user,
        balance: i18n.points(balance),
      }),
    };
  },
};
