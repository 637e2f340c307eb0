import type { PlaceBoard } from './board.js';
import { PALETTE, rgb } from './palette.js';

/*
 * The canvas's other views, pure: where painting happened lately (a heatmap) and which pixels
 * nobody ever painted (a virgin map). Each is a picture board of its own: the canvas's colours
 * dimmed behind, the view's own colours on top, so the renderer draws it as any canvas.
 */

type Rgb = readonly [number, number, number];

/** A view as the renderer takes it: one palette index per pixel, and the palette. */
export interface ViewBoard {
  width: number;
  height: number;
  pixels: Uint8Array;
  colors: Rgb[];
  /** The pixels the view marks (heat, never painted): what a picture frames and counts. */
  marked: number;
}

/** Heat from one placement on a pixel to many: dark red, red, orange, yellow, white. */
export const HEAT: readonly Rgb[] = [
  [120, 20, 40],
  [200, 30, 40],
  [240, 90, 30],
  [250, 160, 30],
  [255, 220, 60],
  [255, 255, 200],
];

/** Never painted: a bright green no palette colour uses. */
export const VIRGIN: Rgb = [0, 230, 118];

/** The canvas's colours faded towards dark grey: context, not the point of the picture. */
function dimmed(): Rgb[] {
  return PALETTE.map((_, i) => {
    const [r, g, b] = rgb(i);
    return [Math.round(40 + r * 0.25), Math.round(40 + g * 0.25), Math.round(40 + b * 0.25)] as const;
  });
}

/** The heat level of a pixel painted `count` times: 1 → 0, 2–3 → 1, 4–7 → 2, … (doubling). */
export function heatLevel(count: number): number {
  return Math.min(HEAT.length - 1, Math.floor(Math.log2(count)));
}

/** How often each pixel was painted, from the placements (and rollbacks) of a span; and how many there were. */
export async function heatCounts(
  board: Pick<PlaceBoard, 'width' | 'height'>,
  events: AsyncIterable<{ x: number; y: number }> | Iterable<{ x: number; y: number }>,
): Promise<{ counts: Uint32Array; placements: number }> {
  const counts = new Uint32Array(board.width * board.height);
  let placements = 0;
  for await (const e of events) {
    placements++;
    const i = e.y * board.width + e.x;
    if (e.x < board.width && e.y < board.height) counts[i] = (counts[i] ?? 0) + 1;
  }
  return { counts, placements };
}

/** The heatmap: every pixel painted in the span in its heat colour, the rest the dimmed canvas. */
export function heatmap(board: PlaceBoard, counts: Uint32Array): ViewBoard {
  const base = dimmed();
  const pixels = new Uint8Array(board.pixels.length);
  let marked = 0;
  for (let i = 0; i < pixels.length; i++) {
    const count = counts[i] ?? 0;
    if (count > 0) marked++;
    pixels[i] = count > 0 ? base.length + heatLevel(count) : (board.pixels[i] ?? 0);
  }
  return { width: board.width, height: board.height, pixels, colors: [...base, ...HEAT], marked };
}

/** The virgin map: every pixel nobody ever painted in green, the rest the dimmed canvas. */
export function virginMap(board: PlaceBoard): ViewBoard {
  const base = dimmed();
  const pixels = new Uint8Array(board.pixels.length);
  let marked = 0;
  for (let y = 0; y < board.height; y++) {
    for (let x = 0; x < board.width; x++) {
      const i = y * board.width + x;
      const virgin = !board.isPainted(x, y);
      if (virgin) marked++;
      pixels[i] = virgin ? base.length : (board.pixels[i] ?? 0);
    }
  }
  return { width: board.width, height: board.height, pixels, colors: [...base, VIRGIN], marked };
}

/** Only the marked pixels, as a board whose other pixels are 0: what a picture's frame is fitted to. */
export function markedOnly(view: ViewBoard): { width: number; height: number; pixels: Uint8Array } {
  const first = PALETTE.length;
  return {
    width: view.width,
    height: view.height,
    pixels: view.pixels.map((p) => (p >= first ? 1 : 0)),
  };
}
