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
  /** Every change up to this revision is in the board. */
  revision = 0;

  constructor(
    public width: number,
    public height: number,
  ) {
    this.pixels = new Uint8Array(width * height).fill(BLANK);
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
    if (x >= 0 && y >= 0 && x < this.width && y < this.height) this.pixels[y * this.width + x] = color;
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
    for (let y = 0; y < Math.min(height, this.height); y++) {
      next.set(this.pixels.subarray(y * this.width, y * this.width + Math.min(width, this.width)), y * width);
    }
    this.pixels = next;
    this.width = width;
    this.height = height;
  }
}
