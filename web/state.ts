import type { Board, Me } from './types.js';

/** What the page knows: the board, the chosen colour and pixel, the member, the zoom and pan. */
export const state = {
  board: null as Board | null,
  bytes: new Uint8Array(0),
  rgba: [] as [number, number, number][],
  revision: 0,
  colour: 2,
  selected: null as { x: number; y: number } | null,
  me: null as Me | null,
  zoom: 1,
  /** Whether the view is still as Fit left it (then it follows the viewport's size). */
  fitted: true,
  panX: 0,
  panY: 0,
};
