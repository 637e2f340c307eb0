import type { Collection } from 'mongodb';
import { inChunks } from '../../src/db/inChunks.js';
import { inFlightCheck } from './inFlight.js';
import type { PixelDoc, PixelEventDoc, PlaceStore } from './placeStore.js';
import { inFlightSince } from './sweep.js';

/** Per owner: the placements and milli-points its events spent. */
export type OwnerBooks = Map<string, { placements: number; cost: number }>;

/** What the canvas's history says: per owner, what its placements spent; every problem found. */
export interface CanvasBooks {
  byOwner: OwnerBooks;
  problems: string[];
}

/** The canvas's own books for the invariant checker, read from the collections `PlaceStore` owns. */
export class CanvasAuditStore {
  constructor(
    private readonly events: Collection<PixelEventDoc>,
    private readonly pixels: Collection<PixelDoc>,
    private readonly store: Pick<PlaceStore, 'placements' | 'rollbacks' | 'eventBefore'>,
  ) {}

  /**
   * Per owner, placements and milli-points spent by the events; every set pixel that differs
   * from its newest event; every placement undone by more than one rollback. From a checkpoint
   * `since`, the pixels the events dated since changed, each against its newest event, and no
   * owner totals or undone placements, which only the whole history gives. (An event is dated
   * when its placement was asked for: one asked before `since` and written after it is read
   * through its pixel when a later event touched the pixel, else by the full check.)
   */
  async audit(now: Date, since?: Date): Promise<CanvasBooks> {
    const byOwner: OwnerBooks = new Map();
    const newest = new Map<string, PixelEventDoc>();
    const undone = new Map<number, string>();
    const problems: string[] = [];
    const events = { kind: { $ne: 'void' as const }, ...(since ? { at: { $gte: since } } : {}) };
    for await (const e of this.events.find(events).sort({ _id: 1 })) {
      newest.set(`${e.x}:${e.y}`, e);
      if (since) continue;
      for (const revision of e.undoes?.revisions ?? []) {
        const first = undone.get(revision);
        if (first) problems.push(`placement ${revision} was undone twice: by ${first} and by ${e.opId}`);
        undone.set(revision, e.opId ?? String(e.revision));
      }
      if (e.kind !== 'place' || !e.owner) continue;
      const owner = byOwner.get(e.owner) ?? { placements: 0, cost: 0 };
      owner.placements++;
      owner.cost += e.cost;
      byOwner.set(e.owner, owner);
    }
    problems.push(...(await this.#pixelProblems(newest, now, since)));
    return { byOwner, problems };
  }

  /** Every pixel that differs from its newest event (one still being written is not a problem). */
  async #pixelProblems(newest: Map<string, PixelEventDoc>, now: Date, since?: Date): Promise<string[]> {
    const problems: string[] = [];
    const seen = new Set<string>();
    // Asked after the events were read: a placement or rollback whose event was read is in
    // flight until its pixel is written (a placement is marked done only after that).
    const read = [...newest.values()];
    const { placements, rollbacks } = this.store;
    const inFlight = await inFlightCheck(placements, rollbacks, read, inFlightSince(now));
    const compare = async (p: PixelDoc) => {
      seen.add(p._id);
      let e = newest.get(p._id);
      // A newer event dated before `since` (a placement asked before it, written after): the
      // pixel's own newest event is the one to compare with.
      if (since && e && p.revision > e.revision)
        e = (await this.store.eventBefore(p.x, p.y, Number.MAX_SAFE_INTEGER)) ?? e;
      if (e && e.revision > p.revision && inFlight(e)) return;
      if (!e || e.revision !== p.revision || e.color !== p.color) {
        problems.push(
          `pixel ${p._id} is colour ${p.color} at revision ${p.revision}, its newest event says ${e ? `${e.color} at ${e.revision}` : 'nothing'}`,
        );
      }
    };
    if (!since) for await (const p of this.pixels.find({})) await compare(p);
    else
      for (const part of inChunks([...newest.keys()]))
        for await (const p of this.pixels.find({ _id: { $in: part } })) await compare(p);
    for (const [id, e] of newest) {
      if (!seen.has(id) && !inFlight(e))
        problems.push(`pixel ${id} has events (newest ${e.revision}) but no state`);
    }
    return problems;
  }
}
