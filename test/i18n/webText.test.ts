import { describe, expect, it } from 'vitest';
import { discordToPlain } from '../../src/i18n/webText.js';

describe('a Discord text as a browser shows it', () => {
  const now = new Date('2026-03-01T12:00:00Z');
  const end = Math.round(new Date('2026-03-02T15:30:00Z').getTime() / 1000);

  it('GIVEN a ban’s end THEN the timestamp reads as a date in UTC and the relative one as how far off, in either language', () => {
    const text = `You are banned from painting until <t:${end}:f> (<t:${end}:R>): **spam**`;
    expect(discordToPlain(text, 'en', now)).toBe(
      'You are banned from painting until March 2, 2026 at 3:30 PM UTC (tomorrow): spam',
    );
    const german = `Du bist bis <t:${end}:f> (<t:${end}:R>) gesperrt`;
    expect(discordToPlain(german, 'de', now)).toBe('Du bist bis 2. März 2026 um 15:30 UTC (morgen) gesperrt');
    const hours = Math.round(new Date('2026-03-01T15:00:00Z').getTime() / 1000);
    expect(discordToPlain(`<t:${hours}:R>`, 'en', now)).toBe('in 3 hours');
    expect(discordToPlain(`<t:${hours}:R>`, 'de', now)).toBe('in 3 Stunden');
    expect(discordToPlain('<t:1800000000:R>', 'en', now)).toBe('in 10 months');
  });

  it('GIVEN text without markup THEN it stays as it is', () => {
    expect(discordToPlain('x: a whole number from 0 to 255', 'en', now)).toBe(
      'x: a whole number from 0 to 255',
    );
  });

  it('GIVEN a setting’s description with code marks THEN the marks go', () => {
    expect(discordToPlain('Most Cookies a single `/cookies give` may send', 'en', now)).toBe(
      'Most Cookies a single /cookies give may send',
    );
  });
});
