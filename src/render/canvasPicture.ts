import { type CanvasRenderingContext2D, createCanvas } from 'canvas';
import { encodePng, oneAtATime, TextPen, type TextRecorder } from './canvasTools.js';

type Rgb = readonly [number, number, number];

export interface Board {
  pixels: Uint8Array;
  width: number;
  height: number;
}

/** The part of a board a picture shows, and how many screen pixels each board pixel takes. */
export interface CanvasView {
  x0: number;
  y0: number;
  cols: number;
  rows: number;
  scale: number;
  /** Whether the view is a part of the board (then the picture has an overview inset). */
  part: boolean;
}

/** The painted pixels (not `blank`): how many, and their bounding box (null when none). */
export function paintedArea(board: Board, blank: number) {
  let count = 0;
  let [x0, y0, x1, y1] = [board.width, board.height, -1, -1];
  for (let y = 0; y < board.height; y++) {
    const row = board.pixels.subarray(y * board.width, (y + 1) * board.width);
    for (let x = 0; x < board.width; x++) {
      if (row[x] === blank) continue;
      count++;
      if (x < x0) x0 = x;
      if (x > x1) x1 = x;
      if (y < y0) y0 = y;
      if (y > y1) y1 = y;
    }
  }
  return { count, box: count === 0 ? null : { x0, y0, x1, y1 } };
}

/** A view of `cols`×`rows` around a centre, moved inside the board. */
function around(board: Board, cx: number, cy: number, cols: number, rows: number, scale: number): CanvasView {
  const c = Math.min(board.width, cols);
  const r = Math.min(board.height, rows);
  const x0 = Math.max(0, Math.min(board.width - c, Math.round(cx - c / 2)));
  const y0 = Math.max(0, Math.min(board.height - r, Math.round(cy - r / 2)));
  return { x0, y0, cols: c, rows: r, scale, part: c < board.width || r < board.height };
}

/**
 * What a canvas picture shows about `side` pixels wide: the whole board, or, while the painted
 * pixels cover a small part of it, their bounding box with a margin, scaled up by a whole factor.
 */
export function overviewView(board: Board, blank: number, side: number): CanvasView {
  const whole = Math.max(1, Math.floor(side / Math.max(board.width, board.height)));
  const { box } = paintedArea(board, blank);
  if (!box) return { x0: 0, y0: 0, cols: board.width, rows: board.height, scale: whole, part: false };
  const margin = Math.max(4, Math.ceil(Math.max(box.x1 - box.x0, box.y1 - box.y0) * 0.15));
  const cols = Math.max(16, box.x1 - box.x0 + 1 + 2 * margin);
  const rows = Math.max(16, box.y1 - box.y0 + 1 + 2 * margin);
  const scale = Math.max(1, Math.min(32, Math.floor(side / Math.max(cols, rows))));
  if (scale <= whole * 1.5)
    return { x0: 0, y0: 0, cols: board.width, rows: board.height, scale: whole, part: false };
  return around(board, (box.x0 + box.x1 + 1) / 2, (box.y0 + box.y1 + 1) / 2, cols, rows, scale);
}

/**
 * A magnified view: each board pixel `zoom` screen pixels wide, about `side` wide, with pixel
 * (cx, cy) exactly in the middle (an odd number of cells). Near an edge the view reaches past
 * the board: the picture draws that part as an off-canvas margin, never as paint. Along a side
 * the whole board fits in, the view is that whole side (nothing to centre on).
 */
export function zoomView(board: Board, zoom: number, side: number, cx: number, cy: number): CanvasView {
  const fit = Math.max(1, Math.floor(side / zoom));
  const cells = fit % 2 === 1 ? fit : fit - 1;
  const axis = (c: number, length: number) =>
    cells >= length ? { start: 0, count: length } : { start: c - (cells - 1) / 2, count: cells };
  const x = axis(cx, board.width);
  const y = axis(cy, board.height);
  const whole = x.count === board.width && y.count === board.height;
  return { x0: x.start, y0: y.start, cols: x.count, rows: y.count, scale: zoom, part: !whole };
}

/** The part of the board a view shows, corners included (a zoom near an edge reaches past it). */
export function shownRange(board: Board, view: CanvasView) {
  return {
    x0: Math.max(0, view.x0),
    y0: Math.max(0, view.y0),
    x1: Math.min(board.width, view.x0 + view.cols) - 1,
    y1: Math.min(board.height, view.y0 + view.rows) - 1,
  };
}

/** The words under a canvas picture, in the reader's language. */
export interface CanvasCaption {
  title: string;
  /** Right of the title: the date. */
  date: string;
  /** Lines below (revision and painted pixels; the part shown). */
  lines: string[];
}

export interface CanvasPictureOptions {
  view: CanvasView;
  caption: CanvasCaption;
  /** Outline this pixel (a zoom's centre). */
  mark?: { x: number; y: number } | null;
  /** Rectangles to outline, corners included (the canvas's protected areas). */
  outlines?: readonly { x1: number; y1: number; x2: number; y2: number }[];
  record?: TextRecorder;
}

const PAD = 24;
const BAND = 44;
const LINE = 26;
const INSET = 150;
const MIN_WIDTH = 720;
const RULER = 40;

/** A canvas picture worth posting: the board (or a part, magnified) in a frame, with a caption. */
export function renderCanvasPicture(
  board: Board,
  colors: readonly Rgb[],
  options: CanvasPictureOptions,
): Promise<Buffer> {
  return oneAtATime(async () => {
    const { view, caption } = options;
    const ruler = view.scale >= 8 ? RULER : 0;
    const [imgW, imgH] = [view.cols * view.scale, view.rows * view.scale];
    const width = Math.max(MIN_WIDTH, imgW + ruler + PAD * 2);
    const captionH = Math.max(BAND + caption.lines.length * LINE, view.part ? INSET + 8 : 0) + 16;
    const height = PAD + ruler + imgH + PAD + captionH;
    const canvas = createCanvas(width, height);
    const g = canvas.getContext('2d');
    const pen = new TextPen(g, options.record);
    g.fillStyle = '#1e1f22';
    g.fillRect(0, 0, width, height);
    const left = Math.round((width - imgW - ruler) / 2) + ruler;
    const top = PAD + ruler;
    g.fillStyle = '#4e5058';
    g.fillRect(left - 3, top - 3, imgW + 6, imgH + 6);
    drawPixels(g, board, colors, view, left, top);
    drawOffCanvas(g, board, view, left, top);
    if (ruler) drawGrid(g, pen, board, view, left, top);
    drawOutlines(g, options.outlines ?? [], view, left, top);
    if (options.mark) {
      g.strokeStyle = '#f5c542';
      g.lineWidth = 3;
      const s = view.scale;
      g.strokeRect(
        left + (options.mark.x - view.x0) * s - 1.5,
        top + (options.mark.y - view.y0) * s - 1.5,
        s + 3,
        s + 3,
      );
    }
    const bandTop = top + imgH + PAD;
    const textRight = width - PAD - (view.part ? INSET + PAD : 0);
    const dateWidth = pen.text(caption.date, textRight, bandTop + 28, 300, {
      size: 18,
      color: '#b5bac1',
      align: 'right',
    });
    pen.text(caption.title, PAD, bandTop + 30, textRight - PAD - dateWidth - 16, {
      size: 28,
      bold: true,
      color: '#f2f3f5',
    });
    caption.lines.forEach((line, i) => {
      pen.text(line, PAD, bandTop + BAND + 18 + i * LINE, textRight - PAD, { size: 18, color: '#dbdee1' });
    });
    if (view.part) drawInset(g, board, colors, view, width - PAD - INSET, bandTop + 8);
    return encodePng(canvas);
  });
}

/** Dashed outlines around rectangles of the board, cut to the part the picture shows. */
function drawOutlines(
  g: CanvasRenderingContext2D,
  rects: NonNullable<CanvasPictureOptions['outlines']>,
  view: CanvasView,
  left: number,
  top: number,
) {
  const s = view.scale;
  g.save();
  g.beginPath();
  g.rect(left, top, view.cols * s, view.rows * s);
  g.clip();
  g.lineWidth = 2;
  g.setLineDash([6, 4]);
  for (const r of rects) {
    const [x, y] = [left + (r.x1 - view.x0) * s, top + (r.y1 - view.y0) * s];
    const [w, h] = [(r.x2 - r.x1 + 1) * s, (r.y2 - r.y1 + 1) * s];
    // White under blue: the outline shows on a dark canvas and on a light one.
    g.strokeStyle = '#ffffff';
    g.lineDashOffset = 5;
    g.strokeRect(x - 1, y - 1, w + 2, h + 2);
    g.strokeStyle = '#1a73e8';
    g.lineDashOffset = 0;
    g.strokeRect(x - 1, y - 1, w + 2, h + 2);
  }
  g.restore();
}

function drawPixels(
  g: CanvasRenderingContext2D,
  board: Board,
  colors: readonly Rgb[],
  view: CanvasView,
  left: number,
  top: number,
) {
  const s = view.scale;
  const image = g.createImageData(view.cols * s, view.rows * s);
  const data = new Uint32Array(image.data.buffer);
  const packed = colors.map(([r, gr, b]) => (255 << 24) | (b << 16) | (gr << 8) | r);
  const rowW = view.cols * s;
  const shown = shownRange(board, view);
  for (let y = 0; y < view.rows; y++) {
    if (view.y0 + y < shown.y0 || view.y0 + y > shown.y1) continue; // off the board: drawOffCanvas
    const src = (view.y0 + y) * board.width + view.x0;
    const out = y * s * rowW;
    for (let x = shown.x0 - view.x0; x <= shown.x1 - view.x0; x++)
      data.fill(packed[board.pixels[src + x] as number] ?? -1, out + x * s, out + (x + 1) * s);
    for (let k = 1; k < s; k++) data.copyWithin(out + k * rowW, out, out + rowW);
  }
  g.putImageData(image, left, top);
}

/** Off-canvas margin: dark, hatched (no palette colour is either), so nobody takes it for paint. */
const OFF_CANVAS = { fill: '#2b2d31', hatch: '#383a40' } as const;

/**
 * Where a view reaches past the board (a zoom near an edge): the margin hatched, and the
 * board's edge drawn as a line.
 */
function drawOffCanvas(
  g: CanvasRenderingContext2D,
  board: Board,
  view: CanvasView,
  left: number,
  top: number,
) {
  const s = view.scale;
  const shown = shownRange(board, view);
  const [imgW, imgH] = [view.cols * s, view.rows * s];
  const inside = {
    x: left + (shown.x0 - view.x0) * s,
    y: top + (shown.y0 - view.y0) * s,
    w: (shown.x1 - shown.x0 + 1) * s,
    h: (shown.y1 - shown.y0 + 1) * s,
  };
  if (inside.w === imgW && inside.h === imgH) return;
  g.save();
  g.beginPath();
  g.rect(left, top, imgW, imgH);
  g.rect(inside.x, inside.y, inside.w, inside.h);
  g.clip('evenodd');
  g.fillStyle = OFF_CANVAS.fill;
  g.fillRect(left, top, imgW, imgH);
  g.strokeStyle = OFF_CANVAS.hatch;
  g.lineWidth = 4;
  g.beginPath();
  for (let d = -imgH; d < imgW; d += 14) {
    g.moveTo(left + d, top + imgH);
    g.lineTo(left + d + imgH, top);
  }
  g.stroke();
  g.restore();
  g.strokeStyle = '#b5bac1';
  g.lineWidth = 2;
  g.strokeRect(inside.x - 1, inside.y - 1, inside.w + 2, inside.h + 2);
}

/**
 * Thin lines between magnified pixels, and their coordinates along the top and left edges: on
 * the board only (the off-canvas margin has neither).
 */
function drawGrid(
  g: CanvasRenderingContext2D,
  pen: TextPen,
  board: Board,
  view: CanvasView,
  left: number,
  top: number,
) {
  const s = view.scale;
  const shown = shownRange(board, view);
  const [i0, i1] = [shown.x0 - view.x0, shown.x1 - view.x0 + 1];
  const [j0, j1] = [shown.y0 - view.y0, shown.y1 - view.y0 + 1];
  g.strokeStyle = 'rgba(0,0,0,0.22)';
  g.lineWidth = 1;
  g.beginPath();
  for (let i = i0; i <= i1; i++) {
    g.moveTo(left + i * s + 0.5, top + j0 * s);
    g.lineTo(left + i * s + 0.5, top + j1 * s);
  }
  for (let j = j0; j <= j1; j++) {
    g.moveTo(left + i0 * s, top + j * s + 0.5);
    g.lineTo(left + i1 * s, top + j * s + 0.5);
  }
  g.stroke();
  const step = Math.max(1, Math.ceil(36 / s));
  const label = { size: 11, color: '#b5bac1', align: 'center' as const, minSize: 11 };
  for (let x = i0; x < i1; x += step)
    pen.text(String(view.x0 + x), left + (x + 0.5) * s, top - 10, step * s - 2, label);
  for (let y = j0; y < j1; y += step)
    pen.text(String(view.y0 + y), left - 6, top + (y + 0.5) * s + 4, RULER - 10, {
      ...label,
      align: 'right',
    });
}

/** The whole board, small, with the part the picture shows outlined. */
function drawInset(
  g: CanvasRenderingContext2D,
  board: Board,
  colors: readonly Rgb[],
  view: CanvasView,
  x: number,
  y: number,
) {
  const k = INSET / Math.max(board.width, board.height);
  const small = createCanvas(board.width, board.height);
  const sg = small.getContext('2d');
  drawPixels(
    sg,
    board,
    colors,
    { x0: 0, y0: 0, cols: board.width, rows: board.height, scale: 1, part: false },
    0,
    0,
  );
  g.fillStyle = '#4e5058';
  g.fillRect(x - 2, y - 2, board.width * k + 4, board.height * k + 4);
  g.imageSmoothingEnabled = false;
  g.drawImage(small, x, y, board.width * k, board.height * k);
  g.strokeStyle = '#ff00ff';
  g.lineWidth = 2;
  const shown = shownRange(board, view);
  g.strokeRect(
    x + shown.x0 * k,
    y + shown.y0 * k,
    Math.max(3, (shown.x1 - shown.x0 + 1) * k),
    Math.max(3, (shown.y1 - shown.y0 + 1) * k),
  );
}
