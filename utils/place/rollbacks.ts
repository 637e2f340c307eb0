import { z } from 'zod';
import type { Clock } from '../../src/clock.js';
import { CONFLICT, CONFLICT_RETRY_LIMIT, retryOnConflict } from '../../src/db/retryOnConflict.js';
import { AppError } from '../../src/errors.js';
import type { Rng } from '../../src/rng.js';
import { defineTask, type Scheduler, type TaskHandler } from '../../src/scheduler/scheduler.js';
import type { Holds, ReserveRequest } from '../money/holds/holds.js';
import { PLACE_KINDS } from '../money/placeEconomy.js';
import type { ModeratorRole } from './moderationLogStore.js';
import type { CanvasDoc, PixelEventDoc, PlaceStore } from './placeStore.js';
import { pixelBounds, pixelRollback } from './rollbackPlan.js';
import type { RollbackDoc, RollbackPixel, Undone } from './rollbackStore.js';

const ROLLBACK_TASK = 'place.rollback.resume';
/** How long one process may apply a rollback before another may take it over. */
const ROLLBACK_LEASE_MS = 60_000;

interface RollbackDeps {
  store: PlaceStore;
  holds: Holds;
  scheduler: Scheduler;
  clock: Clock;
  rng: Rng;
  /** The canvas as it is (its size bounds a rollback without an area). */
  canvas(): Promise<CanvasDoc>;
  /** New revisions were written: the watermark may move. */
  written(): void;
  /** Fills a revision handed out and not used. */
  voidRevision(revision: number): Promise<void>;
}

/**
 * A moderator's rollback of one member's pixels (`/admin place rollback`): previewed, then
 * applied once as new revisions (the history stays as it was), with the member's points
 * refunded when chosen. The placement's own rules (a revision per step, one event per step
 * whoever writes it) hold for every restored pixel.
 */
export class PlaceRollbacks {
  constructor(private readonly deps: RollbackDeps) {
    // A rollback's refund past its deadline: the rollback is resumed, which posts it.
    deps.holds.own('rollback', {
      onExpiry: async (hold) => {
        await this.apply(hold.owner.id, true);
        return (await deps.holds.get(hold._id))?.state === 'held' ? 'void' : 'handled';
      },
    });
  }

  /** A rollback whose process died while applying: taken over once its lease ran out. */
  task(): TaskHandler {
    return defineTask(ROLLBACK_TASK, z.object({ id: z.string() }), async ({ id }) => {
      const plan = await this.deps.store.rollbacks.get(id);
      if (plan?.status !== 'applying') return;
      if ((plan.leaseUntil?.getTime() ?? 0) > this.deps.clock.now().getTime()) {
        throw new Error(`rollback ${id} is still being applied; looking again later`);
      }
      await this.apply(id, plan.refundChosen ?? false);
    });
  }

  /**
   * A rollback's preview: every pixel whose current state is the member's placement (in the
   * area, since the time) goes back to its state before the member's placements still on it
   * (`pixelRollback`); a refund would pay what those placements cost. Nothing changes until
   * `apply`.
   */
  async plan(request: {
    id: string;
    adminId: string;
    target: string;
    area?: { x0: number; y0: number; x1: number; y1: number };
    since?: Date;
    reason?: string;
    role?: ModeratorRole;
    /** What the web asked for under this id (its Idempotency-Key), kept to refuse another request under it. */
    request?: string;
  }): Promise<RollbackDoc> {
    // A plan is made once per id: a second preview (a double click) gets the first.
    const existing = await this.deps.store.rollbacks.get(request.id);
    if (existing) return existing;
    const canvas = await this.deps.canvas();
    const area = request.area ?? { x0: 0, y0: 0, x1: canvas.width - 1, y1: canvas.height - 1 };
    const since = request.since ?? new Date(0);
    const events = await this.deps.store.memberEvents(request.target, area, since);
    const pixels: RollbackPixel[] = [];
    for (const key of new Set(events.map((e) => `${e.x}:${e.y}`))) {
      const [x, y] = key.split(':').map(Number) as [number, number];
      const current = await this.deps.store.pixel(x, y);
      const step = current && (await pixelRollback(this.deps.store, request.target, since, current));
      if (step) pixels.push(step);
    }
    const plan: RollbackDoc = {
      _id: request.id,
      adminId: request.adminId,
      target: request.target,
      pixels,
      painted: events.length,
      placements: pixels.reduce((sum, p) => sum + p.undoes.length, 0),
      refund: pixels.reduce((sum, p) => sum + p.cost, 0),
      status: 'previewed',
      createdAt: this.deps.clock.now(),
      ...(request.reason ? { reason: request.reason } : {}),
      ...(request.role ? { role: request.role } : {}),
      ...(request.request ? { request: request.request } : {}),
    };
    if (await this.deps.store.rollbacks.save(plan)) return plan;
    return (await this.deps.store.rollbacks.get(request.id)) ?? plan;
  }

  /**
   * Applies a previewed rollback once: each pixel gets its old state as a new revision (the
   * history stays as it was), unless it changed since the preview or another rollback restored
   * it first. The member's points come back only when `refund` is chosen (the first press
   * decides): a promised hold, posted at the end with what the restored pixels' placements
   * cost. One process applies at a time (a lease); one that dies is resumed by the rollback's
   * timer, or by the next press, once its lease has run out.
   */
  async apply(
    id: string,
    refund: boolean,
  ): Promise<{ restored: number; skipped: number; refunded: number; plan: RollbackDoc }> {
    const plan = await this.deps.store.rollbacks.get(id);
    if (!plan) throw new AppError('STALE_CONTROL', `rollback ${id} is gone`, { id });
    const now = this.deps.clock.now();
    await this.deps.scheduler.schedule({
      id: `${ROLLBACK_TASK}:${id}`,
      kind: ROLLBACK_TASK,
      dueAt: new Date(now.getTime() + ROLLBACK_LEASE_MS + 5_000),
      payload: { id },
    });
    const owner = this.deps.rng.uuid();
    const until = new Date(now.getTime() + ROLLBACK_LEASE_MS);
    const claimed = await this.deps.store.rollbacks.claim(id, refund, owner, now, until);
    // Taken by another press or process: this one answers with what became of it.
    if (!claimed) {
      const taken = (await this.deps.store.rollbacks.get(id)) ?? plan;
      return { restored: 0, skipped: 0, refunded: 0, plan: taken };
    }
    const refundHold = claimed.refundChosen && claimed.refund > 0 ? this.#refundHold(claimed) : null;
    if (refundHold) await this.deps.holds.reserve(refundHold);
    const { restored, skipped } = await this.#restorePixels(claimed);
    this.deps.written();
    const undone: Undone = {
      pixels: restored.length,
      placements: restored.reduce((sum, p) => sum + p.undoes.length, 0),
      cost: restored.reduce((sum, p) => sum + p.cost, 0),
    };
    let refunded = 0;
    if (refundHold) {
      const hold = await this.deps.holds.post(refundHold.id, [
        { to: claimed.target, amount: undone.cost, kind: PLACE_KINDS.refund },
      ]);
      if (hold.state === 'posted') refunded = (hold.postings ?? []).reduce((sum, p) => sum + p.amount, 0);
    }
    await this.#logged(claimed, restored);
    await this.deps.store.rollbacks.finish(id, undone);
    return { restored: restored.length, skipped, refunded, plan: claimed };
  }

  /**
   * The public moderation log's line for a rollback that restored pixels: where, how many, the
   * role and the reason. Written before the rollback is marked applied, so a process that dies
   * between the two writes it again on resuming (once: its id is the rollback's).
   */
  async #logged(plan: RollbackDoc, restored: RollbackPixel[]): Promise<void> {
    if (restored.length === 0) return;
    await this.deps.store.moderationLog.record({
      _id: `rollback:${plan._id}`,
      action: 'rollback',
      at: this.deps.clock.now(),
      area: pixelBounds(restored),
      pixels: restored.length,
      role: plan.role ?? 'admin',
      reason: plan.reason ?? null,
    });
  }

  get(id: string): Promise<RollbackDoc | null> {
    return this.deps.store.rollbacks.get(id);
  }

  /** Each pixel of the plan restored (by this rollback, now or before a crash) or skipped. */
  async #restorePixels(plan: RollbackDoc): Promise<{ restored: RollbackPixel[]; skipped: number }> {
    const restored: RollbackPixel[] = [];
    let skipped = 0;
    for (const [i, px] of plan.pixels.entries()) {
      const current = await this.deps.store.pixel(px.x, px.y);
      const mine = await this.deps.store.eventOf(`rollback:${plan._id}:${i}`);
      if (mine) {
        await this.deps.store.applyToPixel(mine);
        restored.push(px);
      } else if (current?.revision === px.seenRevision && (await this.#writeRollbackEvent(plan, i, px))) {
        restored.push(px);
      } else {
        skipped++;
      }
    }
    return { restored, skipped };
  }

  /**
   * One restored pixel as a new revision, written once whoever else is at it (as a placement
   * is). False when another rollback restored the same state first (two admins at once): the
   * state is rolled back once, by whichever event got in (`replaces` is unique).
   */
  async #writeRollbackEvent(plan: RollbackDoc, i: number, px: RollbackPixel): Promise<boolean> {
    const opId = `rollback:${plan._id}:${i}`;
    return retryOnConflict(
      CONFLICT_RETRY_LIMIT,
      async () => {
        const revision = await this.deps.store.allocate();
        const event: PixelEventDoc = {
          _id: revision,
          revision,
          kind: 'rollback',
          opId,
          x: px.x,
          y: px.y,
          color: px.color,
          owner: px.owner,
          cost: 0,
          at: this.deps.clock.now(),
          restores: px.restores,
          ...(px.paintedAt ? { paintedAt: px.paintedAt } : {}),
          replaces: px.seenRevision,
          undoes: { painter: plan.target, revisions: px.undoes },
        };
        if (await this.deps.store.appendEvent(event)) {
          await this.deps.store.applyToPixel(event);
          return true;
        }
        // Another process wrote this step first, or another rollback this state (its revision
        // is voided either way), or recovery voided ours (then again with a new one).
        const other =
          (await this.deps.store.eventOf(opId)) ?? (await this.deps.store.rollbackOf(px.seenRevision));
        if (other) {
          await this.deps.voidRevision(revision);
          await this.deps.store.applyToPixel(other);
          return other.opId === opId;
        }
        return CONFLICT;
      },
      `writing ${opId}`,
    );
  }

  /** The refund owed to the member, promised when applying starts and minted when it ends. */
  #refundHold(plan: RollbackDoc): ReserveRequest {
    return {
      id: `place.rollback:${plan._id}:refund`,
      currency: 'place',
      from: null,
      amount: plan.refund,
      kind: PLACE_KINDS.refund,
      source: plan.adminId,
      reason: `rollback ${plan._id}`,
      owner: { kind: 'rollback', id: plan._id },
      ttlMs: ROLLBACK_LEASE_MS * 2,
    };
  }

  cancel(id: string): Promise<boolean> {
    return this.deps.store.rollbacks.setStatus(id, ['previewed'], 'cancelled');
  }
}
