import { createCanvas, loadImage } from 'canvas';
import { describe, expect, it } from 'vitest';
import { ASSEMBLY } from '../../commands/index.js';
import { canvasCaption } from '../../commands/place/view.js';
import { I18n } from '../../src/i18n/i18n.js';
import { overviewView, renderCanvasPicture, zoomView } from '../../src/render/canvasPicture.js';
import type { DrawnText } from '../../src/render/canvasTools.js';
import { pngPalette, renderCanvasPng, renderZoomPng, ZOOM_MARGIN } from '../../src/render/placeImages.js';
import { CAPTION_STRIP, encodeTimelapse } from '../../src/render/timelapseGif.js';
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
    expect(zoomView(board, 4, 1024, 125, 100)).toMatchObject({ scale: 4, cols: 256, x0: 0 });
    const near = zoomView(board, 16, 1024, 125, 100);
    expect(near).toMatchObject({ scale: 16, cols: 64, rows: 64, part: true });
    expect(Math.abs(near.x0 + near.cols / 2 - 125.5)).toBeLessThanOrEqual(1);
    const far = zoomView(board, 32, 1024, 255, 0);
    expect(far).toMatchObject({ x0: 224, y0: 0, cols: 32 });
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
});
