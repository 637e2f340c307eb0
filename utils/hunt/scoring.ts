import type { Locale } from '../../src/i18n/i18n.js';
/**
 * The hunt's game: the hidden target is 8 integers 0–99 ("the weights of a tiny neuron"), a
 * tip guesses 8 integers, and its score is how close it came, in hundredths of a percent
 * (0 = 0.00 %, 10000 = 100.00 %): 100 % minus the total distance in units of 8 × 33, the
 * distance a random guess is off on average, never below 0. So a random guess scores about
 * nothing and every point is found by searching (score progress pays 100 points per point:
 * at most 10,000 points, 100 pixels, per identity and round). Scores are integers, so
 * rewards on their deltas are exact.
 *
 *   target 50,50,50,50,50,50,50,50 · tip 50,50,50,50,50,50,50,50 → 100.00 %
 *   target 0,0,0,0,0,0,0,0        · tip 99,99,99,99,99,99,99,99 →   0.00 %
 *   target 10,20,30,40,50,60,70,80 · tip 12,18,30,40,55,60,70,80 →  96.59 % (9 off in 264)
 */
export const WEIGHTS = 8;
export const MAX_WEIGHT = 99;
export const FULL_SCORE = 10_000;

export type Guess = readonly number[];

export function isGuess(values: readonly number[]): boolean {
  return values.length === WEIGHTS && values.every((v) => Number.isInteger(v) && v >= 0 && v <= MAX_WEIGHT);
}

/** What a random guess is off by on average, per weight (the mean distance of two uniform 0–99 draws is 33.33). */
export const CHANCE_DISTANCE = 33;

/** The total distance at which a tip scores 0 (what a random guess is off on average): 264. */
export const ZERO_SCORE_DISTANCE = WEIGHTS * CHANCE_DISTANCE;

/** How far a tip is off, number by number (the score adds them up). */
export function distances(guess: Guess, target: Guess): number[] {
  return Array.from({ length: WEIGHTS }, (_, i) => Math.abs((guess[i] as number) - (target[i] as number)));
}

/** A tip's score in hundredths of a percent, rounded down (never more than earned). */
export function score(guess: Guess, target: Guess): number {
  const off = distances(guess, target).reduce((sum, d) => sum + d, 0);
  const budget = ZERO_SCORE_DISTANCE;
  return Math.max(0, Math.floor((FULL_SCORE * (budget - off)) / budget));
}

/** The worked example `/help topic:hunt` explains (its score is computed, never written down). */
export const WORKED_EXAMPLE = {
  target: [10, 20, 30, 40, 50, 60, 70, 80],
  tip: [12, 18, 30, 40, 55, 60, 70, 80],
} as const;

const SCORE_FORMATS: Record<Locale, Intl.NumberFormat> = {
  en: new Intl.NumberFormat('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 }),
  de: new Intl.NumberFormat('de-DE', { minimumFractionDigits: 2, maximumFractionDigits: 2 }),
};

/** `98.86 %` (German `98,86 %`) from 9886. */
export function formatScore(hundredths: number, locale: Locale = 'en'): string {
  return `${SCORE_FORMATS[locale].format(hundredths / 100)} %`;
}

/** "12,18,30,40,55,60,70,80" (spaces allowed) → the guess, or null. */
export function parseGuess(text: string): number[] | null {
  const parts = text.split(/[\s,;]+/).filter(Boolean);
  if (parts.length !== WEIGHTS || parts.some((p) => !/^\d{1,2}$/.test(p))) return null;
  const values = parts.map(Number);
  return isGuess(values) ? values : null;
}
