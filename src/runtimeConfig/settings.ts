import { z } from 'zod';

/** Turns the text an admin types into a value; refuses anything else with a message. */
const wholeNumber = (min: number, max: number) =>
  z
    .string()
    .trim()
    .regex(/^\d+$/, 'must be a whole number')
    .transform(Number)
    .pipe(z.number().int().min(min, `must be at least ${min}`).max(max, `must be at most ${max}`));

const onOff = z
  .string()
  .trim()
  .toLowerCase()
  .pipe(z.enum(['on', 'off', 'true', 'false', 'yes', 'no', '1', '0'], { error: 'must be on or off' }))
  .transform((v) => ['on', 'true', 'yes', '1'].includes(v));

interface Setting<T> {
  description: string;
  default: T;
  /** Parses admin text (from `/admin runtime set`). */
  parse: z.ZodType<T, string>;
  /** Validates a stored value (another process may have written an older shape). */
  stored: z.ZodType<T>;
}

function setting<T>(
  description: string,
  def: T,
  parse: z.ZodType<T, string>,
  stored: z.ZodType<T>,
): Setting<T> {
  return { description, default: def, parse, stored };
}

/**
 * Every setting admins can change while the bot runs. Later features add their keys
 * here; `/admin runtime set` offers exactly these as choices (Discord allows 25).
 */
export const RUNTIME_SETTINGS = {
  'cookies.give_enabled': setting('Members can give Cookies to each other', true, onOff, z.boolean()),
  'cookies.give_max': setting(
    'Most Cookies one /cookies give may send',
    1_000_000,
    wholeNumber(1, 1_000_000_000_000),
    z.number().int().min(1),
  ),
  'cookies.leaderboard_size': setting(
    'Rows on the /cookies leaderboard image',
    10,
    wholeNumber(3, 25),
    z.number().int().min(3).max(25),
  ),
} as const;

export type SettingKey = keyof typeof RUNTIME_SETTINGS;
export type SettingValue<K extends SettingKey> = (typeof RUNTIME_SETTINGS)[K]['default'] extends boolean
  ? boolean
  : (typeof RUNTIME_SETTINGS)[K]['default'] extends number
    ? number
    : never;

export const SETTING_KEYS = Object.keys(RUNTIME_SETTINGS) as SettingKey[];

export function isSettingKey(key: string): key is SettingKey {
  return Object.hasOwn(RUNTIME_SETTINGS, key);
}
