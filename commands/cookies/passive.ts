import { ApplicationCommandOptionType } from 'discord.js';
import { z } from 'zod';
import { localized } from '../../src/i18n/definitions.js';
import { lookup } from '../../src/i18n/i18n.js';
import type { Subcommand } from '../../src/interactions/types.js';
import { COOKIES_MESSAGES } from '../../utils/cookies/messages.js';
import { parseOptions } from '../options.js';

const STATES = ['on', 'off'] as const;
const options = z.object({ state: z.enum(STATES) });

const seconds = (at: Date) => Math.ceil(at.getTime() / 1000);

/** `/cookies passive state:on|off`: out of stealing, both ways, in every server. */
export const passive: Subcommand = {
  definition: {
    type: ApplicationCommandOptionType.Subcommand,
    ...localized(COOKIES_MESSAGES, 'commands.passive'),
    options: [
      {
        type: ApplicationCommandOptionType.String,
        ...localized(COOKIES_MESSAGES, 'commands.passiveState'),
        required: true,
        choices: STATES.map((value) => ({
          name: lookup(COOKIES_MESSAGES.en, `choices.state.${value}`) ?? value,
          value,
          name_localizations: { de: lookup(COOKIES_MESSAGES.de, `choices.state.${value}`) ?? value },
        })),
      },
    ],
  },
  async run({ deps, invocation, actor, i18n }) {
    const { state } = parseOptions(options, invocation);
    if (state === 'on') {
      const on = await deps.services.passive.on(actor.id);
      return {
        ephemeral: true,
        content: i18n.t(on.already ? 'cookies:passive.alreadyOn' : 'cookies:passive.on', {
          sinceSeconds: seconds(on.since),
          offSeconds: seconds(on.offFrom),
        }),
      };
    }
    const switched = await deps.services.passive.off(actor.id);
    return {
      ephemeral: true,
      content: i18n.t(switched ? 'cookies:passive.off' : 'cookies:passive.alreadyOff'),
    };
  },
};
