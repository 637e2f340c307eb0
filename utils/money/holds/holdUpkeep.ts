import { z } from 'zod';
import type { Clock } from '../../../src/clock.js';
import type { Logger } from '../../../src/logger.js';
import { metrics } from '../../../src/metrics.js';
import type { Scheduler } from '../../../src/scheduler/scheduler.js';
import type { Ledger } from '../ledger/ledger.js';
import { holdAccount } from './holdRules.js';
import type { HoldDoc, HoldState, HoldStore } from './holdStore.js';

/**
 * The upkeep of holds (ECONOMY.md, "Money in play"): each hold's own timer `holds.expire:<id>`,
 * whose decision is final, the sweep behind all of them, and the retention of ended holds.
 */

export const EXPIRE_TASK = 'holds.expire';
export const SWEEP_TASK = 'holds.sweep';
/** The sweeps' slots: one sweep a minute at most, and only in minutes a hold's grace ends in. */
export const SWEEP_EVERY_MS = 60_000;
/**
 * How long past its deadline a hold may stay open before the sweep ends it: its timer's first
 * attempts (and a retry of a movement in flight) come first.
 */
export const SWEEP_GRACE_MS = 120_000;
/** The most holds one sweep ends; more wait for the next. */
const SWEEP_BATCH = 200;
/** How long an ended hold is kept: a week to look into a member's question about a round. */
export const HOLDS_KEPT_MS = 7 * 86_400_000;
/** One prune removes at most PRUNE_PASSES × PRUNE_BATCH holds; the next one takes the rest. */
const PRUNE_BATCH = 500;
const PRUNE_PASSES = 20;
const ENDED: readonly HoldState[] = ['posted', 'voided', 'refused'];

/**
 * What a hold's timer knows of it: enough to record the hold as refused when its reserve has not
 * arrived by the deadline, so the reserve, should it arrive later, finds it ended and moves nothing.
 */
export const plannedHold = z.object({
  currency: z.enum(['cookies', 'place']),
  from: z.string().nullable(),
  amount: z.number().int(),
  kind: z.string(),
  source: z.string(),
  reason: z.string(),
  owner: z.object({ kind: z.string(), id: z.string() }),
  /** Owed value (a cash-out): never called off, the timer reserves it itself. */
  owed: z.boolean().optional(),
});
export type PlannedHold = z.output<typeof plannedHold>;

/** The sweep slot a time falls in: the start of the next whole minute. */
export function slotOf(ms: number): number {
  return Math.ceil(ms / SWEEP_EVERY_MS) * SWEEP_EVERY_MS;
}

export async function planSweep(scheduler: Scheduler, slot: number): Promise<void> {
  await scheduler.schedule({
    id: `${SWEEP_TASK}:${slot}`,
    kind: SWEEP_TASK,
    dueAt: new Date(slot),
    payload: { slot },
  });
}

/**
 * Plans a hold's timer before the hold is stored (a process that dies after the record leaves
 * a hold its timer ends), and the sweep of the minute its grace ends in. A retry finds the first
 * attempt's timer and keeps its deadline: a hold's time runs from its first attempt.
 */
export async function planTimers(scheduler: Scheduler, hold: HoldDoc): Promise<HoldDoc> {
  const id = `${EXPIRE_TASK}:${hold._id}`;
  const planned: PlannedHold = {
    currency: hold.currency,
    from: hold.from,
    amount: hold.amount,
    kind: hold.kind,
    source: hold.source,
    reason: hold.reason,
    owner: hold.owner,
    ...(hold.owed ? { owed: true } : {}),
  };
  const payload = { holdId: hold._id, planned };
  const created = await scheduler.schedule({ id, kind: EXPIRE_TASK, dueAt: hold.deadline, payload });
  const timer = created ? null : await scheduler.get(id);
  const deadline = timer?.dueAt ?? hold.deadline;
  await planSweep(scheduler, slotOf(deadline.getTime() + SWEEP_GRACE_MS));
  return { ...hold, deadline };
}

/**
 * The timer found no hold: its account is closed first (no credit can land on it after that),
 * then the hold is recorded refused, so a reserve still on its way finds it ended.
 *
 * Owed value is never called off: its account stays open and the hold is recorded as still on
 * its way, for the timer to reserve itself. The owner's reserve may have been stored since the
 * timer looked; closing its account then would leave an owed reserve that can never land.
 */
export async function recordUnarrived(
  deps: { ledger: Ledger; store: HoldStore; clock: Clock; log: Logger },
  id: string,
  planned: PlannedHold,
): Promise<HoldDoc> {
  const account = holdAccount(id);
  const closing = planned.owed
    ? { closed: false }
    : await deps.ledger.closeAccount(planned.currency, account);
  // A movement on the account is in flight: the hold is recorded as still on its way, and its
  // expiry decides it once the ledger's recovery has.
  const state: HoldState = closing.closed ? 'refused' : 'reserving';
  const now = deps.clock.now();
  const hold: HoldDoc = {
    _id: id,
    account,
    ...planned,
    state,
    deadline: now,
    createdAt: now,
    ...(state === 'refused' ? { endedAt: now } : {}),
  };
  if (await deps.store.insert(hold)) {
    deps.log.warn(
      { event: 'holds.reserve_never_arrived', hold: id, owner: planned.owner, closed: closing.closed },
      closing.closed
        ? 'a hold reached its deadline before its reserve arrived: recorded as refused'
        : 'a hold reached its deadline before its reserve arrived: recorded as still on its way',
    );
    return hold;
  }
  return (await deps.store.get(id)) as HoldDoc;
}

/**
 * The second line behind each hold's timer: ends every hold still open `SWEEP_GRACE_MS` past
 * its deadline, as its timer would have (`expire`). Each one is logged and counted
 * (`bot_holds_swept_total`): it means the timer failed. A sweep runs in each minute a hold's
 * grace ends in (planned with the hold's timer), so a bot at rest runs none. What it could
 * not end yet (a movement in flight, more than a batch) is swept again a minute later.
 */
export async function sweepHolds(
  deps: { store: HoldStore; scheduler: Scheduler; clock: Clock; log: Logger },
  expire: (id: string) => Promise<HoldDoc | null>,
): Promise<{ swept: number; left: number }> {
  const now = deps.clock.now().getTime();
  const ids = await deps.store.openPast(new Date(now - SWEEP_GRACE_MS), SWEEP_BATCH);
  let swept = 0;
  for (const id of ids) {
    try {
      const hold = await expire(id);
      if (!hold || !ENDED.includes(hold.state)) continue;
      swept += 1;
      metrics.holdsSwept.inc();
      deps.log.warn(
        { event: 'holds.swept', hold: id, owner: hold.owner, state: hold.state, deadline: hold.deadline },
        'the sweep ended a hold its timer left open past its deadline',
      );
    } catch (error) {
      deps.log.warn({ event: 'holds.sweep_deferred', hold: id, err: error }, 'a hold could not end yet');
    }
  }
  const left = ids.length - swept;
  if (left > 0) await planSweep(deps.scheduler, slotOf(now) + SWEEP_EVERY_MS);
  return { swept, left };
}

/**
 * Removes holds that ended over `HOLDS_KEPT_MS` ago, and their accounts (empty by then, their
 * last late write long stopped): their movements stay in the ledger's events, and
 * the owners' books are checked against the holds of the last week. Accounts first: a hold
 * whose account went stays ended, and is removed by the next pass.
 */
export async function pruneHolds(
  deps: { ledger: Ledger; store: HoldStore },
  now: Date,
): Promise<{ holds: number; accounts: number }> {
  const before = new Date(now.getTime() - HOLDS_KEPT_MS);
  let holds = 0;
  let accounts = 0;
  for (let pass = 0; pass < PRUNE_PASSES; pass++) {
    const ended = await deps.store.endedBefore(before, PRUNE_BATCH);
    if (ended.length === 0) break;
    for (const currency of ['cookies', 'place'] as const) {
      const mine = ended.filter((h) => h.currency === currency).map((h) => h.account);
      accounts += await deps.ledger.dropEmptyAccounts(currency, mine);
    }
    holds += await deps.store.remove(ended.map((h) => h._id));
  }
  return { holds, accounts };
}
