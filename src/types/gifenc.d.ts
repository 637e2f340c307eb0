/** The part of gifenc (https://github.com/mattdesl/gifenc) the timelapse uses; the package ships no types. */
declare module 'gifenc' {
  export interface GifEncoder {
    writeFrame(
      index: Uint8Array,
      width: number,
      height: number,
      options?: { palette?: number[][]; delay?: number; repeat?: number },
    ): void;
    finish(): void;
    bytes(): Uint8Array;
  }
  type Encoder = (options?: { auto?: boolean }) => GifEncoder;
  /** The ES module build (bundlers, vitest). */
  export const GIFEncoder: Encoder | undefined;
  /** Node loads the CommonJS build: everything is on the default export. */
  const gifenc: { GIFEncoder: Encoder };
  export default gifenc;
}
