import { beforeEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/clock.js';
import { Cooldowns } from '../../src/cooldowns/cooldowns.js';
import { type AppError, isAppError } from '../../src/errors.js';
import { clearDatabase, useTestDatabase } from '../support/database.js';

const t = useTestDatabase('cooldowns');
const START = new Date('2026-06-01T10:00:00Z');

describe('cooldowns', () => {
  beforeEach(() => clearDatabase(t.db));

  it('GIVEN 30 claims at once from two processes THEN exactly one passes and the others get the retry time', async () => {
    const clock = new ManualClock(START);
    const shards = [
      new Cooldowns({ cooldowns: t.cols.cooldowns, clock }),
      new Cooldowns({ cooldowns: t.cols.cooldowns, clock }),
    ];
    const results = await Promise.allSettled(
      Array.from({ length: 30 }, (_, i) =>
        (shards[i % 2] as Cooldowns).claim('cookies.collect', 'u1', 60_000),
      ),
    );
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    for (const r of results.filter((r) => r.status === 'rejected')) {
      const error = (r as PromiseRejectedResult).reason as AppError;
      expect(isAppError(error, 'COOLDOWN_ACTIVE')).toBe(true);
      expect(error.context.retryAt).toBe(START.getTime() + 60_000);
    }
  });

  it('passes again once the time is over, and at once when a failed action gave it back', async () => {
    const clock = new ManualClock(START);
    const cooldowns = new Cooldowns({ cooldowns: t.cols.cooldowns, clock });
    const first = await cooldowns.claim('a', 'u1', 10_000);
    await expect(cooldowns.claim('a', 'u1', 10_000)).rejects.toThrow(/COOLDOWN_ACTIVE/);
    await expect(cooldowns.claim('b', 'u1', 10_000)).resolves.toBeDefined();
    clock.advance(10_000);
    const second = await cooldowns.claim('a', 'u1', 10_000);
    expect(second.until.getTime()).toBe(first.until.getTime() + 10_000);
    await second.release();
    await expect(cooldowns.claim('a', 'u1', 10_000)).resolves.toBeDefined();
  });
});
