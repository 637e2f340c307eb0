import { placeAreas } from './areas.js';
import { drawGrid } from './grid.js';
import { state } from './state.js';
import { view } from './view.js';

export function apply(): void {
  view.canvas.style.transform = `translate(${state.panX}px, ${state.panY}px) scale(${state.zoom})`;
  view.overlay.style.transform = view.canvas.style.transform;
  view.templates.style.transform = view.canvas.style.transform;
  placeAreas();
  drawGrid();
  const s = state.selected;
  view.cursor.hidden = !s;
  if (s) {
    view.cursor.style.width = `${state.zoom}px`;
    view.cursor.style.height = `${state.zoom}px`;
    view.cursor.style.transform = `translate(${state.panX + s.x * state.zoom}px, ${state.panY + s.y * state.zoom}px)`;
  }
}

/** The zoom at which the whole canvas fills the viewport's width or height. */
function fitZoom(): number {
  if (!state.board) return 1;
  const { clientWidth: w, clientHeight: h } = view.viewport;
  return Math.min(w / state.board.width, h / state.board.height);
}

/**
 * The whole canvas, as large as the viewport allows: on a phone it fills the screen's width
 * (a fractional zoom; pixels stay sharp, some a screen pixel wider than others).
 */
export function fitToView(): void {
  if (!state.board) return;
  const { clientWidth: w, clientHeight: h } = view.viewport;
  state.zoom = fitZoom();
  state.fitted = true;
  state.panX = Math.round((w - state.board.width * state.zoom) / 2);
  state.panY = Math.round((h - state.board.height * state.zoom) / 2);
  apply();
}

/** Zooms by `factor` keeping the point (px, py) of the viewport where it is. */
export function zoomAt(factor: number, px: number, py: number): void {
  const wanted = Math.min(64, Math.max(Math.min(1, fitZoom()), state.zoom * factor));
  // Whole screen pixels per canvas pixel once a pixel is large enough to see.
  const next = wanted >= 2 ? Math.round(wanted) : wanted;
  if (next === state.zoom) return;
  state.panX = px - ((px - state.panX) * next) / state.zoom;
  state.panY = py - ((py - state.panY) * next) / state.zoom;
  state.zoom = next;
  state.fitted = false;
  apply();
}

/** The viewport's content origin on screen (inside its border): where pan (0, 0) is. */
export function viewportOrigin(): { left: number; top: number } {
  const rect = view.viewport.getBoundingClientRect();
  return { left: rect.left + view.viewport.clientLeft, top: rect.top + view.viewport.clientTop };
}

export function pixelAt(clientX: number, clientY: number): { x: number; y: number } | null {
  if (!state.board) return null;
  const o = viewportOrigin();
  const x = Math.floor((clientX - o.left - state.panX) / state.zoom);
  const y = Math.floor((clientY - o.top - state.panY) / state.zoom);
  return x >= 0 && y >= 0 && x < state.board.width && y < state.board.height ? { x, y } : null;
}
