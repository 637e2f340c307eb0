import { cropArea } from '../../src/render/placeImages.js';
import { timelapsePlan } from '../../src/render/timelapsePlan.js';
import { PlaceBoard } from './board.js';
import type { PixelEventDoc, PlaceStore } from './placeStore.js';

export interface ReplayFrame {
  revision: number;
  at: Date | null;
}

/** A timelapse's frames (palette indices) and the version and time each shows. */
export interface Replay {
  frames: Uint8Array[];
  moments: ReplayFrame[];
  width: number;
  height: number;
  /** The part of the canvas the frames show, corners included (what was painted in the span). */
  area: { x0: number; y0: number; x1: number; y1: number };
  /** How many placements the span holds (voided versions not counted). */
  placements: number;
  from: number;
  to: number;
}

/** The events of revisions (after, through], in order, read in batches. */
async function* eventsOf(store: PlaceStore, after: number, through: number): AsyncIterable<PixelEventDoc> {
  let cursor = after;
  while (cursor < through) {
    const events = await store.eventsBetween(cursor, through, 5_000);
    if (events.length === 0) return;
    yield* events;
    cursor = (events[events.length - 1] as PixelEventDoc).revision;
  }
}

/**
 * The canvas replayed from its events between two revisions, cropped to what was painted in
 * them, in at most `limits.frames` frames (the first is the board at `from`, the last the board
 * at `to`), each at most `limits.side` pixels on its long side (a larger area is sampled down:
 * 120 frames of 2048² would be 500 MB). Which area and how many frames: timelapsePlan.ts. Reads
 * the span's events once for its area, then replays from revision 0, so every frame is exact;
 * reads the events in batches, never the pixels.
 */
export async function replayCanvas(
  store: PlaceStore,
  canvas: { width: number; height: number },
  span: { from: number; to: number },
  limits: { frames: number; side: number },
): Promise<Replay> {
  const { from: start, to: top } = span;
  let box: Replay['area'] | null = null;
  let placements = 0;
  // What the frames change: the placements after the first frame (the board at `from`).
  for await (const e of eventsOf(store, start, top)) {
    if (e.kind === 'void') continue;
    placements++;
    box = box
      ? {
          x0: Math.min(box.x0, e.x),
          y0: Math.min(box.y0, e.y),
          x1: Math.max(box.x1, e.x),
          y1: Math.max(box.y1, e.y),
        }
      : { x0: e.x, y0: e.y, x1: e.x, y1: e.y };
  }
  const plan = timelapsePlan(box, placements, canvas, limits);
  const board = new PlaceBoard(canvas.width, canvas.height);
  const frames: Uint8Array[] = [];
  const moments: ReplayFrame[] = [];
  let last: ReplayFrame = { revision: 0, at: null };
  const shoot = () => {
    frames.push(cropArea(board.pixels, canvas.width, plan.area, plan.step));
    moments.push(last);
  };
  let since = 0;
  for await (const e of eventsOf(store, 0, top)) {
    // The board at `from`, before the first change after it.
    if (e.revision > start && frames.length === 0) shoot();
    if (e.kind !== 'void') board.set(e.x, e.y, e.color);
    last = { revision: e.revision, at: e.at };
    if (e.revision <= start) continue;
    if (e.kind !== 'void' && ++since >= plan.every && frames.length < plan.frames - 1) {
      shoot();
      since = 0;
    }
  }
  if (frames.length === 0) shoot();
  // The last frame is the board at `to` (unless the frame before already shows it).
  if (moments.at(-1)?.revision !== last.revision) shoot();
  const { area, step } = plan;
  return {
    frames,
    moments,
    width: Math.ceil(area.cols / step),
    height: Math.ceil(area.rows / step),
    area: { x0: area.x0, y0: area.y0, x1: area.x0 + area.cols - 1, y1: area.y0 + area.rows - 1 },
    placements,
    from: start,
    to: top,
  };
}
