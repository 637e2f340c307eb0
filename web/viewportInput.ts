import { areasAt } from './areas.js';
import { askToPlace, select } from './placing.js';
import { state } from './state.js';
import { $, view } from './view.js';
import { apply, fitToView, pixelAt, viewportOrigin, zoomAt } from './zoom.js';

const pointers = new Map<number, { x: number; y: number }>();
let dragged = 0;
let pinch: number | null = null;

/** The pixel under the pointer, and the protected areas it lies in. */
function readout(at: { x: number; y: number } | null): string {
  if (!at) return '(–, –)';
  const names = areasAt(at.x, at.y);
  return `(${at.x}, ${at.y})${names.length > 0 ? ` · 🛡️ ${names.join(', ')}` : ''}`;
}

/**
 * Where + and − zoom around: the selected pixel's centre, which stays where it is on screen, when
 * it is in view; else the viewport's centre.
 */
function anchor(): [number, number] {
  const { clientWidth: w, clientHeight: h } = view.viewport;
  const s = state.selected;
  if (s) {
    const x = state.panX + (s.x + 0.5) * state.zoom;
    const y = state.panY + (s.y + 0.5) * state.zoom;
    if (x >= 0 && x <= w && y >= 0 && y <= h) return [x, y];
  }
  return [w / 2, h / 2];
}

/** Drag to pan, wheel or pinch to zoom, a tap selects a pixel, arrow keys move it, Enter paints. */
export function bindViewport(): void {
  const showCoords = (e: PointerEvent) => {
    view.coords.textContent = readout(pixelAt(e.clientX, e.clientY));
  };
  view.viewport.addEventListener('pointerdown', (e) => {
    view.viewport.setPointerCapture(e.pointerId);
    showCoords(e);
    pointers.set(e.pointerId, { x: e.clientX, y: e.clientY });
    dragged = 0;
  });
  view.viewport.addEventListener('pointermove', (e) => {
    // A mouse shows where it points; a finger's readout keeps the tapped pixel.
    if (e.pointerType === 'mouse' || pointers.has(e.pointerId)) showCoords(e);
    const last = pointers.get(e.pointerId);
    if (!last) return;
    pointers.set(e.pointerId, { x: e.clientX, y: e.clientY });
    if (pointers.size === 2) {
      const [a, b] = [...pointers.values()] as [{ x: number; y: number }, { x: number; y: number }];
      const distance = Math.hypot(a.x - b.x, a.y - b.y);
      const o = viewportOrigin();
      if (pinch) zoomAt(distance / pinch, (a.x + b.x) / 2 - o.left, (a.y + b.y) / 2 - o.top);
      pinch = distance;
      dragged += 10;
      return;
    }
    dragged += Math.abs(e.clientX - last.x) + Math.abs(e.clientY - last.y);
    state.panX += e.clientX - last.x;
    state.panY += e.clientY - last.y;
    if (dragged >= 6) state.fitted = false;
    apply();
  });
  const release = (e: PointerEvent) => {
    pointers.delete(e.pointerId);
    if (pointers.size < 2) pinch = null;
    if (e.type === 'pointerup' && dragged < 6 && pointers.size === 0) {
      const at = pixelAt(e.clientX, e.clientY);
      if (at) void select(at);
    }
  };
  view.viewport.addEventListener('pointerup', release);
  view.viewport.addEventListener('pointercancel', release);
  view.viewport.addEventListener(
    'wheel',
    (e) => {
      e.preventDefault();
      const o = viewportOrigin();
      zoomAt(e.deltaY < 0 ? 1.25 : 0.8, e.clientX - o.left, e.clientY - o.top);
    },
    { passive: false },
  );
  view.viewport.addEventListener('keydown', (e) => {
    const moves: Record<string, [number, number]> = {
      ArrowLeft: [-1, 0],
      ArrowRight: [1, 0],
      ArrowUp: [0, -1],
      ArrowDown: [0, 1],
    };
    const move = moves[e.key];
    if (move && state.board) {
      e.preventDefault();
      const s = state.selected ?? { x: 0, y: 0 };
      void select({
        x: Math.min(state.board.width - 1, Math.max(0, s.x + move[0])),
        y: Math.min(state.board.height - 1, Math.max(0, s.y + move[1])),
      });
    } else if (e.key === 'Enter' && state.selected) {
      e.preventDefault();
      void askToPlace();
    }
  });
  $('zoom-in').addEventListener('click', () => zoomAt(2, ...anchor()));
  $('zoom-out').addEventListener('click', () => zoomAt(0.5, ...anchor()));
  $('zoom-fit').addEventListener('click', fitToView);
  // The viewport changes size with the window and, on a phone, when the header or the sheet
  // below it wraps: a fitted view stays fitted (and the grid follows the new size).
  new ResizeObserver(() => (state.fitted ? fitToView() : apply())).observe(view.viewport);
}
