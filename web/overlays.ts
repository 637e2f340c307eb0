import { api } from './api.js';
import { state } from './state.js';
import { $, view } from './view.js';

/** What the overlay over the canvas shows: nothing, where painting happened lately, or what nobody ever painted. */
type Overlay = 'off' | 'heat1h' | 'heat24h' | 'virgin';

interface HeatView {
  revision: number;
  width: number;
  height: number;
  colors: string[];
  /** One byte per pixel: 0 not painted in the span, else the heat level + 1. */
  pixels: string;
}
interface PaintedView {
  revision: number;
  width: number;
  height: number;
  virgin_color: string;
  /** A bitset: pixel i is bit (i & 7) of byte (i >> 3), 1 if ever painted. */
  pixels: string;
}

/** What the overlay dims the canvas with where it marks nothing: context, not the point. */
const DIM = [20, 20, 20, 170] as const;
/** The server keeps a view this long (seconds); a refresh before would read the same. */
const REFRESH_MS = 5_000;

const overlay = view.overlay;
const choice = $<HTMLSelectElement>('overlay-choice');
const ctx = overlay.getContext('2d') as CanvasRenderingContext2D;

let shown: Overlay = 'off';
let loads = 0;
let refresh: ReturnType<typeof setTimeout> | null = null;
/** The never-painted map's bitset and colour, kept current by the live feed. */
let painted: { width: number; bits: Uint8Array } | null = null;

const bytesOf = (base64: string) => Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
const rgbOf = (hex: string) => [1, 3, 5].map((i) => Number.parseInt(hex.slice(i, i + 2), 16));

/** The overlay chooser: one overlay at a time, drawn over the canvas and moved with it. */
export function bindOverlays(): void {
  choice.addEventListener('change', () => void showOverlay(choice.value as Overlay));
}

async function showOverlay(next: Overlay): Promise<void> {
  shown = next;
  const load = ++loads;
  if (refresh) clearTimeout(refresh);
  refresh = null;
  painted = null;
  if (next === 'off') {
    overlay.hidden = true;
    view.viewport.dataset.overlay = 'off';
    return;
  }
  const answer =
    next === 'virgin'
      ? await api<PaintedView>('/api/public/place/painted').catch(() => null)
      : await api<HeatView>(`/api/public/place/heat?span=${next === 'heat1h' ? '1h' : '24h'}`).catch(
          () => null,
        );
  if (load !== loads) return;
  if (!answer) {
    // Not loaded (the network, a restart): try again shortly, the canvas shows meanwhile.
    overlay.hidden = true;
    later();
    return;
  }
  const image = ctx.createImageData(answer.width, answer.height);
  if ('virgin_color' in answer) {
    const bits = bytesOf(answer.pixels);
    const virgin = [...rgbOf(answer.virgin_color), 255];
    for (let i = 0; i < answer.width * answer.height; i++) {
      image.data.set(((bits[i >> 3] ?? 0) & (1 << (i & 7))) !== 0 ? DIM : virgin, i * 4);
    }
    painted = { width: answer.width, bits };
  } else {
    const levels = bytesOf(answer.pixels);
    const colours = answer.colors.map((hex) => [...rgbOf(hex), 255]);
    levels.forEach((level, i) => {
      image.data.set(level > 0 ? (colours[level - 1] ?? DIM) : DIM, i * 4);
    });
  }
  overlay.width = answer.width;
  overlay.height = answer.height;
  ctx.putImageData(image, 0, 0);
  overlay.hidden = false;
  view.viewport.dataset.overlay = next;
  // The server's answer may be a few seconds old: the placements since show on the next one.
  if (answer.revision < state.revision) later();
}

/** Loads the shown overlay again once the server's copy may have changed. */
function later(): void {
  if (refresh || shown === 'off') return;
  refresh = setTimeout(() => {
    refresh = null;
    void showOverlay(shown);
  }, REFRESH_MS);
}

/** A placement the live feed brought: a never-painted pixel is no longer; the heat is asked again. */
export function overlayPainted(x: number, y: number): void {
  if (shown === 'off') return;
  if (!painted) {
    later();
    return;
  }
  const i = y * painted.width + x;
  painted.bits[i >> 3] = (painted.bits[i >> 3] ?? 0) | (1 << (i & 7));
  ctx.fillStyle = `rgb(${DIM[0]} ${DIM[1]} ${DIM[2]} / ${DIM[3] / 255})`;
  ctx.clearRect(x, y, 1, 1);
  ctx.fillRect(x, y, 1, 1);
}
