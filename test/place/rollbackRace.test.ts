import { beforeEach, describe, expect, it } from 'vitest';
import { ASSEMBLY } from '../../commands/index.js';
import { makeBotDeps } from '../support/botHarness.js';
import { clearDatabase, useTestDatabase } from '../support/database.js';
import { booksProblems } from '../support/ledgerHarness.js';

const t = useTestDatabase('place_rollback_race');
const [BOB, CARL, ANN] = ['893000000000000001', '893000000000000002', '893000000000000003'];
const GRANT = 10_000_000;
const PIXEL = 100_000;

async function painters(deps: ReturnType<typeof makeBotDeps>['deps']) {
  const place = deps.services.place;
  for (const m of [BOB, CARL, ANN]) {
    await place.grant({ opId: `g-${m}`, moderatorId: 'mod', to: m, amount: GRANT, reason: '' });
  }
  let n = 0;
  return (userId: string, x: number, y: number, color: number) =>
    place.place({ opId: `op${n++}`, userId, x, y, color });
}

async function expectBooksClean(deps: ReturnType<typeof makeBotDeps>['deps']) {
  await deps.ledger.flush();
  expect(await booksProblems(t.cols)).toEqual([]);
  expect(await ASSEMBLY.checkInvariants(t.db, deps.config, deps.ledger, deps.clock.now())).toEqual([]);
}

/** How many rollback events each pixel of row `y` got. */
async function rollbackEventsOnRow(y: number): Promise<Record<number, number>> {
  const events = await t.db.collection('place_pixel_events').find({ kind: 'rollback', y }).toArray();
  const counts: Record<number, number> = {};
  for (const e of events) counts[e.x as number] = (counts[e.x as number] ?? 0) + 1;
  return counts;
}

describe('rolling back what is still the painter’s, once', () => {
  beforeEach(() => clearDatabase(t.db));

  it('GIVEN a pixel a rollback gave back to the painter’s own earlier placement THEN the same rollback again finds nothing, and a wider one undoes and refunds that earlier placement alone', async () => {
    const { deps, clock } = makeBotDeps(t);
    const place = deps.services.place;
    const paint = await painters(deps);
    await paint(CARL, 0, 0, 4);
    const carlPainted = clock.now();
    clock.advance(2 * 3_600_000);
    await paint(BOB, 0, 0, 27); // before the first rollback's hour
    clock.advance(2 * 3_600_000);
    await paint(BOB, 0, 0, 26);
    await paint(BOB, 1, 0, 27);
    await paint(ANN, 1, 0, 8); // painted over since: stays, and is not refunded
    const hourAgo = () => new Date(clock.now().getTime() - 3_600_000);

    await place.rollbacks.plan({ id: 'hour', adminId: 'admin', target: BOB, since: hourAgo() });
    expect(await place.rollbacks.apply('hour', false)).toMatchObject({ restored: 1, refunded: 0 });
    expect((await place.pixelInfo(0, 0))?.pixel).toMatchObject({ color: 27, owner: BOB });

    const again = await place.rollbacks.plan({
      id: 'again',
      adminId: 'admin',
      target: BOB,
      since: hourAgo(),
    });
    expect(again).toMatchObject({ pixels: [], placements: 0, refund: 0, painted: 2 });

    const all = await place.rollbacks.plan({ id: 'all', adminId: 'admin', target: BOB });
    expect(all).toMatchObject({ placements: 1, refund: PIXEL });
    expect(await place.rollbacks.apply('all', true)).toMatchObject({ restored: 1, refunded: PIXEL });
    expect((await place.pixelInfo(0, 0))?.pixel).toMatchObject({ color: 4, owner: CARL, at: carlPainted });
    expect((await place.pixelInfo(1, 0))?.pixel).toMatchObject({ color: 8, owner: ANN });
    await deps.ledger.flush();
    expect((await place.wallet(BOB)).balance).toBe(GRANT - 3 * PIXEL + PIXEL);
    expect(await place.standing(BOB)).toMatchObject({ placements: 1, earned: GRANT, spent: 2 * PIXEL });
    await expectBooksClean(deps);
  });

  it('GIVEN bob’s pixel painted over by ann and then by bob again THEN it goes back to ann’s, and the refund pays bob’s last placement alone', async () => {
    const { deps } = makeBotDeps(t);
    const place = deps.services.place;
    const paint = await painters(deps);
    await paint(CARL, 4, 4, 4);
    await paint(BOB, 4, 4, 27);
    await paint(ANN, 4, 4, 8);
    await paint(BOB, 4, 4, 26);
    const plan = await place.rollbacks.plan({ id: 'dave', adminId: 'admin', target: BOB });
    expect(plan).toMatchObject({ painted: 2, placements: 1, refund: PIXEL });
    expect(await place.rollbacks.apply('dave', true)).toMatchObject({ restored: 1, refunded: PIXEL });
    expect((await place.pixelInfo(4, 4))?.pixel).toMatchObject({ color: 8, owner: ANN });
    await expectBooksClean(deps);
  });

  it('GIVEN two admins rolling back overlapping areas, and one rollback pressed twice, all at once from two processes THEN each pixel is restored and refunded once', async () => {
    const first = makeBotDeps(t);
    const second = makeBotDeps(t);
    const [one, two] = [first.deps.services.place, second.deps.services.place];
    const paint = await painters(first.deps);
    for (let x = 0; x < 6; x++) await paint(CARL, x, 3, 4);
    for (let x = 0; x < 6; x++) await paint(BOB, x, 3, 27);
    const area = (x0: number, x1: number) => ({ x0, y0: 3, x1, y1: 3 });
    // The same area previewed by two admins, and two overlapping ones, pressed at once.
    await one.rollbacks.plan({ id: 'same-a', adminId: 'a1', target: BOB, area: area(0, 1) });
    await two.rollbacks.plan({ id: 'same-b', adminId: 'a2', target: BOB, area: area(0, 1) });
    await one.rollbacks.plan({ id: 'left', adminId: 'a1', target: BOB, area: area(2, 4) });
    await two.rollbacks.plan({ id: 'right', adminId: 'a2', target: BOB, area: area(3, 5) });
    const results = await Promise.all([
      one.rollbacks.apply('same-a', true),
      two.rollbacks.apply('same-b', true),
      one.rollbacks.apply('left', true),
      two.rollbacks.apply('right', true),
      two.rollbacks.apply('left', true),
      one.rollbacks.apply('right', true),
    ]);
    const sum = (f: (r: (typeof results)[number]) => number) => results.reduce((s, r) => s + f(r), 0);
    expect([sum((r) => r.restored), sum((r) => r.refunded)]).toEqual([6, 6 * PIXEL]);
    expect(await rollbackEventsOnRow(3)).toEqual({ 0: 1, 1: 1, 2: 1, 3: 1, 4: 1, 5: 1 });
    for (let x = 0; x < 6; x++)
      expect((await one.pixelInfo(x, 3))?.pixel).toMatchObject({ color: 4, owner: CARL });
    await first.deps.ledger.flush();
    await second.deps.ledger.flush();
    expect((await one.wallet(BOB)).balance).toBe(GRANT);
    expect(await one.standing(BOB)).toMatchObject({ placements: 0, earned: GRANT, spent: 0 });
    await expectBooksClean(first.deps);
  });

  it('GIVEN a griefer rolled back THEN the community post counts neither their undone pixels nor them among the top painters', async () => {
    const { deps } = makeBotDeps(t);
    const place = deps.services.place;
    const paint = await painters(deps);
    await paint(ANN, 9, 9, 5);
    for (let x = 0; x < 3; x++) await paint(BOB, x, 7, 27);
    await place.rollbacks.plan({ id: 'rb', adminId: 'admin', target: BOB });
    await place.rollbacks.apply('rb', false);
    expect(await place.postReport()).toMatchObject({
      count: 1,
      painters: 1,
      top: [{ owner: ANN, count: 1 }],
    });
    expect((await place.leaderboard(10)).placements).toEqual([{ account: ANN, value: 1 }]);
  });

  it('GIVEN a placement recorded as undone by two rollbacks THEN the place checker names it', async () => {
    const { deps } = makeBotDeps(t);
    const place = deps.services.place;
    const paint = await painters(deps);
    await paint(BOB, 0, 8, 27);
    await paint(BOB, 1, 8, 27);
    await place.rollbacks.plan({ id: 'rb', adminId: 'admin', target: BOB });
    await place.rollbacks.apply('rb', false);
    const events = t.db.collection('place_pixel_events');
    const [first, second] = await events.find({ kind: 'rollback', y: 8 }).sort({ _id: 1 }).toArray();
    await events.updateOne({ _id: second?._id }, { $set: { 'undoes.revisions': first?.undoes.revisions } });
    expect(await ASSEMBLY.checkInvariants(t.db, deps.config, deps.ledger, deps.clock.now())).toEqual([
      `placement ${first?.undoes.revisions[0]} was undone twice: by rollback:rb:0 and by rollback:rb:1`,
    ]);
  });
});
