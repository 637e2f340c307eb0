import { setTimeout as sleep } from 'node:timers/promises';
import { beforeEach, describe, expect, it } from 'vitest';
import { ASSEMBLY } from '../../commands/index.js';
import type { BotDeps } from '../../src/interactions/types.js';
import { PlaceEconomy } from '../../utils/money/placeEconomy.js';
import { AreaStore } from '../../utils/place/areaStore.js';
import { placementId } from '../../utils/place/placements.js';
import { PlaceService } from '../../utils/place/placeService.js';
import { PlaceStore } from '../../utils/place/placeStore.js';
import { TemplateStore } from '../../utils/place/templateStore.js';
import { makeBotDeps } from '../support/botHarness.js';
import { clearDatabase, useTestDatabase } from '../support/database.js';
import { booksProblems } from '../support/ledgerHarness.js';

const t = useTestDatabase('place');
const members = (n: number) =>
  Array.from({ length: n }, (_, i) => `89100000000000${String(i).padStart(4, '0')}`);
const POINT = 1_000;

function service(
  deps: BotDeps & { config: BotDeps['config'] },
  afterAllocate?: (revision: number) => Promise<void>,
) {
  return new PlaceService({
    ...deps,
    store: new PlaceStore(t.db),
    areaStore: new AreaStore(t.db),
    templateStore: new TemplateStore(t.db),
    economy: new PlaceEconomy(deps.ledger),
    ...(afterAllocate ? { afterAllocate } : {}),
  });
}

async function fund(deps: BotDeps, who: string[], points: number) {
  for (const m of who) {
    await deps.services.place.grant({
      opId: `grant:${m}`,
      moderatorId: 'mod',
      to: m,
      amount: points * POINT,
      reason: '',
    });
  }
}

describe('placing pixels', () => {
  beforeEach(() => clearDatabase(t.db));

  it('GIVEN 100 members painting one pixel at once THEN revisions are unique, the highest wins, and each pays once', async () => {
    const { deps } = makeBotDeps(t);
    const painters = members(100);
    await fund(deps, painters, 1_000);
    const placed = await Promise.all(
      painters.map((m, i) =>
        deps.services.place.place({ opId: `p${i}`, userId: m, x: 3, y: 4, color: i % 32 }),
      ),
    );
    const revisions = placed.map((p) => p.revision).sort((a, b) => a - b);
    expect(revisions).toEqual(Array.from({ length: 100 }, (_, i) => i + 1));
    const top = placed.find((p) => p.revision === 100);
    expect((await deps.services.place.pixelInfo(3, 4))?.pixel).toMatchObject({
      color: top?.color,
      revision: 100,
    });
    await deps.ledger.flush();
    for (const m of painters)
      expect(await deps.services.place.wallet(m)).toMatchObject({
        balance: 900 * POINT,
        spent: 100 * POINT,
        placements: 1,
      });
    expect((await deps.services.place.pixelInfo(3, 4))?.painted).toBe(100);
    expect(await booksProblems(t.cols)).toEqual([]);
    expect(await ASSEMBLY.checkInvariants(t.db, deps.config, deps.ledger, deps.clock.now())).toEqual([]);
  });

  it('GIVEN a placement retried with the same id THEN it is charged and written once', async () => {
    const { deps } = makeBotDeps(t);
    const [ann] = members(1) as [string];
    await fund(deps, [ann], 250);
    const first = await deps.services.place.place({ opId: 'same', userId: ann, x: 1, y: 1, color: 2 });
    const [again, racing] = await Promise.all([
      deps.services.place.place({ opId: 'same', userId: ann, x: 1, y: 1, color: 2 }),
      deps.services.place.place({ opId: 'same', userId: ann, x: 1, y: 1, color: 2 }),
    ]);
    expect([again.revision, racing.revision]).toEqual([first.revision, first.revision]);
    expect(again.replayed).toBe(true);
    await deps.ledger.flush();
    expect(await deps.services.place.wallet(ann)).toMatchObject({ balance: 150 * POINT, placements: 1 });
  });

  it('GIVEN placements finished or refused a day ago THEN the sweep prunes them, and the same id asked again after is charged and written once', async () => {
    const { deps, clock } = makeBotDeps(t);
    const [ann, ben] = members(2) as [string, string];
    await fund(deps, [ann], 250);
    const old = await deps.services.place.place({ opId: 'old', userId: ann, x: 2, y: 2, color: 3 });
    await expect(
      deps.services.place.place({ opId: 'poor', userId: ben, x: 2, y: 3, color: 3 }),
    ).rejects.toThrow();
    const placements = t.db.collection('place_placements');
    expect(await placements.countDocuments({})).toBe(2);
    // A day and an hour later, a new placement plans the sweep; it prunes what is past a day.
    clock.advance(25 * 3_600_000);
    await deps.services.place.place({ opId: 'new', userId: ann, x: 2, y: 4, color: 3 });
    clock.advance(121_000);
    await deps.scheduler.runDue();
    expect((await placements.find({}).toArray()).map((p) => p._id)).toEqual([placementId(ann, 'new')]);

    const again = await deps.services.place.place({ opId: 'old', userId: ann, x: 2, y: 2, color: 3 });
    expect(again).toMatchObject({ revision: old.revision, replayed: true });
    await deps.ledger.flush();
    expect(await deps.services.place.wallet(ann)).toMatchObject({ balance: 50 * POINT, placements: 2 });
    // The retry's own document is finished by the next sweep; the books and the canvas agree.
    clock.advance(121_000);
    await deps.scheduler.runDue();
    expect((await deps.services.place.changesAfter(0, 10)).changes).toHaveLength(2);
    expect(await booksProblems(t.cols)).toEqual([]);
    expect(await ASSEMBLY.checkInvariants(t.db, deps.config, deps.ledger, deps.clock.now())).toEqual([]);
  });

  it('GIVEN bad input THEN each is refused with the numbers and nothing is charged', async () => {
    const { deps } = makeBotDeps(t);
    const [ann] = members(1) as [string];
    await fund(deps, [ann], 250);
    const place = (x: number, y: number, color: number) =>
      deps.services.place
        .place({ opId: `bad-${x}-${y}-${color}`, userId: ann, x, y, color })
        .catch((e: unknown) => e);
    expect(await place(256, 0, 1)).toMatchObject({
      code: 'INVALID_INPUT',
      context: { maxX: 255, maxY: 255 },
    });
    expect(await place(0, -1, 1)).toMatchObject({ code: 'INVALID_INPUT' });
    expect(await place(0, 0, 32)).toMatchObject({ code: 'INVALID_INPUT', context: { max: 31 } });
    await deps.runtimeConfig.set('place_pixel_cost', '300', 'admin');
    expect(await place(0, 0, 1)).toMatchObject({
      code: 'INSUFFICIENT_PLACE_POINTS',
      context: { balance: 250_000, needed: 300_000, affordable: 0 },
    });
    await deps.runtimeConfig.set('place_enabled', 'off', 'admin');
    expect(await place(0, 0, 1)).toMatchObject({ code: 'FEATURE_DISABLED' });
    await deps.ledger.flush();
    expect(await deps.services.place.wallet(ann)).toMatchObject({
      balance: 250 * POINT,
      spent: 0,
      placements: 0,
    });
    expect((await deps.services.place.canvas()).revision).toBe(0);
  });

  it('GIVEN many placers with random delays between taking a revision and writing it THEN a polling reader replays the final board exactly, never skipping one', async () => {
    const { deps } = makeBotDeps(t);
    const painters = members(40);
    await fund(deps, painters, 100_000);
    // Deterministic "random" delays: a placement may be written long after later ones.
    // The delays are the thing under test (a slow writer), not waits for anything.
    const slow = service(deps, async (revision) => sleep((revision * 7919) % 23));
    const reader: Map<string, { color: number; revision: number }> = new Map();
    let cursor = 0;
    let seen = 0;
    let last = 0;
    let done = false;
    const reading = (async () => {
      while (!done || cursor < (await slow.canvas()).revision) {
        const { changes, revision } = await slow.changesAfter(cursor, 50);
        for (const c of changes) {
          expect(c.revision).toBeGreaterThan(last);
          last = c.revision;
          seen++;
          reader.set(`${c.x}:${c.y}`, { color: c.color, revision: c.revision });
        }
        cursor = revision;
        await sleep(2); // the reader's poll interval
      }
    })();
    await Promise.all(
      painters.map(async (m, i) => {
        for (let k = 0; k < 10; k++) {
          await slow.place({
            opId: `f${i}-${k}`,
            userId: m,
            x: (i * 3 + k) % 7,
            y: (i + k * 5) % 6,
            color: (i + k) % 32,
          });
        }
      }),
    );
    done = true;
    await reading;
    expect(seen).toBe(400);
    const board = new Map<string, { color: number; revision: number }>();
    for (let x = 0; x < 7; x++) {
      for (let y = 0; y < 6; y++) {
        const info = await slow.pixelInfo(x, y);
        if (info) board.set(`${x}:${y}`, { color: info.pixel.color, revision: info.pixel.revision });
      }
    }
    expect(reader).toEqual(board);
  });

  it('GIVEN a placer that dies between taking a revision and recording it THEN recovery finishes the placement and voids the lost revision', async () => {
    const { deps, clock } = makeBotDeps(t);
    const [ann, ben] = members(2) as [string, string];
    await fund(deps, [ann, ben], 1_000);
    let crash = true;
    const dying = service(deps, async () => {
      if (crash) {
        crash = false;
        throw new Error('process died');
      }
    });
    await expect(dying.place({ opId: 'lost', userId: ann, x: 0, y: 0, color: 5 })).rejects.toThrow(
      'process died',
    );
    await deps.services.place.place({ opId: 'after', userId: ben, x: 1, y: 0, color: 6 });
    expect((await deps.services.place.changesAfter(0, 10)).revision).toBe(0);
    // The sweep runs a minute after the minute of the placements, past the grace.
    clock.advance(121_000);
    await deps.scheduler.runDue();
    const feed = await deps.services.place.changesAfter(0, 10);
    expect(feed.revision).toBe(3);
    expect(feed.changes.map((c) => [c.revision, c.opId])).toEqual([
      [2, placementId(ben, 'after')],
      [3, placementId(ann, 'lost')],
    ]);
    await deps.ledger.flush();
    expect(await deps.services.place.wallet(ann)).toMatchObject({ balance: 900 * POINT, placements: 1 });
    expect((await deps.services.place.pixelInfo(0, 0))?.pixel).toMatchObject({ color: 5, revision: 3 });
    expect(await ASSEMBLY.checkInvariants(t.db, deps.config, deps.ledger, deps.clock.now())).toEqual([]);
  });

  it('GIVEN a stalled placer whose placement the sweep finishes meanwhile THEN the placement has one event and is charged once', async () => {
    const { deps, clock } = makeBotDeps(t);
    const [ann] = members(1) as [string];
    await fund(deps, [ann], 1_000);
    let release = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    let stall = true;
    let stalledAt: () => void = () => {};
    const atStall = new Promise<void>((resolve) => {
      stalledAt = resolve;
    });
    const stalled = service(deps, async () => {
      if (stall) {
        stall = false;
        stalledAt();
        await gate;
      }
    });
    const placing = stalled.place({ opId: 'slow', userId: ann, x: 2, y: 2, color: 7 });
    await atStall;
    // The sweep finds the placement unfinished past its grace and finishes it itself.
    clock.advance(121_000);
    await deps.scheduler.runDue();
    release();
    await placing;
    await deps.scheduler.runDue();
    const feed = await deps.services.place.changesAfter(0, 10);
    expect(feed.changes.filter((c) => c.opId === placementId(ann, 'slow'))).toHaveLength(1);
    await deps.ledger.flush();
    expect(await deps.services.place.wallet(ann)).toMatchObject({ balance: 900 * POINT, placements: 1 });
    expect(await ASSEMBLY.checkInvariants(t.db, deps.config, deps.ledger, deps.clock.now())).toEqual([]);
  });

  it('GIVEN a refusal recorded over a payment that went through (a retry paid, then died) THEN the sweep places the paid pixel, and a refusal nobody paid stays refused', async () => {
    const { deps, clock } = makeBotDeps(t);
    const [ann] = members(1) as [string];
    for (const opId of ['raced', 'unpaid']) {
      await expect(deps.services.place.place({ opId, userId: ann, x: 5, y: 5, color: 3 })).rejects.toThrow(
        'INSUFFICIENT_PLACE_POINTS',
      );
    }
    await fund(deps, [ann], 1_000);
    // The retry's payment, as it landed before the process died; the record still says refused.
    await new PlaceEconomy(deps.ledger).payForPixel(ann, {
      opId: `place:${placementId(ann, 'raced')}`,
      cost: 100 * POINT,
      reason: '(5, 5) colour 3',
    });
    clock.advance(121_000);
    await deps.scheduler.runDue();
    const feed = await deps.services.place.changesAfter(0, 10);
    expect(feed.changes.map((c) => c.opId)).toEqual([placementId(ann, 'raced')]);
    expect((await deps.services.place.pixelInfo(5, 5))?.pixel).toMatchObject({ owner: ann, color: 3 });
    await deps.ledger.flush();
    expect(await deps.services.place.wallet(ann)).toMatchObject({ balance: 900 * POINT, placements: 1 });
    expect(await ASSEMBLY.checkInvariants(t.db, deps.config, deps.ledger, deps.clock.now())).toEqual([]);
  });

  it('GIVEN a placer stopped between its event and its pixel THEN the checker counts it in flight, and the sweep paints the pixel', async () => {
    const { deps, clock } = makeBotDeps(t);
    const [ann] = members(1) as [string];
    await fund(deps, [ann], 1_000);
    await deps.services.place.place({ opId: 'cut', userId: ann, x: 2, y: 2, color: 4 });
    // What a stopped process (or a backup's instant) leaves: the event written, the pixel not.
    await t.db.collection('place_pixels').deleteOne({ _id: '2:2' as never });
    expect(await ASSEMBLY.checkInvariants(t.db, deps.config, deps.ledger, deps.clock.now())).toEqual([]);
    // Still unfinished minutes later (its sweep never ran): stuck, and named.
    clock.advance(4 * 60_000);
    expect(await ASSEMBLY.checkInvariants(t.db, deps.config, deps.ledger, deps.clock.now())).toEqual([
      'pixel 2:2 has events (newest 1) but no state',
    ]);
    await deps.scheduler.runDue();
    expect((await deps.services.place.pixelInfo(2, 2))?.pixel).toMatchObject({ owner: ann, color: 4 });
    // Finished, its pixel is the books' again: lost now, it is named.
    await t.db.collection('place_pixels').deleteOne({ _id: '2:2' as never });
    expect(await ASSEMBLY.checkInvariants(t.db, deps.config, deps.ledger, deps.clock.now())).toEqual([
      'pixel 2:2 has events (newest 1) but no state',
    ]);
  });

  it('GIVEN a pixel whose state disagrees with its events THEN the checker names it', async () => {
    const { deps } = makeBotDeps(t);
    const [ann] = members(1) as [string];
    await fund(deps, [ann], 1_000);
    await deps.services.place.place({ opId: 'ok', userId: ann, x: 2, y: 2, color: 4 });
    await t.db.collection('place_pixels').updateOne({ _id: '2:2' as never }, { $set: { color: 9 } });
    expect(await ASSEMBLY.checkInvariants(t.db, deps.config, deps.ledger, deps.clock.now())).toEqual([
      'pixel 2:2 is colour 9 at revision 1, its newest event says 4 at 1',
    ]);
  });

  it('GIVEN set pixels THEN shrinking over them is refused with how many and where, and enlarging keeps them', async () => {
    const { deps } = makeBotDeps(t);
    const [ann] = members(1) as [string];
    await fund(deps, [ann], 1_000);
    await deps.services.place.place({ opId: 's1', userId: ann, x: 200, y: 10, color: 4 });
    await deps.services.place.place({ opId: 's2', userId: ann, x: 150, y: 220, color: 5 });
    await expect(deps.services.place.resize(128, 256)).rejects.toMatchObject({
      context: { count: 2, box: '(150, 10)–(200, 220)' },
    });
    await expect(deps.services.place.resize(2_049, 256)).rejects.toMatchObject({ context: { max: 2_048 } });
    await deps.services.place.resize(2_048, 2_048);
    const board = await deps.services.place.board();
    expect([board.width, board.height, board.get(200, 10), board.get(150, 220)]).toEqual([
      2_048, 2_048, 4, 5,
    ]);
    await deps.services.place.resize(201, 221);
    expect((await deps.services.place.canvas()).width).toBe(201);
  });
});
