import type { TextRecorder } from '../../src/render/canvasTools.js';
import { renderZoomPng } from '../../src/render/placeImages.js';
import { PALETTE, rgb } from './palette.js';
import { pixelBounds } from './rollbackPlan.js';

const COLORS = PALETTE.map((_, i) => rgb(i));

type Canvas = { get(x: number, y: number): number; width: number; height: number };
type Pixel = { x: number; y: number; color: number };

/**
 * A rollback's preview, the same picture on Discord and on the web: the region around the
 * plan's pixels, zoomed; `after` with the restored colours, each restored pixel outlined;
 * `before` the canvas as it is now. The plan must hold at least one pixel.
 */
export function renderRollbackPreview(
  board: Canvas,
  pixels: readonly Pixel[],
  side: 'before' | 'after',
): Promise<Buffer> {
  // An empty set outlines nothing (no set would outline the centre).
  return renderPixelsZoom(board, pixels, { overlay: side === 'after', outlined: side === 'after' });
}

/**
 * The region around some pixels, zoomed (at least one pixel): the canvas as it is, or with
 * `pixels`' colours laid over it (`overlay`); the pixels outlined or not.
 */
export function renderPixelsZoom(
  board: Canvas,
  pixels: readonly Pixel[],
  options: { overlay: boolean; outlined: boolean; record?: TextRecorder },
): Promise<Buffer> {
  const { x1, y1, x2, y2 } = pixelBounds(pixels);
  const radius = Math.min(64, Math.max(4, Math.ceil(Math.max(x2 - x1, y2 - y1) / 2) + 2));
  const colors = new Map(pixels.map((p) => [`${p.x}:${p.y}`, p.color]));
  const shown = options.overlay
    ? {
        width: board.width,
        height: board.height,
        get: (x: number, y: number) => colors.get(`${x}:${y}`) ?? board.get(x, y),
      }
    : board;
  return renderZoomPng(
    shown,
    COLORS,
    {
      x: Math.round((x1 + x2) / 2),
      y: Math.round((y1 + y2) / 2),
      radius,
      cell: Math.max(6, Math.floor(640 / (2 * radius + 1))),
      marked: options.outlined ? new Set(colors.keys()) : new Set(),
    },
    options.record ? { record: options.record } : {},
  );
}
