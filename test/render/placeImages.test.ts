import { createCanvas, loadImage } from 'canvas';
import { describe, expect, it } from 'vitest';
import { pngPalette, renderCanvasPng, renderZoomPng } from '../../src/render/placeImages.js';
import { PlaceBoard } from '../../utils/place/board.js';
import { PALETTE, rgb } from '../../utils/place/palette.js';

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
    // Margin 34, radius 3 around 10: column 10 is the 4th cell.
    expect(image.at(34 + 3 * 20 + 10, 34 + 3 * 20 + 10)).toEqual(COLORS[22]);
  });
});
