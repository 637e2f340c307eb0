/** The part of the canvas a timelapse shows, corners included. */
export interface TimelapseArea {
  x0: number;
  y0: number;
  cols: number;
  rows: number;
}

/** What a timelapse shows, how much it samples it down, and how many frames it takes. */
export interface TimelapsePlan {
  area: TimelapseArea;
  /** Every `step`-th pixel of the area (1: all of them; a large area is shown smaller). */
  step: number;
  /** How many frames: the board at `from`, then one after every `every` placements, the last at `to`. */
  frames: number;
  every: number;
}

/** The least side of a timelapse's area: a pixel or two painted still show where they are. */
const MIN_AREA = 16;

/**
 * The timelapse of a span of versions shows what was painted in it:
 * - the area is the bounding box of the span's placements with a margin (a tenth of its long
 *   side, at least 2 pixels), at least 16 pixels and at least half as wide as it is tall (and
 *   the other way round, so the caption fits), inside the canvas; the whole canvas when nothing
 *   was painted. The encoder scales it up by a whole factor to about `maxSide` on its long side;
 *   an area larger than `maxSide` is sampled down instead (`step`).
 * - frames: one for the board at `from`, then one per placement, up to `maxFrames`; with more
 *   placements than that, one after every `every = ceil(placements / (maxFrames - 1))`. The last
 *   frame is always the board at `to`. Frames are counted in placements, not versions: a
 *   version that painted nothing (voided) makes no frame.
 */
export function timelapsePlan(
  box: { x0: number; y0: number; x1: number; y1: number } | null,
  placements: number,
  board: { width: number; height: number },
  limits: { frames: number; side: number },
): TimelapsePlan {
  const area = box ? around(box, board) : { x0: 0, y0: 0, cols: board.width, rows: board.height };
  const step = Math.max(1, Math.ceil(Math.max(area.cols, area.rows) / limits.side));
  const frames = Math.max(1, Math.min(limits.frames, placements + 1));
  const every = Math.max(1, Math.ceil(placements / Math.max(1, frames - 1)));
  return { area, step, frames, every };
}

function around(
  box: { x0: number; y0: number; x1: number; y1: number },
  board: { width: number; height: number },
) {
  const [w, h] = [box.x1 - box.x0 + 1, box.y1 - box.y0 + 1];
  const margin = Math.max(2, Math.ceil(Math.max(w, h) / 10));
  let cols = Math.max(MIN_AREA, w + 2 * margin);
  let rows = Math.max(MIN_AREA, h + 2 * margin);
  [cols, rows] = [Math.max(cols, Math.ceil(rows / 2)), Math.max(rows, Math.ceil(cols / 2))];
  cols = Math.min(board.width, cols);
  rows = Math.min(board.height, rows);
  const place = (lo: number, hi: number, size: number, length: number) =>
    Math.max(0, Math.min(length - size, Math.floor((lo + hi + 1 - size) / 2)));
  return {
    x0: place(box.x0, box.x1, cols, board.width),
    y0: place(box.y0, box.y1, rows, board.height),
    cols,
    rows,
  };
}
