import { api } from './api.js';
import { number, t } from './i18n.js';
import { buildPalette } from './palette.js';
import { state } from './state.js';
import type { Board } from './types.js';
import { view } from './view.js';

const ctx = view.canvas.getContext('2d') as CanvasRenderingContext2D;

export async function loadBoard(): Promise<void> {
  const board = await api<Board>('/api/public/place');
  state.board = board;
  state.revision = board.revision;
  state.bytes = Uint8Array.from(atob(board.pixels), (c) => c.charCodeAt(0));
  state.rgba = board.palette.map((c) => [1, 3, 5].map((i) => Number.parseInt(c.hex.slice(i, i + 2), 16))) as [
    number,
    number,
    number,
  ][];
  view.canvas.width = board.width;
  view.canvas.height = board.height;
  const image = ctx.createImageData(board.width, board.height);
  state.bytes.forEach((colour, i) => {
    const [r, g, b] = state.rgba[colour] ?? [255, 255, 255];
    image.data.set([r, g, b, 255], i * 4);
  });
  ctx.putImageData(image, 0, 0);
  if (view.palette.childElementCount === 0) buildPalette(board.palette);
  showRevision();
}

export function paint(x: number, y: number, colour: number): void {
  if (!state.board || x >= state.board.width || y >= state.board.height) return;
  state.bytes[y * state.board.width + x] = colour;
  const c = state.board.palette[colour];
  if (!c) return;
  ctx.fillStyle = c.hex;
  ctx.fillRect(x, y, 1, 1);
}

export function showRevision(): void {
  view.revision.textContent = t('revision', { revision: number(state.revision) });
}
