import { ApplicationCommandOptionType } from 'discord.js';
import { z } from 'zod';
import { localized } from '../../../../src/i18n/definitions.js';
import { defineInstantGame } from '../houseGame.js';
import de from './messages.de.json' with { type: 'json' };
import en from './messages.en.json' with { type: 'json' };
import { type CoinSide, coinflip } from './rules.js';

const messages = { en: { coinflip: en }, de: { coinflip: de } };
const params = z.object({ side: z.enum(['heads', 'tails']) });
const sideOf = (p: Record<string, string | number>) => p.side as CoinSide;

/** Heads or tails at 1.96 × the bet. */
export const coinflipGame = defineInstantGame({
  name: 'coinflip',
  kind: 'instant',
  messages: { en, de },
  params,
  defaults: { side: 'heads' },
  floatsNeeded: coinflip.floatsNeeded,
  maxMultiplier: (p) => coinflip.maxMultiplier({ side: sideOf(p) }),
  play: (floats, bet, p) => coinflip.play(floats, bet, { side: sideOf(p) }),
  options: [
    {
      type: ApplicationCommandOptionType.String,
      ...localized(messages, 'coinflip.side'),
      required: true,
      choices: [
        { name: 'heads', value: 'heads', name_localizations: { de: 'Kopf' } },
        { name: 'tails', value: 'tails', name_localizations: { de: 'Zahl' } },
      ],
    },
  ],
  drawn: (outcome, p, i18n) =>
    i18n.t('games:coinflip.landed', {
      side: i18n.t(`games:coinflip.${String(outcome.landed)}`),
      call: i18n.t(`games:coinflip.${String(p.side)}`),
    }),
  edgeCases: [
    { label: 'coinflip', params: { side: 'heads' }, documented: 0.02, tolerance: 0.013, rounds: 100_000 },
  ],
  vaultQuote: {},
  // Even odds, drawn as the simulation draws every chance (sim/random.ts).
  simParams: (rng) => ({ side: rng.int(0, 1_000_000) < 500_000 ? 'heads' : 'tails' }),
});
