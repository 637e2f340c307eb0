import { beforeEach, describe, expect, it } from 'vitest';
import { ASSEMBLY } from '../../commands/index.js';
import type { BotDeps } from '../../src/interactions/types.js';
import type { LedgerStep } from '../../utils/money/ledger/ledger.js';
import { PlaceStore } from '../../utils/place/placeStore.js';
import { TableStore } from '../../utils/poker/tableStore.js';
import { makeBotDeps } from '../support/botHarness.js';
import { clearDatabase, useTestDatabase } from '../support/database.js';
import { booksProblems } from '../support/ledgerHarness.js';
import { pauseAt } from '../support/pause.js';
import { openTable } from '../support/pokerTable.js';

/**
 * The six ways money in play broke when tried from outside (a second process, a timer, a
 * double press, a crash), each as it was found, each fixed at its root by holds.
 */
const t = useTestDatabase('money_in_play');
const ANN = '894000000000000001';
const BEN = '894000000000000002';
const GRANT = 1_000;

const table = (deps: BotDeps) =>
  openTable(deps, { id: 'tab', host: BEN, members: [ANN, BEN], grant: GRANT, seats: [[BEN, 300]] });

async function expectBooksClean(deps: BotDeps, now: Date) {
  await deps.ledger.flush();
  expect(await booksProblems(t.cols)).toEqual([]);
  expect(await ASSEMBLY.checkInvariants(t.db, deps.config, deps.ledger, now)).toEqual([]);
}

const cookies = (deps: BotDeps, account: string) => deps.ledger.balanceOf('cookies', account);

describe('money in play, tried from outside', () => {
  beforeEach(() => clearDatabase(t.db));

  it.each<[string, LedgerStep]>([
    ['before its Cookies reached the hold', 'credit.before'],
    ['after its Cookies reached the hold', 'events.written'],
  ])(
    'GIVEN a buy-in in flight %s WHEN the host closes the table THEN the buyer is not seated on the closed table and keeps every Cookie',
    async (_, step) => {
      const { deps, clock } = makeBotDeps(t);
      await table(deps);
      const pause = pauseAt(step, 'poker.buyin');
      const slow = makeBotDeps(t, { hooks: pause.hooks });
      const sitting = slow.deps.services.poker.join('tab', ANN, 400).catch((error: unknown) => error);
      await pause.reached;
      const closed = await deps.services.poker.close('tab', BEN);
      expect(closed.status).toBe('closed');
      pause.release();
      expect(await sitting).toMatchObject({
        code: expect.stringMatching(/^(ACCOUNT_CLOSED|INVALID_INPUT)$/),
      });
      const after = await deps.services.poker.get('tab');
      expect(after?.game.seats.every((s) => s === null)).toBe(true);
      expect(after?.pending).toEqual([]);
      // The slow process returned its debit; its own sweeper unsets the emptied marker array.
      await Promise.all([deps.ledger.flush(), slow.deps.ledger.flush()]);
      expect([
        await cookies(deps, ANN),
        await cookies(deps, BEN),
        await cookies(deps, 'pot:poker:tab'),
      ]).toEqual([GRANT, GRANT, 0]);
      await expectBooksClean(deps, clock.now());
    },
  );

  it("GIVEN a buy-in still between its legs WHEN the table's moves timer runs THEN the buy-in is called off whole: the member keeps the Cookies, the pot holds only what the table recorded", async () => {
    const { deps, clock } = makeBotDeps(t);
    await table(deps);
    const pause = pauseAt('credit.before', 'poker.buyin');
    const slow = makeBotDeps(t, { hooks: pause.hooks });
    const sitting = slow.deps.services.poker.join('tab', ANN, 400).catch((error: unknown) => error);
    await pause.reached;
    clock.advance(61_000);
    await deps.scheduler.runDue();
    pause.release();
    expect(await sitting).toMatchObject({ code: 'ACCOUNT_CLOSED' });
    const after = await deps.services.poker.get('tab');
    expect(after?.pending).toEqual([]);
    expect(after?.chips.in).toBe(300);
    await Promise.all([deps.ledger.flush(), slow.deps.ledger.flush()]);
    expect([await cookies(deps, ANN), await cookies(deps, 'pot:poker:tab')]).toEqual([GRANT, 300]);
    await expectBooksClean(deps, clock.now());
  });

  it('GIVEN a busted member still seated WHEN they press Sit twice at once THEN they buy in once, within the maximum', async () => {
    const { deps, clock } = makeBotDeps(t);
    await table(deps);
    await deps.services.poker.join('tab', ANN, 200);
    // Ann lost her stack to Ben: still seated, busted (chips conserved: 200 moved).
    const tables = new TableStore(t.db);
    const before = await tables.get('tab');
    if (!before) throw new Error('no table');
    const seats = before.game.seats.map((s) =>
      s?.userId === ANN ? { ...s, stack: 0 } : s?.userId === BEN ? { ...s, stack: s.stack + 200 } : s,
    );
    expect(await tables.swap(before, { ...before, game: { ...before.game, seats } })).not.toBeNull();
    const presses = await Promise.allSettled([
      deps.services.poker.join('tab', ANN, 500),
      deps.services.poker.join('tab', ANN, 500),
    ]);
    expect(presses.filter((p) => p.status === 'fulfilled')).toHaveLength(1);
    expect(presses.find((p) => p.status === 'rejected')).toMatchObject({
      reason: { context: { messageKey: 'poker:errors.alreadySeated' } },
    });
    const after = await deps.services.poker.get('tab');
    expect(after?.game.seats.find((s) => s?.userId === ANN)?.stack).toBe(500);
    expect(await cookies(deps, ANN)).toBe(GRANT - 200 - 500);
    await expectBooksClean(deps, clock.now());
  });

  it('GIVEN a rollback whose process died while applying it THEN exactly one process resumes it once its lease ran out, and the refund is paid once', async () => {
    const { deps, clock } = makeBotDeps(t);
    const other = makeBotDeps(t);
    const place = deps.services.place;
    await place.grant({ opId: 'g', moderatorId: 'mod', to: ANN, amount: 1_000_000, reason: '' });
    for (let x = 0; x < 3; x++) await place.place({ opId: `p${x}`, userId: ANN, x, y: 0, color: 5 });
    await place.rollbacks.plan({ id: 'rb', adminId: 'admin', target: ANN });
    // What a process leaves when it dies right after taking the rollback (its lease runs a minute).
    const claimed = await new PlaceStore(t.db).rollbacks.claim(
      'rb',
      true,
      'dead',
      clock.now(),
      new Date(clock.now().getTime() + 60_000),
    );
    expect(claimed?.status).toBe('applying');
    // Too early: the dead process's lease still holds.
    expect(await place.rollbacks.apply('rb', true)).toMatchObject({ restored: 0, refunded: 0 });
    clock.advance(61_000);
    other.clock.advance(61_000);
    const [a, b] = await Promise.all([
      place.rollbacks.apply('rb', true),
      other.deps.services.place.rollbacks.apply('rb', true),
    ]);
    expect([a.restored + b.restored, a.refunded + b.refunded]).toEqual([3, 300_000]);
    for (let x = 0; x < 3; x++) expect((await place.pixelInfo(x, 0))?.pixel.color).toBe(31);
    await deps.ledger.flush();
    expect((await place.wallet(ANN)).balance).toBe(1_000_000);
    await expectBooksClean(deps, clock.now());
  });

  it('GIVEN a member and its worker hunting out of phase for ten minutes THEN the owner is paid for the ten minutes once, as much as the member alone', async () => {
    const { deps, clock } = makeBotDeps(t);
    const worker = await deps.services.workers.link(ANN, 'cli');
    let paid = 0;
    for (let s = 0; s <= 600; s += 30) {
      paid += await deps.services.hunt.activity(s % 60 === 0 ? ANN : worker._id);
      clock.advance(30_000);
    }
    // Ten intervals of 60 s at 20 points: 200 points, in milli-points.
    expect(paid).toBe(200_000);
    await deps.ledger.flush();
    expect(await deps.ledger.balanceOf('place', ANN)).toBe(200_000);
    await expectBooksClean(deps, clock.now());
  });
});
