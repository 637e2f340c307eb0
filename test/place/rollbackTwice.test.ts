import { beforeEach, describe, expect, it } from 'vitest';
import { ASSEMBLY } from '../../commands/index.js';
import { makeConsole } from '../support/consoleHarness.js';
import { clearDatabase, useTestDatabase } from '../support/database.js';
import { booksProblems } from '../support/ledgerHarness.js';

const t = useTestDatabase('place_rollback_twice');

/** Eight of bob's ten pixels lie in 30,30–32,32; carl painted (30, 30) 25 minutes before bob. */
const BOBS = [
  [30, 30],
  [31, 30],
  [32, 30],
  [30, 31],
  [31, 31],
  [32, 31],
  [30, 32],
  [31, 32],
  [5, 5],
  [6, 6],
] as const;

/** The operator's report: bob's pixels rolled back in part without a refund, then all with one. */
async function griefedAndRolledBackTwice(c: ReturnType<typeof makeConsole>) {
  await c.session.run('!locale de');
  await c.session.run('as admin /admin place gutschreiben ziel:bob punkte:2000');
  await c.session.run('as admin /admin place gutschreiben ziel:carl punkte:2100');
  await c.session.run('as carl /place pixel x:30 y:30 farbe:blau');
  await c.session.run('!wait 25m');
  for (const [x, y] of BOBS) await c.session.run(`as bob /place pixel x:${x} y:${y} farbe:rot`);
  c.take();
  await c.session.run('as admin /admin place zurücksetzen mitglied:bob bereich:30,30,32,32 seit:1h');
  await c.session.run('as admin !click Zurücksetzen');
  expect(c.take()).toContain('↩️ 8 Pixel wiederhergestellt. Erstattet: 0 Punkte.');
}

describe('a member rolled back twice', () => {
  beforeEach(() => clearDatabase(t.db));

  it('GIVEN 8 of 10 pixels rolled back without a refund WHEN all are rolled back with one THEN the preview and the refund count the 2 restored pixels only', async () => {
    const c = makeConsole(t);
    await griefedAndRolledBackTwice(c);
    await c.session.run('as admin /admin place zurücksetzen mitglied:bob');
    expect(c.take()).toContain(
      '│ 2 Pixel bekommen ihre Farbe von vor @bob zurück (umrandet, so wie sie dann aussehen). Mit Erstattung bekommt @bob zurück, was die Pixel gekostet haben: 200 Punkte.',
    );
    await c.session.run('as admin !click Zurücksetzen und erstatten');
    expect(c.take()).toContain('↩️ 2 Pixel wiederhergestellt. Erstattet: 200 Punkte.');

    // Nothing of bob's is left: a third rollback finds nothing, in either language.
    await c.session.run('as admin /admin place zurücksetzen mitglied:bob');
    expect(c.take()).toContain(
      'Nichts zurückzusetzen: Keiner der 10 Pixel, die @bob dort gesetzt hat, ist noch auf der Leinwand.',
    );
    await c.session.run('!locale en');
    await c.session.run('as admin /admin place rollback user:bob area:5,5,5,5');
    expect(c.take()).toContain(
      'Nothing to roll back: the pixel @bob painted there is no longer on the canvas.',
    );
    await c.deps.ledger.flush();
    expect((await c.deps.services.place.wallet(c.identities.get('bob').id)).balance).toBe(1_200_000);
    expect(await booksProblems(t.cols)).toEqual([]);
    expect(await ASSEMBLY.checkInvariants(t.db, c.deps.config, c.deps.ledger, c.deps.clock.now())).toEqual(
      [],
    );
  });

  it('GIVEN a griefer rolled back and refunded THEN the leaderboard and /place me count neither the pixels undone nor the refund as earned', async () => {
    const c = makeConsole(t);
    await griefedAndRolledBackTwice(c);
    await c.session.run('as admin /admin place zurücksetzen mitglied:bob');
    await c.session.run('as admin !click Zurücksetzen und erstatten');
    c.take();
    await c.session.run('/place rangliste');
    const board = c.take();
    expect(board).toContain('│ Meiste gesetzte Pixel: 1. @carl — 1\n│ Meiste verdiente Punkte: 1. @carl');
    expect(board).toContain('1. @carl — 2.100 Punkte\n│   2. @bob — 2.000 Punkte');
    await c.session.run('as bob /place guthaben');
    expect(c.take()).toContain(
      '│ Guthaben 1.200 Punkte · verdient 2.000 Punkte · ausgegeben 800 Punkte\n│ Gesetzte Pixel: 0 ·',
    );
    await c.session.run('!locale en');
    await c.session.run('/place leaderboard');
    expect(c.take()).toContain('│ Most pixels painted: 1. @carl — 1\n│ Most points earned: 1. @carl');
  });

  it('GIVEN a pixel carl painted 25 minutes before bob painted over it WHEN bob is rolled back THEN /place info names carl and when carl painted it', async () => {
    const c = makeConsole(t);
    await griefedAndRolledBackTwice(c);
    await c.session.run('/place info x:30 y:30');
    expect(c.take()).toContain('(30, 30) ist Blau (#3690EA), vor 25 Minuten von @carl gemalt');
    await c.session.run('!locale en');
    await c.session.run('/place info x:30 y:30');
    expect(c.take()).toContain('(30, 30) is blue (#3690EA), painted by @carl 25 minutes ago');
  });
});
