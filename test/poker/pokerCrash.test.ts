import { beforeEach, describe, expect, it } from 'vitest';
import { ASSEMBLY } from '../../commands/index.js';
import { silentLogger } from '../../src/logger.js';
import { recoverLedger } from '../../utils/money/ledger/recovery.js';
import { chipProblems } from '../../utils/poker/tableBooks.js';
import { TABLES, type TableDoc } from '../../utils/poker/tableStore.js';
import { makeBotDeps } from '../support/botHarness.js';
import { clearDatabase, useTestDatabase } from '../support/database.js';
import { booksProblems } from '../support/ledgerHarness.js';
import { PROCESS_TEST_TIMEOUT_MS, reached, runCrashChild } from '../support/nodeProcess.js';
import type { PokerCrashPlan } from '../support/pokerCrashChild.js';
import { openTable, pokerServiceOf } from '../support/pokerTable.js';

const t = useTestDatabase('poker_crash');
const ANN = '890000000000000001';
const BEN = '890000000000000002';
const GRANT = 1_000;
const STEPS = ['intent.persisted', 'debit.applied', 'credit.before', 'events.written', 'state.absorbed'];

async function setUp(seatAnn: boolean) {
  const made = makeBotDeps(t);
  const seats: [string, number][] = seatAnn
    ? [
        [BEN, 300],
        [ANN, 400],
      ]
    : [[BEN, 300]];
  await openTable(made.deps, { id: 'tab', host: BEN, members: [ANN, BEN], grant: GRANT, seats });
  return made;
}

async function crash(plan: Omit<PokerCrashPlan, 'uri' | 'dbName'>) {
  const { stdout } = await runCrashChild<PokerCrashPlan>('test/support/pokerCrashChild.ts', plan, t);
  expect(stdout).toContain(reached(plan.step));
}

/** A restarted bot: the ledger's recovery pass, then the table's timers. Twice, as a retry would. */
async function recover(made: Awaited<ReturnType<typeof setUp>>) {
  for (let pass = 0; pass < 2; pass++) {
    made.clock.advance(61_000);
    await recoverLedger(
      { cols: t.cols, clock: made.clock, log: silentLogger },
      { graceMs: 0, fenceRetentionMs: 86_400_000 },
    );
    await made.deps.scheduler.runDue();
    await made.deps.services.poker.finishMoves('tab');
  }
  await made.deps.ledger.flush();
}

async function expectWhole(made: Awaited<ReturnType<typeof setUp>>): Promise<TableDoc> {
  const { deps } = made;
  const table = (await deps.services.poker.get('tab')) as TableDoc;
  expect(table.pending).toEqual([]);
  // Nothing in flight is stored as no `pending` at all, never `[]`.
  expect(
    await t.db.collection(TABLES).countDocuments({ _id: 'tab' as never, pending: { $exists: true } }),
  ).toBe(0);
  expect(chipProblems(table)).toEqual([]);
  const pot = await deps.ledger.balanceOf('cookies', 'pot:poker:tab');
  expect(pot).toBe(table.chips.in - table.chips.out - table.chips.rake);
  const members =
    (await deps.ledger.balanceOf('cookies', ANN)) + (await deps.ledger.balanceOf('cookies', BEN));
  expect(members + pot).toBe(2 * GRANT);
  expect(await booksProblems(t.cols)).toEqual([]);
  expect(await ASSEMBLY.checkInvariants(t.db, deps.config, deps.ledger, deps.clock.now())).toEqual([]);
  return table;
}

describe('a poker Cookie operation killed at each of its steps', { timeout: PROCESS_TEST_TIMEOUT_MS }, () => {
  beforeEach(() => clearDatabase(t.db));

  it.each(STEPS)(
    'GIVEN a buy-in killed at %s THEN recovery seats the member with the Cookies, or returns to before, never half',
    async (step) => {
      const made = await setUp(false);
      await crash({ action: 'buyin', step, tableId: 'tab', userId: ANN, amount: 400 });
      await recover(made);
      const table = await expectWhole(made);
      const seated = table.game.seats.find((s) => s?.userId === ANN);
      const ann = await made.deps.ledger.balanceOf('cookies', ANN);
      if (seated) expect([seated.stack, ann]).toEqual([400, GRANT - 400]);
      else expect(ann).toBe(GRANT);
      // Killed before its hold was posted into the table's pot, the buy-in is called off (its
      // hold voided, the Cookies back); after, the member is seated.
      expect(seated?.stack).toBe(step === 'state.absorbed' ? 400 : undefined);
    },
  );

  it.each(STEPS)(
    'GIVEN a cash-out killed at %s THEN recovery pays the member exactly their stack',
    async (step) => {
      const made = await setUp(true);
      await crash({ action: 'cashout', step, tableId: 'tab', userId: ANN, amount: 0 });
      await recover(made);
      const table = await expectWhole(made);
      expect(table.game.seats.some((s) => s?.userId === ANN)).toBe(false);
      expect(await made.deps.ledger.balanceOf('cookies', ANN)).toBe(GRANT);
      expect(table.chips).toEqual({ in: 700, out: 400, rake: 0 });
    },
  );

  it('GIVEN a buy-in’s timer run before the Sit stored its move (by a process whose clock is ahead), and the Sit’s process killed right after storing it THEN the timer comes back, finds the move and settles it', async () => {
    const made = await setUp(false);
    const { deps } = made;
    const op = `poker_buyin:tab:1:1`;
    const moves = deps.services.poker.tasks().find((h) => h.kind === 'poker.moves');
    if (!moves) throw new Error('no poker.moves task');
    const run = (attempt: number) =>
      moves.run({ tableId: 'tab' }, { id: `poker.moves:${op}`, dueAt: deps.clock.now(), attempt });
    // Nothing stored yet: the run comes back on the back-off instead of ending the timer.
    await expect(run(1)).rejects.toThrow(/not stored yet/);
    const dying = pokerServiceOf(deps, t.db, {
      step: (step) => {
        if (step === 'intent.persisted') throw new Error('killed after storing the move');
      },
    });
    await expect(dying.join('tab', ANN, 400)).rejects.toThrow(/killed/);
    expect(((await deps.services.poker.get('tab')) as TableDoc).pending).toMatchObject([
      { op, state: 'applying' },
    ]);
    await run(2);
    await deps.ledger.flush();
    await expectWhole(made);
    expect(await deps.ledger.balanceOf('cookies', ANN)).toBe(GRANT);
  });
});
