import { z } from 'zod';
import { defineInstantGame } from '../houseGame.js';
import de from './messages.de.json' with { type: 'json' };
import en from './messages.en.json' with { type: 'json' };
import { slots } from './rules.js';

/** Three weighted reels; three of a kind pays up to 100 × the bet. */
export const slotsGame = defineInstantGame({
  name: 'slots',
  kind: 'instant',
  messages: { en, de },
  params: z.object({}),
  floatsNeeded: slots.floatsNeeded,
  maxMultiplier: () => slots.maxMultiplier({}),
  play: (floats, bet) => slots.play(floats, bet, {}),
  options: [],
  drawn: (outcome, _, i18n) =>
    i18n.t('games:slots.reels', { reels: (outcome.reels as string[] | undefined)?.join(' ') ?? '' }),
  // Its rare jackpot swings one round far more: a tight tolerance needs 1,000,000 rounds.
  edgeCases: [{ label: 'slots', params: {}, documented: 0.0317, tolerance: 0.017, rounds: 1_000_000 }],
  vaultQuote: {},
  simParams: () => ({}),
});
