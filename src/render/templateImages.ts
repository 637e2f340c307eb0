import { createCanvas, loadImage } from 'canvas';
import { imageSize } from 'image-size';
import { encodePng, oneAtATime } from './canvasTools.js';

/** An image file that node-canvas could not read (not a PNG, JPEG or GIF, or damaged). */
export class UnreadableImage extends Error {
  override readonly name = 'UnreadableImage';
}

/** An image file larger than a caller takes, found from its header before it is decoded. */
export class ImageTooLarge extends Error {
  override readonly name = 'ImageTooLarge';
  constructor(
    readonly width: number,
    readonly height: number,
  ) {
    super(`${width}×${height} image`);
  }
}

/**
 * An image file's pixels, RGBA, 4 bytes per pixel. Its size is read from its header first: a
 * file wider or taller than `maxSide` is refused without being decoded (a few kilobytes of PNG
 * may unpack to gigabytes).
 */
export function decodeImage(
  file: Buffer,
  maxSide: number,
): Promise<{ width: number; height: number; data: Uint8ClampedArray }> {
  let size: { width: number; height: number };
  try {
    size = imageSize(file);
  } catch (error) {
    return Promise.reject(new UnreadableImage(error instanceof Error ? error.message : String(error)));
  }
  if (size.width > maxSide || size.height > maxSide)
    return Promise.reject(new ImageTooLarge(size.width, size.height));
  return oneAtATime(async () => {
    const image = await loadImage(file).catch((error: unknown) => {
      throw new UnreadableImage(error instanceof Error ? error.message : String(error));
    });
    const canvas = createCanvas(image.width, image.height);
    const g = canvas.getContext('2d');
    g.drawImage(image, 0, 0);
    const { data } = g.getImageData(0, 0, image.width, image.height);
    return { width: image.width, height: image.height, data };
  });
}

/**
 * An artwork as a PNG with transparency, one image pixel per canvas pixel: what the web page
 * lays over the canvas. `transparent` is the index that stands for no colour.
 */
export function renderArtPng(
  art: { width: number; height: number; pixels: Uint8Array },
  colors: readonly (readonly [number, number, number])[],
  transparent: number,
): Promise<Buffer> {
  return oneAtATime(async () => {
    const canvas = createCanvas(art.width, art.height);
    const g = canvas.getContext('2d');
    const image = g.createImageData(art.width, art.height);
    art.pixels.forEach((index, i) => {
      if (index === transparent) return;
      const [r, gr, b] = colors[index] ?? [255, 255, 255];
      image.data.set([r, gr, b, 255], i * 4);
    });
    g.putImageData(image, 0, 0);
    return encodePng(canvas);
  });
}
