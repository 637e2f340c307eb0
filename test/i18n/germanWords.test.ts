import { describe, expect, it } from 'vitest';
import { ASSEMBLY } from '../../commands/index.js';
import type { Catalog } from '../../src/i18n/i18n.js';

/** Every text of a catalog by dotted key. */
function texts(catalog: Catalog, prefix = ''): [string, string][] {
  return Object.entries(catalog).flatMap(([key, value]) =>
    typeof value === 'string'
      ? [[`${prefix}${key}`, value] as [string, string]]
      : texts(value, `${prefix}${key}.`),
  );
}

/** The catalogs this check covers, without the texts drawn into images (checked with the images). */
const COVERED = ['cookies', 'place', 'admin', 'ledger', 'core'];
const IN_IMAGES =
  /^(profile|leaderboard|view|post|timelapse|palette)\.|^commands\.(profile|leaderboard|view|zoom|palette|timelapse)/;

function covered(locale: 'en' | 'de'): [string, string][] {
  return COVERED.flatMap((ns) =>
    texts(ASSEMBLY.messages[ns]?.[locale] ?? {})
      .filter(
        ([key]) => ns !== 'cookies' || !/^(profile|leaderboard)\.|^commands\.(profile|leaderboard)/.test(key),
      )
      .filter(([key]) => ns !== 'place' || !IN_IMAGES.test(key))
      // Placeholders (`{{revision}}`) are the code's names, not words members read.
      .map(([key, text]): [string, string] => [`${ns}:${key}`, text.replace(/\{\{[^}]*\}\}/g, '…')]),
  );
}

describe('the words members read (cookies, place, admin, ledger, core)', () => {
  it('GIVEN every text THEN no plural is written with brackets: real plural forms instead', () => {
    for (const locale of ['en', 'de'] as const) {
      const lazy = covered(locale).filter(([, text]) => /\w\((s|en|e|n|ern|r)\)/.test(text));
      expect(lazy).toEqual([]);
    }
  });

  it('GIVEN the German texts THEN they use the glossary’s words', () => {
    const wrong = [
      /Revision/,
      /Platzierung/,
      /Knopf|Knöpfe/,
      /Tresor des Hauses/,
      /Place-Börse/,
      /\bHunt\b/,
      /Tagesserien/,
      /Kekse-(Rangliste|Profil|Verlauf|Kontostand)/,
      /Teile ihn nicht/,
    ];
    const found = covered('de').filter(([, text]) => wrong.some((word) => word.test(text)));
    expect(found).toEqual([]);
    // Cookies have a Kontostand; Guthaben is what Place points are kept in.
    expect(
      covered('de').filter(([key, text]) => key.startsWith('cookies:') && /Guthaben/.test(text)),
    ).toEqual([]);
  });

  it('GIVEN the English texts THEN members never read the insider word "revision"', () => {
    expect(covered('en').filter(([, text]) => /\brevision/i.test(text))).toEqual([]);
  });
});

type Named = { name: string; name_localizations?: Record<string, string | null> | null; options?: Named[] };

/** Every command, subcommand group, subcommand and option under a definition, with its path. */
function everything(definition: Named, path = ''): { path: string; de: string | undefined }[] {
  const here = `${path}${path ? ' ' : '/'}${definition.name}`;
  return [
    { path: here, de: definition.name_localizations?.de ?? undefined },
    ...(definition.options ?? []).flatMap((o) => everything(o, here)),
  ];
}

describe('German command names', () => {
  const command = (name: string) =>
    ASSEMBLY.commands.find((c) => c.data.name === name)?.data as unknown as Named;

  it('GIVEN /cookies, /place, /settings and the admin groups of cleanup, Cookies and the canvas THEN every part has a German name', () => {
    const admin = command('admin');
    const groups = (admin.options ?? []).filter((g) => ['cleanup', 'cookies', 'place'].includes(g.name));
    expect(groups).toHaveLength(3);
    const all = [command('cookies'), command('place'), command('settings'), ...groups].flatMap((d) =>
      everything(d),
    );
    expect(all.filter((p) => !p.de).map((p) => p.path)).toEqual([]);
    // Discord allows lower-case names without spaces only.
    expect(all.filter((p) => p.de && !/^[-_\p{Ll}\p{N}]{1,32}$/u.test(p.de))).toEqual([]);
  });

  it('GIVEN the glossary THEN /kekse, /place guthaben and /einstellungen setzen are the German names', () => {
    const names = everything(command('cookies'))
      .concat(everything(command('place')), everything(command('settings')))
      .map((p) => p.de);
    expect(names).toEqual(
      expect.arrayContaining(['kekse', 'place', 'guthaben', 'einstellungen', 'setzen', 'farbe']),
    );
    expect(names).not.toContain('ich');
  });
});
