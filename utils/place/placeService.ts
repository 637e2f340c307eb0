import { z } from 'zod';
import type { Clock } from '../../src/clock.js';
import type { Config } from '../../src/config.js';
import type { RuntimeConfig } from '../../src/runtimeConfig/runtimeConfig.js';
import { defineTask, type Scheduler, type TaskHandler } from '../../src/scheduler/scheduler.js';
import { MILLI_PER_POINT } from '../amounts.js';
import { AppError, featureDisabled, invalidInputText, isAppError } from '../errors.js';
import type { PlaceEconomy } from '../placeEconomy.js';
import { PALETTE } from './palette.js';
import type { CanvasDoc, PixelEventDoc, PlacementDoc, PlaceStore } from './placeStore.js';

declare module '../../src/features/feature.js' {
  interface FeatureServices {
    place: PlaceService;
  }
}

/** The largest canvas an admin may resize to (the renderer's board then takes 4 MB). */
export const MAX_SIDE = 2_048;
const FINISH_TASK = 'place.finish';
/** A placement left unfinished is finished (or a handed-out revision voided) this much later. */
const FINISH_AFTER_MS = 60_000;
/** How many written revisions one watermark step looks at. */
const WATERMARK_SCAN = 500;

export interface Placed {
  revision: number;
  x: number;
  y: number;
  color: number;
  /** Milli-points charged. */
  cost: number;
  /** The wallet right after (null when not known). */
  balance: number | null;
  replayed: boolean;
}

export interface Changes {
  changes: PixelEventDoc[];
  /** Read again after this revision: every revision up to it has been returned or was void. */
  revision: number;
}

interface PlaceDeps {
  store: PlaceStore;
  economy: PlaceEconomy;
  /** Test hook: what happens between handing out a revision and writing it (a delay, a crash). */
  afterAllocate?: (revision: number) => Promise<void>;
  runtimeConfig: RuntimeConfig;
  scheduler: Scheduler;
  clock: Clock;
  config: Config;
}

/**
 * The canvas (PRODUCT.md §2). A placement, with an operation id from the interaction:
 * 1. its intent is stored (`debiting`), with a timer that would finish it;
 * 2. the wallet is debited once by the ledger (Place points, one placement);
 * 3. it gets the next canvas revision, recorded on the intent (`allocated`);
 * 4. the immutable event `_id = revision` is written;
 * 5. the pixel takes the event's state only if it is newer than the stored one;
 * 6. the watermark moves past every revision that is settled.
 * Readers of the changes feed read only up to the watermark, so they never pass over a
 * revision still being written. A revision handed out and then lost (its placer died between
 * 3's two writes) is voided by recovery after the grace, so the watermark never sticks.
 */
export class PlaceService {
  constructor(private readonly deps: PlaceDeps) {}

  canvas(): Promise<CanvasDoc> {
    return this.deps.store.canvas(this.deps.config.place, this.deps.clock.now());
  }

  /** Points from a moderator (positive, up to 0.001), audited with the granter as the source. */
  grant(grant: { opId: string; moderatorId: string; to: string; amount: number; reason: string }) {
    return this.deps.economy.grant(grant.to, {
      opId: grant.opId,
      amount: grant.amount,
      source: grant.moderatorId,
      reason: grant.reason,
    });
  }

  wallet(identity: string) {
    return this.deps.economy.ledger.placeWallet(identity);
  }

  /** A pixel's current state and how often it was painted (null: never). */
  async pixelInfo(x: number, y: number) {
    const pixel = await this.deps.store.pixel(x, y);
    if (!pixel) return null;
    return { pixel, painted: await this.deps.store.paintedCount(x, y) };
  }

  /** Cost of one pixel in milli-points. */
  async pixelCost(): Promise<number> {
    return (await this.deps.runtimeConfig.get('place_pixel_cost')) * MILLI_PER_POINT;
  }

  async place(request: {
    opId: string;
    userId: string;
    x: number;
    y: number;
    color: number;
  }): Promise<Placed> {
    const existing = await this.deps.store.placement(request.opId);
    if (existing) return this.#finish(existing, true);
    if (!(await this.deps.runtimeConfig.get('place_enabled')))
      throw featureDisabled('place:errors.disabled', 'place_enabled');
    const canvas = await this.canvas();
    if (
      !Number.isInteger(request.x) ||
      !Number.isInteger(request.y) ||
      request.x < 0 ||
      request.y < 0 ||
      request.x >= canvas.width ||
      request.y >= canvas.height
    ) {
      throw invalidInputText(`(${request.x}, ${request.y}) is outside the canvas`, 'place:errors.outside', {
        x: request.x,
        y: request.y,
        maxX: canvas.width - 1,
        maxY: canvas.height - 1,
      });
    }
    if (!Number.isInteger(request.color) || request.color < 0 || request.color >= PALETTE.length) {
      throw invalidInputText(`no colour ${request.color}`, 'place:errors.color', { max: PALETTE.length - 1 });
    }
    const cost = await this.pixelCost();
    const balance = await this.deps.economy.balance(request.userId);
    if (balance < cost) throw notEnoughPoints(balance, cost);
    const now = this.deps.clock.now();
    await this.deps.scheduler.schedule({
      id: `${FINISH_TASK}:${request.opId}`,
      kind: FINISH_TASK,
      dueAt: new Date(now.getTime() + FINISH_AFTER_MS),
      payload: { opId: request.opId },
    });
    const intent: PlacementDoc = {
      _id: request.opId,
      userId: request.userId,
      x: request.x,
      y: request.y,
      color: request.color,
      cost,
      status: 'debiting',
      at: now,
    };
    if (!(await this.deps.store.createPlacement(intent))) {
      return this.#finish((await this.deps.store.placement(request.opId)) as PlacementDoc, true);
    }
    return this.#finish(intent, false);
  }

  /**
   * Placements in revision order after `after`, never skipping one: only revisions up to the
   * watermark are returned. `revision` is where to read on from.
   */
  async changesAfter(after: number, limit: number): Promise<Changes> {
    const committed = await this.advance();
    const events = await this.deps.store.eventsBetween(after, committed, limit);
    const revision = events.length === limit ? (events[events.length - 1] as PixelEventDoc)._id : committed;
    return { changes: events.filter((e) => e.kind !== 'void'), revision: Math.max(after, revision) };
  }

  /** Moves the watermark over every settled revision; returns it. */
  async advance(): Promise<number> {
    for (;;) {
      const canvas = await this.canvas();
      if (canvas.committed >= canvas.revision) return canvas.committed;
      const written = await this.deps.store.writtenAfter(canvas.committed, WATERMARK_SCAN);
      let to = canvas.committed;
      for (const revision of written) {
        if (revision !== to + 1) break;
        to = revision;
      }
      if (to === canvas.committed) return to;
      if (await this.deps.store.commit(canvas.committed, to, this.deps.clock.now())) {
        if (to >= canvas.revision || written.length < WATERMARK_SCAN) return to;
      }
    }
  }

  tasks(): TaskHandler[] {
    return [
      defineTask(FINISH_TASK, z.object({ opId: z.string() }), async ({ opId }) => {
        const placement = await this.deps.store.placement(opId);
        if (placement && placement.status !== 'done' && placement.status !== 'refused')
          await this.#finish(placement, true);
        await this.voidLostRevisions();
      }),
    ];
  }

  /**
   * Recovery of the watermark: a handed-out revision that no placement holds and that has
   * not been written for longer than the grace is filled with a void event.
   */
  async voidLostRevisions(): Promise<number> {
    let voided = 0;
    for (;;) {
      const committed = await this.advance();
      const canvas = await this.canvas();
      const gap = committed + 1;
      const stale = this.deps.clock.now().getTime() - canvas.committedAt.getTime() >= FINISH_AFTER_MS;
      if (
        gap > canvas.revision ||
        !stale ||
        (await this.deps.store.event(gap)) ||
        (await this.deps.store.holds(gap))
      ) {
        return voided;
      }
      await this.deps.store.appendEvent({
        _id: gap,
        revision: gap,
        kind: 'void',
        opId: null,
        x: -1,
        y: -1,
        color: -1,
        owner: null,
        at: this.deps.clock.now(),
      });
      voided++;
    }
  }

  /** Steps 2–6 from wherever the placement is (a retry, the timer, the first call). */
  async #finish(p: PlacementDoc, retry: boolean): Promise<Placed> {
    const opId = `place:${p._id}`;
    let placement = p;
    let balance: number | null = null;
    if (placement.status === 'refused')
      throw notEnoughPoints(await this.deps.economy.balance(p.userId), p.cost);
    if (placement.status === 'debiting') {
      try {
        const outcome = await this.deps.economy.payForPixel(p.userId, {
          opId,
          cost: p.cost,
          reason: `(${p.x}, ${p.y}) colour ${p.color}`,
        });
        balance = outcome.legs[0]?.balanceAfter ?? null;
      } catch (error) {
        if (!isAppError(error, 'INSUFFICIENT_PLACE_POINTS')) throw error;
        await this.deps.store.setStatus(p._id, 'refused');
        throw notEnoughPoints(Number(error.context.balance), p.cost);
      }
      const revision = await this.deps.store.allocate();
      await this.deps.afterAllocate?.(revision);
      if (!(await this.deps.store.recordRevision(p._id, revision))) {
        // Another finisher (a retry, the timer) recorded its revision first: this one is void.
        await this.#void(revision);
      }
      placement = (await this.deps.store.placement(p._id)) as PlacementDoc;
    }
    const revision = placement.revision as number;
    const event: PixelEventDoc = {
      _id: revision,
      revision,
      kind: 'place',
      opId: p._id,
      x: p.x,
      y: p.y,
      color: p.color,
      owner: p.userId,
      at: placement.at,
    };
    const written = await this.deps.store.appendEvent(event);
    await this.deps.store.applyToPixel(event);
    if (placement.status !== 'done') await this.deps.store.setStatus(p._id, 'done');
    if (!(await this.deps.store.commit(revision - 1, revision, this.deps.clock.now()))) await this.advance();
    return { revision, x: p.x, y: p.y, color: p.color, cost: p.cost, balance, replayed: retry && !written };
  }

  async #void(revision: number): Promise<void> {
    await this.deps.store.appendEvent({
      _id: revision,
      revision,
      kind: 'void',
      opId: null,
      x: -1,
      y: -1,
      color: -1,
      owner: null,
      at: this.deps.clock.now(),
    });
  }
}

/** Not enough points: the balance, the cost, and how many pixels the balance still buys. */
export function notEnoughPoints(balance: number, cost: number): AppError {
  return new AppError('INSUFFICIENT_PLACE_POINTS', `has ${balance}, needs ${cost}`, {
    balance,
    needed: cost,
    currency: 'place',
    affordable: Math.floor(balance / cost),
  });
}
