import { Canvas, createCanvas } from 'canvas';
import { encodePng, oneAtATime, TextPen, type TextRecorder } from './canvasTools.js';

/** The palette as node-canvas's indexed-PNG palette: RGBA per entry. */
export function pngPalette(colors: readonly [number, number, number][]): Uint8ClampedArray {
  const palette = new Uint8ClampedArray(colors.length * 4);
  colors.forEach(([r, g, b], i) => {
    palette.set([r, g, b, 255], i * 4);
  });
  return palette;
}

/** Nearest-neighbour upscale of a 1-byte-per-pixel board: each pixel becomes a scale×scale block. */
/**
 * A part of a board (`area`, in board pixels), every `step`-th pixel of every `step`-th row:
 * `ceil(cols / step)` × `ceil(rows / step)`, 1 byte per pixel.
 */
export function cropArea(
  pixels: Uint8Array,
  width: number,
  area: { x0: number; y0: number; cols: number; rows: number },
  step: number,
): Uint8Array {
  const outWidth = Math.ceil(area.cols / step);
  const outHeight = Math.ceil(area.rows / step);
  const out = new Uint8Array(outWidth * outHeight);
  for (let y = 0; y < outHeight; y++) {
    const row = (area.y0 + y * step) * width + area.x0;
    if (step === 1) out.set(pixels.subarray(row, row + outWidth), y * outWidth);
    else for (let x = 0; x < outWidth; x++) out[y * outWidth + x] = pixels[row + x * step] as number;
  }
  return out;
}

export function upscale(pixels: Uint8Array, width: number, height: number, scale: number): Uint8Array {
  const out = new Uint8Array(width * scale * height * scale);
  const rowOut = width * scale;
  for (let y = 0; y < height; y++) {
    const row = out.subarray(y * scale * rowOut, (y * scale + 1) * rowOut);
    for (let x = 0; x < width; x++) row.fill(pixels[y * width + x] as number, x * scale, (x + 1) * scale);
    for (let k = 1; k < scale; k++)
      out.copyWithin((y * scale + k) * rowOut, y * scale * rowOut, (y * scale + 1) * rowOut);
  }
  return out;
}

/**
 * The whole canvas as an indexed PNG (1 byte per pixel, the 32-colour palette), scaled up with
 * sharp edges: node-canvas's A8 surface takes the indices as they are, and its PNG encoder
 * writes them with the palette. No RGBA image is ever made.
 */
export function renderCanvasPng(
  board: { pixels: Uint8Array; width: number; height: number },
  palette: Uint8ClampedArray,
  scale: number,
): Promise<Buffer> {
  return oneAtATime(async () => {
    const width = board.width * scale;
    const height = board.height * scale;
    const canvas = createCanvas(width, height);
    const g = canvas.getContext('2d', { pixelFormat: 'A8' });
    const image = g.createImageData(width, height);
    image.data.set(scale === 1 ? board.pixels : upscale(board.pixels, board.width, board.height, scale));
    g.putImageData(image, 0, 0);
    return new Promise<Buffer>((resolve, reject) =>
      // No row filters: the PNG spec's advice for palette images, and most of the encoder's time otherwise.
      canvas.toBuffer((error, png) => (error ? reject(error) : resolve(png)), 'image/png', {
        palette,
        filters: Canvas.PNG_FILTER_NONE,
      }),
    );
  });
}

/** Room left of and above a zoom's cells for the coordinates ("2047" fits). */
export const ZOOM_MARGIN = 40;

/** A zoomed region: cells with a grid, coordinates along the edges, and the chosen pixel outlined. */
export function renderZoomPng(
  board: { get(x: number, y: number): number; width: number; height: number },
  colors: readonly [number, number, number][],
  view: { x: number; y: number; radius: number; cell: number; marked?: ReadonlySet<string> },
  options: { record?: TextRecorder } = {},
): Promise<Buffer> {
  return oneAtATime(async () => {
    const x0 = Math.max(0, Math.min(board.width - 1, view.x - view.radius));
    const y0 = Math.max(0, Math.min(board.height - 1, view.y - view.radius));
    const x1 = Math.min(board.width - 1, view.x + view.radius);
    const y1 = Math.min(board.height - 1, view.y + view.radius);
    const margin = ZOOM_MARGIN;
    const cols = x1 - x0 + 1;
    const rows = y1 - y0 + 1;
    const canvas = createCanvas(margin + cols * view.cell + 4, margin + rows * view.cell + 4);
    const g = canvas.getContext('2d');
    g.fillStyle = '#1e1f22';
    g.fillRect(0, 0, canvas.width, canvas.height);
    for (let y = y0; y <= y1; y++) {
      for (let x = x0; x <= x1; x++) {
        const [r, gr, b] = colors[board.get(x, y)] ?? [255, 255, 255];
        g.fillStyle = `rgb(${r},${gr},${b})`;
        g.fillRect(margin + (x - x0) * view.cell, margin + (y - y0) * view.cell, view.cell, view.cell);
      }
    }
    g.strokeStyle = 'rgba(0,0,0,0.25)';
    g.lineWidth = 1;
    for (let i = 0; i <= cols; i++) {
      g.beginPath();
      g.moveTo(margin + i * view.cell + 0.5, margin);
      g.lineTo(margin + i * view.cell + 0.5, margin + rows * view.cell);
      g.stroke();
    }
    for (let j = 0; j <= rows; j++) {
      g.beginPath();
      g.moveTo(margin, margin + j * view.cell + 0.5);
      g.lineTo(margin + cols * view.cell, margin + j * view.cell + 0.5);
      g.stroke();
    }
    const pen = new TextPen(g, options.record);
    const label = { size: 11, color: '#dbdee1', align: 'center' as const, minSize: 11 };
    const step = Math.max(1, Math.ceil(32 / view.cell));
    for (let x = x0; x <= x1; x += step)
      pen.text(String(x), margin + (x - x0 + 0.5) * view.cell, margin - 10, step * view.cell - 2, label);
    for (let y = y0; y <= y1; y += step)
      pen.text(String(y), margin - 6, margin + (y - y0 + 0.5) * view.cell + 4, margin - 8, {
        ...label,
        align: 'right',
      });
    g.strokeStyle = '#ff00ff';
    g.lineWidth = 2;
    for (const key of view.marked ?? []) {
      const [mx, my] = key.split(':').map(Number) as [number, number];
      if (mx < x0 || mx > x1 || my < y0 || my > y1) continue;
      g.strokeRect(
        margin + (mx - x0) * view.cell + 1,
        margin + (my - y0) * view.cell + 1,
        view.cell - 2,
        view.cell - 2,
      );
    }
    if (!view.marked && view.x >= x0 && view.x <= x1 && view.y >= y0 && view.y <= y1) {
      g.strokeStyle = '#f5c542';
      g.lineWidth = 3;
      g.strokeRect(
        margin + (view.x - x0) * view.cell - 1,
        margin + (view.y - y0) * view.cell - 1,
        view.cell + 2,
        view.cell + 2,
      );
    }
    return encodePng(canvas);
  });
}

/** The palette as a picture: each colour's swatch, index, name and hex. */
export function renderPalettePng(
  entries: readonly { name: string; hex: string }[],
  options: { record?: TextRecorder } = {},
): Promise<Buffer> {
  return oneAtATime(async () => {
    const perColumn = 16;
    const rowH = 30;
    const colW = 300;
    const canvas = createCanvas(colW * Math.ceil(entries.length / perColumn) + 16, perColumn * rowH + 16);
    const g = canvas.getContext('2d');
    g.fillStyle = '#1e1f22';
    g.fillRect(0, 0, canvas.width, canvas.height);
    const pen = new TextPen(g, options.record);
    entries.forEach((c, i) => {
      const x = 8 + Math.floor(i / perColumn) * colW;
      const y = 8 + (i % perColumn) * rowH;
      g.fillStyle = c.hex;
      g.fillRect(x, y + 3, 40, rowH - 6);
      g.strokeStyle = '#4e5058';
      g.strokeRect(x + 0.5, y + 3.5, 40, rowH - 6);
      pen.text(`${String(i).padStart(2, ' ')}  ${c.name}  ${c.hex}`, x + 50, y + 21, colW - 58, {
        size: 16,
        color: '#dbdee1',
      });
    });
    return encodePng(canvas);
  });
}
