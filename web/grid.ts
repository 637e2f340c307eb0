import { state } from './state.js';
import { $, view } from './view.js';

/** From this many screen pixels per canvas pixel on, lines show where one pixel ends. */
export const GRID_FROM_ZOOM = 8;

const overlay = $<HTMLCanvasElement>('grid');
const ctx = overlay.getContext('2d') as CanvasRenderingContext2D;

/**
 * The pixel grid over the canvas once it is zoomed in: one-device-pixel grey lines, half
 * transparent (darker on light paint, lighter on dark paint, the colours still show). A
 * viewport-sized overlay, drawn only over the part of the board on screen: at most a few hundred
 * lines whatever the board's size.
 */
export function drawGrid(): void {
  const dpr = window.devicePixelRatio || 1;
  const { clientWidth: w, clientHeight: h } = view.viewport;
  const width = Math.round(w * dpr);
  const height = Math.round(h * dpr);
  if (overlay.width !== width || overlay.height !== height) {
    overlay.width = width;
    overlay.height = height;
    overlay.style.width = `${w}px`;
    overlay.style.height = `${h}px`;
  } else {
    ctx.clearRect(0, 0, width, height);
  }
  const board = state.board;
  const on = !!board && state.zoom >= GRID_FROM_ZOOM;
  view.viewport.dataset.grid = String(on);
  if (!board || !on) return;
  const { zoom, panX, panY } = state;
  // The first and last lines on screen, and how far the board reaches across it.
  const x0 = Math.max(0, Math.ceil(-panX / zoom));
  const x1 = Math.min(board.width, Math.floor((w - panX) / zoom));
  const y0 = Math.max(0, Math.ceil(-panY / zoom));
  const y1 = Math.min(board.height, Math.floor((h - panY) / zoom));
  const top = Math.max(0, Math.round(panY * dpr));
  const bottom = Math.min(height, Math.round((panY + board.height * zoom) * dpr));
  const left = Math.max(0, Math.round(panX * dpr));
  const right = Math.min(width, Math.round((panX + board.width * zoom) * dpr));
  if (right <= left || bottom <= top) return;
  // One path, filled once: where lines cross, the grid is no darker.
  ctx.beginPath();
  for (let x = x0; x <= x1; x++) ctx.rect(Math.round((panX + x * zoom) * dpr), top, 1, bottom - top);
  for (let y = y0; y <= y1; y++) ctx.rect(left, Math.round((panY + y * zoom) * dpr), right - left, 1);
  ctx.fillStyle = 'rgb(128 128 128 / 45%)';
  ctx.fill();
}
