import { createCanvas } from 'canvas';
import * as gifenc from 'gifenc';
import { oneAtATime, TextPen, type TextRecorder } from './canvasTools.js';
import { upscale } from './placeImages.js';

/** Node loads gifenc's CommonJS build (all on the default export); vitest its ES module build. */
const GIFEncoder = (gifenc.GIFEncoder ?? gifenc.default.GIFEncoder) as NonNullable<typeof gifenc.GIFEncoder>;

/** The bounds of a timelapse: what Discord accepts and a member waits for. */
export const TIMELAPSE_LIMITS = {
  frames: 120,
  side: 512,
  bytes: 7 * 1024 * 1024,
  /** The shortest a frame is shown (many frames), and the longest (a few: each placement seen). */
  frameMs: 80,
  slowFrameMs: 400,
  /** About how long the frames before the last play, between those two bounds. */
  playMs: 2_400,
  lastFrameMs: 1_500,
};

/** How long each frame but the last is shown: the frames play in about `playMs`. */
export function frameDelay(frames: number): number {
  const even = Math.round(TIMELAPSE_LIMITS.playMs / Math.max(1, frames - 1));
  return Math.max(TIMELAPSE_LIMITS.frameMs, Math.min(TIMELAPSE_LIMITS.slowFrameMs, even));
}

/** The strip under each frame that holds its caption (when there are captions). */
export const CAPTION_STRIP = 30;

/**
 * An animated GIF of indexed frames (1 byte per pixel, the palette as the global colour
 * table), scaled up by a whole factor with sharp edges to at most TIMELAPSE_LIMITS.side (a
 * frame larger than that stays as it is). Frames past the byte
 * bound are dropped (the last one is always kept); `framesUsed` says how many went in. With
 * `captions` (one per frame: its date and revision), each frame has its caption in a strip below.
 */
export function encodeTimelapse(
  frames: Uint8Array[],
  size: { width: number; height: number },
  palette: [number, number, number][],
  options: { captions?: string[]; record?: TextRecorder } = {},
): Promise<{ gif: Buffer; framesUsed: number; width: number; height: number }> {
  return oneAtATime(async () => {
    const scale = Math.max(1, Math.floor(TIMELAPSE_LIMITS.side / Math.max(size.width, size.height)));
    const width = size.width * scale;
    const strip = options.captions ? CAPTION_STRIP : 0;
    const height = size.height * scale + strip;
    const gif = GIFEncoder();
    const colors = palette.map(([r, g, b]) => [r, g, b]);
    const caption = options.captions ? captionStrips(width, palette, options.record) : null;
    const picture = (i: number) => {
      const frame = frames[i] as Uint8Array;
      const big = scale === 1 ? frame : upscale(frame, size.width, size.height, scale);
      if (!caption) return big;
      const out = new Uint8Array(width * height);
      out.set(big);
      out.set(caption(options.captions?.[i] ?? ''), big.length);
      return out;
    };
    const delay = frameDelay(frames.length);
    let used = 0;
    for (let i = 0; i < frames.length; i++) {
      // One frame at a time, the event loop free between them: other members' answers go out.
      await new Promise((resolve) => setImmediate(resolve));
      const last = i === frames.length - 1;
      gif.writeFrame(picture(i), width, height, {
        palette: colors,
        delay: last ? TIMELAPSE_LIMITS.lastFrameMs : delay,
      });
      used++;
      if (!last && used % 10 === 0 && gif.bytes().length > TIMELAPSE_LIMITS.bytes) {
        gif.writeFrame(picture(frames.length - 1), width, height, { delay: TIMELAPSE_LIMITS.lastFrameMs });
        used++;
        break;
      }
    }
    gif.finish();
    return { gif: Buffer.from(gif.bytes()), framesUsed: used, width, height };
  });
}

/**
 * Draws a caption as palette indices: light text on the palette's darkest colour, its edges in
 * the palette's greys (the GIF has only the palette's colours).
 */
function captionStrips(width: number, palette: [number, number, number][], record?: TextRecorder) {
  const distance = ([r, g, b]: [number, number, number], v: number) =>
    (r - v) ** 2 + (g - v) ** 2 + (b - v) ** 2;
  const nearest = (v: number) =>
    palette.reduce(
      (best, color, i) => (distance(color, v) < distance(palette[best] as typeof color, v) ? i : best),
      0,
    );
  const shade = Array.from({ length: 256 }, (_, v) => nearest(v));
  const canvas = createCanvas(width, CAPTION_STRIP);
  const g = canvas.getContext('2d');
  const pen = new TextPen(g, record);
  return (text: string): Uint8Array => {
    g.fillStyle = '#000000';
    g.fillRect(0, 0, width, CAPTION_STRIP);
    pen.text(text, 8, 21, width - 16, { size: 16, bold: true, color: '#ffffff', minSize: 10 });
    const rgba = g.getImageData(0, 0, width, CAPTION_STRIP).data;
    const out = new Uint8Array(width * CAPTION_STRIP);
    for (let i = 0; i < out.length; i++) out[i] = shade[rgba[i * 4] as number] as number;
    return out;
  };
}
