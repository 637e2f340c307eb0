import { z } from 'zod';
import { type Clock, MINUTE_MS } from '../../src/clock.js';
import { RECOVERY_GRACE_MS } from '../../src/recoveryGrace.js';
import { defineTask, type Scheduler, type TaskHandler } from '../../src/scheduler/scheduler.js';
import type { PlaceEconomy } from '../money/placeEconomy.js';
import type { PlacementDoc } from './placementStore.js';
import type { PlaceStore } from './placeStore.js';

const SWEEP_TASK = 'place.sweep';
/**
 * How long the sweep keeps an eye on a refused placement, in case another finisher paid for it
 * after all (past the ledger's recovery grace, which rolls an interrupted payment forward).
 */
const REFUSAL_WATCH_MS = 10 * 60_000;
/** Finished and refused placements are kept this long (far past any retry and the refusal watch). */
export const PLACEMENTS_KEPT_MS = 86_400_000;
/** They are pruned at most this often, by the clock. */
const PRUNE_EVERY_MS = 3_600_000;

interface SweepDeps {
  store: PlaceStore;
  economy: PlaceEconomy;
  scheduler: Scheduler;
  clock: Clock;
  /** Finishes a placement from wherever it is (steps 2–6). */
  finish(p: PlacementDoc, retry: boolean): Promise<unknown>;
  /** Fills the revisions handed out and lost, so the watermark moves on. */
  voidLostRevisions(): Promise<number>;
  /** Schedules the community post's timer. */
  schedulePost(now: Date): Promise<void>;
}

/** The placements' recovery: the durable timer once a minute while placements happen, and what it does. */
export class PlaceSweep {
  /** The minute whose sweep this process already scheduled (one write a minute, not one a placement). */
  #scheduledFor = -1;
  #prunedAt = Number.NEGATIVE_INFINITY;

  constructor(private readonly deps: SweepDeps) {}

  task(): TaskHandler {
    return defineTask(SWEEP_TASK, z.object({ minute: z.number().int() }), async () => {
      await this.run();
    });
  }

  /**
   * Recovery, once a minute while placements happen: finishes every placement left unfinished
   * for longer than the grace (a crash, a lost reply), then voids lost revisions so the
   * watermark moves on.
   */
  async run(): Promise<{ finished: number; voided: number }> {
    let finished = 0;
    // A refusal recorded while another finisher of the same placement paid (a retry that raced
    // it, or the ledger's recovery rolling a payment forward): paid is paid, so it is finished.
    const now = this.deps.clock.now();
    const paidAfterAll: PlacementDoc[] = [];
    let watching = false;
    for (const refused of await this.deps.store.placements.refusedSince(
      new Date(now.getTime() - REFUSAL_WATCH_MS),
    )) {
      if (await this.deps.economy.paidForPixel(`place:${refused._id}`)) paidAfterAll.push(refused);
      else watching = true;
    }
    // Refusals still watched: the sweep comes back next minute, placements or not.
    if (watching) await this.ensureScheduled(now);
    const before = new Date(now.getTime() - RECOVERY_GRACE_MS);
    for (const placement of [...(await this.deps.store.placements.unfinished(before)), ...paidAfterAll]) {
      // Written, but its process may have stopped before its pixel: the pixel first, then done.
      const written = await this.deps.store.eventOf(placement._id);
      if (written) {
        await this.deps.store.applyToPixel(written);
        await this.deps.store.placements.setStatus(placement._id, 'done');
        continue;
      }
      await this.deps.finish(placement, true).catch(() => undefined);
      finished++;
    }
    const voided = await this.deps.voidLostRevisions();
    if (now.getTime() - this.#prunedAt >= PRUNE_EVERY_MS) {
      this.#prunedAt = now.getTime();
      await this.deps.store.placements.prune(new Date(now.getTime() - PLACEMENTS_KEPT_MS));
    }
    return { finished, voided };
  }

  async ensureScheduled(now: Date): Promise<void> {
    const minute = Math.floor(now.getTime() / MINUTE_MS);
    if (minute === this.#scheduledFor) return;
    this.#scheduledFor = minute;
    await this.deps.scheduler.schedule({
      id: `${SWEEP_TASK}:${minute}`,
      kind: SWEEP_TASK,
      dueAt: new Date((minute + 1) * MINUTE_MS + RECOVERY_GRACE_MS),
      payload: { minute },
    });
    await this.deps.schedulePost(now);
  }
}
