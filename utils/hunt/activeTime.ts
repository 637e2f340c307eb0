import { z } from 'zod';
import type { Clock } from '../../src/clock.js';
import { RECOVERY_GRACE_MS } from '../../src/recoveryGrace.js';
import type { RuntimeConfig } from '../../src/runtimeConfig/runtimeConfig.js';
import { defineTask, type Scheduler, type TaskHandler } from '../../src/scheduler/scheduler.js';
import type { Holds } from '../money/holds/holds.js';
import { PLACE_KINDS, type PlaceEconomy } from '../money/placeEconomy.js';
import type { HuntStore, OwedTime } from './huntStore.js';
import { ActiveTime, claimSpans, type RewardSettings, type Span } from './rewards.js';

/** The sweep that pays what claims left owed (their process died before paying). */
const SWEEP_TASK = 'hunt.time.owed';
/** One sweep per this much time with claims in it, not one timer per payment. */
const SWEEP_EVERY_MS = 300_000;
/** The timer of one payment, as claims before 2026-12-02 scheduled it (still run for those). */
const LEGACY_TIME_TASK = 'hunt.time.pay';
/** Stretches of active time older than this are forgotten by the owner's claim (and count nothing late). */
const TIME_HORIZON_MS = 86_400_000;

interface ActiveTimeDeps {
  store: HuntStore;
  economy: PlaceEconomy;
  holds: Holds;
  runtimeConfig: RuntimeConfig;
  scheduler: Scheduler;
  clock: Clock;
  /** Who is paid for an identity (workers: their owner). */
  ownerOf?: (identity: string) => Promise<string>;
  /** The hunt's reward settings as they are now. */
  settings(): Promise<RewardSettings>;
}

/**
 * Active time (ECONOMY.md, "The hunt: rewards exactly once"): an identity's requests close together count as time, and its
 * owner is paid once for the union of its identities' time, every whole interval of it. The
 * claim records the payment owed in the same write that claims the time; a ledger credit with
 * the owed id as its operation id pays it, once, whoever makes it: the claim at once, or the
 * sweep a few minutes later when the claiming process died in between.
 */
export class ActiveTimePay {
  /** Active time not yet paid, in this process's memory only (rewards.ts, `ActiveTime`). */
  readonly #time = new ActiveTime();

  constructor(private readonly deps: ActiveTimeDeps) {
    // Claims before 2026-12-02 paid through a promised hold: one past its deadline is owed while
    // its claim still lists it (the sweep then records it as paid).
    deps.holds.own('hunt.time', {
      onExpiry: async (hold) => {
        const owed = (await deps.store.timeOf(hold.owner.id))?.owed?.some((o) => o.id === hold._id);
        return owed ? { post: [{ to: hold.owner.id, amount: hold.amount, kind: PLACE_KINDS.time }] } : 'void';
      },
    });
  }

  /** The sweep of owed payments, and the one-payment timers claims scheduled before it. */
  tasks(): TaskHandler[] {
    return [
      defineTask(SWEEP_TASK, z.object({ period: z.number().int() }), async () => {
        const before = new Date(this.deps.clock.now().getTime() - RECOVERY_GRACE_MS);
        for (const doc of await this.deps.store.owedSince(before)) {
          for (const owed of doc.owed ?? []) if (owed.at <= before) await this.#pay(doc._id, owed);
        }
      }),
      defineTask(LEGACY_TIME_TASK, z.object({ owner: z.string(), id: z.string() }), async ({ owner, id }) => {
        const owed = (await this.deps.store.timeOf(owner))?.owed?.find((o) => o.id === id);
        if (owed) await this.#pay(owner, owed);
      }),
    ];
  }

  /**
   * A valid hunt request of an identity (`/hunt join`, a tip, `/hunt status`, a worker's
   * request): the time since its previous one counts if the gap is at most
   * `place_time_max_gap_sec`. A request that completes no interval writes nothing. Once an
   * identity's stretches make an interval, they are claimed against its owner's time
   * (`claimSpans`): the owner is paid once for the union of its identities' time, every whole
   * interval of it, through a promised hold. Returns the milli-points paid.
   */
  async activity(identity: string): Promise<number> {
    if (!(await this.deps.runtimeConfig.get('hunt_enabled'))) return 0;
    const settings = await this.deps.settings();
    const now = this.deps.clock.now().getTime();
    const spans = this.#time.record(identity, now, settings);
    if (!spans || settings.timePoints === 0) return 0;
    // Active time is the member's time: a member and its workers pinging at once are paid for
    // it once (claimed against the owner), or a farm of workers would multiply the hour.
    const owner = this.deps.ownerOf ? await this.deps.ownerOf(identity) : identity;
    for (let tries = 0; tries < 8; tries++) {
      const doc = await this.deps.store.timeOf(owner);
      const before = {
        covered: doc?.covered ?? (doc?.paidUntil ? [[0, doc.paidUntil] as Span] : []),
        banked: doc?.banked ?? 0,
      };
      const claim = claimSpans(before, spans, settings.intervalMs, now - TIME_HORIZON_MS);
      const version = doc ? (doc.version ?? 0) : null;
      const owed: OwedTime | null =
        claim.intervals > 0
          ? {
              id: `hunt.time:${owner}:${(version ?? 0) + 1}`,
              identity,
              milli: claim.intervals * settings.timePoints * 1000,
              units: claim.intervals,
              detail: spans
                .map(([a, b]) => `${new Date(a).toISOString()} – ${new Date(b).toISOString()}`)
                .join(', '),
              at: this.deps.clock.now(),
              via: 'credit',
            }
          : null;
      // The sweep first: a process that dies after the claim leaves a payment the sweep makes.
      if (owed) await this.#scheduleSweep(now);
      if (await this.deps.store.swapTime(owner, version, claim, owed)) {
        return owed ? this.#pay(owner, owed) : 0;
      }
    }
    return 0;
  }

  /**
   * Makes an owed payment of active time (the claim, or the sweep): once, however often it is
   * asked, and then no longer owed. Returns the milli-points this call paid.
   */
  async #pay(owner: string, owed: OwedTime): Promise<number> {
    const reason = `${owed.units} interval(s) of active time`;
    const paid =
      owed.via === 'credit'
        ? await this.deps.economy.reward(owner, {
            opId: owed.id,
            amount: owed.milli,
            kind: PLACE_KINDS.time,
            source: owed.identity,
            reason,
          })
        : await this.#payThroughHold(owner, owed, reason);
    await this.deps.store.addBonus({
      _id: owed.id,
      kind: 'time',
      source: owed.identity,
      owner,
      milli: owed.milli,
      multiplier: 1,
      units: owed.units,
      detail: owed.detail,
      at: owed.at,
    });
    await this.deps.store.paid(owner, owed.id);
    return paid.replayed ? 0 : owed.milli;
  }

  /** A claim written before 2026-12-02: its promised hold pays it (reserved again if it never was). */
  async #payThroughHold(owner: string, owed: OwedTime, reason: string): Promise<{ replayed: boolean }> {
    await this.deps.holds.reserve({
      id: owed.id,
      currency: 'place',
      from: null,
      amount: owed.milli,
      kind: PLACE_KINDS.time,
      source: owed.identity,
      reason,
      owner: { kind: 'hunt.time', id: owner },
      ttlMs: RECOVERY_GRACE_MS,
    });
    const hold = await this.deps.holds.post(owed.id, [
      { to: owner, amount: owed.milli, kind: PLACE_KINDS.time },
    ]);
    return { replayed: hold.state !== 'posted' };
  }

  /** One timer per period: the scheduler asks the database only for a period it has not planned. */
  async #scheduleSweep(now: number): Promise<void> {
    const period = Math.floor(now / SWEEP_EVERY_MS);
    await this.deps.scheduler.schedule({
      id: `${SWEEP_TASK}:${period}`,
      kind: SWEEP_TASK,
      dueAt: new Date((period + 1) * SWEEP_EVERY_MS + RECOVERY_GRACE_MS),
      payload: { period },
    });
  }
}
