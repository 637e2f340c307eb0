import { api } from './api.js';
import { state } from './state.js';
import { view } from './view.js';

/** A protected area as the public API serves it: a name and a rectangle, corners included. */
export interface Area {
  name: string;
  x1: number;
  y1: number;
  x2: number;
  y2: number;
}

let areas: Area[] = [];
const outlines: HTMLDivElement[] = [];

/**
 * Loads the protected areas and draws an outline for each. The outlines let every pointer through
 * to the canvas: a hover names the area in the coordinate readout, a tap in the pixel panel.
 */
export async function loadAreas(): Promise<void> {
  areas = (await api<{ areas: Area[] }>('/api/public/place/areas')).areas;
  for (const el of outlines.splice(0)) el.remove();
  for (const area of areas) {
    const el = document.createElement('div');
    el.className = 'area';
    el.dataset.name = area.name;
    view.viewport.insertBefore(el, view.cursor);
    outlines.push(el);
  }
  placeAreas();
}

/** Keeps the outlines on their rectangles as the canvas is zoomed and panned. */
export function placeAreas(): void {
  areas.forEach((area, i) => {
    const el = outlines[i];
    if (!el) return;
    el.style.width = `${(area.x2 - area.x1 + 1) * state.zoom}px`;
    el.style.height = `${(area.y2 - area.y1 + 1) * state.zoom}px`;
    el.style.transform = `translate(${state.panX + area.x1 * state.zoom}px, ${state.panY + area.y1 * state.zoom}px)`;
  });
}

/** The names of the areas that cover a pixel. */
export function areasAt(x: number, y: number): string[] {
  return areas.filter((a) => a.x1 <= x && x <= a.x2 && a.y1 <= y && y <= a.y2).map((a) => a.name);
}
