import { renderZoomPng } from '../../src/render/placeImages.js';
import { PALETTE, rgb } from './palette.js';
import { pixelBounds } from './rollbackPlan.js';
import type { RollbackPixel } from './rollbackStore.js';

const COLORS = PALETTE.map((_, i) => rgb(i));

/**
 * A rollback's preview, the same picture on Discord and on the web: the region around the
 * plan's pixels, zoomed; `after` with the restored colours, each restored pixel outlined;
 * `before` the canvas as it is now. The plan must hold at least one pixel.
 */
export function renderRollbackPreview(
  board: { get(x: number, y: number): number; width: number; height: number },
  pixels: readonly RollbackPixel[],
  side: 'before' | 'after',
): Promise<Buffer> {
  const { x1, y1, x2, y2 } = pixelBounds(pixels);
  const radius = Math.min(64, Math.max(4, Math.ceil(Math.max(x2 - x1, y2 - y1) / 2) + 2));
  const restored = new Map(pixels.map((p) => [`${p.x}:${p.y}`, p.color]));
  const shown =
    side === 'before'
      ? board
      : {
          width: board.width,
          height: board.height,
          get: (x: number, y: number) => restored.get(`${x}:${y}`) ?? board.get(x, y),
        };
  return renderZoomPng(shown, COLORS, {
    x: Math.round((x1 + x2) / 2),
    y: Math.round((y1 + y2) / 2),
    radius,
    cell: Math.max(6, Math.floor(640 / (2 * radius + 1))),
    // An empty set outlines nothing (no set would outline the centre).
    marked: side === 'after' ? new Set(restored.keys()) : new Set(),
  });
}
