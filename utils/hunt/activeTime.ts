import { z } from 'zod';
import type { Clock } from '../../src/clock.js';
import type { RuntimeConfig } from '../../src/runtimeConfig/runtimeConfig.js';
import { defineTask, type Scheduler, type TaskHandler } from '../../src/scheduler/scheduler.js';
import type { Holds } from '../holds/holds.js';
import { PLACE_KINDS } from '../placeEconomy.js';
import type { HuntStore, OwedTime } from './huntStore.js';
import { ActiveTime, claimSpans, type RewardSettings, type Span } from './rewards.js';

const TIME_TASK = 'hunt.time.pay';
/** A claim's payment left unmade (its process died) is made by its timer this much later. */
const TIME_PAYMENT_AFTER_MS = 60_000;
/** Stretches of active time older than this are forgotten by the owner's claim (and count nothing late). */
const TIME_HORIZON_MS = 86_400_000;

interface ActiveTimeDeps {
  store: HuntStore;
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
 * Active time (PRODUCT.md §3): an identity's requests close together count as time, and its
 * owner is paid once for the union of its identities' time, every whole interval of it,
 * through a promised hold that its timer makes good if the claiming process dies.
 */
export class ActiveTimePay {
  /** Active time not yet paid, in this process's memory only (rewards.ts, `ActiveTime`). */
  readonly #time = new ActiveTime();

  constructor(private readonly deps: ActiveTimeDeps) {
    // A payment of active time past its deadline is owed while its claim still lists it.
    deps.holds.own('hunt.time', {
      onExpiry: async (hold) => {
        const owed = (await deps.store.timeOf(hold.owner.id))?.owed?.some((o) => o.id === hold._id);
        return owed ? { post: [{ to: hold.owner.id, amount: hold.amount, kind: PLACE_KINDS.time }] } : 'void';
      },
    });
  }

  /** A claim of active time whose payment its process did not get to make. */
  task(): TaskHandler {
    return defineTask(TIME_TASK, z.object({ owner: z.string(), id: z.string() }), async ({ owner, id }) => {
      const owed = (await this.deps.store.timeOf(owner))?.owed?.find((o) => o.id === id);
      if (owed) await this.#payTime(owner, owed);
    });
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
            }
          : null;
      if (owed) await this.#scheduleTimePayment(owner, owed.id);
      if (await this.deps.store.swapTime(owner, version, claim, owed)) {
        return owed ? this.#payTime(owner, owed) : 0;
      }
    }
    return 0;
  }

  /** Makes an owed payment of active time (the claim, its timer, or the owner's next claim): once. */
  async #payTime(owner: string, owed: OwedTime): Promise<number> {
    await this.deps.holds.reserve({
      id: owed.id,
      currency: 'place',
      from: null,
      amount: owed.milli,
      kind: PLACE_KINDS.time,
      source: owed.identity,
      reason: `${owed.units} interval(s) of active time`,
      owner: { kind: 'hunt.time', id: owner },
      ttlMs: TIME_PAYMENT_AFTER_MS,
    });
    const hold = await this.deps.holds.post(owed.id, [
      { to: owner, amount: owed.milli, kind: PLACE_KINDS.time },
    ]);
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
    return hold.state === 'posted' ? owed.milli : 0;
  }

  async #scheduleTimePayment(owner: string, id: string): Promise<void> {
    await this.deps.scheduler.schedule({
      id: `${TIME_TASK}:${id}`,
      kind: TIME_TASK,
      dueAt: new Date(this.deps.clock.now().getTime() + TIME_PAYMENT_AFTER_MS),
      payload: { owner, id },
    });
  }
}
