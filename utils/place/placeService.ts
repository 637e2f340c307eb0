import pLimit from 'p-limit';
import { z } from 'zod';
import type { Clock } from '../../src/clock.js';
import type { Config } from '../../src/config.js';
import { AppError, featureDisabled, invalidInputText, isAppError } from '../../src/errors.js';
import type { Rng } from '../../src/rng.js';
import type { RuntimeConfig } from '../../src/runtimeConfig/runtimeConfig.js';
import { defineTask, type Scheduler, type TaskHandler } from '../../src/scheduler/scheduler.js';
import { MILLI_PER_POINT } from '../amounts.js';
import type { Holds } from '../holds/holds.js';
import type { PlaceEconomy } from '../placeEconomy.js';
import { PlaceBoard } from './board.js';
import { PALETTE } from './palette.js';
import type { CanvasDoc, PixelEventDoc, PlacementDoc, PlaceStore } from './placeStore.js';
import { PlaceRollbacks } from './rollbacks.js';

declare module '../../src/features/feature.js' {
  interface FeatureServices {
    place: PlaceService;
  }
}

/** The largest canvas an admin may resize to (the renderer's board then takes 4 MB). */
export const MAX_SIDE = 2_048;
const SWEEP_TASK = 'place.sweep';
export const POST_TASK = 'place.post';
/** A placement left unfinished is finished (or a handed-out revision voided) after this grace, by the sweep. */
const FINISH_AFTER_MS = 60_000;
/**
 * How long the sweep keeps an eye on a refused placement, in case another finisher paid for it
 * after all (past the ledger's recovery grace, which rolls an interrupted payment forward).
 */
const REFUSAL_WATCH_MS = 10 * 60_000;
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
  holds: Holds;
  rng: Rng;
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
  #board: Promise<PlaceBoard> | null = null;
  /** The minute whose sweep this process already scheduled (one write a minute, not one a placement). */
  #sweepScheduledFor = -1;
  /** Coalesces watermark moves: at most one running, at most one more queued. */
  #advancing: Promise<number> | null = null;
  #advanceAgain = false;
  #sizeCache: { width: number; height: number; at: number } | null = null;
  /** One catch-up at a time: batches must be applied in revision order. */
  readonly #catchUp = pLimit(1);

  /** Moderators' rollbacks of a member's pixels (rollbacks.ts). */
  readonly rollbacks: PlaceRollbacks;

  constructor(private readonly deps: PlaceDeps) {
    this.rollbacks = new PlaceRollbacks({
      ...deps,
      canvas: () => this.canvas(),
      written: () => this.#advanceSoon(),
      voidRevision: (revision) => this.#void(revision),
    });
  }

  /**
   * The in-memory board, loaded from `place_pixels` on first use and brought up to the
   * watermark from the changes feed on every call (renders never scan the pixels again).
   */
  async board(): Promise<PlaceBoard> {
    this.#board ??= this.canvas().then((canvas) => PlaceBoard.load(canvas, this.deps.store.allPixels()));
    const board = await this.#board;
    return this.#catchUp(async () => {
      const canvas = await this.canvas();
      board.resize(canvas.width, canvas.height);
      for (;;) {
        const feed = await this.changesAfter(board.revision, 5_000);
        const before = board.revision;
        board.apply(feed);
        if (feed.changes.length === 0 || board.revision === before) return board;
      }
    });
  }

  canvas(): Promise<CanvasDoc> {
    return this.deps.store.canvas(this.deps.config.place, this.deps.clock.now());
  }

  /**
   * The canvas's size for checking a placement's bounds, read at most once a second per
   * process (one read fewer per placement). A resize elsewhere is seen within a second; a
   * pixel placed outside a canvas shrunk in that second is outside every picture.
   */
  async size(): Promise<{ width: number; height: number }> {
    const now = this.deps.clock.now().getTime();
    if (!this.#sizeCache || now - this.#sizeCache.at > 1_000) {
      const canvas = await this.canvas();
      this.#sizeCache = { width: canvas.width, height: canvas.height, at: now };
    }
    return this.#sizeCache;
  }

  /** Points from a moderator (positive, up to 0.001), audited with the granter as the source. */
  grant(grant: {
    opId: string;
    moderatorId: string;
    to: string;
    amount: number;
    reason: string;
    source?: string;
  }) {
    return this.deps.economy.grant(grant.to, {
      opId: grant.opId,
      amount: grant.amount,
      source: grant.source ?? grant.moderatorId,
      reason: grant.reason,
    });
  }

  wallet(identity: string) {
    return this.deps.economy.wallet(identity);
  }

  /**
   * Resizes the canvas. Enlarging works up to MAX_SIDE; shrinking is refused while any set
   * pixel would fall outside, naming how many and their bounding box. Returns the old size.
   */
  async resize(width: number, height: number): Promise<{ width: number; height: number }> {
    if (width > MAX_SIDE || height > MAX_SIDE || width < 1 || height < 1) {
      throw invalidInputText(`${width}×${height} is outside 1..${MAX_SIDE}`, 'place:errors.size', {
        max: MAX_SIDE,
      });
    }
    const canvas = await this.canvas();
    if (width < canvas.width || height < canvas.height) {
      const outside = await this.deps.store.outside(width, height);
      if (outside.count > 0 && outside.box) {
        const [x0, y0, x1, y1] = outside.box;
        throw invalidInputText(`${outside.count} set pixels would fall outside`, 'place:errors.shrink', {
          count: outside.count,
          box: `(${x0}, ${y0})–(${x1}, ${y1})`,
          width,
          height,
        });
      }
    }
    await this.deps.store.resize(width, height);
    this.#sizeCache = null;
    return { width: canvas.width, height: canvas.height };
  }

  invariantProblems(): Promise<string[]> {
    return placeInvariantProblems(this.deps.store, this.deps.economy);
  }

  /**
   * The canvas replayed from its events between two revisions, as up to `maxFrames` boards
   * evenly spaced by revision (the last is the board at `to`). Replays from revision 0, so
   * every frame is exact; reads the events in batches, never the pixels.
   */
  async replay(
    from: number,
    to: number,
    maxFrames: number,
  ): Promise<{ frames: Uint8Array[]; width: number; height: number; from: number; to: number }> {
    const canvas = await this.canvas();
    const top = Math.min(to, await this.advance());
    const start = Math.max(0, Math.min(from, top));
    const board = new PlaceBoard(canvas.width, canvas.height);
    const frames: Uint8Array[] = [];
    const step = Math.max(1, Math.ceil((top - start) / Math.max(1, maxFrames - 1)));
    let nextFrame = start;
    let cursor = 0;
    if (start === 0) {
      frames.push(board.pixels.slice());
      nextFrame = step;
    }
    while (cursor < top) {
      const events = await this.deps.store.eventsBetween(cursor, top, 5_000);
      if (events.length === 0) break;
      for (const e of events) {
        if (e.kind !== 'void') board.set(e.x, e.y, e.color);
        if (e.revision >= nextFrame && e.revision >= start && frames.length < maxFrames - 1) {
          frames.push(board.pixels.slice());
          nextFrame = e.revision + step;
        }
      }
      cursor = (events[events.length - 1] as PixelEventDoc).revision;
    }
    frames.push(board.pixels.slice());
    return { frames, width: canvas.width, height: canvas.height, from: start, to: top };
  }

  /** The most placements and the most points earned (`/place leaderboard`). */
  async leaderboard(size: number) {
    const [placements, earned] = await Promise.all([
      this.deps.economy.top('placements', size),
      this.deps.economy.top('earned', size),
    ]);
    return { placements, earned };
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
    if (!(await this.deps.runtimeConfig.get('place_enabled')))
      throw featureDisabled('place:errors.disabled', 'place_enabled');
    const canvas = await this.size();
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
    const now = this.deps.clock.now();
    await this.#ensureSweep(now);
    const intent: PlacementDoc = {
      _id: placementId(request.userId, request.opId),
      userId: request.userId,
      x: request.x,
      y: request.y,
      color: request.color,
      cost,
      status: 'debiting',
      at: now,
    };
    if (!(await this.deps.store.createPlacement(intent))) {
      const earlier = (await this.deps.store.placement(intent._id)) as PlacementDoc;
      // The id first, the balance after: an id used for another pixel is refused as such,
      // whatever became of its first placement.
      if (earlier.x !== intent.x || earlier.y !== intent.y || earlier.color !== intent.color) {
        throw new AppError(
          'OPERATION_ID_REUSED',
          `placement ${intent._id} was (${earlier.x}, ${earlier.y}) colour ${earlier.color}`,
        );
      }
      return this.#finish(earlier, true);
    }
    return this.#finish(intent, false);
  }

  /**
   * Placements in revision order after `after`, never skipping one: only revisions up to the
   * watermark are returned. `revision` is where to read on from.
   */
  async changesAfter(after: number, limit: number, options: { advance?: boolean } = {}): Promise<Changes> {
    // A reader that polls often (the live feed) may leave moving the watermark to the placers,
    // which move it right after each placement, and read it as it stands: one query, not three.
    const committed = options.advance === false ? (await this.canvas()).committed : await this.advance();
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
      defineTask(SWEEP_TASK, z.object({ minute: z.number().int() }), async () => {
        await this.sweep();
      }),
      this.rollbacks.task(),
    ];
  }

  /**
   * Recovery, once a minute while placements happen: finishes every placement left unfinished
   * for longer than the grace (a crash, a lost reply), then voids lost revisions so the
   * watermark moves on.
   */
  async sweep(): Promise<{ finished: number; voided: number }> {
    let finished = 0;
    // A refusal recorded while another finisher of the same placement paid (a retry that raced
    // it, or the ledger's recovery rolling a payment forward): paid is paid, so it is finished.
    const now = this.deps.clock.now();
    const paidAfterAll: PlacementDoc[] = [];
    let watching = false;
    for (const refused of await this.deps.store.refusedSince(new Date(now.getTime() - REFUSAL_WATCH_MS))) {
      if (await this.deps.economy.paidForPixel(`place:${refused._id}`)) paidAfterAll.push(refused);
      else watching = true;
    }
    // Refusals still watched: the sweep comes back next minute, placements or not.
    if (watching) await this.#ensureSweep(now);
    const before = new Date(now.getTime() - FINISH_AFTER_MS);
    for (const placement of [...(await this.deps.store.unfinished(before)), ...paidAfterAll]) {
      if (await this.deps.store.eventOf(placement._id)) {
        await this.deps.store.setStatus(placement._id, 'done');
        continue;
      }
      await this.#finish(placement, true).catch(() => undefined);
      finished++;
    }
    return { finished, voided: await this.voidLostRevisions() };
  }

  async #ensureSweep(now: Date): Promise<void> {
    const minute = Math.floor(now.getTime() / 60_000);
    if (minute === this.#sweepScheduledFor) return;
    this.#sweepScheduledFor = minute;
    await this.deps.scheduler.schedule({
      id: `${SWEEP_TASK}:${minute}`,
      kind: SWEEP_TASK,
      dueAt: new Date((minute + 1) * 60_000 + FINISH_AFTER_MS),
      payload: { minute },
    });
    await this.schedulePost(now);
  }

  /**
   * The community post's timer: one durable task per interval (`place_post_interval_min`),
   * due at the interval's end. The scheduler's lease runs each in exactly one process, also
   * when sharded; each run schedules the next, and a placement schedules it when none is.
   */
  async schedulePost(now: Date = this.deps.clock.now()): Promise<void> {
    const intervalMs = (await this.deps.runtimeConfig.get('place_post_interval_min')) * 60_000;
    const bucket = Math.floor(now.getTime() / intervalMs);
    await this.deps.scheduler.schedule({
      id: `${POST_TASK}:${intervalMs}:${bucket}`,
      kind: POST_TASK,
      dueAt: new Date((bucket + 1) * intervalMs),
      payload: { bucket },
    });
  }

  /** What the next community post shows: the revisions since the last post, or null when nothing changed. */
  async postReport(): Promise<{
    from: number;
    to: number;
    since: Date | null;
    count: number;
    painters: number;
    top: { owner: string; count: number }[];
  } | null> {
    const to = await this.advance();
    const canvas = await this.canvas();
    const from = canvas.postedRevision ?? 0;
    if (to <= from) return null;
    return { from, to, since: canvas.postedAt ?? null, ...(await this.deps.store.period(from, to)) };
  }

  markPosted(from: number, to: number): Promise<boolean> {
    return this.deps.store.markPosted(from, to, this.deps.clock.now());
  }

  /** Moves the watermark in the background, coalescing concurrent requests into one run at a time. */
  #advanceSoon(): void {
    if (this.#advancing) {
      this.#advanceAgain = true;
      return;
    }
    this.#advancing = this.advance().finally(() => {
      this.#advancing = null;
      if (this.#advanceAgain) {
        this.#advanceAgain = false;
        this.#advanceSoon();
      }
    });
    this.#advancing.catch(() => undefined);
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
      if (gap > canvas.revision || !stale || (await this.deps.store.event(gap))) {
        return voided;
      }
      await this.deps.store.appendEvent(voidEvent(gap, this.deps.clock.now()));
      voided++;
    }
  }

  /** Steps 2–6 from wherever the placement is (a retry, the timer, the first call). */
  async #finish(p: PlacementDoc, retry: boolean): Promise<Placed> {
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
    if (p.status === 'refused') await this.deps.store.reopen(p._id);
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
      await this.deps.store.refuse(p._id);
      throw notEnoughPoints(Number(error.context.balance), p.cost);
    }
    for (;;) {
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
        // The watermark moves in the background (coalesced); readers move it too.
        this.#advanceSoon();
        return placed(event, balance, false);
      }
      // Not written: either another finisher wrote this placement first (its event has the
      // placement's id, unique), or recovery voided this revision while it waited. The first
      // leaves this revision to be voided; the second needs a fresh revision.
      const other = await this.deps.store.eventOf(p._id);
      if (other) {
        await this.#void(revision);
        await this.deps.store.applyToPixel(other);
        return placed(other, balance, true);
      }
    }
  }

  async #void(revision: number): Promise<void> {
    await this.deps.store.appendEvent(voidEvent(revision, this.deps.clock.now()));
  }
}

/** The filler of a revision handed out and never used. */
function voidEvent(revision: number, at: Date): PixelEventDoc {
  return {
    _id: revision,
    revision,
    kind: 'void',
    x: -1,
    y: -1,
    color: -1,
    owner: null,
    cost: 0,
    at,
  };
}

/**
 * The invariants of the canvas (`npm run check:invariants`): every wallet's `spent` and
 * `placements` equal the cost and count of its placement events, and every pixel equals its
 * newest event.
 */
export async function placeInvariantProblems(store: PlaceStore, economy: PlaceEconomy): Promise<string[]> {
  const { byOwner, pixelProblems } = await store.audit();
  const problems = [...pixelProblems];
  for (const [owner, books] of byOwner) {
    const wallet = await economy.wallet(owner);
    if (wallet.spent !== books.cost || wallet.placements !== books.placements) {
      problems.push(
        `place wallet ${owner}: spent ${wallet.spent} in ${wallet.placements} placements, its events say ${books.cost} in ${books.placements}`,
      );
    }
  }
  return problems;
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
