import { describe, expect, it } from 'vitest';
import { BLANK, PALETTE, parseColor, rgb } from '../../utils/place/palette.js';
import {
  griefOf,
  nearestColor,
  nearestWrong,
  type PixelChange,
  quantize,
  type TemplateArt,
  TRANSPARENT,
  templateProgress,
} from '../../utils/place/templateArt.js';

const c = (name: string) => parseColor(name) as number;
const [RED, BLUE, BLACK, WHITE] = [c('red'), c('blue'), c('black'), c('white')];

/** An RGBA image from rows of cells: a colour name, `[r, g, b]`, or `.` for transparent. */
function image(rows: (string | readonly [number, number, number])[][]) {
  const height = rows.length;
  const width = rows[0]?.length ?? 0;
  const data = new Uint8ClampedArray(width * height * 4);
  rows.forEach((row, y) => {
    row.forEach((cell, x) => {
      if (cell === '.') return;
      const [r, g, b] = typeof cell === 'string' ? rgb(c(cell)) : cell;
      data.set([r, g, b, 255], (y * width + x) * 4);
    });
  });
  return { width, height, data };
}

/** A canvas of `width`×`height`, blank but for the pixels given. */
function canvas(width: number, height: number, set: Record<string, number> = {}) {
  return { width, height, get: (x: number, y: number) => set[`${x}:${y}`] ?? BLANK };
}

/** A 3×2 artwork at (10, 20): red red blue / black (transparent) red. */
const ART: TemplateArt = {
  x: 10,
  y: 20,
  width: 3,
  height: 2,
  pixels: Uint8Array.from([RED, RED, BLUE, BLACK, TRANSPARENT, RED]),
};

describe('template artwork', () => {
  it('GIVEN an image drawn in the palette with a transparent hole THEN every colour converts exactly and the hole stays transparent', () => {
    const art = quantize(
      image([
        ['red', 'red', 'blue'],
        ['black', '.', 'red'],
      ]),
    );
    expect([...art.pixels]).toEqual([...ART.pixels]);
    expect(art).toMatchObject({ opaque: 5, exact: 5 });
  });

  it('GIVEN colours off the palette THEN each takes the palette colour nearest to it and is counted as converted', () => {
    const art = quantize(
      image([
        [
          [250, 70, 5],
          [60, 140, 230],
          [3, 3, 3],
          [250, 250, 250],
        ],
      ]),
    );
    expect([...art.pixels]).toEqual([RED, BLUE, BLACK, WHITE]);
    expect(art).toMatchObject({ opaque: 4, exact: 0 });
    // Every palette colour is its own nearest.
    for (let i = 0; i < PALETTE.length; i++) expect(nearestColor(...rgb(i))).toBe(i);
  });

  it('GIVEN a half-transparent pixel THEN below half opacity it is transparent, from half on it is painted', () => {
    const data = Uint8ClampedArray.from([...rgb(RED), 127, ...rgb(RED), 128]);
    expect([...quantize({ width: 2, height: 1, data }).pixels]).toEqual([TRANSPARENT, RED]);
  });

  it('GIVEN a canvas showing three of the five pixels THEN progress is 3 of 5, 60 %, and the transparent pixel counts for nothing', () => {
    const board = canvas(64, 64, { '10:20': RED, '12:20': BLUE, '12:21': RED, '11:21': WHITE });
    expect(templateProgress(board, ART)).toEqual({ total: 5, right: 3, percent: 60 });
    expect(templateProgress(canvas(64, 64), ART)).toEqual({ total: 5, right: 0, percent: 0 });
  });

  it('GIVEN a template of 3 pixels with 2 right THEN progress reads 66.6 %, never rounded up', () => {
    const art: TemplateArt = { x: 0, y: 0, width: 3, height: 1, pixels: Uint8Array.from([RED, RED, RED]) };
    expect(templateProgress(canvas(8, 8, { '0:0': RED, '1:0': RED }), art).percent).toBe(66.6);
  });

  it('GIVEN a point THEN the wrong pixels come nearest first with the colour they need and have, ties top to bottom then left to right', () => {
    const board = canvas(64, 64, { '11:20': RED });
    expect(nearestWrong(board, ART, { x: 11, y: 21 }, 3)).toEqual([
      { x: 10, y: 21, color: BLACK, now: WHITE },
      { x: 12, y: 21, color: RED, now: WHITE },
      { x: 10, y: 20, color: RED, now: WHITE },
    ]);
    // From far away the nearest corner comes first; `limit` caps the list.
    expect(nearestWrong(board, ART, { x: 100, y: 0 }, 1)).toEqual([
      { x: 12, y: 20, color: BLUE, now: WHITE },
    ]);
  });

  it('GIVEN changes over the artwork THEN only those that took a right pixel away are grief, counted by painter', () => {
    const at = new Date('2026-03-01T12:00:00Z');
    let revision = 0;
    const change = (x: number, y: number, before: number, color: number, owner: string): PixelChange => ({
      revision: ++revision,
      x,
      y,
      before,
      color,
      owner,
      at,
    });
    const grief = griefOf(ART, [
      change(10, 20, RED, WHITE, 'ann'), // right → wrong: grief
      change(11, 20, RED, BLUE, 'bob'), // right → wrong: grief
      change(12, 20, WHITE, BLACK, 'bob'), // wrong → wrong: not grief
      change(12, 21, WHITE, RED, 'cat'), // wrong → right: help
      change(11, 21, RED, WHITE, 'dan'), // transparent in the artwork: nobody's business
      change(30, 30, RED, WHITE, 'eve'), // outside
      change(12, 21, RED, BLACK, 'bob'), // right again → wrong: grief
    ]);
    expect(grief?.changes.map((g) => `${g.x}:${g.y}`)).toEqual(['10:20', '11:20', '12:21']);
    expect(grief?.painters).toEqual([
      { owner: 'bob', count: 2 },
      { owner: 'ann', count: 1 },
    ]);
    expect(griefOf(ART, [change(12, 21, WHITE, RED, 'cat')])).toBeNull();
  });
});
