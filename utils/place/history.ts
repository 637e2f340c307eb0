import type { HistoryArea } from './pixelHistoryStore.js';
import type { PixelEventDoc, PlaceStore } from './placeStore.js';

/**
 * How many revisions one page of an area's history reads at most when no member is named: the
 * area's events are found by revision, so a page costs this many documents at most, whatever the
 * area's size. A page may then hold fewer entries than asked, with `next` to read on.
 */
export const AREA_SCAN_REVISIONS = 20_000;
/** An area of at most this many pixels is read pixel by pixel instead: whole pages, all the way back. */
export const SMALL_AREA_PIXELS = 64;

export interface HistoryQuery {
  area?: HistoryArea;
  member?: string;
  /** Only revisions below this one (the previous page's `next`). */
  before?: number;
  limit: number;
}

/** One event of a pixel's history, with the colour it replaced and whether a rollback undid it since. */
export interface HistoryEntry {
  event: PixelEventDoc;
  /** The pixel's colour just before this event (null: never painted). */
  beforeColor: number | null;
  rolledBack: boolean;
}

export interface HistoryPage {
  entries: HistoryEntry[];
  /** Where the next page starts (its `before`), or null at the canvas's first revision. */
  next: number | null;
}

/**
 * A page of placements and rollback steps, newest first: a member's (the `by_owner` index, in
 * an area if given), a small area's (`by_pixel`, pixel by pixel), or a larger area's (a bounded
 * range of revisions, `AREA_SCAN_REVISIONS`).
 */
export async function pixelHistory(
  store: Pick<PlaceStore, 'history' | 'eventBefore'>,
  lastRevision: number,
  query: HistoryQuery & ({ member: string } | { area: HistoryArea }),
): Promise<HistoryPage> {
  const before = Math.min(query.before ?? lastRevision + 1, lastRevision + 1);
  const { limit, area, member } = query;
  let events: PixelEventDoc[];
  let exhausted: number | null = null;
  if (member) {
    events = await store.history.ofMember(member, before, limit + 1, area);
  } else if (area && (area.x2 - area.x1 + 1) * (area.y2 - area.y1 + 1) <= SMALL_AREA_PIXELS) {
    events = await store.history.ofPixels(area, before, limit + 1);
  } else {
    const from = Math.max(1, before - AREA_SCAN_REVISIONS);
    events = await store.history.inArea(area as HistoryArea, from, before, limit + 1);
    if (from > 1) exhausted = from;
  }
  const page = events.slice(0, limit);
  const next = events.length > limit ? (page.at(-1) as PixelEventDoc).revision : exhausted;
  const entries = await Promise.all(
    page.map(async (event) => ({
      event,
      beforeColor: (await store.eventBefore(event.x, event.y, event.revision))?.color ?? null,
      rolledBack: await store.history.undone(event),
    })),
  );
  return { entries, next };
}
