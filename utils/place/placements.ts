import type { Clock } from '../../src/clock.js';
import { CONFLICT, CONFLICT_RETRY_LIMIT, retryOnConflict } from '../../src/db/retryOnConflict.js';
import { AppError, featureDisabled, invalidInputText, isAppError } from '../../src/errors.js';
import type { SanctionCheck } from '../../src/interactions/types.js';
import type { RuntimeConfig } from '../../src/runtimeConfig/runtimeConfig.js';
import type { PlaceEconomy } from '../money/placeEconomy.js';
import type { Painter } from './areas.js';
import { PALETTE } from './palette.js';
import type { PlacementDoc } from './placementStore.js';
import type { PixelEventDoc, PlaceStore } from './placeStore.js';

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

/** One member's request for one pixel; `opId` is the id their request carried. */
export interface PlaceRequest {
  opId: string;
  userId: string;
  x: number;
  y: number;
  color: number;
  /** Who paints, for protected areas; absent: a member with no roles. */
  painter?: Painter;
}

interface PlacementDeps {
  store: PlaceStore;
  economy: PlaceEconomy;
  runtimeConfig: RuntimeConfig;
  clock: Clock;
  /** Test hook: what happens between handing out a revision and writing it (a delay, a crash). */
  afterAllocate?: (revision: number) => Promise<void>;
  /** The canvas's size, for the placement's bounds. */
  size(): Promise<{ width: number; height: number }>;
  /** Cost of one pixel in milli-points. */
  pixelCost(): Promise<number>;
  /** Schedules this minute's sweep, which finishes what a placement leaves unfinished. */
  ensureSweep(now: Date): Promise<void>;
  /**
   * A revision was written: the watermark may move, and the grief check of this window is
   * planned before the placement answers. It never rejects: the placement stands either way.
   */
  written(): Promise<void>;
  /** Fills a revision handed out and not used. */
  voidRevision(revision: number): Promise<void>;
  /** Refuses a painter on a pixel protected from them (areas.ts). */
  refuseProtected(x: number, y: number, painter: Painter): Promise<void>;
  /** The moderators' bans (utils/moderation/); absent, nobody is banned. */
  sanctions?: SanctionCheck;
}

/** A member's placement of one pixel, steps 1–5 (PlaceService), from the request or from wherever it stopped. */
export class PlacePlacements {
  constructor(private readonly deps: PlacementDeps) {}

  async place(request: PlaceRequest): Promise<Placed> {
    if (!(await this.deps.runtimeConfig.get('place_enabled')))
      throw featureDisabled('place:errors.disabled', 'place_enabled');
    refuseOutside(await this.deps.size(), request.x, request.y);
    if (!Number.isInteger(request.color) || request.color < 0 || request.color >= PALETTE.length) {
      throw invalidInputText(`no colour ${request.color}`, 'place:errors.color', { max: PALETTE.length - 1 });
    }
    // Checked once, before anything is stored: a placement asked before its pixel's area was
    // made goes through; one asked after is refused and leaves nothing (a retry of a placement
    // already stored is the answer it had).
    const id = placementId(request.userId, request.opId);
    const painter = request.painter ?? { isModerator: false, roleIds: [] };
    await this.deps.refuseProtected(request.x, request.y, painter).catch(async (error) => {
      if (!(await this.deps.store.placements.get(id))) throw error;
    });
    // A moderator's ban, asked at the same moment and kept the same way: a placement stored
    // before the ban landed finishes (it was accepted); the next one is refused.
    await this.deps.sanctions?.refuse(request.userId, 'painting').catch(async (error) => {
      if (!(await this.deps.store.placements.get(id))) throw error;
    });
    const cost = await this.deps.pixelCost();
    const now = this.deps.clock.now();
    await this.deps.ensureSweep(now);
    const intent: PlacementDoc = {
      _id: id,
      userId: request.userId,
      x: request.x,
      y: request.y,
      color: request.color,
      cost,
      status: 'debiting',
      at: now,
    };
    if (!(await this.deps.store.placements.create(intent))) {
      const earlier = (await this.deps.store.placements.get(intent._id)) as PlacementDoc;
      // The id first, the balance after: an id used for another pixel is refused as such,
      // whatever became of its first placement.
      if (earlier.x !== intent.x || earlier.y !== intent.y || earlier.color !== intent.color) {
        throw new AppError(
          'OPERATION_ID_REUSED',
          `placement ${intent._id} was (${earlier.x}, ${earlier.y}) colour ${earlier.color}`,
        );
      }
      return this.finish(earlier, true);
    }
    return this.finish(intent, false);
  }

  /** Steps 2–6 from wherever the placement is (a retry, the timer, the first call). */
  async finish(p: PlacementDoc, retry: boolean): Promise<Placed> {
    const placed = (event: PixelEventDoc, balance: number | null, replayed: boolean): Placed => ({
      revision: event.revision,
      x: p.x,
      y: p.y,
      color: p.color,
      cost: p.cost,
      balance,
      replayed,
    });
    // A retry, or the sweep: the placement's event, if written, is the answer.
    const earlier = retry ? await this.deps.store.eventOf(p._id) : null;
    if (earlier) {
      await this.deps.store.applyToPixel(earlier);
      return placed(earlier, null, true);
    }
    // A refused placement asked again (the same id, the same pixel) asks the wallet again: the
    // member may have the points now. It is reopened first, so that if this process dies after
    // paying, the sweep finishes it.
    if (p.status === 'refused') await this.deps.store.placements.reopen(p._id);
    let balance: number | null = null;
    try {
      const outcome = await this.deps.economy.payForPixel(p.userId, {
        opId: `place:${p._id}`,
        cost: p.cost,
        reason: `(${p.x}, ${p.y}) colour ${p.color}`,
      });
      balance = outcome.legs[0]?.balanceAfter ?? null;
    } catch (error) {
      if (!isAppError(error, 'INSUFFICIENT_PLACE_POINTS')) throw error;
      await this.deps.store.placements.refuse(p._id);
      throw notEnoughPoints(Number(error.context.balance), p.cost);
    }
    return retryOnConflict(
      CONFLICT_RETRY_LIMIT,
      async () => {
        const revision = await this.deps.store.allocate();
        await this.deps.afterAllocate?.(revision);
        const event: PixelEventDoc = {
          _id: revision,
          revision,
          kind: 'place',
          opId: p._id,
          x: p.x,
          y: p.y,
          color: p.color,
          owner: p.userId,
          cost: p.cost,
          at: p.at,
        };
        if (await this.deps.store.appendEvent(event)) {
          await this.deps.store.applyToPixel(event);
          await this.deps.written();
          return placed(event, balance, false);
        }
        // Not written: either another finisher wrote this placement first (its event has the
        // placement's id, unique), or recovery voided this revision while it waited. The first
        // leaves this revision to be voided; the second needs a fresh revision.
        const other = await this.deps.store.eventOf(p._id);
        if (other) {
          await this.deps.voidRevision(revision);
          await this.deps.store.applyToPixel(other);
          return placed(other, balance, true);
        }
        return CONFLICT;
      },
      `writing placement ${p._id}`,
    );
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

/**
 * A placement's id: the member's, then the id their request carried (a Discord interaction, a
 * console line, a web Idempotency-Key). Two members can never share one placement, whatever
 * ids their clients make.
 */
export function placementId(userId: string, opId: string): string {
  return `${userId}:${opId}`;
}

/** A coordinate off the canvas is refused with the canvas's bounds (a placement, `/place info`). */
export function refuseOutside(canvas: { width: number; height: number }, x: number, y: number): void {
  if (Number.isInteger(x) && Number.isInteger(y) && x >= 0 && y >= 0 && x < canvas.width && y < canvas.height)
    return;
  throw invalidInputText(`(${x}, ${y}) is outside the canvas`, 'place:errors.outside', {
    x,
    y,
    maxX: canvas.width - 1,
    maxY: canvas.height - 1,
  });
}
