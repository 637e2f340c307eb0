import { ApplicationCommandOptionType } from 'discord.js';
import { z } from 'zod';
import { localized } from '../../../../src/i18n/definitions.js';
import { defineInstantGame } from '../houseGame.js';
import de from './messages.de.json' with { type: 'json' };
import en from './messages.en.json' with { type: 'json' };
import { DICE_MAX_TARGET, DICE_MIN_TARGET, dice } from './rules.js';

const messages = { en: { dice: en }, de: { dice: de } };
const params = z.object({ target: z.number().int().min(DICE_MIN_TARGET).max(DICE_MAX_TARGET).default(50) });
const targetOf = (p: Record<string, string | number>) => Number(p.target);

/** A roll of 1–100 at or under the member's target, paying 97/target × the bet. */
export const diceGame = defineInstantGame({
  name: 'dice',
  kind: 'instant',
  messages: { en, de },
  params,
  defaults: { target: 50 },
  floatsNeeded: dice.floatsNeeded,
  maxMultiplier: (p) => dice.maxMultiplier({ target: targetOf(p) }),
  play: (floats, bet, p) => dice.play(floats, bet, { target: targetOf(p) }),
  options: [
    {
      type: ApplicationCommandOptionType.Integer,
      ...localized(messages, 'dice.target'),
      min_value: DICE_MIN_TARGET,
      max_value: DICE_MAX_TARGET,
    },
  ],
  drawn: (outcome, p, i18n) => i18n.t('games:dice.rolled', { roll: outcome.roll, target: p.target }),
  edgeCases: [
    { label: 'dice target 50', params: { target: 50 }, documented: 0.03, tolerance: 0.013, rounds: 100_000 },
    { label: 'dice target 10', params: { target: 10 }, documented: 0.03, tolerance: 0.037, rounds: 100_000 },
  ],
  // Its largest bet depends on the target: /vault show does not quote one.
  simParams: (rng) => ({ target: 10 + rng.int(0, 81) }),
});
