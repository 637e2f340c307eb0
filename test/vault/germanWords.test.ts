import { beforeEach, describe, expect, it } from 'vitest';
import { ASSEMBLY } from '../../commands/index.js';
import { type Catalog, lookup } from '../../src/i18n/i18n.js';
import { makeConsole } from '../support/consoleHarness.js';
import { clearDatabase, useTestDatabase } from '../support/database.js';

const t = useTestDatabase('vault_german');

/** Every text of a catalog by dotted key. */
function texts(catalog: Catalog, prefix = ''): [string, string][] {
  return Object.entries(catalog).flatMap(([key, value]) =>
    typeof value === 'string'
      ? [[`${prefix}${key}`, value] as [string, string]]
      : texts(value, `${prefix}${key}.`),
  );
}

const NAMESPACES = ['vault', 'games'];
const all = (locale: 'en' | 'de') =>
  NAMESPACES.flatMap((ns) =>
    texts(ASSEMBLY.messages[ns]?.[locale] ?? {}).map(([key, text]): [string, string] => [
      `${ns}:${key}`,
      text,
    ]),
  );
const de = (key: string) => {
  const [ns = '', rest = ''] = key.split(':');
  return lookup(ASSEMBLY.messages[ns]?.de ?? {}, rest);
};

describe('the words of the vault and the house games', () => {
  beforeEach(() => clearDatabase(t.db));

  it('GIVEN every text THEN no plural is written with brackets: real plural forms instead', () => {
    for (const locale of ['en', 'de'] as const)
      expect(all(locale).filter(([, text]) => /\w\((s|en|e|n|ern|r)\)/.test(text))).toEqual([]);
  });

  it('GIVEN the German texts THEN they use the glossary’s words, not word-for-word ones', () => {
    const wrong = [
      /Tresor des Hauses/,
      /Knopf|Knöpfe/,
      /Geber/,
      /er hält jetzt/,
      /kann höchstens gewinnen/,
      /: ein \{\{in\}\}, aus/,
      /gesagt/,
      /Nichts wurde bewegt/,
    ];
    expect(all('de').filter(([, text]) => wrong.some((word) => word.test(text)))).toEqual([]);
    expect(de('vault:show.payable')).toBe('Höchstgewinn pro Runde');
    expect(de('vault:show.flowPlay')).toMatch(/Einsätze \{\{in\}\}, Auszahlungen \{\{out\}\}/);
    expect(de('vault:heist.title')).toContain('Tresorraub');
    expect(de('games:coinflip.landed')).toContain('du hast auf {{call}} gesetzt');
    expect(de('games:blackjack.dealer')).toMatch(/^Dealer/);
    expect(de('games:blackjack.command.description')).toContain('Buttons');
  });

  it('GIVEN an admin who funds the vault in German THEN the reply reads "Bestand jetzt"', async () => {
    const c = makeConsole(t);
    await c.session.run('!locale de');
    c.take();
    expect(await c.session.run('as admin /admin tresor einlegen anzahl:200000')).toBe('ok');
    expect(c.take()).toContain('🏦 200.000 🍪 in den Tresor gelegt. Bestand jetzt: 200.000 🍪.');
  });
});
