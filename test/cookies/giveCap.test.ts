import { beforeEach, describe, expect, it } from 'vitest';
import { makeBotDeps } from '../support/botHarness.js';
import { makeConsole } from '../support/consoleHarness.js';
import { clearDatabase, useTestDatabase } from '../support/database.js';
import { booksProblems, seedBalance } from '../support/ledgerHarness.js';

const t = useTestDatabase('give_cap');
const RECEIVER = '811000000000000001';
const GIVERS = Array.from({ length: 10 }, (_, i) => `8110000000000001${String(i).padStart(2, '0')}`);

describe('the daily cap on what one member receives through gives', () => {
  beforeEach(() => clearDatabase(t.db));

  it('GIVEN 10 members giving 300 each to one member at once, under a cap of 1,000 THEN exactly three gives pass and the rest move nothing', async () => {
    const { deps, clock } = makeBotDeps(t);
    const cookies = deps.services.cookies;
    await deps.runtimeConfig.set('cookies.give_receive_daily_max', '1000', 'admin');
    for (const giver of GIVERS) {
      await seedBalance(deps.ledger, giver, 1_000);
      await cookies.openGive({ promptId: `cap-${giver}`, from: giver, to: RECEIVER, amount: 300 });
    }
    const results = await Promise.all(
      GIVERS.map((giver) => cookies.confirmGive(`cap-${giver}`, giver).catch((e: unknown) => e)),
    );
    const given = results.filter((r) => (r as { status?: string }).status === 'given');
    expect(given).toHaveLength(3);
    for (const r of results) {
      if (!given.includes(r))
        expect(r).toMatchObject({
          code: 'GIVE_RECEIVE_CAP',
          context: { received: 900, cap: 1_000, left: 100 },
        });
    }
    await deps.ledger.flush();
    expect(await deps.ledger.balanceOf('cookies', RECEIVER)).toBe(900);
    expect(await booksProblems(t.cols)).toEqual([]);

    // The next UTC day the count starts again.
    clock.advance(24 * 3_600_000);
    const giver = GIVERS.find((_, i) => !given.includes(results[i])) as string;
    await cookies.openGive({ promptId: 'next-day', from: giver, to: RECEIVER, amount: 300 });
    expect((await cookies.confirmGive('next-day', giver)).status).toBe('given');
  });
});

describe('/cookies give under the daily cap', () => {
  it('GIVEN a receiver near the cap THEN the give is refused with the numbers, in both languages', async () => {
    await clearDatabase(t.db);
    const c = makeConsole(t);
    await c.deps.runtimeConfig.set('cookies.give_receive_daily_max', '500', 'admin');
    await c.session.run('as admin /admin cookies grant user:ana amount:2000');
    await c.session.run('as ana /cookies give user:bob amount:400');
    await c.session.run('as ana !click Give');
    c.take();
    await c.session.run('as ana /cookies give user:bob amount:200');
    expect(c.take()).toMatch(
      /bob has already received 400 🍪 through gives today, and the daily cap is 500 🍪: 100 🍪 more can be given to them, not 200 🍪\. The day resets in \d+ hours?\. Nothing moved\./,
    );
    await c.session.run('!locale de');
    await c.session.run('as ana /kekse schenken mitglied:bob anzahl:200');
    expect(c.take()).toContain(
      'bob hat heute schon 400 🍪 geschenkt bekommen, und die Tagesgrenze liegt bei 500 🍪',
    );
  });
});
