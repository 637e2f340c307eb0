/** The canvas's images: the picture at every stage, zoom, palette, rollback preview, timelapse. */
import { createCanvas, loadImage } from 'canvas';
import { renderTemplatePicture } from '../commands/place/templates.js';
import { COLORS, canvasCaption, captionDate, PICTURE_SIDE } from '../commands/place/view.js';
import { renderHeatmap, renderVirginMap } from '../commands/place/views.js';
import type { Translator } from '../src/i18n/i18n.js';
import { overviewView, renderCanvasPicture, zoomView } from '../src/render/canvasPicture.js';
import type { TextRecorder } from '../src/render/canvasTools.js';
import { renderPalettePng, renderZoomPng } from '../src/render/placeImages.js';
import { encodeTimelapse } from '../src/render/timelapseGif.js';
import { PlaceBoard } from '../utils/place/board.js';
import { BLANK, colorName, PALETTE } from '../utils/place/palette.js';
import { renderPixelsZoom } from '../utils/place/rollbackPreview.js';
import { TRANSPARENT } from '../utils/place/templateArt.js';
import { AT, type ImageScene, i18n, LANGUAGES } from './sceneKit.js';

const SIDE = 256;

/** A cookie with chips and a few words of pixel art near the middle: what a new canvas looks like. */
function sparseBoard(progress = 1): PlaceBoard {
  const board = new PlaceBoard(SIDE, SIDE);
  const [cx, cy, r] = [120, 110, 14];
  const cells: [number, number, number][] = [];
  for (let y = cy - r; y <= cy + r; y++)
    for (let x = cx - r; x <= cx + r; x++) {
      const d = Math.hypot(x - cx, y - cy);
      if (d <= r) cells.push([x, y, d > r - 1.5 ? 24 : (x * 7 + y * 3) % 11 === 0 ? 24 : 25]);
    }
  const heart = ['.XX.XX.', 'XXXXXXX', 'XXXXXXX', '.XXXXX.', '..XXX..', '...X...'];
  heart.forEach((row, y) => {
    [...row].forEach((c, x) => {
      if (c === 'X') cells.push([142 + x, 100 + y, 2]);
    });
  });
  for (let x = 0; x < 22; x++) cells.push([110 + x, 130, 13]);
  for (const [x, y, c] of cells.slice(0, Math.ceil(cells.length * progress))) board.set(x, y, c);
  board.revision = Math.ceil(cells.length * progress);
  return board;
}

/** A canvas painted everywhere: bands, rings and a checkered corner. */
function fullBoard(): PlaceBoard {
  const board = new PlaceBoard(SIDE, SIDE);
  for (let y = 0; y < SIDE; y++)
    for (let x = 0; x < SIDE; x++) {
      const ring = Math.floor(Math.hypot(x - 128, y - 128) / 12);
      const color = x < 64 && y < 64 ? (((x >> 3) + (y >> 3)) % 2 === 0 ? 27 : 31) : (ring + (y >> 5)) % 27;
      board.set(x, y, color);
    }
  board.revision = 1_234_567;
  return board;
}

function framed(
  name: string,
  title: string,
  make: () => PlaceBoard,
  view: (board: PlaceBoard) => {
    view: ReturnType<typeof overviewView>;
    zoom?: { zoom: number; x: number; y: number };
    mark?: { x: number; y: number } | null;
  },
): ImageScene[] {
  return LANGUAGES.map(({ locale, label }) => ({
    file: `canvas-${name}-${locale}.png`,
    title: `${title} · ${label}`,
    locale,
    render(record?: TextRecorder) {
      const board = make();
      const shown = view(board);
      return renderCanvasPicture(board, COLORS, {
        view: shown.view,
        caption: canvasCaption(i18n.for(locale), board, shown.view, AT, shown.zoom),
        mark: shown.mark ?? null,
        ...(record ? { record } : {}),
      });
    },
  }));
}

const overview = (board: PlaceBoard) => ({ view: overviewView(board, BLANK, PICTURE_SIDE) });
const zoomed = (zoom: number, x: number, y: number, marked: boolean) => (board: PlaceBoard) => ({
  view: zoomView(board, zoom, PICTURE_SIDE, x, y),
  zoom: { zoom, x, y },
  mark: marked ? { x, y } : null,
});

function timelapseScenes(): ImageScene[] {
  const frames = [0, 0.25, 0.5, 0.75, 1].map((p) => sparseBoard(p));
  const captions = (t: Translator) =>
    frames.map((board, i) => {
      const n = t.number(board.revision);
      return board.revision === 0
        ? t.t('place:picture.version', { n })
        : t.t('place:picture.frame', { date: captionDate(t, new Date(AT.getTime() + i * 3_600_000)), n });
    });
  const gif = (t: Translator, only: number[], record?: TextRecorder) =>
    encodeTimelapse(
      only.map((i) => (frames[i] as PlaceBoard).pixels),
      { width: SIDE, height: SIDE },
      PALETTE.map((_, i) => COLORS[i] as [number, number, number]),
      { captions: only.map((i) => captions(t)[i] as string), ...(record ? { record } : {}) },
    );
  return LANGUAGES.flatMap(({ locale, label }) => [
    ...[1, 3, 4].map((i) => ({
      file: `timelapse-frame${i}-${locale}.png`,
      title: `Timelapse frame ${i + 1} of ${frames.length} · ${label}`,
      locale,
      async render(record?: TextRecorder) {
        const single = await gif(i18n.for(locale), [i], record);
        const image = await loadImage(single.gif);
        const canvas = createCanvas(image.width, image.height);
        canvas.getContext('2d').drawImage(image, 0, 0);
        return canvas.toBuffer('image/png');
      },
    })),
    {
      file: `timelapse-${locale}.gif`,
      title: `Timelapse GIF · ${label}`,
      locale,
      async render(record?: TextRecorder) {
        return (await gif(i18n.for(locale), [0, 1, 2, 3, 4], record)).gif;
      },
    },
  ]);
}

function rollbackScene(): ImageScene {
  return {
    file: 'rollback-preview.png',
    title: 'Rollback preview (moderators): the restored pixels outlined',
    locale: 'en',
    render(record?: TextRecorder) {
      const board = sparseBoard();
      const marked = new Set<string>();
      for (let x = 142; x < 149; x++) for (let y = 100; y < 106; y++) marked.add(`${x}:${y}`);
      const after = {
        width: SIDE,
        height: SIDE,
        get: (x: number, y: number) => (marked.has(`${x}:${y}`) ? BLANK : board.get(x, y)),
      };
      return renderZoomPng(
        after,
        COLORS,
        { x: 145, y: 103, radius: 8, cell: 36, marked },
        record ? { record } : {},
      );
    },
  };
}

/**
 * The heatmap (the heart painted over and over, the line once, the cookie not in the last day)
 * and the virgin map of the sparse canvas, as /place heatmap and /place virgin draw them.
 */
function viewScenes(): ImageScene[] {
  const board = sparseBoard();
  const counts = new Uint32Array(SIDE * SIDE);
  let placements = 0;
  const paint = (x: number, y: number, times: number) => {
    counts[y * SIDE + x] = times;
    placements += times;
  };
  for (let y = 100; y < 106; y++)
    for (let x = 142; x < 149; x++) if (board.get(x, y) === 2) paint(x, y, 1 + ((x * 5 + y * 3) % 40));
  for (let x = 110; x < 132; x++) paint(x, 130, 1);
  return LANGUAGES.flatMap(({ locale, label }) => [
    {
      file: `heatmap-${locale}.png`,
      title: `Heatmap · the last day · ${label}`,
      locale,
      render: (record?: TextRecorder) =>
        renderHeatmap(i18n.for(locale), board, { counts, placements }, 'day', AT, record),
    },
    {
      file: `virgin-${locale}.png`,
      title: `Virgin map · never painted · ${label}`,
      locale,
      render: (record?: TextRecorder) => renderVirginMap(i18n.for(locale), board, AT, record),
    },
  ]);
}

/**
 * A faction's template over the sparse canvas: a bigger heart around the one painted, so part of
 * it is right and part still pale; and a grief alert's before and after of three pixels painted over.
 */
function templateScenes(): ImageScene[] {
  const board = sparseBoard();
  const [w, h] = [11, 10];
  const pixels = new Uint8Array(w * h).fill(TRANSPARENT);
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++) {
      // A heart: two circles and a triangle below them.
      const [u, v] = [x - 5, y - 3];
      const lobes = Math.hypot(u + 2.5, v) <= 2.8 || Math.hypot(u - 2.5, v) <= 2.8;
      const point = v >= 0 && Math.abs(u) <= 5.5 - v * 0.9;
      if (lobes || point) pixels[y * w + x] = (x + y) % 7 === 0 ? 1 : 2;
    }
  const art = { name: 'Herz', x: 140, y: 98, width: w, height: h, pixels };
  const griefed = [
    { x: 144, y: 102, color: 2 },
    { x: 145, y: 102, color: 2 },
    { x: 146, y: 103, color: 2 },
  ];
  const after = new PlaceBoard(SIDE, SIDE);
  after.pixels.set(board.pixels);
  for (const p of griefed) after.set(p.x, p.y, 31);
  return [
    ...LANGUAGES.map(({ locale, label }) => ({
      file: `template-${locale}.png`,
      title: `Template · /place template show · ${label}`,
      locale,
      render: (record?: TextRecorder) => renderTemplatePicture(i18n.for(locale), board, art, AT, record),
    })),
    {
      file: 'template-grief-before.png',
      title: 'Template · a grief alert: before',
      locale: 'en',
      render: (record?: TextRecorder) =>
        renderPixelsZoom(after, griefed, { overlay: true, outlined: true, ...(record ? { record } : {}) }),
    },
    {
      file: 'template-grief-after.png',
      title: 'Template · a grief alert: after',
      locale: 'en',
      render: (record?: TextRecorder) =>
        renderPixelsZoom(after, griefed, { overlay: false, outlined: true, ...(record ? { record } : {}) }),
    },
  ];
}

export function canvasScenes(): ImageScene[] {
  return [
    ...framed('empty', 'Canvas · nothing painted yet', () => new PlaceBoard(SIDE, SIDE), overview),
    ...framed(
      'sparse',
      'Canvas · sparse: the painted part shown large, the whole canvas inset',
      () => sparseBoard(),
      overview,
    ),
    ...framed('full', 'Canvas · painted everywhere, seven-digit version', fullBoard, overview),
    ...framed(
      'zoom16',
      'Canvas · /place view x:121 y:110 zoom:16',
      () => sparseBoard(),
      zoomed(16, 121, 110, true),
    ),
    ...framed(
      'zoom8',
      'Canvas · /place view zoom:8 (no x, y: centred on the painted part)',
      fullBoard,
      zoomed(8, 128, 128, false),
    ),
    ...framed(
      'zoom-corner',
      'Canvas · /place view x:2 y:3 zoom:16: the pixel in the middle, the off-canvas margin hatched',
      () => sparseBoard(),
      zoomed(16, 2, 3, true),
    ),
    ...viewScenes(),
    ...templateScenes(),
    ...LANGUAGES.map(({ locale, label }) => ({
      file: `palette-${locale}.png`,
      title: `Palette · ${label}`,
      locale,
      render: (record?: TextRecorder) =>
        renderPalettePng(
          PALETTE.map((c, i) => ({ name: colorName(i, locale), hex: c.hex })),
          record ? { record } : {},
        ),
    })),
    rollbackScene(),
    ...timelapseScenes(),
  ];
}
