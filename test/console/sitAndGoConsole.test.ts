import { beforeAll, describe, expect, it } from 'vitest';
import { makeConsole } from '../support/consoleHarness.js';
import { useTestDatabase } from '../support/database.js';

const t = useTestDatabase('console_sit_and_go');

/** A sit-and-go as members meet it in the console: what the host may open, and a game of two. */
describe('/poker tournament', () => {
  let c: ReturnType<typeof makeConsole>;

  beforeAll(async () => {
    c = makeConsole(t);
    for (const who of ['tara', 'timo'])
      await c.session.run(`as admin /admin cookies grant user:${who} amount:1000 reason:poker`);
    c.take();
  });

  it('GIVEN payouts that do not fit THEN the host is told why, with the numbers, and nothing opens', async () => {
    await c.session.run('as tara /poker tournament buy_in:100 players:3 payouts:30/70');
    expect(c.take()).toContain(
      '[ephemeral] ❌ Option "payouts": each place\'s share must be above zero and no larger than the one before it.',
    );
    await c.session.run('as tara /poker tournament buy_in:100 players:3 payouts:50/30/20');
    expect(c.take()).toContain('[ephemeral] ❌ With 3 players, 3 places cannot be paid: at most 2.');
    expect(await t.db.collection('poker_tables').countDocuments()).toBe(0);
  });

  it('GIVEN two players and the default payouts THEN the winner takes the pool, and giving up ends it', async () => {
    await c.session.run('as tara /poker tournament buy_in:100 players:2');
    expect(c.take()).toContain('Prize pool 0 🍪, paid out 🥇 100%');
    await c.session.run('as tara !click Register · 100 🍪');
    await c.session.run('as timo !click Register · 100 🍪');
    expect(c.take()).toContain('Full: the first hand deals itself in a moment');
    await c.session.run('!wait 10s');
    await c.session.run('as timo !click Give up');
    const over = c.take();
    expect(over).toContain('🏳️ @timo gave up: out in place 2.');
    expect(over).toMatch(/🏁 The tournament is over:\n│ 🥇 @tara 200 🍪\n│ 🥈 @timo\n/);
    await c.session.run('as tara /cookies balance');
    expect(c.take()).toContain('You have 1,100 🍪.');
  });
});
