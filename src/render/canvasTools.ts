import type { Canvas } from 'canvas';
import pLimit from 'p-limit';

/**
 * Renders run one at a time, whatever the image: drawing and PNG encoding are CPU-bound, and
 * on a small machine two or more at once take the cores that every other interaction (and the
 * database) needs. An image waits a little longer; a balance or a button does not
 * (npm run bench:interactions).
 */
export const oneAtATime = pLimit(1);

/**
 * PNG encoding is most of a render's time (about 15 ms of 25 here); node-canvas's callback
 * form runs it on libuv's thread pool, so other interactions are not held up meanwhile.
 */
export function encodePng(canvas: Canvas): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    canvas.toBuffer((error, png) => (error ? reject(error) : resolve(png)), 'image/png');
  });
}

export function truncate(
  g: { measureText(text: string): { width: number } },
  text: string,
  width: number,
): string {
  if (g.measureText(text).width <= width) return text;
  let cut = text;
  while (cut.length > 1 && g.measureText(`${cut}…`).width > width) cut = cut.slice(0, -1);
  return `${cut}…`;
}
