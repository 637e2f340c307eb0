import { beforeEach, describe, expect, it } from 'vitest';
import { makeConsole } from '../support/consoleHarness.js';
import { clearDatabase, useTestDatabase } from '../support/database.js';

const t = useTestDatabase('console_german');

describe('the console in German', () => {
  let c: ReturnType<typeof makeConsole>;
  beforeEach(async () => {
    await clearDatabase(t.db);
    c = makeConsole(t);
  });

  it('GIVEN a member name with umlauts THEN it names that member, in either language', async () => {
    expect(await c.session.run('as admin /admin cookies grant user:jürgen amount:50')).toBe('ok');
    expect(c.take()).toContain('Granted 50 🍪 to @jürgen');
    await c.session.run('!locale de');
    c.take();
    expect(await c.session.run('as Jürgen /kekse kontostand')).toBe('ok');
    expect(c.take()).toContain('Du hast 50 🍪.');
    expect(await c.session.run('as admin /admin kekse gutschreiben mitglied:@zoë anzahl:5')).toBe('ok');
    expect(c.identities.get('ZOË').id).toBe(c.identities.get('zoë').id);
  });

  it.each([
    ['/kekse', 'Fehler: /kekse braucht einen dieser Unterbefehle: kontostand, sammeln, schenken'],
    ['/kekse schenken mitglied:bob', 'Fehler: /kekse schenken braucht anzahl:…'],
    [
      '/kekse schenken bob 50',
      'Fehler: Schreib die Optionen von /kekse schenken als name:wert: /kekse schenken mitglied:bob anzahl:50',
    ],
    ['/kekse schenken mitglied:bob anzahl:zehn', 'Fehler: anzahl muss eine ganze Zahl sein'],
    ['/kekse schenken mitglied:bob anzahl:0', 'Fehler: anzahl muss mindestens 1 sein'],
    [
      '/kekse schenken mitglied:bob anzahl:5 tipp:ja',
      'Fehler: /kekse schenken hat keine Option „tipp“ (Optionen: mitglied, anzahl)',
    ],
    ['/kekse schenken mitglied:bob mitglied:carol anzahl:5', 'Fehler: Die Option mitglied steht zweimal da'],
    [
      '/kekse schenken mitglied:@ anzahl:5',
      'Fehler: mitglied muss der Name eines Mitglieds sein, z. B. mitglied:bob',
    ],
    ['/spiele münzwurf einsatz:10 seite:rand', 'Fehler: seite muss einer dieser Werte sein: Kopf, Zahl'],
    ['/nope', 'Fehler: Den Befehl /nope gibt es nicht (Befehle: /hilfe, /kekse,'],
    ['!click Schenken', 'Fehler: Es gibt keinen Button „Schenken“'],
    ['hallo', 'Fehler: „hallo“ ist kein Befehl'],
    ['!wait bald', 'Fehler: „bald“ ist keine Dauer (z. B. 90s, 5m, 2h, 1d)'],
  ])('GIVEN the German console WHEN %j THEN it is refused in German: %j', async (line, message) => {
    await c.session.run('!locale de');
    expect(c.take()).toBe('(Sprache ist jetzt de)\n');
    expect(await c.session.run(line)).toBe('failed');
    const printed = c.take();
    expect(printed).toContain(message);
    expect(printed).not.toContain('error:');
  });

  it('GIVEN a German moderator WHEN they grant punkte:0,001 THEN it is one thousandth of a point, written the German way', async () => {
    await c.session.run('!locale de');
    c.take();
    expect(await c.session.run('as admin /admin place gutschreiben ziel:bob punkte:0,001')).toBe('ok');
    expect(c.take()).toContain('0,001 Punkte');
    expect(await c.session.run('as bob /place guthaben')).toBe('ok');
    expect(c.take()).toContain('0,001');
  });

  it('GIVEN a German member THEN seite:kopf and seite:Zahl are taken, as heads and tails', async () => {
    await c.session.run('!locale de');
    for (const line of ['/spiele münzwurf einsatz:10 seite:kopf', '/spiele münzwurf einsatz:10 seite:Zahl']) {
      await c.session.run(line);
      expect(c.take()).not.toContain('Fehler:');
    }
  });

  it('GIVEN an English member THEN the English words are still taken and refusals stay English', async () => {
    await c.session.run('/games coinflip bet:10 side:heads');
    expect(c.take()).not.toContain('error:');
    expect(await c.session.run('/games coinflip bet:10 side:edge')).toBe('failed');
    expect(c.take()).toContain('error: side must be one of: heads, tails');
  });

  it('GIVEN the German console WHEN the clock moves THEN it says so in German, with the timers counted', async () => {
    await c.session.run('!locale de');
    c.take();
    await c.session.run('!wait 5m');
    expect(c.take()).toMatch(
      /^\(Uhr steht jetzt auf \d{4}-\d\d-\d\dT[\d:.]+Z(; \d+ Timer (ist|sind) gelaufen)?\)\n$/,
    );
  });
});
