import { PALETTE, rgb } from './palette.js';

/*
 * Templates, pure: a faction's artwork as palette colours at a place on the canvas, how much of
 * it the canvas shows, which pixels to fix first, and which placements painted over it.
 */

/** A template pixel nobody needs to paint (the artwork is transparent there). */
export const TRANSPARENT = 255;

/** The artwork at its place: one palette index (or TRANSPARENT) per pixel, row by row. */
export interface TemplateArt {
  x: number;
  y: number;
  width: number;
  height: number;
  pixels: Uint8Array;
}

/** The canvas as templates read it. */
export interface CanvasReader {
  width: number;
  height: number;
  get(x: number, y: number): number;
}

/** An image as decoded: RGBA, 4 bytes per pixel. */
export interface RgbaImage {
  width: number;
  height: number;
  data: Uint8ClampedArray | Uint8Array;
}

const COLORS = PALETTE.map((_, i) => rgb(i));

/**
 * The palette colour nearest to an RGB colour, by the "redmean" distance (a cheap weighting of
 * red, green and blue that follows how eyes tell colours apart better than plain RGB distance).
 */
export function nearestColor(r: number, g: number, b: number): number {
  let best = 0;
  let bestDistance = Number.POSITIVE_INFINITY;
  COLORS.forEach(([pr, pg, pb], i) => {
    const mean = (r + pr) / 2;
    const dr = r - pr;
    const dg = g - pg;
    const db = b - pb;
    const distance = (2 + mean / 256) * dr * dr + 4 * dg * dg + (2 + (255 - mean) / 256) * db * db;
    if (distance < bestDistance) {
      bestDistance = distance;
      best = i;
    }
  });
  return best;
}

/**
 * An image as template pixels: each pixel at least half opaque becomes its nearest palette
 * colour, the rest TRANSPARENT; `exact` counts the pixels whose colour was a palette colour
 * already (an artwork drawn in the palette converts without a change).
 */
export function quantize(image: RgbaImage): { pixels: Uint8Array; opaque: number; exact: number } {
  const pixels = new Uint8Array(image.width * image.height).fill(TRANSPARENT);
  const cache = new Map<number, number>();
  let opaque = 0;
  let exact = 0;
  for (let i = 0; i < pixels.length; i++) {
    const [r, g, b, a] = [0, 1, 2, 3].map((k) => image.data[i * 4 + k] ?? 0) as [
      number,
      number,
      number,
      number,
    ];
    if (a < 128) continue;
    const key = (r << 16) | (g << 8) | b;
    let color = cache.get(key);
    if (color === undefined) {
      color = nearestColor(r, g, b);
      cache.set(key, color);
    }
    const [pr, pg, pb] = COLORS[color] as [number, number, number];
    if (pr === r && pg === g && pb === b) exact++;
    pixels[i] = color;
    opaque++;
  }
  return { pixels, opaque, exact };
}

/** The colour the artwork wants at a canvas pixel: a palette index, or null outside it or where it is transparent. */
export function targetAt(art: TemplateArt, x: number, y: number): number | null {
  const tx = x - art.x;
  const ty = y - art.y;
  if (tx < 0 || ty < 0 || tx >= art.width || ty >= art.height) return null;
  const color = art.pixels[ty * art.width + tx] ?? TRANSPARENT;
  return color === TRANSPARENT ? null : color;
}

export interface Progress {
  /** The artwork's pixels (its transparent ones are nobody's concern). */
  total: number;
  /** Those the canvas shows in the artwork's colour. */
  right: number;
  /** right / total, rounded down to a tenth of a percent: 99.96 % is not done. */
  percent: number;
}

/** How much of the artwork the canvas shows. */
export function templateProgress(canvas: CanvasReader, art: TemplateArt): Progress {
  let total = 0;
  let right = 0;
  forEachTarget(art, (x, y, color) => {
    total++;
    if (canvas.get(x, y) === color) right++;
  });
  const percent = total === 0 ? 100 : Math.floor((right / total) * 1000) / 10;
  return { total, right, percent };
}

/** A pixel the canvas shows wrong: where, the colour it needs, the colour it has. */
export interface WrongPixel {
  x: number;
  y: number;
  color: number;
  now: number;
}

/**
 * The artwork's wrong pixels nearest to a point (a member's last placement, or the artwork's
 * middle), nearest first; equally near ones top to bottom, then left to right.
 */
export function nearestWrong(
  canvas: CanvasReader,
  art: TemplateArt,
  from: { x: number; y: number },
  limit: number,
): WrongPixel[] {
  const wrong: (WrongPixel & { distance: number })[] = [];
  forEachTarget(art, (x, y, color) => {
    const now = canvas.get(x, y);
    if (now !== color) wrong.push({ x, y, color, now, distance: (x - from.x) ** 2 + (y - from.y) ** 2 });
  });
  wrong.sort((a, b) => a.distance - b.distance || a.y - b.y || a.x - b.x);
  return wrong.slice(0, limit).map(({ distance: _, ...pixel }) => pixel);
}

/** The artwork's middle pixel. */
export function middleOf(art: TemplateArt): { x: number; y: number } {
  return { x: art.x + Math.floor(art.width / 2), y: art.y + Math.floor(art.height / 2) };
}

/** Calls `visit` for each pixel of the artwork that is not transparent, with its canvas position. */
function forEachTarget(art: TemplateArt, visit: (x: number, y: number, color: number) => void): void {
  for (let ty = 0; ty < art.height; ty++) {
    for (let tx = 0; tx < art.width; tx++) {
      const color = art.pixels[ty * art.width + tx] ?? TRANSPARENT;
      if (color !== TRANSPARENT) visit(art.x + tx, art.y + ty, color);
    }
  }
}

/** One change of a pixel, with the colour it had before: what the grief check reads. */
export interface PixelChange {
  revision: number;
  x: number;
  y: number;
  color: number;
  before: number;
  owner: string | null;
  at: Date;
}

/**
 * Whether a change painted over the artwork: the pixel showed the artwork's colour before, and
 * no longer does. Painting a wrong pixel another wrong colour, or any pixel right, is not.
 */
export function paintsOver(art: TemplateArt, change: PixelChange): boolean {
  const target = targetAt(art, change.x, change.y);
  return target !== null && change.before === target && change.color !== target;
}

/** A burst of changes that painted over one artwork: how many pixels, by whom, and when. */
export interface Grief {
  changes: PixelChange[];
  /** Painters by how many of the artwork's pixels they painted over, most first. */
  painters: { owner: string; count: number }[];
  first: Date;
  last: Date;
}

/** The changes that painted over the artwork, in order, with their painters counted. */
export function griefOf(art: TemplateArt, changes: readonly PixelChange[]): Grief | null {
  const over = changes.filter((c) => paintsOver(art, c));
  const [first] = over;
  const last = over.at(-1);
  if (!first || !last) return null;
  const counts = new Map<string, number>();
  for (const c of over) if (c.owner) counts.set(c.owner, (counts.get(c.owner) ?? 0) + 1);
  const painters = [...counts]
    .map(([owner, count]) => ({ owner, count }))
    .sort((a, b) => b.count - a.count || a.owner.localeCompare(b.owner));
  return { changes: over, painters, first: first.at, last: last.at };
}

/** Wrong pixels in a template's picture: the colour they need, pale (mixed half with white). */
function pale([r, g, b]: readonly [number, number, number]): [number, number, number] {
  return [Math.round((r + 255) / 2), Math.round((g + 255) / 2), Math.round((b + 255) / 2)];
}

/** Around the artwork: the canvas, dimmed (context, not the point of the picture). */
function dim([r, g, b]: readonly [number, number, number]): [number, number, number] {
  return [Math.round(40 + r * 0.25), Math.round(40 + g * 0.25), Math.round(40 + b * 0.25)];
}

/**
 * A template's picture as a board of its own: inside the artwork, each right pixel in its colour
 * and each wrong one in the colour it needs, pale and crossed by the renderer's grid; outside
 * it (and where it is transparent), the canvas dimmed. `marked` holds the artwork's pixels, so
 * a picture frames them.
 */
export function templateView(
  canvas: CanvasReader,
  art: TemplateArt,
): {
  width: number;
  height: number;
  pixels: Uint8Array;
  colors: [number, number, number][];
  marked: Uint8Array;
} {
  const n = COLORS.length;
  const colors = [
    ...COLORS.map((c) => [...c] as [number, number, number]),
    ...COLORS.map(dim),
    ...COLORS.map(pale),
  ];
  const pixels = new Uint8Array(canvas.width * canvas.height);
  const marked = new Uint8Array(canvas.width * canvas.height);
  for (let y = 0; y < canvas.height; y++) {
    for (let x = 0; x < canvas.width; x++) {
      const now = canvas.get(x, y);
      const target = targetAt(art, x, y);
      const i = y * canvas.width + x;
      if (target === null) pixels[i] = n + now;
      else {
        marked[i] = 1;
        pixels[i] = now === target ? now : 2 * n + target;
      }
    }
  }
  return { width: canvas.width, height: canvas.height, pixels, colors, marked };
}
