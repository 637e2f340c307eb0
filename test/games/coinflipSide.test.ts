import { beforeEach, describe, expect, it } from 'vitest';
import { gamesCommand } from '../../commands/games/index.js';
import { makeConsole } from '../support/consoleHarness.js';
import { clearDatabase, useTestDatabase } from '../support/database.js';

const t = useTestDatabase('coinflip_side');

describe('the side of a coinflip, in German', () => {
  beforeEach(() => clearDatabase(t.db));

  it('GIVEN Discord THEN the side choices read Kopf and Zahl for German members', () => {
    const coinflip = gamesCommand.data.options?.find((o) => o.name === 'coinflip') as {
      options?: {
        name: string;
        choices?: { value: string; name_localizations?: Record<string, string> }[];
      }[];
    };
    const side = coinflip.options?.find((o) => o.name === 'side');
    expect(side?.choices?.map((c) => [c.value, c.name_localizations?.de])).toEqual([
      ['heads', 'Kopf'],
      ['tails', 'Zahl'],
    ]);
  });

  it.each([
    ['kopf', 'Kopf'],
    ['zahl', 'Zahl'],
  ])(
    'GIVEN a German member who types seite:%s in the console THEN the bet is on %s and the reply says so',
    async (typed, side) => {
      const c = makeConsole(t);
      for (const line of [
        'as admin /admin vault fund amount:100000',
        'as admin /admin cookies grant user:you amount:100',
        '!locale de',
      ])
        expect(await c.session.run(line)).toBe('ok');
      c.take();
      expect(await c.session.run(`/spiele münzwurf einsatz:50 seite:${typed}`)).toBe('ok');
      expect(c.take()).toMatch(
        new RegExp(`Die Münze zeigt (Kopf|Zahl) \\(du hast auf ${side} gesetzt\\)\\.`),
      );
    },
  );
});
