import { BLANK } from './palette.js';
import type { PixelDoc, PixelEventDoc, PlaceStore } from './placeStore.js';
import type { RollbackPixel } from './rollbackStore.js';

type History = Pick<PlaceStore, 'event' | 'eventBefore'>;

/**
 * What rolling back `painter` (their placements since `since`) does to one pixel: its state
 * goes back past the painter's placements still on it, newest first, to the state before
 * them. A pixel someone else painted over is not theirs any more (null), nor one an earlier
 * rollback restored: a rollback's event stands for the placement it put back, so a placement
 * undone once is never reached again, and one put back (painted before that rollback's
 * window) can still be undone by a wider one.
 */
export async function pixelRollback(
  history: History,
  painter: string,
  since: Date,
  pixel: PixelDoc,
): Promise<RollbackPixel | null> {
  const undone: PixelEventDoc[] = [];
  let state = await original(history, await history.event(pixel.revision));
  while (state?.kind === 'place' && state.owner === painter && state.at.getTime() >= since.getTime()) {
    undone.push(state);
    state = await original(history, await history.eventBefore(state.x, state.y, state.revision));
  }
  if (undone.length === 0) return null;
  return {
    x: pixel.x,
    y: pixel.y,
    color: state?.color ?? BLANK,
    owner: state?.owner ?? null,
    seenRevision: pixel.revision,
    restores: state?.revision ?? 0,
    ...(state ? { paintedAt: state.at } : {}),
    undoes: undone.map((e) => e.revision),
    cost: undone.reduce((sum, e) => sum + e.cost, 0),
  };
}

/** The placement whose state an event shows: for a rollback's, the one it put back (null: blank). */
async function original(history: History, event: PixelEventDoc | null): Promise<PixelEventDoc | null> {
  if (event?.kind !== 'rollback') return event;
  return event.restores ? history.event(event.restores) : null;
}

/** The smallest rectangle holding every pixel (corners included); pixels must not be empty. */
export function pixelBounds(pixels: readonly { x: number; y: number }[]) {
  // A loop, not Math.min(...xs): a rollback may hold more pixels than a call takes arguments.
  const box = { x1: Number.POSITIVE_INFINITY, y1: Number.POSITIVE_INFINITY, x2: -1, y2: -1 };
  for (const { x, y } of pixels) {
    box.x1 = Math.min(box.x1, x);
    box.y1 = Math.min(box.y1, y);
    box.x2 = Math.max(box.x2, x);
    box.y2 = Math.max(box.y2, y);
  }
  return box;
}
