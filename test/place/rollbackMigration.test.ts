import type { Document } from 'mongodb';
import { describe, expect, it } from 'vitest';
import { ASSEMBLY } from '../../commands/index.js';
import { placeRollbackUndoes } from '../../migrations/004-place-rollback-undoes.js';
import { createLogger } from '../../src/logger.js';
import { PlaceStore } from '../../utils/place/placeStore.js';
import { makeBotDeps } from '../support/botHarness.js';
import { databaseFingerprint, useTestDatabase } from '../support/database.js';
import { booksProblems } from '../support/ledgerHarness.js';

const t = useTestDatabase('place_rollback_migration');
const [BOB, CARL] = ['894000000000000001', '894000000000000002'];
const PIXEL = 100_000;

/** Puts the rollbacks back into the shape they had before migration 004. */
async function asBefore004(): Promise<void> {
  const events = t.db.collection<Document>('place_pixel_events');
  for (const e of await events.find({ kind: 'rollback' }).toArray()) {
    await events.updateOne(
      { _id: e._id },
      { $unset: { restores: '', paintedAt: '', undoes: '', replaces: '' } },
    );
    await t.db
      .collection<Document>('place_pixels')
      .updateOne({ _id: `${e.x}:${e.y}` as never, revision: e._id }, { $set: { at: e.at } });
  }
  const rollbacks = t.db.collection<Document>('place_rollbacks');
  for (const r of await rollbacks.find().toArray()) {
    await rollbacks.replaceOne(
      { _id: r._id },
      {
        ...Object.fromEntries(Object.entries(r).filter(([k]) => !['painted', 'undone'].includes(k))),
        pixels: (r.pixels as Document[]).map(({ x, y, color, owner, seenRevision }) => ({
          x,
          y,
          color,
          owner,
          seenRevision,
        })),
        // Every placement of the member in the area since the time, and what all of them cost.
        placements: r.painted,
        refund: r.painted * PIXEL,
      },
    );
  }
}

describe('migration 004: what a rollback put back and undid', () => {
  it('GIVEN rollbacks written before it, one of them restoring a pixel a second time THEN each step finds what it put back and undid (the repeat nothing), restored pixels show when they were painted, and a second run changes nothing', async () => {
    const { deps, clock } = makeBotDeps(t);
    const place = deps.services.place;
    for (const m of [BOB, CARL])
      await place.grant({ opId: `g-${m}`, moderatorId: 'mod', to: m, amount: 10_000_000, reason: '' });
    let n = 0;
    const paint = (userId: string, x: number, y: number, color: number) =>
      place.place({ opId: `m${n++}`, userId, x, y, color });
    const carlPainted = clock.now();
    await paint(CARL, 0, 0, 4);
    clock.advance(2 * 3_600_000);
    const bobPaintedFirst = clock.now();
    const first = await paint(BOB, 1, 0, 27);
    clock.advance(2 * 3_600_000);
    await paint(BOB, 0, 0, 27);
    await paint(BOB, 1, 0, 26);
    await paint(BOB, 2, 0, 27);
    const hourAgo = new Date(clock.now().getTime() - 3_600_000);
    await place.rollbacks.plan({ id: 'hour', adminId: 'admin', target: BOB, since: hourAgo });
    await place.rollbacks.apply('hour', false);
    // What the old code did next: the same hour again found (1, 0) still bob's and restored it again.
    const restoredB = await place.pixelInfo(1, 0);
    await new PlaceStore(t.db).rollbacks.save({
      _id: 'again',
      adminId: 'admin',
      target: BOB,
      pixels: [
        {
          x: 1,
          y: 0,
          color: 27,
          owner: BOB,
          seenRevision: restoredB?.pixel.revision ?? 0,
          restores: first.revision,
          undoes: [],
          cost: 0,
        },
      ],
      painted: 3,
      placements: 0,
      refund: 0,
      status: 'previewed',
      createdAt: clock.now(),
    });
    await place.rollbacks.apply('again', false);
    await place.rollbacks.plan({ id: 'later', adminId: 'admin', target: BOB });
    await asBefore004();

    await placeRollbackUndoes.up(t.db, createLogger('silent'));
    const step = (opId: string) => t.db.collection('place_pixel_events').findOne({ opId });
    const revisionOf = async (x: number, y: number, owner: string, color: number) =>
      (await t.db.collection('place_pixel_events').findOne({ x, y, owner, color, kind: 'place' }))?._id;
    expect(await step('rollback:hour:0')).toMatchObject({
      x: 0,
      restores: await revisionOf(0, 0, CARL, 4),
      paintedAt: carlPainted,
      undoes: { painter: BOB, revisions: [await revisionOf(0, 0, BOB, 27)] },
    });
    expect(await step('rollback:hour:1')).toMatchObject({
      x: 1,
      restores: first.revision,
      undoes: { painter: BOB, revisions: [await revisionOf(1, 0, BOB, 26)] },
    });
    expect(await step('rollback:hour:2')).toMatchObject({
      x: 2,
      restores: 0,
      undoes: { revisions: [await revisionOf(2, 0, BOB, 27)] },
    });
    expect(await step('rollback:again:0')).toMatchObject({
      restores: first.revision,
      undoes: { revisions: [] },
    });
    expect((await place.pixelInfo(0, 0))?.pixel).toMatchObject({ owner: CARL, at: carlPainted });
    expect((await place.pixelInfo(1, 0))?.pixel).toMatchObject({ owner: BOB, at: bobPaintedFirst });
    const rollbacks = new PlaceStore(t.db).rollbacks;
    expect(await rollbacks.get('hour')).toMatchObject({
      painted: 3,
      placements: 3,
      refund: 3 * PIXEL,
      undone: { pixels: 3, placements: 3, cost: 3 * PIXEL },
    });
    expect(await rollbacks.get('again')).toMatchObject({ undone: { pixels: 1, placements: 0, cost: 0 } });
    expect(await rollbacks.get('later')).toMatchObject({
      painted: 4,
      placements: 1,
      refund: PIXEL,
      pixels: [{ x: 1, restores: 0, undoes: [first.revision] }],
    });

    const migrated = await databaseFingerprint(t.db);
    await placeRollbackUndoes.up(t.db, createLogger('silent'));
    expect(await databaseFingerprint(t.db)).toBe(migrated);

    // The rollback previewed before the upgrade, applied after it: bob's first pixel, refunded alone.
    expect(await place.rollbacks.apply('later', true)).toMatchObject({ restored: 1, refunded: PIXEL });
    expect(await place.standing(BOB)).toMatchObject({ placements: 0, spent: 3 * PIXEL });
    await deps.ledger.flush();
    expect(await booksProblems(t.cols)).toEqual([]);
    expect(await ASSEMBLY.checkInvariants(t.db, deps.config, deps.ledger, deps.clock.now())).toEqual([]);
  });
});
