import { beforeEach, describe, expect, it } from 'vitest';
import { ASSEMBLY } from '../../commands/index.js';
import { InteractionRuntime } from '../../src/interactions/runtime.js';
import { colorName, PALETTE, parseColor } from '../../utils/place/palette.js';
import { makeConsole } from '../support/consoleHarness.js';
import { clearDatabase, useTestDatabase } from '../support/database.js';
import { commandInvocation } from '../support/invocations.js';

const t = useTestDatabase('place_color_names');

/** The German colour names of the glossary (docs/glossary.md, "Colours"), in the palette's order. */
const GERMAN = [
  'Burgunderrot',
  'Dunkelrot',
  'Rot',
  'Orange',
  'Gelb',
  'Hellgelb',
  'Dunkelgrün',
  'Grün',
  'Hellgrün',
  'Dunkeltürkis',
  'Türkis',
  'Helltürkis',
  'Dunkelblau',
  'Blau',
  'Hellblau',
  'Indigo',
  'Blauviolett',
  'Lavendel',
  'Dunkellila',
  'Lila',
  'Blasslila',
  'Magenta',
  'Pink',
  'Rosa',
  'Dunkelbraun',
  'Braun',
  'Beige',
  'Schwarz',
  'Dunkelgrau',
  'Grau',
  'Hellgrau',
  'Weiß',
];

describe('colours named in German', () => {
  it('GIVEN the palette THEN it has 32 colours and each German name of the glossary, in order', () => {
    expect(PALETTE).toHaveLength(32);
    expect(PALETTE.map((_, i) => colorName(i, 'de'))).toEqual(GERMAN);
    expect(PALETTE.map((_, i) => colorName(i, 'en'))).toEqual(PALETTE.map((c) => c.name));
  });

  it('GIVEN every German name in any case THEN it is that colour; English names, hex and numbers still are', () => {
    GERMAN.forEach((name, i) => {
      expect(parseColor(name)).toBe(i);
      expect(parseColor(name.toLowerCase())).toBe(i);
      expect(parseColor(name.toUpperCase())).toBe(i);
      expect(parseColor(PALETTE[i]?.name ?? '')).toBe(i);
      expect(parseColor(PALETTE[i]?.hex ?? '')).toBe(i);
      expect(parseColor(String(i))).toBe(i);
    });
    expect(parseColor('weiss')).toBe(31);
    expect(parseColor('WEISS')).toBe(31);
    expect(parseColor('dunkel-türkis')).toBe(9);
    expect(parseColor('dunkeltuerkis')).toBe(9);
    expect(parseColor('dark-red')).toBe(1);
    expect(parseColor('light grey')).toBe(30);
    expect(parseColor('rotblau')).toBeNull();
    expect(parseColor('32')).toBeNull();
  });
});

describe('/place pixel with a colour name', () => {
  beforeEach(() => clearDatabase(t.db));

  it('GIVEN a German member THEN farbe:rot paints red and the reply names it in German; English replies in English', async () => {
    const c = makeConsole(t);
    await c.session.run('as admin /admin place grant target:you points:500');
    await c.session.run('!locale de');
    c.take();
    expect(await c.session.run('/place pixel x:1 y:1 farbe:rot')).toBe('ok');
    expect(c.take()).toContain('(1, 1) in Rot (#FF4500) gemalt – 100 Punkte (Stand 1).');
    expect(await c.session.run('/place pixel x:2 y:1 farbe:WEISS')).toBe('ok');
    // A pixel nobody painted is white already: the member is asked first.
    expect(c.take()).toContain('Der Pixel (2, 1) ist schon Weiß (#FFFFFF)');
    expect(await c.session.run('!click Trotzdem malen')).toBe('ok');
    expect(c.take()).toContain(
      '(2, 1) in Weiß (#FFFFFF) gemalt – 100 Punkte (Stand 2). Dir bleiben 300 Punkte',
    );
    await c.session.run('/place info x:1 y:1');
    expect(c.take()).toContain(
      '(1, 1) ist Rot (#FF4500), gerade eben von @you gemalt (Stand 1); noch nie übermalt.',
    );
    await c.session.run('/place pixel x:1 y:1 farbe:lila');
    await c.session.run('/place info x:1 y:1');
    expect(c.take()).toContain(
      'ist Lila (#B44AC0), gerade eben von @you gemalt (Stand 3); insgesamt 2-mal gemalt.',
    );

    await c.session.run('!locale en');
    c.take();
    expect(await c.session.run('/place pixel x:3 y:1 color:Blau')).toBe('ok');
    expect(c.take()).toContain(
      'Painted (3, 1) blue (#3690EA) for 100 points (canvas version 4). You have 100 points left: enough for 1 more pixel.',
    );
    await c.session.run('/place pixel x:4 y:1 color:dark-green');
    expect(c.take()).toContain(
      'dark green (#00A368) for 100 points (canvas version 5). You have 0 points left: not enough for another pixel.',
    );
    await c.session.run('/place info x:1 y:1');
    expect(c.take()).toContain(
      'is purple (#B44AC0), painted by @you just now (canvas version 3); painted 2 times in all.',
    );
  });

  it('GIVEN a colour nobody has THEN the refusal gives a German example in German', async () => {
    const c = makeConsole(t);
    await c.session.run('!locale de');
    c.take();
    await c.session.run('/place pixel x:1 y:1 farbe:rotblau');
    expect(c.take()).toContain('Diese Farbe gibt es nicht: Nimm einen Namen (z. B. Rot)');
  });

  it('GIVEN a member typing a colour THEN the suggestions name the colours in their language, matching either language', async () => {
    const c = makeConsole(t);
    const runtime = new InteractionRuntime(c.deps, ASSEMBLY);
    const suggest = (value: string, locale: string) =>
      runtime.complete(
        commandInvocation({
          kind: 'autocomplete',
          commandName: 'place',
          subcommand: 'pixel',
          focused: { name: 'color', value },
          locale,
        }),
      );
    expect(await suggest('dunkelt', 'de')).toEqual([{ name: 'Dunkeltürkis #00756F (9)', value: '9' }]);
    expect((await suggest('teal', 'de')).map((s) => s.name)).toEqual([
      'Dunkeltürkis #00756F (9)',
      'Türkis #009EAA (10)',
      'Helltürkis #00CCC0 (11)',
    ]);
    expect(await suggest('rot', 'en')).toContainEqual({ name: 'red #FF4500 (2)', value: '2' });
    expect(await suggest('', 'de')).toHaveLength(25);
  });
});
