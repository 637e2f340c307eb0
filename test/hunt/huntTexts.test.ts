import { type APIApplicationCommandOption, ApplicationCommandOptionType } from 'discord.js';
import { describe, expect, it } from 'vitest';
import { ASSEMBLY } from '../../commands/index.js';
import { type Catalog, I18n } from '../../src/i18n/i18n.js';
import { HELP_MESSAGES } from '../../utils/help/messages.js';
import { HUNT_MESSAGES } from '../../utils/hunt/messages.js';

function allTexts(catalog: Catalog): string[] {
  return Object.values(catalog).flatMap((v) => (typeof v === 'string' ? [v] : allTexts(v)));
}

/** Every name in a command's tree without a German name. */
function missingGerman(options: readonly APIApplicationCommandOption[], path: string): string[] {
  return options.flatMap((o) => [
    ...(o.name_localizations?.de ? [] : [`${path} ${o.name}`]),
    ...('options' in o && o.options ? missingGerman(o.options, `${path} ${o.name}`) : []),
  ]);
}

describe('the hunt in words', () => {
  const i18n = new I18n(ASSEMBLY.messages);

  it('GIVEN the hunt and help catalogs THEN no text writes a lazy plural like "(s)" or "(en)"', () => {
    for (const messages of [HUNT_MESSAGES, HELP_MESSAGES]) {
      for (const text of [...allTexts(messages.en), ...allTexts(messages.de)]) {
        expect(text).not.toMatch(/\((s|en|ern|e)\)/);
      }
    }
  });

  it('GIVEN the English hunt texts THEN members never read the insider words revision, window or beacon', () => {
    for (const text of allTexts(HUNT_MESSAGES.en)) expect(text).not.toMatch(/revision|window|beacon/i);
  });

  it('GIVEN the German hunt texts THEN they say Jagd, Runde, Ziehung, Bonuspfad and geheimer Schlüssel', () => {
    for (const text of allTexts(HUNT_MESSAGES.de)) {
      expect(text).not.toMatch(/\bHunt|Revision|Fenster|Beacon|verstärkt|Geheimnis/);
    }
    expect(HUNT_MESSAGES.de.category).toBe('Die Jagd');
  });

  it('GIVEN one or several drawn tips or members THEN the words take their real plural in both languages', () => {
    const [en, de] = [i18n.for('en'), i18n.for('de')];
    expect(en.t('hunt:post.title', { round: 2, count: 1 })).toBe('🎯 Hunt, round 2: 1 tip drawn.');
    expect(en.t('hunt:post.title', { round: 2, count: 3 })).toBe('🎯 Hunt, round 2: 3 tips drawn.');
    expect(de.t('hunt:post.title', { round: 2, count: 1 })).toBe('🎯 Jagd, Runde 2: 1 Tipp gezogen.');
    expect(de.t('hunt:post.title', { round: 2, count: 3 })).toBe('🎯 Jagd, Runde 2: 3 Tipps gezogen.');
    const confirm = (t: typeof en, count: number) =>
      t.t('hunt:admin.hunt.rerollConfirm', { round: 1, next: 2, count });
    expect(confirm(en, 1)).toContain('The best of 1 member and every tip number start again');
    expect(confirm(en, 3)).toContain('The bests of 3 members and every tip number start again');
    expect(confirm(de, 1)).toContain('Die Bestleistung von 1 Mitglied und alle Tippnummern');
    expect(confirm(de, 3)).toContain('Die Bestleistungen von 3 Mitgliedern und alle Tippnummern');
  });

  it('GIVEN /hunt and /admin hunt THEN every subcommand and option has a German name, /jagd throughout', () => {
    const hunt = ASSEMBLY.commands.find((m) => m.data.name === 'hunt');
    expect(hunt?.data.name_localizations?.de).toBe('jagd');
    expect(missingGerman(hunt?.data.options ?? [], '/hunt')).toEqual([]);
    const admin = ASSEMBLY.commands.find((m) => m.data.name === 'admin');
    const group = admin?.data.options?.find(
      (o) => o.name === 'hunt' && o.type === ApplicationCommandOptionType.SubcommandGroup,
    );
    expect(group?.name_localizations?.de).toBe('jagd');
    expect(missingGerman(group && 'options' in group ? (group.options ?? []) : [], '/admin hunt')).toEqual(
      [],
    );
    const help = ASSEMBLY.commands.find((m) => m.data.name === 'help');
    expect(help?.data.options?.map((o) => [o.name, o.name_localizations?.de])).toEqual([['topic', 'thema']]);
  });
});
