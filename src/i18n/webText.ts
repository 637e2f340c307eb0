import type { Locale } from './i18n.js';

const TAG: Record<Locale, string> = { en: 'en-US', de: 'de-DE' };

const UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ['year', 365 * 86_400],
  ['month', 30 * 86_400],
  ['day', 86_400],
  ['hour', 3_600],
  ['minute', 60],
  ['second', 1],
];

/** `in 3 hours`, `vor 2 Tagen`: the largest whole unit, as Discord's `R` style says it. */
function relative(seconds: number, now: Date, locale: Locale): string {
  const delta = seconds - Math.round(now.getTime() / 1000);
  const format = new Intl.RelativeTimeFormat(TAG[locale], { numeric: 'auto' });
  for (const [unit, size] of UNITS) {
    if (Math.abs(delta) >= size || unit === 'second') return format.format(Math.trunc(delta / size), unit);
  }
  return '';
}

/**
 * A text written for Discord as a browser shows it, for the refusals the HTTP server words like
 * Discord's replies: a timestamp (`<t:…:f>`) as a date in UTC in the reader's language, a
 * relative one (`<t:…:R>`) as `in 3 hours`, and `**bold**` and `` `code` `` without their marks.
 * Mentions are left to the callers that know names.
 */
export function discordToPlain(text: string, locale: Locale, now: Date): string {
  const absolute = new Intl.DateTimeFormat(TAG[locale], {
    dateStyle: 'long',
    timeStyle: 'short',
    timeZone: 'UTC',
  });
  return text
    .replace(/<t:(-?\d{1,13}):R>/g, (_, s: string) => relative(Number(s), now, locale))
    .replace(/<t:(-?\d{1,13})(?::[tTdDfF])?>/g, (_, s: string) => `${absolute.format(Number(s) * 1000)} UTC`)
    .replace(/\*\*(.+?)\*\*/gs, '$1')
    .replace(/`([^`\n]+)`/g, '$1');
}
