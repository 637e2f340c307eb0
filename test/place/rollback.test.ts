import { createCanvas, loadImage } from 'canvas';
import { describe, expect, it } from 'vitest';
import { ASSEMBLY } from '../../commands/index.js';
import { cropArea } from '../../src/render/placeImages.js';
import { encodeTimelapse, TIMELAPSE_LIMITS } from '../../src/render/timelapseGif.js';
import { PALETTE, rgb } from '../../utils/place/palette.js';
import { makeBotDeps } from '../support/botHarness.js';
import { useTestDatabase } from '../support/database.js';
import { booksProblems } from '../support/ledgerHarness.js';

const t = useTestDatabase('place_rollback');
const [ANN, VANDAL, CAL] = ['892000000000000001', '892000000000000002', '892000000000000003'];

describe('rolling back a member', () => {
  it('GIVEN a vandal over others’ pixels THEN the rollback restores exactly the previous colours as new revisions, leaves later work alone, and refunds only when chosen', async () => {
    const { deps } = makeBotDeps(t);
    const place = deps.services.place;
    for (const m of [ANN, VANDAL, CAL]) {
      await place.grant({ opId: `g-${m}`, moderatorId: 'mod', to: m, amount: 10_000_000, reason: '' });
    }
    let n = 0;
    const paint = (userId: string, x: number, y: number, color: number) =>
      place.place({ opId: `op${n++}`, userId, x, y, color });
    await paint(ANN, 0, 0, 2);
    await paint(ANN, 1, 0, 3);
    await paint(CAL, 1, 0, 4); // (1,0) was 3 then 4 before the vandal
    await paint(VANDAL, 0, 0, 27);
    await paint(VANDAL, 1, 0, 27);
    await paint(VANDAL, 1, 0, 26); // twice on one pixel: back to before the first
    await paint(VANDAL, 2, 0, 27); // a blank pixel
    await paint(VANDAL, 3, 0, 27);
    await paint(CAL, 3, 0, 9); // painted over since: stays
    const historyBefore = await t.db.collection('place_pixel_events').countDocuments();

    const plan = await place.rollbacks.plan({ id: 'rb1', adminId: 'admin', target: VANDAL });
    expect(plan.pixels.map((p) => [p.x, p.y, p.color]).sort()).toEqual([
      [0, 0, 2],
      [1, 0, 4],
      [2, 0, 31],
    ]);
    const applied = await place.rollbacks.apply('rb1', false);
    expect(applied).toMatchObject({ restored: 3, skipped: 0, refunded: 0 });
    expect(await place.rollbacks.apply('rb1', true)).toMatchObject({ restored: 0, refunded: 0 });
    const colors = await Promise.all(
      [0, 1, 2, 3].map(async (x) => (await place.pixelInfo(x, 0))?.pixel.color),
    );
    expect(colors).toEqual([2, 4, 31, 9]);
    expect(await t.db.collection('place_pixel_events').countDocuments()).toBe(historyBefore + 3);
    await deps.ledger.flush();
    expect((await place.wallet(VANDAL)).balance).toBe(10_000_000 - 5 * 100_000);

    // A second rollback with a refund, where a pixel changed after the preview: it stays, and
    // the refund pays only for the pixel restored.
    await paint(VANDAL, 5, 5, 1);
    await paint(VANDAL, 6, 5, 1);
    const second = await place.rollbacks.plan({
      id: 'rb2',
      adminId: 'admin',
      target: VANDAL,
      area: { x0: 5, y0: 5, x1: 6, y1: 5 },
    });
    expect(second.pixels).toHaveLength(2);
    await paint(ANN, 6, 5, 8);
    expect(await place.rollbacks.apply('rb2', true)).toMatchObject({
      restored: 1,
      skipped: 1,
      refunded: 100_000,
    });
    await deps.ledger.flush();
    expect((await place.wallet(VANDAL)).balance).toBe(10_000_000 - 7 * 100_000 + 100_000);
    expect(await booksProblems(t.cols)).toEqual([]);
    expect(await ASSEMBLY.checkInvariants(t.db, deps.config, deps.ledger, deps.clock.now())).toEqual([]);
  });
});

describe('the timelapse', () => {
  it('GIVEN placements THEN the replay ends at the board as stored, and the GIF stays within its bounds', async () => {
    const { deps } = makeBotDeps(t);
    const place = deps.services.place;
    await place.grant({ opId: 'tl-grant', moderatorId: 'mod', to: ANN, amount: 100_000_000, reason: '' });
    for (let i = 0; i < 300; i++)
      await place.place({ opId: `tl${i}`, userId: ANN, x: i % 17, y: (i * 7) % 13, color: i % 32 });
    const replay = await place.replay(0, Number.MAX_SAFE_INTEGER, TIMELAPSE_LIMITS.frames);
    expect(replay.frames.length).toBeLessThanOrEqual(TIMELAPSE_LIMITS.frames);
    const board = await place.board();
    // The frames show what was painted: x 0–16, y 0–12, with a margin.
    const { x0, y0, x1, y1 } = replay.area;
    expect([x0, y0]).toEqual([0, 0]);
    expect(x1).toBeGreaterThanOrEqual(16);
    expect(y1).toBeGreaterThanOrEqual(12);
    const shown = cropArea(board.pixels, board.width, { x0, y0, cols: x1 - x0 + 1, rows: y1 - y0 + 1 }, 1);
    expect(Buffer.from(replay.frames.at(-1) as Uint8Array).equals(Buffer.from(shown))).toBe(true);
    const { gif, framesUsed, width } = await encodeTimelapse(
      replay.frames,
      replay,
      PALETTE.map((_, i) => rgb(i)),
    );
    expect(gif.subarray(0, 6).toString('ascii')).toBe('GIF89a');
    expect(framesUsed).toBe(replay.frames.length);
    expect(width).toBeLessThanOrEqual(TIMELAPSE_LIMITS.side);
    expect(gif.length).toBeLessThan(TIMELAPSE_LIMITS.bytes);
  });

  it('GIVEN placements at different times THEN each frame carries the version it shows and when that version was painted', async () => {
    const { deps, clock } = makeBotDeps(t);
    const place = deps.services.place;
    await place.grant({ opId: 'tm-grant', moderatorId: 'mod', to: ANN, amount: 100_000_000, reason: '' });
    const start = (await place.replay(0, Number.MAX_SAFE_INTEGER, 2)).to;
    const painted: { revision: number; at: number }[] = [];
    for (let i = 0; i < 40; i++) {
      clock.advance(60_000);
      const done = await place.place({ opId: `tm${i}`, userId: ANN, x: i % 9, y: 20, color: 5 });
      painted.push({ revision: done.revision, at: clock.now().getTime() });
    }
    const replay = await place.replay(start + 1, Number.MAX_SAFE_INTEGER, 8);
    expect(replay.moments).toHaveLength(replay.frames.length);
    expect(replay.moments.at(-1)?.revision).toBe(replay.to);
    const revisions = replay.moments.map((m) => m.revision);
    expect([...revisions].sort((a, b) => a - b)).toEqual(revisions);
    for (const moment of replay.moments) {
      const when = painted.find((p) => p.revision === moment.revision);
      expect(moment.at?.getTime()).toBe(when?.at);
    }
  });

  it('GIVEN a few pixels painted in one corner of the canvas THEN the timelapse shows that corner scaled up by a whole factor, one frame per placement, every painted pixel in it', async () => {
    const { deps } = makeBotDeps(t);
    const place = deps.services.place;
    await place.grant({ opId: 'tc-grant', moderatorId: 'mod', to: CAL, amount: 100_000_000, reason: '' });
    const start = (await place.replay(0, Number.MAX_SAFE_INTEGER, 2)).to;
    const corner = [
      [250, 251, 2],
      [255, 255, 13],
      [252, 250, 27],
      [254, 253, 7],
    ] as const;
    for (const [i, [x, y, color]] of corner.entries())
      await place.place({ opId: `tc${i}`, userId: CAL, x, y, color });
    const replay = await place.replay(
      start,
      Number.MAX_SAFE_INTEGER,
      TIMELAPSE_LIMITS.frames,
      TIMELAPSE_LIMITS.side,
    );
    expect(replay.area).toEqual({ x0: 240, y0: 240, x1: 255, y1: 255 });
    expect(replay.frames).toHaveLength(corner.length + 1);
    const { gif, width, height, framesUsed } = await encodeTimelapse(replay.frames, replay, COLORS);
    expect([width, height]).toEqual([16 * 32, 16 * 32]);
    expect(gifFrames(gif)).toBe(corner.length + 1);
    expect(framesUsed).toBe(corner.length + 1);
    // The first frame: the corner before; the last: every pixel painted, each a 32×32 block.
    const first = await firstFrameOf(gif);
    for (const [x, y] of corner)
      expect(first.at((x - 240) * 32 + 16, (y - 240) * 32 + 16)).toEqual(COLORS[31]);
    const last = await firstFrameOf(
      (await encodeTimelapse([replay.frames.at(-1) as Uint8Array], replay, COLORS)).gif,
    );
    for (const [x, y, color] of corner)
      for (const [dx, dy] of [
        [1, 1],
        [30, 30],
      ] as const)
        expect(last.at((x - 240) * 32 + dx, (y - 240) * 32 + dy), `(${x}, ${y})`).toEqual(COLORS[color]);
    expect(last.at(5 * 32 + 16, 5 * 32 + 16)).toEqual(COLORS[31]);

    // Two versions: three frames (the board at `from`, then one per placement).
    const short = await place.replay(start, start + 2, TIMELAPSE_LIMITS.frames, TIMELAPSE_LIMITS.side);
    expect(short.frames).toHaveLength(3);
    expect(short.area).toEqual({ x0: 240, y0: 240, x1: 255, y1: 255 });
  });
});

const COLORS = PALETTE.map((_, i) => rgb(i));

/** How many images an animated GIF holds (its image descriptors, walking the blocks). */
function gifFrames(gif: Buffer): number {
  const table = (flags: number) => (flags & 0x80 ? 3 * 2 ** ((flags & 7) + 1) : 0);
  let at = 13 + table(gif[10] as number);
  const skipBlocks = () => {
    while (gif[at] !== 0) at += (gif[at] as number) + 1;
    at++;
  };
  let frames = 0;
  while (gif[at] !== 0x3b) {
    if (gif[at] === 0x21) {
      at += 2;
      skipBlocks();
    } else if (gif[at] === 0x2c) {
      frames++;
      at += 10 + table(gif[at + 9] as number) + 1;
      skipBlocks();
    } else throw new Error(`unexpected GIF block ${gif[at]} at ${at}`);
  }
  return frames;
}

/** The first image of a GIF, as a member's viewer draws it. */
async function firstFrameOf(gif: Buffer) {
  const image = await loadImage(gif);
  const canvas = createCanvas(image.width, image.height);
  const g = canvas.getContext('2d');
  g.drawImage(image, 0, 0);
  return { at: (x: number, y: number) => [...g.getImageData(x, y, 1, 1).data.slice(0, 3)] };
}
