import { beforeEach, describe, expect, it } from 'vitest';
import type { AppError } from '../../src/errors.js';
import { cryptoRng, type Rng } from '../../src/rng.js';
import { makeBotDeps } from '../support/botHarness.js';
import { clearDatabase, useTestDatabase } from '../support/database.js';
import { booksProblems } from '../support/ledgerHarness.js';

const t = useTestDatabase('collect');
const ANN = '830000000000000001';

/** Every draw at its smallest value: a collect's base reward is then exactly `collect_min`. */
const lowRng: Rng = { ...cryptoRng, int: (min) => min };
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

describe('collecting Cookies', () => {
  beforeEach(() => clearDatabase(t.db));

  it('GIVEN 20 collects by one member at once, by command and bakery THEN exactly one pays and the rest say when to come back', async () => {
    const { deps, clock } = makeBotDeps(t);
    const results = await Promise.allSettled(
      Array.from({ length: 20 }, (_, i) =>
        deps.services.collect.collect(ANN, i % 2 === 0 ? 'command' : 'bakery'),
      ),
    );
    const paid = results.filter((r) => r.status === 'fulfilled');
    expect(paid).toHaveLength(1);
    const reward = (paid[0] as PromiseFulfilledResult<{ amount: number; nextAt: Date }>).value;
    for (const r of results.filter((x) => x.status === 'rejected')) {
      const error = (r as PromiseRejectedResult).reason as AppError;
      expect(error.code).toBe('COOLDOWN_ACTIVE');
      expect(error.context.retryAt).toBe(reward.nextAt.getTime());
    }
    expect(reward.nextAt.getTime()).toBe(clock.now().getTime() + HOUR);
    await deps.ledger.flush();
    expect(await deps.ledger.balanceOf('cookies', ANN)).toBe(reward.amount);
    expect(await booksProblems(t.cols)).toEqual([]);
  });

  it('GIVEN a collect each UTC day THEN the streak grows and pays its bonus; a missed day starts it again', async () => {
    const { deps, clock } = makeBotDeps(t, { rng: lowRng });
    const collect = () => deps.services.collect.collect(ANN, 'command');
    // Base 40 (collect_min); +10 % of it per streak day after the first, up to 7 days.
    expect(await collect()).toMatchObject({ amount: 40, streak: 1, bonus: 0 });
    clock.advance(HOUR);
    expect(await collect()).toMatchObject({ amount: 40, streak: 1 });
    clock.advance(DAY);
    expect(await collect()).toMatchObject({ amount: 44, streak: 2, bonus: 4 });
    for (let day = 3; day <= 10; day++) {
      clock.advance(DAY);
      await collect();
    }
    clock.advance(DAY);
    expect(await collect()).toMatchObject({ streak: 11, bonus: 28, amount: 68, bestStreak: 11 });
    clock.advance(2 * DAY);
    expect(await collect()).toMatchObject({ streak: 1, bonus: 0, bestStreak: 11 });
    const profile = await deps.services.cookies.profile(ANN);
    expect(profile).toMatchObject({ streak: 1, bestStreak: 11, collects: 13 });
    expect(profile.collected).toBe(await deps.ledger.balanceOf('cookies', ANN));
  });

  it('GIVEN collecting switched off THEN a collect is refused and nothing is claimed', async () => {
    const { deps } = makeBotDeps(t);
    await deps.runtimeConfig.set('cookies.collect_enabled', 'off', 'admin');
    await expect(deps.services.collect.collect(ANN, 'bakery')).rejects.toMatchObject({
      code: 'FEATURE_DISABLED',
    });
    await deps.runtimeConfig.set('cookies.collect_enabled', 'on', 'admin');
    expect((await deps.services.collect.collect(ANN, 'bakery')).amount).toBeGreaterThan(0);
  });
});
