import pLimit from 'p-limit';
import type { Clock } from '../../src/clock.js';
import type { Config } from '../../src/config.js';
import { invalidInputText } from '../../src/errors.js';
import type { SanctionCheck } from '../../src/interactions/types.js';
import type { Logger } from '../../src/logger.js';
import type { Rng } from '../../src/rng.js';
import type { RuntimeConfig } from '../../src/runtimeConfig/runtimeConfig.js';
import type { Scheduler, TaskHandler } from '../../src/scheduler/scheduler.js';
import { MILLI_PER_POINT } from '../money/amounts.js';
import type { Holds } from '../money/holds/holds.js';
import type { PlaceEconomy } from '../money/placeEconomy.js';
import type { AreaStore } from './areaStore.js';
import { PlaceAreas } from './areas.js';
import { type Changes, PlaceBoard } from './board.js';
import { placeInvariantProblems } from './canvasChecks.js';
import { type HistoryPage, pixelHistory } from './history.js';
import type { LogCursor, ModerationLogDoc } from './moderationLogStore.js';
import { type Placed, PlacePlacements, type PlaceRequest, placementId, refuseOutside } from './placements.js';
import type { CanvasDoc, PlaceStore } from './placeStore.js';
import { PlaceViews } from './placeViews.js';
import { PlacePosts } from './posts.js';
import { type Replay, replayCanvas } from './replay.js';
import { PlaceRollbacks } from './rollbacks.js';
import { placeLeaderboard, placeStanding } from './standings.js';
import { PlaceSweep } from './sweep.js';
import type { TemplateStore } from './templateStore.js';
import { PlaceTemplates } from './templates.js';
import { PlaceWatermark } from './watermark.js';

declare module '../../src/features/services.js' {
  interface FeatureServices {
    place: PlaceService;
  }
}

/** The largest canvas an admin may resize to (the renderer's board then takes 4 MB). */
export const MAX_SIDE = 2_048;

export type { Changes } from './board.js';

interface PlaceDeps {
  store: PlaceStore;
  areaStore: AreaStore;
  templateStore: TemplateStore;
  economy: PlaceEconomy;
  holds: Holds;
  rng: Rng;
  /** Test hook: what happens between handing out a revision and writing it (a delay, a crash). */
  afterAllocate?: (revision: number) => Promise<void>;
  /** The moderators' bans: a member banned from painting is refused every placement. */
  sanctions?: SanctionCheck;
  runtimeConfig: RuntimeConfig;
  scheduler: Scheduler;
  clock: Clock;
  config: Config;
  log: Logger;
}

/**
 * The canvas (ECONOMY.md, "Neural Place"). A placement, with an operation id from the interaction:
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
/** The canvas as it stood after one version: its number and when that version was painted (null before any). */
export type { Replay, ReplayFrame } from './replay.js';

export class PlaceService {
  #board: Promise<PlaceBoard> | null = null;
  #sizeCache: { width: number; height: number; at: number } | null = null;
  /** One catch-up at a time: batches must be applied in revision order. */
  readonly #catchUp = pLimit(1);

  /** Moderators' rollbacks of a member's pixels (rollbacks.ts). */
  readonly rollbacks: PlaceRollbacks;
  /** The heatmap and the dataset (placeViews.ts). */
  readonly views: PlaceViews;
  /** Protected areas (areas.ts). */
  readonly areas: PlaceAreas;
  /** Factions' templates and the grief check (templates.ts). */
  readonly templates: PlaceTemplates;
  /** The watermark and its recovery (watermark.ts). */
  readonly #watermark: PlaceWatermark;
  /** The community post's timer and report (posts.ts). */
  readonly #posts: PlacePosts;
  /** The recovery of unfinished and refused placements (sweep.ts). */
  readonly #sweep: PlaceSweep;
  /** Placements, steps 1–5 (placements.ts). */
  readonly #placements: PlacePlacements;

  constructor(private readonly deps: PlaceDeps) {
    const canvas = () => this.canvas();
    this.areas = new PlaceAreas({
      areas: deps.areaStore,
      log: deps.store.moderationLog,
      clock: deps.clock,
      size: () => this.size(),
    });
    this.#watermark = new PlaceWatermark({ ...deps, canvas });
    this.#posts = new PlacePosts({ ...deps, canvas, advance: () => this.advance() });
    this.#sweep = new PlaceSweep({
      ...deps,
      finish: (p, retry) => this.#placements.finish(p, retry),
      voidLostRevisions: () => this.voidLostRevisions(),
      schedulePost: (now) => this.schedulePost(now),
    });
    this.#placements = new PlacePlacements({
      ...deps,
      size: () => this.size(),
      pixelCost: () => this.pixelCost(),
      ensureSweep: (now) => this.#sweep.ensureScheduled(now),
      written: async () => {
        // The watermark moves in the background (coalesced); readers move it too.
        this.#watermark.advanceSoon();
        // Awaited, so a placement that answered has its window's grief check stored (one write
        // per window per process). A failure leaves the placement standing; the window's next
        // placement plans the check again.
        await this.templates.placed().catch((err: unknown) => {
          deps.log.warn(
            { event: 'place.template_guard_unscheduled', err },
            'the grief check was not scheduled',
          );
        });
      },
      voidRevision: (revision) => this.#watermark.voidRevision(revision),
      refuseProtected: (x, y, painter) => this.areas.refuse(x, y, painter),
    });
    this.templates = new PlaceTemplates({
      templates: deps.templateStore,
      scheduler: deps.scheduler,
      clock: deps.clock,
      size: () => this.size(),
      board: () => this.board(),
      changesAfter: (after, limit) => this.changesAfter(after, limit),
      eventBefore: (x, y, revision) => deps.store.history.eventBefore(x, y, revision),
      advance: () => this.advance(),
    });
    this.views = new PlaceViews({
      ...deps,
      board: () => this.board(),
      canvas: () => this.canvas(),
    });
    this.rollbacks = new PlaceRollbacks({
      ...deps,
      canvas,
      written: () => this.#watermark.advanceSoon(),
      voidRevision: (revision) => this.#watermark.voidRevision(revision),
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
    return this.deps.store.canvas(this.deps.config.place, this.deps.clock.now(), () =>
      this.deps.rng.secret(32),
    );
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

  /**
   * Points a moderator takes back: at most the wallet's balance (a placement paid and not yet
   * painted is not in it), burned. Returns what was taken and the balance after.
   */
  clawback(clawback: {
    opId: string;
    moderatorId: string;
    from: string;
    amount: number;
    reason: string;
  }): Promise<{ taken: number; balance: number }> {
    return this.deps.economy.clawBack(clawback.from, {
      opId: clawback.opId,
      amount: clawback.amount,
      source: clawback.moderatorId,
      reason: clawback.reason,
    });
  }

  /** The wallet as the ledger keeps it (every placement and credit); members see `standing`. */
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
    return placeInvariantProblems(this.deps.store, this.deps.economy, this.deps.clock.now());
  }

  /** The canvas replayed between two revisions, cropped to what was painted in them (replay.ts). */
  async replay(
    from: number,
    to: number,
    maxFrames: number,
    maxSide = Number.POSITIVE_INFINITY,
  ): Promise<Replay> {
    const canvas = await this.canvas();
    const top = Math.min(to, await this.advance());
    const start = Math.max(0, Math.min(from, top));
    return replayCanvas(
      this.deps.store,
      canvas,
      { from: start, to: top },
      { frames: maxFrames, side: maxSide },
    );
  }

  /** The most pixels painted and the most points earned, rollbacks and refunds left out (standings.ts). */
  leaderboard(size: number) {
    return placeLeaderboard({ economy: this.deps.economy, rollbacks: this.deps.store.rollbacks }, size);
  }

  /** A member's figures as members see them: rollbacks and refunds left out (standings.ts). */
  standing(identity: string) {
    return placeStanding({ economy: this.deps.economy, rollbacks: this.deps.store.rollbacks }, identity);
  }

  /**
   * How many of a member's placements are asked and not yet on the canvas: their event not
   * written (one written waits only for the sweep to mark it done).
   */
  async unfinishedOf(userId: string): Promise<number> {
    let open = 0;
    for (const p of await this.deps.store.placements.unfinishedOfMember(userId, new Date(0))) {
      if (!(await this.deps.store.eventOf(p._id))) open++;
    }
    return open;
  }

  /** Whether a member's placement of this operation id was asked for (kept a day): a press again is its answer. */
  async asked(userId: string, opId: string): Promise<boolean> {
    return (await this.deps.store.placements.get(placementId(userId, opId))) !== null;
  }

  /** A pixel's current state and how often it was painted (null: never; off the canvas: refused). */
  /** Where a member painted last (their newest placement), or null before their first. */
  async lastPixelOf(identity: string): Promise<{ x: number; y: number } | null> {
    const [last] = await this.deps.store.history.ofMember(identity, Number.MAX_SAFE_INTEGER, 1);
    return last ? { x: last.x, y: last.y } : null;
  }

  async pixelInfo(x: number, y: number) {
    refuseOutside(await this.size(), x, y);
    const pixel = await this.deps.store.pixel(x, y);
    if (!pixel) return null;
    return { pixel, painted: await this.deps.store.paintedCount(x, y) };
  }

  /** Placements and rollback steps for moderators, newest first (history.ts). */
  async history(query: Parameters<typeof pixelHistory>[2]): Promise<HistoryPage> {
    return pixelHistory(this.deps.store, (await this.canvas()).revision, query);
  }

  /** The public moderation log, newest first: rollbacks applied, areas protected and unprotected. */
  moderationLog(before: LogCursor | null, limit: number): Promise<ModerationLogDoc[]> {
    return this.deps.store.moderationLog.page(before, limit);
  }

  /** Cost of one pixel in milli-points. */
  async pixelCost(): Promise<number> {
    return (await this.deps.runtimeConfig.get('place_pixel_cost')) * MILLI_PER_POINT;
  }

  /** A member's placement of one pixel (placements.ts). */
  place(request: PlaceRequest): Promise<Placed> {
    return this.#placements.place(request);
  }

  /**
   * Placements in revision order after `after`, never skipping one: only revisions up to the
   * watermark are returned. `revision` is where to read on from.
   */
  async changesAfter(after: number, limit: number, options: { advance?: boolean } = {}): Promise<Changes> {
    // A reader that polls often (the live feed) may leave moving the watermark to the placers,
    // which move it right after each placement, and read it as it stands: one query, not three.
    const committed = options.advance === false ? (await this.canvas()).committed : await this.advance();
    // Nothing new (nearly every tick of a live feed): no read of the events at all.
    if (committed <= after) return { changes: [], revision: after };
    const events = await this.deps.store.eventsBetween(after, committed, limit);
    // Every revision up to the watermark has its event: all of (after, through] were read.
    const through = Math.min(committed, after + limit);
    return { changes: events.filter((e) => e.kind !== 'void'), revision: Math.max(after, through) };
  }

  /** Moves the watermark over every settled revision; returns it (watermark.ts). */
  advance(): Promise<number> {
    return this.#watermark.advance();
  }

  tasks(): TaskHandler[] {
    return [this.#sweep.task(), this.rollbacks.task()];
  }

  /** Recovery, once a minute while placements happen (sweep.ts). */
  sweep(): Promise<{ finished: number; voided: number }> {
    return this.#sweep.run();
  }

  /** The community post's timer, one durable task per interval (posts.ts). */
  schedulePost(now?: Date): Promise<void> {
    return this.#posts.schedule(now);
  }

  /** What the next community post shows, or null when nothing changed (posts.ts). */
  postReport() {
    return this.#posts.report();
  }

  markPosted(from: number, to: number): Promise<boolean> {
    return this.#posts.markPosted(from, to);
  }

  /** Fills the revisions handed out and lost, so the watermark moves on (watermark.ts). */
  voidLostRevisions(): Promise<number> {
    return this.#watermark.voidLostRevisions();
  }
}
