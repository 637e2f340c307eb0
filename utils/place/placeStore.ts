import type { Collection, Db } from 'mongodb';
import { dropRetiredIndex, JOURNALED } from '../../src/db/collections.js';
import { isDuplicateKey } from '../../src/db/duplicateKey.js';
import { inChunks } from '../../src/db/inChunks.js';
import { TurnBatcher } from '../money/ledger/turnBatcher.js';
import { insertEach, writeEach } from './bulkWriteStore.js';
import { ModerationLogStore } from './moderationLogStore.js';
import { type PixelEventDoc, PixelHistoryStore } from './pixelHistoryStore.js';

export type { PixelEventDoc };

import { PlacementStore } from './placementStore.js';
import { ROLLBACKS, RollbackStore } from './rollbackStore.js';

/**
 * The canvas: `revision` is the last revision handed out (a counter), `committed` the
 * watermark: every revision up to it is settled (its event is written, or it was voided by
 * recovery), so a reader of the changes feed never passes over one still being written.
 */
export interface CanvasDoc {
  _id: 'canvas';
  revision: number;
  committed: number;
  /** When the watermark last moved: a gap older than the recovery grace is voided. */
  committedAt: Date;
  width: number;
  height: number;
  /** The revision the last community post showed, and when it went out. */
  postedRevision?: number;
  postedAt?: Date;
  /** The key of the painters' pseudonyms in the published dataset (dataset.ts), made once. */
  datasetKey?: string;
}

/** The current state of one set pixel. */
export interface PixelDoc {
  _id: string;
  x: number;
  y: number;
  color: number;
  owner: string;
  revision: number;
  at: Date;
}

/** The canvas document, its pixels, and the history of every pixel change (one event per revision). */
const CANVAS = 'place_state';
const PIXELS = 'place_pixels';
const PIXEL_EVENTS = 'place_pixel_events';

/** The only code that touches the canvas collections (the wallets are the ledger's). */
export class PlaceStore {
  readonly #canvas: Collection<CanvasDoc>;
  readonly #pixels: Collection<PixelDoc>;
  readonly #events: Collection<PixelEventDoc>;
  /** Placements between asked and written (placementStore.ts). */
  readonly placements: PlacementStore;
  /** Moderators' rollbacks (rollbackStore.ts). */
  readonly rollbacks: RollbackStore;
  /** The events as moderators read them, newest first (pixelHistoryStore.ts). */
  readonly history: PixelHistoryStore;
  /** What members read of moderation: rollbacks and protected areas (moderationLogStore.ts). */
  readonly moderationLog: ModerationLogStore;
  /**
   * Placements arriving in the same turn of the event loop share their writes: one `$inc` of
   * the revision counter hands out a block of revisions, one unordered `insertMany` writes
   * their intents or their events, one unordered `bulkWrite` their pixels. Each caller still
   * gets its own answer (a duplicate is that caller's `false`), so batching changes no outcome
   * (`npm run bench:place`).
   */
  readonly #revisions = new TurnBatcher<true, number>(async (calls) => {
    const before = await this.#canvas.findOneAndUpdate(
      { _id: 'canvas' },
      { $inc: { revision: calls.length } },
      { returnDocument: 'before' },
    );
    if (!before) throw new Error('the canvas does not exist');
    return calls.map((_, i) => ({ status: 'fulfilled', value: before.revision + 1 + i }));
  });
  readonly #eventInserts = new TurnBatcher<PixelEventDoc, boolean>((docs) => insertEach(this.#events, docs));
  readonly #pixelWrites = new TurnBatcher<PixelEventDoc, void>(async (events) => {
    const ops = events.map((event) => ({
      updateOne: {
        filter: { _id: `${event.x}:${event.y}`, revision: { $lt: event.revision } },
        update: {
          $set: {
            x: event.x,
            y: event.y,
            color: event.color,
            owner: event.owner ?? '',
            revision: event.revision,
            // A restored pixel shows when its state was painted, not when it was restored.
            at: event.paintedAt ?? event.at,
          },
        },
        upsert: true,
      },
    }));
    // Two first writes of one pixel race on the upsert: the loser (11000) may be the newer
    // one, so it is written again as a plain guarded update, which applies only if newer.
    const collided: number[] = [];
    const results = await writeEach(
      ops.length,
      () => this.#pixels.bulkWrite(ops, { ordered: false }),
      (i) => this.#pixels.bulkWrite([ops[i] as (typeof ops)[number]]),
      (i) => collided.push(i),
    );
    await Promise.all(
      collided.map((i) => {
        const op = (ops[i] as (typeof ops)[number]).updateOne;
        return this.#pixels.updateOne(op.filter, op.update);
      }),
    );
    return results;
  });

  constructor(db: Db) {
    const journaled = { writeConcern: JOURNALED };
    this.#canvas = db.collection<CanvasDoc>(CANVAS, journaled);
    this.#pixels = db.collection<PixelDoc>(PIXELS, journaled);
    this.#events = db.collection<PixelEventDoc>(PIXEL_EVENTS, journaled);
    this.placements = new PlacementStore(db);
    this.rollbacks = new RollbackStore(db);
    this.history = new PixelHistoryStore(this.#events);
    this.moderationLog = new ModerationLogStore(db);
  }

  static async ensureIndexes(db: Db): Promise<void> {
    await Promise.all([
      db.collection(PIXEL_EVENTS).createIndex({ revision: 1 }, { name: 'by_revision', unique: true }),
      db.collection(PIXEL_EVENTS).createIndex({ x: 1, y: 1, revision: -1 }, { name: 'by_pixel' }),
      db.collection(PIXEL_EVENTS).createIndex({ owner: 1, revision: -1 }, { name: 'by_owner' }),
      // The checker's pixels changed since a checkpoint.
      db.collection(PIXEL_EVENTS).createIndex({ at: 1 }, { name: 'by_time' }),
      PlacementStore.ensureIndexes(db),
      ModerationLogStore.ensureIndexes(db),
      // The checker's rollbacks in flight.
      db.collection(ROLLBACKS).createIndex({ status: 1 }, { name: 'by_status' }),
      PlaceStore.#uniqueOpIds(db),
    ]);
  }

  /**
   * A placement (or rollback step) writes one event, ever: a second finisher's event with the
   * same `opId` is refused (11000) and it voids its revision instead. It replaces the earlier
   * non-unique `by_op`.
   */
  static async #uniqueOpIds(db: Db): Promise<void> {
    await dropRetiredIndex(db, PIXEL_EVENTS, 'by_op');
    const events = db.collection(PIXEL_EVENTS);
    await events.createIndex({ opId: 1 }, { name: 'by_op_unique', unique: true, sparse: true });
    // Two rollbacks of one state (two admins at once, overlapping areas): one event gets in.
    await events.createIndex({ replaces: 1 }, { name: 'by_replaced_unique', unique: true, sparse: true });
  }

  /**
   * The canvas, created with the configured size on first use (and the dataset's pseudonym key:
   * `newKey`, so reading the dataset never writes).
   */
  async canvas(
    defaults: { width: number; height: number },
    now: Date,
    newKey: () => string,
  ): Promise<CanvasDoc> {
    const found = await this.#canvas.findOne({ _id: 'canvas' });
    if (found) return found;
    try {
      const doc: CanvasDoc = {
        _id: 'canvas',
        revision: 0,
        committed: 0,
        committedAt: now,
        width: defaults.width,
        height: defaults.height,
        datasetKey: newKey(),
      };
      await this.#canvas.insertOne(doc);
      return doc;
    } catch (error) {
      if (!isDuplicateKey(error)) throw error;
      return (await this.#canvas.findOne({ _id: 'canvas' })) as CanvasDoc;
    }
  }

  /** Hands out the next revision: strictly increasing, never reused. */
  allocate(): Promise<number> {
    return this.#revisions.call(true);
  }

  /** Moves the watermark from `from` to `to` if nobody moved it meanwhile. */
  async commit(from: number, to: number, now: Date): Promise<boolean> {
    const result = await this.#canvas.updateOne(
      { _id: 'canvas', committed: from },
      { $set: { committed: to, committedAt: now } },
    );
    return result.modifiedCount === 1;
  }

  /** Records a community post of `to` if the last one was still `from` (one process posts). */
  async markPosted(from: number, to: number, at: Date): Promise<boolean> {
    const result = await this.#canvas.updateOne(
      {
        _id: 'canvas',
        $or: [{ postedRevision: from }, ...(from === 0 ? [{ postedRevision: { $exists: false } }] : [])],
      },
      { $set: { postedRevision: to, postedAt: at } },
    );
    return result.modifiedCount === 1;
  }

  /**
   * Placements in (after, upTo] still on the record: how many, by how many members, and the
   * busiest painters. A placement a rollback in the period undid does not count.
   */
  async period(
    after: number,
    upTo: number,
  ): Promise<{ count: number; painters: number; top: { owner: string; count: number }[] }> {
    const counts = new Map<string, number>();
    const events = this.#events.find(
      { _id: { $gt: after, $lte: upTo } },
      { projection: { owner: 1, kind: 1, undoes: 1 } },
    );
    for await (const { owner, kind, undoes } of events) {
      if (kind === 'place' && owner !== null) counts.set(owner, (counts.get(owner) ?? 0) + 1);
      // Undone placements come before their rollback: those of this period are counted already.
      const undone = undoes?.revisions.filter((r) => r > after && r <= upTo).length ?? 0;
      if (undoes && undone > 0) counts.set(undoes.painter, (counts.get(undoes.painter) ?? 0) - undone);
    }
    const rows = [...counts]
      .filter(([, count]) => count > 0)
      .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
    return {
      count: rows.reduce((n, [, count]) => n + count, 0),
      painters: rows.length,
      top: rows.slice(0, 3).map(([owner, count]) => ({ owner, count })),
    };
  }

  async resize(width: number, height: number): Promise<void> {
    await this.#canvas.updateOne({ _id: 'canvas' }, { $set: { width, height } });
  }

  /** Writes an event; false when its revision is already written (a retry). */
  appendEvent(event: PixelEventDoc): Promise<boolean> {
    return this.#eventInserts.call(event);
  }

  /** The event a placement (or rollback step) wrote, by its id. */
  eventOf(opId: string): Promise<PixelEventDoc | null> {
    return this.#events.findOne({ opId });
  }

  event(revision: number): Promise<PixelEventDoc | null> {
    return this.#events.findOne({ _id: revision });
  }

  /**
   * Events with revisions in (after, min(upTo, after + limit)], in revision order: a range of
   * the `_id` index. Revisions up to the watermark all have an event.
   */
  eventsBetween(after: number, upTo: number, limit: number): Promise<PixelEventDoc[]> {
    return this.#events
      .find({ _id: { $gt: after, $lte: Math.min(upTo, after + limit) } })
      .sort({ _id: 1 })
      .toArray();
  }

  /** Which revisions in (after, min(upTo, after + limit)] are written (for the watermark), in order. */
  async writtenIn(after: number, upTo: number, limit: number): Promise<number[]> {
    const docs = await this.#events
      .find({ _id: { $gt: after, $lte: Math.min(upTo, after + limit) } }, { projection: { _id: 1 } })
      .sort({ _id: 1 })
      .toArray();
    return docs.map((d) => d._id);
  }

  /** Sets a pixel to an event's state only if that event is newer than what is stored. */
  applyToPixel(event: PixelEventDoc): Promise<void> {
    // A newer revision stored already makes the upsert collide (11000): a late write never rolls a pixel back.
    return this.#pixelWrites.call(event);
  }

  pixel(x: number, y: number): Promise<PixelDoc | null> {
    return this.#pixels.findOne({ _id: `${x}:${y}` });
  }

  paintedCount(x: number, y: number): Promise<number> {
    return this.#events.countDocuments({ x, y, kind: { $ne: 'void' } });
  }

  /** Every set pixel (the renderer's board is loaded from this once, at start-up; the checker reads them all). */
  allPixels(): AsyncIterable<PixelDoc> {
    return this.#pixels.find({});
  }

  /** Set pixels outside a size: how many, and their bounding box. */
  async outside(
    width: number,
    height: number,
  ): Promise<{ count: number; box: [number, number, number, number] | null }> {
    const docs = await this.#pixels
      .find({ $or: [{ x: { $gte: width } }, { y: { $gte: height } }] }, { projection: { x: 1, y: 1 } })
      .toArray();
    if (docs.length === 0) return { count: 0, box: null };
    const xs = docs.map((d) => d.x);
    const ys = docs.map((d) => d.y);
    return { count: docs.length, box: [Math.min(...xs), Math.min(...ys), Math.max(...xs), Math.max(...ys)] };
  }

  /**
   * The dataset's pseudonym key: the stored one, or `fresh` stored now for a canvas made before
   * it had one (the first writer wins).
   */
  async datasetKey(fresh: string): Promise<string> {
    await this.#canvas.updateOne(
      { _id: 'canvas', datasetKey: { $exists: false } },
      { $set: { datasetKey: fresh } },
    );
    const doc = await this.#canvas.findOne({ _id: 'canvas' }, { projection: { datasetKey: 1 } });
    return doc?.datasetKey ?? fresh;
  }

  /** Every placement and rollback event (dated from `since`), in revision order: the checker's history. */
  eventsSince(since?: Date): AsyncIterable<PixelEventDoc> {
    const dated = since ? { at: { $gte: since } } : {};
    return this.#events.find({ kind: { $ne: 'void' }, ...dated }).sort({ _id: 1 });
  }

  /** The set pixels among `ids` (`x:y`), read part by part. */
  async *pixelsOf(ids: readonly string[]): AsyncIterable<PixelDoc> {
    for (const part of inChunks(ids)) yield* this.#pixels.find({ _id: { $in: part } });
  }

  /** The rollback event that replaced a state (revision), if one did. */
  rollbackOf(replaced: number): Promise<PixelEventDoc | null> {
    return this.#events.findOne({ replaces: replaced });
  }

  /** A member's placement events (newest last) within an area and since a time. */
  memberEvents(
    owner: string,
    area: { x0: number; y0: number; x1: number; y1: number },
    since: Date,
  ): Promise<PixelEventDoc[]> {
    return this.#events
      .find({
        owner,
        kind: 'place',
        at: { $gte: since },
        x: { $gte: area.x0, $lte: area.x1 },
        y: { $gte: area.y0, $lte: area.y1 },
      })
      .sort({ _id: 1 })
      .toArray();
  }

  /** The newest event of a pixel before a revision (null: it was blank). */
  eventBefore(x: number, y: number, revision: number): Promise<PixelEventDoc | null> {
    return this.#events
      .find({ x, y, kind: { $ne: 'void' }, _id: { $lt: revision } })
      .sort({ _id: -1 })
      .limit(1)
      .next();
  }
}
