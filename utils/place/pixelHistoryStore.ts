import type { Collection, Filter } from 'mongodb';

/**
 * One change of the canvas, immutable, `_id` = its revision. `void` fills a revision that was
 * handed out but never used (its placer died before recording it), so the watermark can pass.
 */
export interface PixelEventDoc {
  _id: number;
  revision: number;
  kind: 'place' | 'rollback' | 'void';
  /** The placement's (or rollback step's) id, unique; absent on void events. */
  opId?: string;
  x: number;
  y: number;
  color: number;
  owner: string | null;
  /** Milli-points the placement cost (0 for rollbacks and voids). */
  cost: number;
  at: Date;
  /** A rollback's: the placement whose state it puts back (0: the pixel goes back to blank). */
  restores?: number;
  /** A rollback's: when that placement was painted (what the pixel then shows). */
  paintedAt?: Date;
  /** A rollback's: the state (revision) it replaced. Unique: a state is rolled back once, ever. */
  replaces?: number;
  /** A rollback's: the painter's placements it undid (what a refund pays for). */
  undoes?: { painter: string; revisions: number[] };
}

/** A rectangle of the canvas, corners included. */
export interface HistoryArea {
  x1: number;
  y1: number;
  x2: number;
  y2: number;
}

function inArea(area: HistoryArea | undefined): Filter<PixelEventDoc> {
  return area ? { x: { $gte: area.x1, $lte: area.x2 }, y: { $gte: area.y1, $lte: area.y2 } } : {};
}

/**
 * The moderators' reading of `place_pixel_events` (newest first), part of PlaceStore, which owns
 * the collection and hands it over.
 */
export class PixelHistoryStore {
  constructor(private readonly events: Collection<PixelEventDoc>) {}

  /**
   * A member's placements, and the rollback steps that gave a pixel back to them, below a
   * revision (in an area if given): the `by_owner` index, read in revision order from the top.
   */
  ofMember(owner: string, before: number, limit: number, area?: HistoryArea): Promise<PixelEventDoc[]> {
    return this.events
      .find({ owner, kind: { $ne: 'void' }, revision: { $lt: before }, ...inArea(area) })
      .sort({ revision: -1 })
      .limit(limit)
      .toArray();
  }

  /**
   * The events in an area among the revisions [from, before): a range of the revision index, so
   * the cost is the range's length whatever the area's size (a 2048×2048 canvas has no other
   * index that both covers an area and keeps the order).
   */
  inArea(area: HistoryArea, from: number, before: number, limit: number): Promise<PixelEventDoc[]> {
    return this.events
      .find({ revision: { $gte: from, $lt: before }, kind: { $ne: 'void' }, ...inArea(area) })
      .sort({ revision: -1 })
      .limit(limit)
      .toArray();
  }

  /**
   * The events of a few pixels below a revision, newest first: each pixel's own newest `limit`
   * from `by_pixel` (exact and ordered per pixel), merged.
   */
  async ofPixels(area: HistoryArea, before: number, limit: number): Promise<PixelEventDoc[]> {
    const reads: Promise<PixelEventDoc[]>[] = [];
    for (let x = area.x1; x <= area.x2; x++) {
      for (let y = area.y1; y <= area.y2; y++) {
        reads.push(
          this.events
            .find({ x, y, revision: { $lt: before }, kind: { $ne: 'void' } })
            .sort({ revision: -1 })
            .limit(limit)
            .toArray(),
        );
      }
    }
    const merged = (await Promise.all(reads)).flat().sort((a, b) => b.revision - a.revision);
    return merged.slice(0, limit);
  }

  /** A pixel's newest event below a revision: what it showed just before that revision (`by_pixel`). */
  eventBefore(x: number, y: number, before: number): Promise<PixelEventDoc | null> {
    return this.events.findOne(
      { x, y, revision: { $lt: before }, kind: { $ne: 'void' } },
      { sort: { revision: -1 } },
    );
  }

  /**
   * Whether a later rollback undid this event: a placement it took off the pixel, or a rollback
   * step a wider rollback replaced. Only that pixel's later events are read (`by_pixel`).
   */
  async undone(event: PixelEventDoc): Promise<boolean> {
    const later = await this.events.findOne(
      {
        x: event.x,
        y: event.y,
        revision: { $gt: event.revision },
        kind: 'rollback',
        $or: [{ 'undoes.revisions': event.revision }, { replaces: event.revision }],
      },
      { projection: { _id: 1 } },
    );
    return later !== null;
  }
}
