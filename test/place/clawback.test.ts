import { beforeEach, describe, expect, it } from 'vitest';
import { ASSEMBLY } from '../../commands/index.js';
import { isAppError } from '../../src/errors.js';
import type { BotDeps } from '../../src/interactions/types.js';
import { parsePlacePoints } from '../../utils/money/amounts.js';
import { makeBotDeps } from '../support/botHarness.js';
import { clearDatabase, useTestDatabase } from '../support/database.js';
import { booksProblems } from '../support/ledgerHarness.js';

const t = useTestDatabase('place_clawback');
const ANN = '894000000000000001';
const MOD = '894000000000000008';

const clawback = (deps: BotDeps, opId: string, amount: number) =>
  deps.services.place.clawback({ opId, moderatorId: MOD, from: ANN, amount, reason: 'test' });

async function expectBooksClean(deps: BotDeps) {
  await deps.ledger.flush();
  expect(await booksProblems(t.cols)).toEqual([]);
  expect(await ASSEMBLY.checkInvariants(t.db, deps.config, deps.ledger, deps.clock.now())).toEqual([]);
}

describe('a clawback of Place points', () => {
  beforeEach(() => clearDatabase(t.db));

  it('GIVEN 0,001 points typed in German and 0.001 in English THEN each takes one milli-point', async () => {
    const { deps } = makeBotDeps(t);
    await deps.services.place.grant({ opId: 'g', moderatorId: MOD, to: ANN, amount: 5, reason: '' });
    expect(await clawback(deps, 'cb-de', parsePlacePoints('0,001', 'de'))).toEqual({ taken: 1, balance: 4 });
    expect(await clawback(deps, 'cb-en', parsePlacePoints('0.001', 'en'))).toEqual({ taken: 1, balance: 3 });
    expect(await clawback(deps, 'cb-all', 1_000)).toEqual({ taken: 3, balance: 0 });
    expect(await clawback(deps, 'cb-all', 1_000)).toMatchObject({ taken: 3 });
    await expectBooksClean(deps);
  });

  it('GIVEN a clawback racing 20 placements of the same member THEN the wallet never goes below zero, taken plus spent is the balance, and the canvas agrees', async () => {
    const { deps } = makeBotDeps(t);
    const place = deps.services.place;
    await place.board();
    const cost = (await deps.runtimeConfig.get('place_pixel_cost')) * 1_000;
    await place.grant({ opId: 'g', moderatorId: MOD, to: ANN, amount: cost * 12, reason: '' });
    const [clawed, ...placed] = await Promise.all([
      clawback(deps, 'cb-race', cost * 6),
      ...Array.from({ length: 20 }, (_, i) =>
        place.place({ opId: `p-${i}`, userId: ANN, x: i, y: 0, color: 3 }).catch((error: unknown) => {
          if (isAppError(error, 'INSUFFICIENT_PLACE_POINTS')) return null;
          throw error;
        }),
      ),
    ]);
    await deps.ledger.flush();
    const spent = placed.filter((p) => p !== null).length * cost;
    expect(spent).toBeGreaterThan(0);
    const left = await deps.ledger.balanceOf('place', ANN);
    expect(left).toBeGreaterThanOrEqual(0);
    expect(clawed.taken).toBeLessThanOrEqual(cost * 6);
    expect(clawed.taken + spent + left).toBe(cost * 12);
    await expectBooksClean(deps);
  });
});
