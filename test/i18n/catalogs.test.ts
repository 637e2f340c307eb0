import { describe, expect, it } from 'vitest';
import { ASSEMBLY } from '../../commands/index.js';
import { type Catalog, I18n, resolveLocale } from '../../src/i18n/i18n.js';

/** Every text of a catalog by dotted key, plural forms folded into their base key. */
function texts(catalog: Catalog, prefix = ''): Map<string, string[]> {
  const found = new Map<string, string[]>();
  for (const [key, value] of Object.entries(catalog)) {
    const path = `${prefix}${key}`;
    if (typeof value === 'string') {
      const base = path.replace(/_(zero|one|two|few|many|other)$/, '');
      found.set(base, [...(found.get(base) ?? []), value]);
    } else {
      for (const [child, values] of texts(value, `${path}.`)) found.set(child, values);
    }
  }
  return found;
}

/** The placeholder names a text uses: `{{amount}}`, `{{count, number}}` -> amount, count. */
function placeholders(values: string[]): string[] {
  return [
    ...new Set(values.flatMap((v) => [...v.matchAll(/\{\{\s*([\w.]+)/g)].map((m) => m[1] as string))),
  ].sort();
}

describe('message catalogs', () => {
  const namespaces = Object.entries(ASSEMBLY.messages);

  it('cover every feature with texts, core and the ledger', () => {
    expect(namespaces.map(([ns]) => ns).sort()).toEqual([
      'admin',
      'cookies',
      'core',
      'games',
      'help',
      'hunt',
      'ledger',
      'moderation',
      'notifications',
      'place',
      'poker',
      'privacy',
      'shop',
      'vault',
    ]);
  });

  it.each(namespaces)(
    '%s: German and English have the same keys and the same placeholders',
    (_, messages) => {
      const en = texts(messages.en);
      const de = texts(messages.de);
      expect([...de.keys()].sort()).toEqual([...en.keys()].sort());
      const differing = [...en].filter(([key, values]) => {
        const other = de.get(key) ?? [];
        return JSON.stringify(placeholders(values)) !== JSON.stringify(placeholders(other));
      });
      expect(differing.map(([key]) => key)).toEqual([]);
    },
  );

  it('formats numbers the way each language writes them', () => {
    const i18n = new I18n(ASSEMBLY.messages);
    expect(i18n.for('en').cookies(1234)).toBe('1,234 🍪');
    expect(i18n.for('de').cookies(1234)).toBe('1.234 🍪');
    expect(i18n.for('en').points(12_500)).toBe('12.5 points');
    expect(i18n.for('de').points(12_500)).toBe('12,5 Punkte');
    expect(i18n.for('de').points(1_000)).toBe('1 Punkt');
  });

  it("picks the member's language, else the server's, else English", () => {
    expect(resolveLocale('de', 'en-US')).toBe('de');
    expect(resolveLocale('fr', 'de')).toBe('de');
    expect(resolveLocale('en-GB', 'de')).toBe('en');
    expect(resolveLocale('pt-BR', 'ja')).toBe('en');
    expect(resolveLocale(null, undefined)).toBe('en');
    expect(resolveLocale('de_DE.UTF-8')).toBe('de');
  });
});
