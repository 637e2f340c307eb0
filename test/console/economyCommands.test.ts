import { beforeAll, describe, expect, it } from 'vitest';
import { makeConsole } from '../support/consoleHarness.js';
import { useTestDatabase } from '../support/database.js';

const t = useTestDatabase('console_economy');

/**
 * Bad input to the Cookie economy's commands, as a member types it: each gets a clear,
 * private answer with the numbers that matter, and no Cookie, round or heist is written.
 */
describe('the Cookie economy commands refuse bad input and write nothing', () => {
  let c: ReturnType<typeof makeConsole>;
  let eventsBefore = 0;

  beforeAll(async () => {
    c = makeConsole(t);
    await c.session.run('as admin /admin vault fund amount:10000');
    await c.session.run('as admin /admin cookies grant user:you amount:300');
    await c.session.run('as bob /cookies balance');
    c.take();
    eventsBefore = await t.cols.ledgerEvents.countDocuments();
  });

  it.each([
    ['/games coinflip bet:5 side:heads', '❌ Bets are between 10 🍪 and 100,000 🍪; you bet 5 🍪.'],
    ['/games coinflip bet:400 side:heads', '❌ Not enough: you have 300 🍪 but this needs 400 🍪.'],
    [
      '/games slots bet:20',
      '❌ The vault can cover bets up to 5 🍪 on this game right now; you bet 20 🍪. Nothing moved.',
    ],
    ['/games fairness seed value:"two words"', '❌ Option "value": use letters, digits, - and _ (up to 64).'],
    [
      '/games verify round:nope!',
      '❌ Option "round": a round id is the number in the footer of the round\'s message.',
    ],
    ['/games verify round:12345', '❌ There is no round 12345.'],
    ['/games verify', '❌ You have not played a round yet.'],
    ['/cookies steal user:you', '❌ You cannot rob yourself.'],
    ['/cookies steal user:bob', 'You joined this server only recently: you may steal here in 24 hours.'],
    ['/vault heist stake:10', '❌ A heist stake is at least 50 🍪; you offered 10 🍪.'],
    ['/vault heist stake:5000', '❌ Not enough: you have 300 🍪 but this needs 5,000 🍪.'],
  ])('%s', async (line, message) => {
    await c.session.run(line);
    const printed = c.take();
    expect(printed).toContain('[ephemeral]');
    expect(printed).toContain(message);
    expect(await t.cols.ledgerEvents.countDocuments()).toBe(eventsBefore);
    expect(await t.db.collection('games_rounds').countDocuments({ status: { $ne: 'refunded' } })).toBe(0);
    expect(await t.db.collection('vault_heists').countDocuments()).toBe(0);
  });
});
