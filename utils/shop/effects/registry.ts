import { custom } from './custom.js';
import type { Effect, EffectName } from './effect.js';
import { padlock } from './padlock.js';
import { streakShield } from './streakShield.js';

export type { Effect, EffectName } from './effect.js';

/** Every effect an item may have. A new effect is its file and one line here (and its texts). */
export const EFFECTS: Readonly<Record<EffectName, Effect>> = {
  padlock,
  streak_shield: streakShield,
  custom,
};

export const EFFECT_NAMES = Object.keys(EFFECTS) as EffectName[];
