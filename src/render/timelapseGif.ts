import * as gifenc from 'gifenc';
import { oneAtATime } from './canvasTools.js';
import { upscale } from './placeImages.js';

/** Node loads gifenc's CommonJS build (all on the default export); vitest its ES module build. */
const GIFEncoder = (gifenc.GIFEncoder ?? gifenc.default.GIFEncoder) as NonNullable<typeof gifenc.GIFEncoder>;

/** The bounds of a timelapse: what Discord accepts and a member waits for. */
export const TIMELAPSE_LIMITS = {
  frames: 120,
  side: 512,
  bytes: 7 * 1024 * 1024,
  frameMs: 80,
  lastFrameMs: 1_500,
};

/**
 * An animated GIF of indexed frames (1 byte per pixel, the palette as the global colour
 * table), scaled up with sharp edges to at most TIMELAPSE_LIMITS.side. Frames past the byte
 * bound are dropped (the last one is always kept); `framesUsed` says how many went in.
 */
export function encodeTimelapse(
  frames: Uint8Array[],
  size: { width: number; height: number },
  palette: [number, number, number][],
): Promise<{ gif: Buffer; framesUsed: number; width: number; height: number }> {
  return oneAtATime(async () => {
    const scale = Math.max(1, Math.floor(TIMELAPSE_LIMITS.side / Math.max(size.width, size.height)));
    const width = size.width * scale;
    const height = size.height * scale;
    const gif = GIFEncoder();
    const colors = palette.map(([r, g, b]) => [r, g, b]);
    let used = 0;
    for (const [i, frame] of frames.entries()) {
      const last = i === frames.length - 1;
      gif.writeFrame(scale === 1 ? frame : upscale(frame, size.width, size.height, scale), width, height, {
        palette: colors,
        delay: last ? TIMELAPSE_LIMITS.lastFrameMs : TIMELAPSE_LIMITS.frameMs,
      });
      used++;
      if (!last && used % 10 === 0 && gif.bytes().length > TIMELAPSE_LIMITS.bytes) {
        const final = frames[frames.length - 1] as Uint8Array;
        gif.writeFrame(scale === 1 ? final : upscale(final, size.width, size.height, scale), width, height, {
          delay: TIMELAPSE_LIMITS.lastFrameMs,
        });
        used++;
        break;
      }
    }
    gif.finish();
    return { gif: Buffer.from(gif.bytes()), framesUsed: used, width, height };
  });
}
