import { beforeEach, describe, expect, it } from 'vitest';
import { formatScore, score, WORKED_EXAMPLE } from '../../utils/hunt/scoring.js';
import { makeConsole } from '../support/consoleHarness.js';
import { clearDatabase, useTestDatabase } from '../support/database.js';

const t = useTestDatabase('help_topics');

/ The worked example's score as the real scoring computes it (96.59 %). */;
const exampleScore = score(WORKED_EXAMPLE.tip, WORKED_EXAMPLE.target);

describe('/help topics and the hunt explained', () => {
  let c: ReturnType<typeof makeConsole>;
  beforeEach(async () => {
    await clearDatabase(t.db);
    c = makeConsole(t);
  });

  it('GIVEN /help THEN it points to the topics explained step by step', async () => {
    expect(await c.session.run('/help')).toBe('ok');
    expect(c.take()).toContain('📖 Explained step by step, with an example: /help topic:hunt');
  });

  it('GIVEN /help topic:hunt THEN it explains the task, scoring with a worked example the real scoring agrees with, the draw, the bonus path and every reward at the default settings', async () => {
    expect(await c.session.run('/help topic:hunt')).toBe('ok');
    const text = c.take();
    expect(text).toContain('Help: The hunt');
    expect(text).toContain('Each round the bot hides 8 whole numbers from 0 to 99: the target.');
    expect(text).toContain(
      'A tip is your guess at all 8 of them, e.g. /hunt tip guess:12,18,30,40,55,60,70,80.',
    );
    expect(text).toContain('each step off costs about 0.38 %; 264 off or more');
    expect(formatScore(exampleScore)).toBe('96.59 %');
    expect(text).toContain(
      `Target 10, 20, 30, 40, 50, 60, 70, 80, tip 12, 18, 30, 40, 55, 60, 70, 80: off by 2 + 2 + 0 + 0 + 5 + 0 + 0 + 0 = 9 in total, so the tip scores ${formatScore(exampleScore)}.`,
    );
    expect(text).toContain(
      'Every 5 minutes there is a draw: of the tips made since the last one, 3 are picked at random',
    );
    expect(text).toContain('🧭 The bonus path (off now).');
    expect(text).toContain('• A drawn tip: 25 points; on the bonus path 50 points.');
    expect(text).toContain(
      `• A new personal best: 10 points for each 1 % it beats your old best; the example's ${formatScore(exampleScore)} as your first best would pay 965.9 points.`,
    );
    expect(text).toContain(
      '• Time you spend hunting: 20 points for every 1 minute (hunt commands at most 2 minutes apart',
    );
    // The commands of the topic follow the explanation.
    expect(text).toContain('/hunt tip');
    expect(text).not.toMatch(/revision|window|beacon/i);
  });

  it('GIVEN changed settings THEN the explanation shows the numbers as they are now', async () => {
    await c.session.run('as admin /settings set key:place_draw_points value:40');
    await c.session.run('as admin /settings set key:hunt_draws_per_window value:1');
    await c.session.run('as admin /settings set key:hunt_window_s value:90');
    await c.session.run('as admin /settings set key:hunt_beacon_mode value:on');
    c.take();
    await c.session.run('/help topic:Hunt');
    const text = c.take();
    expect(text).toContain('• A drawn tip: 40 points; on the bonus path 80 points.');
    expect(text).toContain(
      'Every 90 seconds there is a draw: of the tips made since the last one, 1 is picked at random, and only it is scored.',
    );
    expect(text).toContain('🧭 The bonus path (on now). Each tip also names a path from 0 to 3');
  });

  it('GIVEN a German member THEN /hilfe thema:jagd explains die Jagd in German with the same computed example', async () => {
    await c.session.run('!locale de');
    expect(await c.session.run('/hilfe thema:jagd')).toBe('ok');
    const text = c.take();
    expect(text).toContain('Hilfe: Die Jagd');
    expect(text).toContain('In jeder Runde versteckt der Bot 8 ganze Zahlen von 0 bis 99: das Ziel.');
    expect(text).toContain(
      `insgesamt 2 + 2 + 0 + 0 + 5 + 0 + 0 + 0 = 9 daneben, also bekommt der Tipp ${formatScore(exampleScore, 'de')}.`,
    );
    expect(text).toContain(
      'Alle 5 Minuten gibt es eine Ziehung: Aus den Tipps seit der letzten Ziehung werden 3 zufällig gezogen',
    );
    expect(text).toContain('🧭 Der Bonuspfad (zurzeit ausgeschaltet).');
    expect(text).toContain('• Ein gezogener Tipp: 25 Punkte, auf dem Bonuspfad 50 Punkte.');
    expect(text).toContain('brächten dir als erste Bestleistung 965,9 Punkte.');
    expect(text).toContain(
      '• Zeit, in der du jagst: 20 Punkte für je 1 Minute (Jagd-Befehle höchstens 2 Minuten auseinander',
    );
    expect(text).toContain('/jagd tipp');
    expect(text).not.toMatch(/Revision|Fenster|Beacon|Hunt|verstärkt/);
  });

  it('GIVEN the topic menu WHEN a member picks the hunt THEN the same explanation shows', async () => {
    await c.session.run('/help');
    c.take();
    expect(await c.session.run('!choose The hunt')).toBe('ok');
    const text = c.take();
    expect(text).toContain('[updated message]');
    expect(text).toContain(`so the tip scores ${formatScore(exampleScore)}`);
  });

  it('GIVEN an unknown topic THEN it says which topics there are', async () => {
    await c.session.run('/help topic:dragons');
    expect(c.take()).toMatch(/There is no topic "dragons" for you\. Topics: help, cookies, .*hunt/);
    await c.session.run('!locale de');
    await c.session.run('/hilfe thema:drachen');
    expect(c.take()).toMatch(/Das Thema „drachen“ gibt es für dich nicht\. Themen: hilfe, kekse, .*jagd/);
  });
});
