import type { Canvas, CanvasRenderingContext2D } from 'canvas';
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

/**
 * A member's name (Discord allows display names up to 32 characters) is shown whole up to this
 * length; only a longer one (a console name, a username from elsewhere) may end in "…".
 */
export const NAME_SHOWN_WHOLE = 32;

/** One text an image drew, as the overflow test checks it. */
export interface DrawnText {
  text: string;
  /** What was drawn: the text, or its start and "…". */
  drawn: string;
  font: string;
  /** Measured width of what was drawn, and the width it had. */
  width: number;
  box: number;
  /** A member's name (may be cut beyond NAME_SHOWN_WHOLE characters) or a text of the bot's own (never cut). */
  kind: 'text' | 'name';
}

export type TextRecorder = (text: DrawnText) => void;

export interface TextStyle {
  size: number;
  bold?: boolean;
  color: string;
  align?: 'left' | 'right' | 'center';
  /** The smallest size the text may shrink to before it is cut (default: 70 % of size). */
  minSize?: number;
}

const fontOf = (style: TextStyle, size: number) => `${style.bold ? 'bold ' : ''}${size}px "DejaVu Sans"`;

/**
 * Every text an image shows goes through a pen: it is drawn at its size when it fits its box,
 * else a little smaller (down to `minSize`); a member's name past that ends in "…". Every text
 * is reported to the recorder, if one is given, with its measured width and its box, so a test
 * proves no text is cut or overflows in any language (test/render/textFits.test.ts).
 */
export class TextPen {
  constructor(
    private readonly g: CanvasRenderingContext2D,
    private readonly record?: TextRecorder,
  ) {}

  /** The width `text` takes in `style` at its full size. */
  measure(text: string, style: TextStyle): number {
    this.g.font = fontOf(style, style.size);
    return this.g.measureText(text).width;
  }

  /** Draws a text of the bot's own: shrunk to fit when needed, never cut (an overflow is recorded). */
  text(text: string, x: number, y: number, box: number, style: TextStyle): number {
    return this.#draw(text, x, y, box, style, 'text');
  }

  /** Draws a member's name: shrunk to fit, and cut with "…" only when it cannot fit even then. */
  name(text: string, x: number, y: number, box: number, style: TextStyle): number {
    return this.#draw(text, x, y, box, style, 'name');
  }

  #draw(text: string, x: number, y: number, box: number, style: TextStyle, kind: DrawnText['kind']): number {
    const g = this.g;
    const min = style.minSize ?? Math.ceil(style.size * 0.7);
    let size = style.size;
    g.font = fontOf(style, size);
    while (size > min && g.measureText(text).width > box) {
      size -= 1;
      g.font = fontOf(style, size);
    }
    const drawn = kind === 'name' ? cut(g, text, box) : text;
    const width = g.measureText(drawn).width;
    g.fillStyle = style.color;
    g.textAlign = style.align ?? 'left';
    g.fillText(drawn, x, y);
    g.textAlign = 'left';
    this.record?.({ text, drawn, font: g.font, width, box, kind });
    return width;
  }
}

/** The text, or as much of its start as fits with "…" after it. */
function cut(g: { measureText(text: string): { width: number } }, text: string, width: number): string {
  if (g.measureText(text).width <= width) return text;
  const chars = [...text];
  while (chars.length > 1 && g.measureText(`${chars.join('')}…`).width > width) chars.pop();
  return `${chars.join('')}…`;
}

/** Initials for a face without a picture: the first letters of the first two words. */
export function initialsOf(name: string): string {
  const words = name
    .replace(/[^\p{L}\p{N}\s]/gu, ' ')
    .trim()
    .split(/\s+/)
    .filter(Boolean);
  const letters = words.slice(0, 2).map((w) => [...w][0] ?? '');
  return (letters.join('') || '?').toUpperCase();
}

/** A steady colour per member (from their id), for the disc behind their initials. */
export function discColor(seed: string): string {
  let hash = 0;
  for (const c of seed) hash = (hash * 31 + (c.codePointAt(0) ?? 0)) >>> 0;
  return `hsl(${hash % 360}, 45%, 42%)`;
}
