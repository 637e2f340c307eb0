import { z } from 'zod';
import type { Translator } from '../i18n/i18n.js';
import { SNOWFLAKE_PATTERN } from '../snowflake.js';

export type SettingKind = 'number' | 'flag' | 'channel' | 'role';
/** `global`: one value for every server (the economy's constants); `server`: each server may set its own. */
export type SettingScope = 'global' | 'server';

export interface Setting<T> {
  /** The feature it belongs to (set by defineSettings); `/settings show` groups by it. */
  feature?: string;
  kind: SettingKind;
  /** A catalog key (`cookies:settings.give_max`): admins read it in their language. */
  description: string;
  default: T;
  /** Parses admin text (from `/settings set`); its issue messages are catalog keys. */
  parse: z.ZodType<T, string>;
  /** Validates a stored value (another process may have written an older shape). */
  stored: z.ZodType<T>;
  /**
   * Whether a server may set its own value over the default (absent: `global`). Channels and a
   * feature's switch are a server's; amounts, costs and odds are the same everywhere, or one
   * economy would pay differently by server.
   */
  scope?: SettingScope;
  /** A number's bounds, as `parse` checks them: what the portal offers and says beside its field. */
  limits?: { min: number; max: number };
  /**
   * A flag that takes effect only some hours after it is switched on: the key of the setting
   * that holds those hours (`startsAt` in startDelay.ts).
   */
  startDelayKey?: string;
}

/**
 * The type of every runtime setting by key. Each feature merges its own keys into this
 * interface from `utils/<feature>/settings.ts`:
 *
 *   declare module '../../src/runtimeConfig/settings.js' {
 *     interface SettingTypes extends SettingTypesOf<typeof COOKIES_SETTINGS> {}
 *   }
 *
 * and hands the values to the registry, so `runtimeConfig.get('cookies.give_max')` is typed.
 */
// biome-ignore lint/suspicious/noEmptyInterface: filled by declaration merging, feature by feature
export interface SettingTypes {}

export type SettingKey = keyof SettingTypes & string;

export type SettingsCatalog = { readonly [K in SettingKey]: Setting<SettingTypes[K]> };

export type SettingTypesOf<T> = { [K in keyof T]: T[K] extends Setting<infer V> ? V : never };

/** A feature's settings with its name as the key prefix: `cookies` + `give_max` = `cookies.give_max`. */
export function defineSettings<F extends string, const T extends Record<string, Setting<unknown>>>(
  feature: F,
  settings: T,
): { readonly [K in keyof T & string as `${F}.${K}`]: T[K] } {
  const entries = Object.entries(settings).map(([name, setting]) => [
    `${feature}.${name}`,
    { ...setting, feature },
  ]);
  return Object.fromEntries(entries);
}

/**
 * A feature's settings under exactly the keys given: for the canvas's and the hunt's flat keys
 * (`place_pixel_cost`, `beacon_bonus_weight`, ...), which admins and documents already use.
 */
export function defineNamedSettings<const T extends Record<string, Setting<unknown>>>(
  feature: string,
  settings: T,
): T {
  return Object.fromEntries(
    Object.entries(settings).map(([key, setting]) => [key, { ...setting, feature }]),
  ) as T;
}

export function wholeNumberSetting(
  description: string,
  def: number,
  min: number,
  max: number,
): Setting<number> {
  return {
    kind: 'number',
    description,
    default: def,
    parse: z
      .string()
      .trim()
      .regex(/^\d+$/, 'core:settings.wholeNumber')
      .transform(Number)
      .pipe(z.number().int().min(min, 'core:settings.atLeast').max(max, 'core:settings.atMost')),
    stored: z.number().int().min(min).max(max),
    limits: { min, max },
  };
}

/** The same setting, which each server may set for itself (a feature's switch). */
export function perServer<T>(setting: Setting<T>): Setting<T> {
  return { ...setting, scope: 'server' };
}

/** The same flag, in force only `delayKey`'s hours after its layer was switched on. */
export function withStartDelay(setting: Setting<boolean>, delayKey: string): Setting<boolean> {
  return { ...setting, startDelayKey: delayKey };
}

/** The words an admin may set a flag with, in either language: the bot shows `on`/`off`, `an`/`aus`. */
const ON = ['on', 'true', 'yes', '1', 'an', 'ein', 'ja'];
const OFF = ['off', 'false', 'no', '0', 'aus', 'nein'];

export function flagSetting(description: string, def: boolean): Setting<boolean> {
  return {
    kind: 'flag',
    description,
    default: def,
    parse: z
      .string()
      .trim()
      .toLowerCase()
      .pipe(z.enum([...ON, ...OFF], { error: 'core:settings.onOff' }))
      .transform((v) => ON.includes(v)),
    stored: z.boolean(),
  };
}

/** An id typed as its mention (`mention` captures the id) or bare; `off` or `aus` for none. */
function mentionOrOff(mention: RegExp, issue: string): z.ZodType<string | null, string> {
  return z
    .string()
    .trim()
    .transform((text) => text.replace(mention, '$1'))
    .pipe(
      z.union([
        // Shown as "off" or "aus" (showSetting), so accepted as either, whatever the reader's language.
        z
          .string()
          .refine((word) => ['off', 'aus'].includes(word.toLowerCase()))
          .transform(() => null),
        z.string().regex(SNOWFLAKE_PATTERN, issue),
      ]),
    );
}

/**
 * A channel the bot posts to on its own: a channel mention (`#name` in Discord's client
 * becomes `<#id>`) or id; `off` stops the posts. Setting it again also resumes posts that
 * stopped after a failure (see src/posting/channelPoster.ts).
 */
export function channelSetting(description: string): Setting<string | null> {
  return {
    kind: 'channel',
    // Each server posts to its own channels.
    scope: 'server',
    description,
    default: null,
    parse: mentionOrOff(/^<#(\d+)>$/, 'core:settings.channel'),
    stored: z.string().regex(SNOWFLAKE_PATTERN).nullable(),
  };
}

/**
 * A role a feature lets do something (the canvas's template role): a role mention (`@name` in
 * Discord's client becomes `<@&id>`) or id; `off` names none. Only the role's id is stored.
 */
export function roleSetting(description: string): Setting<string | null> {
  return {
    kind: 'role',
    // Each server has its own roles.
    scope: 'server',
    description,
    default: null,
    parse: mentionOrOff(/^<@&(\d+)>$/, 'core:settings.role'),
    stored: z.string().regex(SNOWFLAKE_PATTERN).nullable(),
  };
}

/**
 * How an admin reads a value: on/off (in their language), the number, or an id as the mention
 * of its `kind`: a role's `<@&id>`, a channel's `<#id>` (an id of no kind given reads as a
 * channel). A mention in a reply notifies nobody (Reply's `notify` names members only).
 */
export function showSetting(value: unknown, i18n: Translator, kind?: SettingKind): string {
  if (typeof value === 'boolean') return i18n.t(value ? 'core:settings.on' : 'core:settings.off');
  if (value === null) return i18n.t('core:settings.off');
  if (typeof value === 'string' && SNOWFLAKE_PATTERN.test(value))
    return kind === 'role' ? `<@&${value}>` : `<#${value}>`;
  if (typeof value === 'number') return i18n.number(value);
  return String(value);
}
