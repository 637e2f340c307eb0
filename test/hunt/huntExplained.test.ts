import { beforeEach, describe, expect, it } from 'vitest';
import { PostRefused } from '../../src/posting/channelPoster.js';
import { makeBotDeps } from '../support/botHarness.js';
import { makeConsole } from '../support/consoleHarness.js';
import { clearDatabase, useTestDatabase } from '../support/database.js';

const t = useTestDatabase('hunt_explained');

/** The console's clock starts at 12:00:00; the first draw is at the end of its 5-minute window. */
const UNTIL_DRAW = '!wait 5m';

describe('the hunt explained to members', () => {
  let c: ReturnType<typeof makeConsole>;
  beforeEach(async () => {
    await clearDatabase(t.db);
    c = makeConsole(t);
  });

  it('GIVEN the default settings WHEN a member runs /hunt status THEN it states the task, how a tip is scored, the round, the draw countdown, their tip and their best', async () => {
    await c.session.run('/hunt tip guess:1,2,3,4,5,6,7,8');
    c.take();
    expect(await c.session.run('/hunt status')).toBe('ok');
    const text = c.take();
    expect(text).toContain(
      '🎯 The task: find the 8 hidden numbers (0 to 99). Exact scores 100 %, each step off about 0.38 % less; only drawn tips are scored.',
    );
    expect(text).toMatch(/Round 1 · next draw in 5 minutes: 3 tips are picked at random and scored\./);
    expect(text).toContain('Your tip #1 for this draw: 1, 2, 3, 4, 5, 6, 7, 8.');
    expect(text).toContain('None of your tips has been scored this round yet.');
    expect(text).toContain('How it works, with an example: /help topic:hunt.');
    expect(text).not.toMatch(/revision|window|beacon/i);
  });

  it('GIVEN a German member and one tip per draw WHEN they run /jagd status THEN the task, Runde and Ziehung are German, with a real singular', async () => {
    await c.session.run('as admin /settings set key:hunt_draws_per_window value:1');
    await c.session.run('!locale de');
    await c.session.run('/jagd status');
    const text = c.take();
    expect(text).toContain(
      '🎯 Die Aufgabe: Finde die 8 versteckten Zahlen (0 bis 99). Ein Volltreffer bringt 100 %, jeder Schritt daneben etwa 0,38 % weniger; bewertet werden nur gezogene Tipps.',
    );
    expect(text).toMatch(/Runde 1 · Ziehung in 5 Minuten: 1 Tipp wird zufällig gezogen und bewertet\./);
    expect(text).toContain('Für diese Ziehung hast du noch nicht getippt.');
    expect(text).toContain("So funktioniert's, mit Beispiel: /hilfe thema:jagd.");
    expect(text).not.toMatch(/Revision|Fenster|Beacon|Hunt/);
  });

  it('GIVEN no hunt channel (the default) WHEN a tip is drawn THEN the draw is posted in the channel the tip was made in, naming the member, its score and its points', async () => {
    await c.session.run('as ann /hunt tip guess:50,50,50,50,50,50,50,50');
    await c.session.run('as ben /hunt tip guess:40,40,40,40,40,40,40,40');
    c.take();
    await c.session.run(UNTIL_DRAW);
    const text = c.take();
    expect(text).toContain('[post #general] 🎯 Hunt, round 1: the draw picked tips made here.');
    // A score above 0 is a first best ("a new best!"); 0.00 % earns the draw points alone.
    expect(text).toMatch(/@ann #1: (\d+\.\d\d %, a new best! |\d+\.\d\d % · )\+[\d,.]+ points/);
    expect(text).toMatch(/@ben #1: (\d+\.\d\d %, a new best! |\d+\.\d\d % · )\+[\d,.]+ points/);
  });

  it('GIVEN no hunt channel and a German server WHEN a tip is drawn THEN the draw is told in German where it was made', async () => {
    await c.session.run('!locale de');
    await c.session.run('as ann /jagd tipp zahlen:50,50,50,50,50,50,50,50');
    c.take();
    await c.session.run(UNTIL_DRAW);
    const text = c.take();
    expect(text).toContain('[post #general] 🎯 Jagd, Runde 1: Gezogen wurden Tipps aus diesem Kanal.');
    expect(text).toMatch(/@ann #1: (\d+,\d\d %, eine neue Bestleistung! |\d+,\d\d % · )\+[\d.,]+ Punkte/);
  });

  it('GIVEN a hunt channel THEN its first post of a round explains the hunt once, the draw is posted there with real plurals, and a new round is explained again', async () => {
    await c.session.run('as admin /settings set key:hunt_channel value:#hunt');
    await c.session.run('as ann /hunt tip guess:50,50,50,50,50,50,50,50');
    let text = c.take();
    expect(text).toContain(
      '[post #hunt] 🔎 Round 1 of the hunt has begun. Guess the 8 hidden numbers from 0 to 99 with /hunt tip: the closer, the higher the score. Every 5 minutes, 3 tips are drawn at random and only those are scored; a drawn tip pays 25 points, a new personal best 10 points per 1 %. Explained with an example: /help topic:hunt.',
    );
    await c.session.run(UNTIL_DRAW);
    text = c.take();
    expect(text).toContain('[post #hunt] 🎯 Hunt, round 1: 1 tip drawn.');
    // Told in the hunt channel, so not again where the tip was made; and explained once per round.
    expect(text).not.toContain('[post #general]');
    expect(text).not.toContain('Round 1 of the hunt has begun');
    await c.session.run('as ann /hunt tip guess:50,50,50,50,50,50,50,50');
    await c.session.run('as ben /hunt tip guess:40,40,40,40,40,40,40,40');
    await c.session.run(UNTIL_DRAW);
    expect(c.take()).toContain('[post #hunt] 🎯 Hunt, round 1: 2 tips drawn.');
    await c.session.run('as admin /admin hunt reroll');
    expect(c.take()).toMatch(/Start a new round of the hunt\? Round 1 ends and round 2 gets a new target\./);
    await c.session.run('as admin !click Reroll');
    await c.session.run('as ann /hunt tip guess:50,50,50,50,50,50,50,50');
    text = c.take();
    expect(text).toMatch(/\[post #hunt\] 🎲 Round 1 is over: its target was (\d+, ){7}\d+\./);
    expect(text).toContain('[post #hunt] 🔎 Round 2 of the hunt has begun.');
  });

  it('GIVEN a German server with a hunt channel THEN the round is explained in German, pointing to /hilfe thema:jagd', async () => {
    await c.session.run('!locale de');
    await c.session.run('as admin /settings set key:hunt_channel value:#jagd');
    await c.session.run('as ann /jagd tipp zahlen:50,50,50,50,50,50,50,50');
    const text = c.take();
    expect(text).toContain(
      '[post #jagd] 🔎 Runde 1 der Jagd hat begonnen. Errate mit /jagd tipp die 8 versteckten Zahlen von 0 bis 99: Je näher du dran bist, desto höher dein Ergebnis. Alle 5 Minuten werden 3 Tipps zufällig gezogen, und nur sie werden bewertet; ein gezogener Tipp bringt 25 Punkte, eine neue persönliche Bestleistung 10 Punkte pro Prozent. Erklärt mit Beispiel: /hilfe thema:jagd.',
    );
  });

  it('GIVEN the bonus path switched on THEN status and the tip reply speak of the bonus path, never of a beacon', async () => {
    await c.session.run('as admin /settings set key:hunt_beacon_mode value:on');
    await c.session.run('/hunt status');
    const text = c.take();
    expect(text).toMatch(/Bonus path of this draw: \d \(a tip on it counts 2× in the draw\)\./);
    await c.session.run('/hunt tip guess:1,2,3,4,5,6,7,8');
    expect(c.take()).toContain('The bonus path is on: your tip names a path from 0 to 3 (path:).');
  });

  it('GIVEN a hunt channel the bot may not post in WHEN a tip is drawn THEN the draw is still told where the tip was made', async () => {
    const { deps, clock, transport } = makeBotDeps(t);
    const [HUNT, GENERAL, ANN] = ['894000000000000001', '894000000000000002', '894000000000000003'];
    await deps.runtimeConfig.set('hunt_channel', HUNT, 'admin');
    transport.refuse.set(HUNT, new PostRefused('the bot may not post there (Missing Permissions)'));
    const { window } = await deps.services.hunt.tip(ANN, [5, 5, 5, 5, 5, 5, 5, 5], null, {
      channelId: GENERAL,
      locale: 'en',
    });
    clock.advance(window.closesAt.getTime() - clock.now().getTime());
    await deps.scheduler.runDue();
    const told = transport.posts.filter((p) => p.channelId === GENERAL).map((p) => String(p.post.content));
    expect(told).toHaveLength(1);
    const [title, line] = String(told[0]).split('\n');
    expect(title).toBe('🎯 Hunt, round 1: the draw picked tips made here.');
    expect(line).toMatch(/^<@894000000000000003> #1: .*\+[\d,.]+ points$/);
  });
});
