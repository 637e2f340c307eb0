import { BLANK } from './palette.js';
import type { PixelDoc, PixelEventDoc } from './placeStore.js';

/** A page of the changes feed. */
export interface Changes {
  changes: PixelEventDoc[];
  /** Read again after this revision: every revision up to it has been returned or was void. */
  revision: number;
}

/**
 * The canvas in memory for rendering: one byte per pixel (the palette index), kept up to date
 * from the changes feed. A 2048×2048 board is 4 MB. It is loaded from `place_pixels` once, at
 * start-up; after that renders never read the database, only the feed's new placements.
 */
export class PlaceBoard {
  pixels: Uint8Array;
  /** One bit per pixel: painted at least once (the virgin map shows the others). */
  painted: Uint8Array;
  /** Every change up to this revision is in the board. */
  revision = 0;

  constructor(
    public width: number,
    public height: number,
  ) {
    this.pixels = new Uint8Array(width * height).fill(BLANK);
    this.painted = new Uint8Array(Math.ceil((width * height) / 8));
  }

  /** Loads every set pixel, then reads the feed from `committed` on (a pixel already newer is simply set again by its own event). */
  static async load(
    size: { width: number; height: number; committed: number },
    pixels: AsyncIterable<PixelDoc>,
  ): Promise<PlaceBoard> {
    const board = new PlaceBoard(size.width, size.height);
    for await (const p of pixels) board.set(p.x, p.y, p.color);
    board.revision = size.committed;
    return board;
  }

  set(x: number, y: number, color: number): void {
    if (x < 0 || y < 0 || x >= this.width || y >= this.height) return;
    const i = y * this.width + x;
    this.pixels[i] = color;
    this.painted[i >> 3] = (this.painted[i >> 3] ?? 0) | (1 << (i & 7));
  }

  /** Whether anyone ever painted the pixel (a pixel painted blank counts; one rolled back too). */
  isPainted(x: number, y: number): boolean {
    const i = y * this.width + x;
    return ((this.painted[i >> 3] ?? 0) & (1 << (i & 7))) !== 0;
  }

  get(x: number, y: number): number {
    return this.pixels[y * this.width + x] ?? BLANK;
  }

  apply(feed: Changes): void {
    for (const c of feed.changes) this.set(c.x, c.y, c.color);
    this.revision = Math.max(this.revision, feed.revision);
  }

  /** A larger canvas keeps every pixel where it was. */
  resize(width: number, height: number): void {
    if (width === this.width && height === this.height) return;
    const next = new Uint8Array(width * height).fill(BLANK);
    const painted = new Uint8Array(Math.ceil((width * height) / 8));
    for (let y = 0; y < Math.min(height, this.height); y++) {
      next.set(this.pixels.subarray(y * this.width, y * this.width + Math.min(width, this.width)), y * width);
      for (let x = 0; x < Math.min(width, this.width); x++) {
        const i = y * width + x;
        if (this.isPainted(x, y)) painted[i >> 3] = (painted[i >> 3] ?? 0) | (1 << (i & 7));
      }
    }
    this.pixels = next;
    this.painted = painted;
    this.width = width;
    this.height = height;
  }
}
