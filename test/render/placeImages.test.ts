import { createCanvas, loadImage } from 'canvas';
import { describe, expect, it } from 'vitest';
import { ASSEMBLY } from '../../commands/index.js';
import { canvasCaption } from '../../commands/place/view.js';
import { I18n } from '../../src/i18n/i18n.js';
import { overviewView, renderCanvasPicture, zoomView } from '../../src/render/canvasPicture.js';
import type { DrawnText } from '../../src/render/canvasTools.js';
import { pngPalette, renderCanvasPng, renderZoomPng, ZOOM_MARGIN } from '../../src/render/placeImages.js';
import {
  CAPTION_STRIP,
  encodeTimelapse,
  frameDelay,
  TIMELAPSE_LIMITS,
} from '../../src/render/timelapseGif.js';
import { timelapsePlan } from '../../src/render/timelapsePlan.js';
import { PlaceBoard } from '../../utils/place/board.js';
import { BLANK, PALETTE, rgb } from '../../utils/place/palette.js';

const COLORS = PALETTE.map((_, i) => rgb(i));

async function pixelsOf(png: Buffer) {
  const image = await loadImage(png);
  const canvas = createCanvas(image.width, image.height);
  const g = canvas.getContext('2d');
  g.drawImage(image, 0, 0);
  return {
    width: image.width,
    height: image.height,
    at: (x: number, y: number) => [...g.getImageData(x, y, 1, 1).data.slice(0, 3)],
  };
}

/** All of a picture's pixels, read once. */
async function wholePixelsOf(png: Buffer) {
  const image = await loadImage(png);
  const canvas = createCanvas(image.width, image.height);
  const g = canvas.getContext('2d');
  g.drawImage(image, 0, 0);
  const data = g.getImageData(0, 0, image.width, image.height).data;
  const at = (x: number, y: number) => [
    ...data.slice((y * image.width + x) * 4, (y * image.width + x) * 4 + 3),
  ];
  return { width: image.width, height: image.height, data, at };
}

type Picture = Awaited<ReturnType<typeof wholePixelsOf>>;

/** Where exactly `rgb` is drawn: its bounding box. */
function boxOf(picture: Picture, rgb: readonly number[]) {
  const box = { x0: picture.width, y0: picture.height, x1: -1, y1: -1 };
  const { data } = picture;
  for (let y = 0; y < picture.height; y++)
    for (let x = 0; x < picture.width; x++) {
      const i = (y * picture.width + x) * 4;
      if (data[i] !== rgb[0] || data[i + 1] !== rgb[1] || data[i + 2] !== rgb[2]) continue;
      box.x0 = Math.min(box.x0, x);
      box.x1 = Math.max(box.x1, x);
      box.y0 = Math.min(box.y0, y);
      box.y1 = Math.max(box.y1, y);
    }
  return box;
}

/** The canvas part of a picture: inside its 3-pixel grey frame (the first long grey line from the top). */
function frameOf(picture: Picture) {
  const { data } = picture;
  const grey = (x: number, y: number) => {
    const i = (y * picture.width + x) * 4;
    return data[i] === 78 && data[i + 1] === 80 && data[i + 2] === 88;
  };
  for (let y = 0; y < picture.height; y++) {
    const xs = [];
    for (let x = 0; x < picture.width; x++) if (grey(x, y)) xs.push(x);
    if (xs.length < 100) continue;
    const [x0, x1] = [xs[0] as number, xs.at(-1) as number];
    let bottom = y;
    while (grey(x0, bottom + 1)) bottom++;
    return { left: x0 + 3, top: y + 3, width: x1 - x0 + 1 - 6, height: bottom - y + 1 - 6 };
  }
  throw new Error('no frame');
}

describe('canvas pictures', () => {
  it('GIVEN a board THEN the posted PNG is indexed and every sampled pixel has the colour of the stored state', async () => {
    const board = new PlaceBoard(64, 48);
    const set: [number, number, number][] = [
      [0, 0, 2],
      [63, 0, 13],
      [0, 47, 27],
      [63, 47, 7],
      [31, 20, 21],
    ];
    for (const [x, y, c] of set) board.set(x, y, c);
    const png = await renderCanvasPng(board, pngPalette(COLORS), 4);
    expect(png.readUInt8(25)).toBe(3); // IHDR colour type 3: palette-indexed
    const image = await pixelsOf(png);
    expect([image.width, image.height]).toEqual([256, 192]);
    for (const [x, y, c] of set) {
      for (const [dx, dy] of [
        [0, 0],
        [3, 3],
      ] as const) {
        expect(image.at(x * 4 + dx, y * 4 + dy), `(${x}, ${y})`).toEqual(COLORS[c]);
      }
    }
    expect(image.at(10 * 4, 10 * 4)).toEqual(COLORS[31]); // never set: white
  });

  it('GIVEN a zoom around a pixel THEN its cell has its colour inside the grid', async () => {
    const board = new PlaceBoard(32, 32);
    board.set(10, 10, 22);
    const png = await renderZoomPng(board, COLORS, { x: 10, y: 10, radius: 3, cell: 20 });
    const image = await pixelsOf(png);
    // Radius 3 around 10: column 10 is the 4th cell.
    expect(image.at(ZOOM_MARGIN + 3 * 20 + 10, ZOOM_MARGIN + 3 * 20 + 10)).toEqual(COLORS[22]);
  });
});

describe('canvas pictures worth posting', () => {
  const i18n = new I18n(ASSEMBLY.messages);
  const sparse = () => {
    const board = new PlaceBoard(256, 256);
    for (let x = 120; x < 130; x++) board.set(x, 100, 2);
    board.set(125, 105, 13);
    board.revision = 11;
    return board;
  };

  it('GIVEN a sparse canvas THEN the painted part is shown large, with the part named and the whole canvas inset', async () => {
    const board = sparse();
    const view = overviewView(board, BLANK, 1024);
    expect(view.part).toBe(true);
    expect(view.scale).toBeGreaterThanOrEqual(8);
    expect(view.x0).toBeLessThanOrEqual(120);
    expect(view.x0 + view.cols).toBeGreaterThan(129);
    const at = new Date('2025-03-17T14:05:00Z');
    for (const [locale, words] of [
      ['en', ['Neural Place', '17 Mar 2025, 14:05 UTC', 'version 11 · 11 pixels painted', 'Showing x ']],
      ['de', ['Neural Place', '17.03.2025, 14:05 UTC', 'Stand 11 · 11 Pixel bemalt', 'Ausschnitt x ']],
    ] as const) {
      const texts: DrawnText[] = [];
      const png = await renderCanvasPicture(board, COLORS, {
        view,
        caption: canvasCaption(i18n.for(locale), board, view, at),
        record: (x) => texts.push(x),
      });
      const drawn = texts.map((x) => x.drawn).join('\n');
      for (const word of words) expect(drawn).toContain(word);
      expect((await pixelsOf(png)).width).toBeGreaterThanOrEqual(view.cols * view.scale);
    }
  });

  it('GIVEN an empty or a full canvas THEN the whole canvas is shown, the empty one inviting the first pixel', () => {
    const empty = new PlaceBoard(256, 256);
    expect(overviewView(empty, BLANK, 1024)).toMatchObject({
      x0: 0,
      y0: 0,
      cols: 256,
      scale: 4,
      part: false,
    });
    const caption = canvasCaption(i18n.for('de'), empty, overviewView(empty, BLANK, 1024), new Date(0));
    expect(caption.lines[0]).toBe('Stand 0 · Noch ist nichts gemalt: Mal den ersten Pixel mit /place pixel');
    const full = new PlaceBoard(256, 256);
    full.pixels.fill(3);
    expect(overviewView(full, BLANK, 1024)).toMatchObject({ cols: 256, scale: 4, part: false });
  });

  it('GIVEN zoom 4 and zoom 16 THEN each canvas pixel is drawn 4 and 16 screen pixels wide, around the pixel asked for', async () => {
    const board = sparse();
    expect(zoomView(board, 4, 1024, 125, 100)).toMatchObject({ scale: 4, cols: 255, x0: -2, y0: -27 });
    const near = zoomView(board, 16, 1024, 125, 100);
    expect(near).toMatchObject({ scale: 16, cols: 63, rows: 63, part: true });
    expect(near.x0 + near.cols / 2).toBe(125.5);
    // The whole board fits in: nothing to centre on, the whole canvas is shown.
    expect(zoomView(new PlaceBoard(32, 32), 16, 1024, 3, 30)).toMatchObject({
      x0: 0,
      y0: 0,
      cols: 32,
      part: false,
    });
  });

  it('GIVEN a zoom on a pixel in the middle, at a corner or at an edge THEN that pixel is the centre of the picture, the canvas beyond the edge is an off-canvas margin, and the caption names only the canvas shown', async () => {
    const texts: DrawnText[] = [];
    for (const [x, y, range] of [
      [125, 100, 'x 94–156, y 69–131'],
      [0, 0, 'x 0–31, y 0–31'],
      [255, 128, 'x 224–255, y 97–159'],
      [40, 255, 'x 9–71, y 224–255'],
    ] as const) {
      const board = sparse();
      board.set(x, y, 13);
      const view = zoomView(board, 16, 1024, x, y);
      const caption = canvasCaption(i18n.for('en'), board, view, new Date(0), { zoom: 16, x, y });
      expect(caption.lines[1]).toBe(`16× around (${x}, ${y}): ${range}`);
      const png = await renderCanvasPicture(board, COLORS, {
        view,
        caption,
        mark: { x, y },
        record: (t) => texts.push(t),
      });
      const picture = await wholePixelsOf(png);
      const frame = frameOf(picture);
      expect(frame.width, `(${x}, ${y})`).toBe(63 * 16);
      const centre = { x: frame.left + frame.width / 2, y: frame.top + frame.height / 2 };
      const mark = boxOf(picture, [0xf5, 0xc5, 0x42]);
      expect(Math.abs((mark.x0 + mark.x1 + 1) / 2 - centre.x), `(${x}, ${y}) mark`).toBeLessThanOrEqual(16);
      expect(Math.abs((mark.y0 + mark.y1 + 1) / 2 - centre.y), `(${x}, ${y}) mark`).toBeLessThanOrEqual(16);
      expect(picture.at(Math.floor(centre.x), Math.floor(centre.y)), `(${x}, ${y}) paint`).toEqual(
        COLORS[13],
      );
      // The corners of the picture off the canvas: no palette colour, so nobody takes it for paint.
      for (const [cx, cy] of [
        [frame.left + 2, frame.top + 2],
        [frame.left + frame.width - 3, frame.top + frame.height - 3],
      ] as const) {
        const offCanvas =
          (x === 0 && cx < centre.x) || (x === 255 && cx > centre.x) || (y === 255 && cy > centre.y);
        const color = picture.at(cx, cy);
        if (offCanvas) expect(COLORS, `(${x}, ${y}) margin at ${cx}, ${cy}`).not.toContainEqual(color);
        else expect(COLORS).toContainEqual(color);
      }
    }
    // The rulers count only the canvas's coordinates.
    expect(texts.map((t) => t.drawn)).not.toContain('-1');
  });

  it('GIVEN captions THEN every timelapse frame carries its date and version in a strip below', async () => {
    const texts: DrawnText[] = [];
    const board = sparse();
    const { width, height } = await encodeTimelapse(
      [new PlaceBoard(256, 256).pixels, board.pixels],
      board,
      COLORS as [number, number, number][],
      { captions: ['version 0', '17 Mar 2025, 14:05 UTC · version 11'], record: (x) => texts.push(x) },
    );
    expect([width, height]).toEqual([512, 512 + CAPTION_STRIP]);
    expect(texts.map((x) => x.drawn)).toEqual(['version 0', '17 Mar 2025, 14:05 UTC · version 11']);
  });

  it('GIVEN spans of 0, 3, 119 and 5 000 placements THEN the timelapse has a frame for the start and one per placement, at most 120, the few played slower', () => {
    const canvas = { width: 256, height: 256 };
    const box = { x0: 10, y0: 10, x1: 12, y1: 12 };
    const frames = (placements: number) => timelapsePlan(box, placements, canvas, TIMELAPSE_LIMITS);
    expect(timelapsePlan(null, 0, canvas, TIMELAPSE_LIMITS)).toMatchObject({
      area: { x0: 0, y0: 0, cols: 256, rows: 256 },
      frames: 1,
    });
    expect(frames(3)).toMatchObject({ frames: 4, every: 1 });
    expect(frames(119)).toMatchObject({ frames: 120, every: 1 });
    expect(frames(5_000)).toMatchObject({ frames: 120, every: 43 });
    expect(frameDelay(4)).toBe(400);
    expect(frameDelay(120)).toBe(TIMELAPSE_LIMITS.frameMs);
  });

  it('GIVEN painting in a corner, in a thin line, or all over a large canvas THEN the timelapse area is what was painted with a margin, readable, inside the canvas', () => {
    const canvas = { width: 256, height: 256 };
    // A pixel in a corner: 16 pixels square, kept inside the canvas.
    expect(timelapsePlan({ x0: 255, y0: 0, x1: 255, y1: 0 }, 1, canvas, TIMELAPSE_LIMITS)).toMatchObject({
      area: { x0: 240, y0: 0, cols: 16, rows: 16 },
      step: 1,
    });
    // A line 100 long: a margin of 10 each side, and at least half as wide as long.
    const line = timelapsePlan({ x0: 50, y0: 80, x1: 149, y1: 80 }, 100, canvas, TIMELAPSE_LIMITS);
    expect(line.area).toEqual({ x0: 40, y0: 50, cols: 120, rows: 60 });
    // All over 2048²: sampled down to at most 512.
    const big = timelapsePlan(
      { x0: 0, y0: 0, x1: 2047, y1: 2047 },
      9,
      { width: 2048, height: 2048 },
      TIMELAPSE_LIMITS,
    );
    expect(big).toMatchObject({ area: { x0: 0, y0: 0, cols: 2048, rows: 2048 }, step: 4 });
  });
});
