import { beforeEach, describe, expect, it } from 'vitest';
import { DAY_MS } from '../../src/clock.js';
import type { BotDeps } from '../../src/interactions/types.js';
import { planRetention, RETENTION_EVERY_MS, RETENTION_TASK } from '../../src/retention.js';
import { HOLDS_KEPT_MS, type ReserveRequest } from '../../utils/money/holds/holds.js';
import { holdProblems } from '../../utils/money/holds/invariants.js';
import { makeBotDeps } from '../support/botHarness.js';
import { clearDatabase, useTestDatabase } from '../support/database.js';
import { booksProblems } from '../support/ledgerHarness.js';

const t = useTestDatabase('retention');
const ANN = '894000000000000001';
const BEN = '894000000000000002';

const stake = (id: string): ReserveRequest => ({
  id,
  currency: 'cookies',
  from: ANN,
  amount: 100,
  kind: 'games.stake',
  source: ANN,
  owner: { kind: 'test', id: 'owner-1' },
  ttlMs: 60_000,
});

/** Runs every timer due now, then the hourly retention planned for the hour under way. */
async function runRetention(deps: BotDeps): Promise<void> {
  await planRetention(deps);
  await deps.scheduler.runDue();
}

describe('retention: state does not grow with time, the books stay', () => {
  beforeEach(() => clearDatabase(t.db));

  it('GIVEN holds ended over a week ago and one ended yesterday WHEN the hourly timer runs THEN the old holds and their emptied accounts go, the recent one and every ledger event stay, and the books check clean', async () => {
    const { deps, clock } = makeBotDeps(t);
    await deps.services.cookies.grant({
      opId: 'g-ann',
      adminId: 'admin',
      to: ANN,
      amount: 1_000,
      reason: '',
    });
    const old = [await deps.holds.reserve(stake('old-1')), await deps.holds.reserve(stake('old-2'))];
    await deps.holds.post('old-1', [{ to: BEN, amount: 100, kind: 'games.payout' }]);
    await deps.holds.void('old-2');
    clock.advance(HOLDS_KEPT_MS - DAY_MS);
    const recent = await deps.holds.reserve(stake('recent'));
    await deps.holds.void('recent');
    clock.advance(DAY_MS + RETENTION_EVERY_MS);
    await deps.ledger.flush();
    const eventsBefore = await t.db.collection('ledger_events').countDocuments();

    await runRetention(deps);

    expect(await deps.holds.get('old-1')).toBeNull();
    expect(await deps.holds.get('old-2')).toBeNull();
    expect((await deps.holds.get('recent'))?.state).toBe('voided');
    const accounts = await t.db
      .collection('items_cookies')
      .find({ _id: { $in: [...old.map((h) => h.account), recent.account] } as never })
      .toArray();
    expect(accounts.map((a) => a._id)).toEqual([recent.account]);
    expect(await t.db.collection('ledger_events').countDocuments()).toBe(eventsBefore);
    expect([
      await deps.ledger.balanceOf('cookies', ANN),
      await deps.ledger.balanceOf('cookies', BEN),
    ]).toEqual([900, 100]);
    expect(await booksProblems(t.cols)).toEqual([]);
    expect(await holdProblems(t.db, deps.ledger, clock.now(), 0)).toEqual([]);
  });

  it('GIVEN the retention ran for an hour THEN it planned the next, and two processes running that next hour run it once and plan the one after once', async () => {
    const { deps, clock } = makeBotDeps(t);
    const other = makeBotDeps(t);
    await runRetention(deps);
    const slot = Math.floor(clock.now().getTime() / RETENTION_EVERY_MS) * RETENTION_EVERY_MS;
    expect((await deps.scheduler.get(`${RETENTION_TASK}:${slot}`))?.status).toBe('done');
    const next = await deps.scheduler.get(`${RETENTION_TASK}:${slot + RETENTION_EVERY_MS}`);
    expect(next?.status).toBe('due');
    clock.advance(RETENTION_EVERY_MS);
    other.clock.advance(RETENTION_EVERY_MS);
    await Promise.all([deps.scheduler.runDue(), other.deps.scheduler.runDue()]);
    const planned = await t.db
      .collection('due_tasks')
      .find({ kind: RETENTION_TASK })
      .project({ _id: 1, status: 1 })
      .toArray();
    expect(planned.map((p) => [p._id, p.status]).sort()).toEqual([
      [`${RETENTION_TASK}:${slot}`, 'done'],
      [`${RETENTION_TASK}:${slot + RETENTION_EVERY_MS}`, 'done'],
      [`${RETENTION_TASK}:${slot + 2 * RETENTION_EVERY_MS}`, 'due'],
    ]);
  });
});
