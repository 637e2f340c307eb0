import { z } from 'zod';
import { invalidInput } from '../../src/errors.js';
import type { Locale } from '../../src/i18n/i18n.js';
import { MAX_BALANCE } from './ledger/books.js';

/** Milli-points per Place point: Place values are stored as integers of 1/1000 point. */
export const MILLI_PER_POINT = 1000;

/**
 * A decimal point, or a decimal comma (how German writes it: `0,5`, `0,001`). In German a comma
 * may have three decimals; in English a comma with three digits (`1,000`) is refused: English
 * reads it as a thousand. No thousands separators: `1000`, not `1.000` or `1,000`.
 */
const POINTS_TEXT: Record<Locale, RegExp> = {
  en: /^(\d{1,13})(?:\.(\d{1,3})|,(\d{1,2}))?$/,
  de: /^(\d{1,13})(?:\.(\d{1,3})|,(\d{1,3}))?$/,
};

/**
 * Parses text a member typed, such as `12`, `12.5`, `12,5` or `0,001` (German), into integer
 * milli-points, exactly (no floating point). More than three decimals, signs, exponents and
 * empty text are refused.
 */
export function parsePlacePoints(text: string, locale: Locale = 'en'): number {
  const trimmed = text.trim();
  const match = POINTS_TEXT[locale].exec(trimmed);
  if (!match) {
    throw invalidInput(`"${text}" is not an amount of points (use up to 3 decimals, e.g. 12.345)`, {
      input: text,
    });
  }
  const whole = Number(match[1]);
  const fraction = Number((match[2] ?? match[3] ?? '').padEnd(3, '0'));
  const milli = whole * MILLI_PER_POINT + fraction;
  if (!Number.isSafeInteger(milli)) throw invalidInput(`"${text}" is too large`, { input: text });
  return milli;
}

/** A positive whole amount that integer arithmetic in JS and MongoDB keeps exact. */
export const positiveAmount = z
  .number({
    error: (issue) => (issue.input === undefined ? 'amount is required' : 'amount must be a finite number'),
  })
  .refine((n) => Number.isInteger(n), 'amount must be a whole number')
  .refine((n) => n > 0, 'amount must be greater than zero')
  .refine((n) => Number.isSafeInteger(n), 'amount must be at most 2^53 - 1');

/** The most a member may type as an amount: what one balance may hold. Option definitions carry it too. */
export const AMOUNT_MAX = MAX_BALANCE;

/**
 * A whole amount a member types into a command option (Cookies to give, to grant, to bet):
 * Discord already enforces `min_value: 1` and `max_value`; this re-checks them (the console and
 * tests call handlers too), so a refusal names the bound in the member's language.
 */
export const memberAmount = z.number().int('must be a whole number').min(1).max(AMOUNT_MAX);
