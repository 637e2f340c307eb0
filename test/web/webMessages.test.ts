import { describe, expect, it } from 'vitest';
import type { Catalog } from '../../src/i18n/i18n.js';
import { acceptedLanguages } from '../../src/i18n/i18n.js';
import { PALETTE } from '../../utils/place/palette.js';
import { WEB_MESSAGES, webTexts } from '../../utils/web/webText.js';

/** Every key of a catalog, plural forms folded into their base key, with its placeholders. */
function keys(catalog: Catalog, prefix = ''): Map<string, string> {
  const found = new Map<string, string>();
  for (const [key, value] of Object.entries(catalog)) {
    const path = `${prefix}${key}`.replace(/_(one|other)$/, '');
    if (typeof value !== 'string') {
      for (const [child, names] of keys(value, `${path}.`)) found.set(child, names);
      continue;
    }
    const names = [...value.matchAll(/\{\{\s*(\w+)/g)].map((m) => m[1]);
    found.set(path, [...new Set([...(found.get(path)?.split(',') ?? []), ...names])].sort().join(','));
  }
  return found;
}

describe("the web page's texts", () => {
  it('GIVEN the English and German catalogs THEN they have the same keys and placeholders', () => {
    expect([...keys(WEB_MESSAGES.de)].sort()).toEqual([...keys(WEB_MESSAGES.en)].sort());
  });

  it('GIVEN the palette THEN every colour has a name in both languages, German in the glossary’s words', () => {
    const [en, de] = [webTexts('en'), webTexts('de')];
    const key = (name: string) => name.replace(/ (\w)/g, (_, c: string) => c.toUpperCase());
    const names = (tr: typeof en) => PALETTE.map((c) => tr.t(`web:colours.${key(c.name)}`));
    expect(names(en)).toEqual(PALETTE.map((c) => c.name));
    expect(names(de)).toEqual(
      'Burgunderrot, Dunkelrot, Rot, Orange, Gelb, Hellgelb, Dunkelgrün, Grün, Hellgrün, Dunkeltürkis, Türkis, Helltürkis, Dunkelblau, Blau, Hellblau, Indigo, Blauviolett, Lavendel, Dunkellila, Lila, Blasslila, Magenta, Pink, Rosa, Dunkelbraun, Braun, Beige, Schwarz, Dunkelgrau, Grau, Hellgrau, Weiß'.split(
        ', ',
      ),
    );
  });

  it('GIVEN counts THEN the texts use real plural forms, never "(s)"', () => {
    const all = JSON.stringify(WEB_MESSAGES);
    expect(all).not.toMatch(/\((s|e|en)\)/);
    const de = webTexts('de');
    expect(de.t('web:wallet.history', { count: 1, earned: 'a', spent: 'b' })).toContain('1 gesetzten Pixel');
    expect(de.t('web:wallet.history', { count: 4, earned: 'a', spent: 'b' })).toContain('4 gesetzte Pixel');
    expect(webTexts('en').t('web:points', { count: 1, amount: '1' })).toBe('1 point');
    expect(de.t('web:points', { count: 1000, amount: '1.000' })).toBe('1.000 Punkte');
  });

  it('GIVEN an Accept-Language header THEN the languages come most wanted first', () => {
    expect(acceptedLanguages('en;q=0.5, de-DE, fr;q=0.8, *;q=0.1')).toEqual(['de-DE', 'fr', 'en']);
    expect(acceptedLanguages(undefined)).toEqual([]);
    expect(acceptedLanguages('de;q=0')).toEqual([]);
  });
});
