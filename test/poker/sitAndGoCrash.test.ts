import { beforeEach, describe, expect, it } from 'vitest';
import { ASSEMBLY } from '../../commands/index.js';
import { silentLogger } from '../../src/logger.js';
import { recoverLedger } from '../../utils/money/ledger/recovery.js';
import { chipProblems } from '../../utils/poker/tableBooks.js';
import type { TableDoc } from '../../utils/poker/tableStore.js';
import { makeBotDeps } from '../support/botHarness.js';
import { clearDatabase, useTestDatabase } from '../support/database.js';
import { booksProblems } from '../support/ledgerHarness.js';
import { PROCESS_TEST_TIMEOUT_MS, reached, runCrashChild } from '../support/nodeProcess.js';
import { openTournament } from '../support/sitAndGo.js';
import type { SitAndGoCrashPlan } from '../support/sitAndGoCrashChild.js';

const t = useTestDatabase('poker_sng_crash');
const MEMBERS = ['882000000000000001', '882000000000000002', '882000000000000003'];
const GRANT = 1_000;
const BUY_IN = 100;
const STEPS = ['intent.persisted', 'debit.applied', 'credit.before', 'events.written', 'state.absorbed'];
// Every step is killed once, the first prize's and the second's in turn: each child process
// costs seconds, and both prizes run the same code.
const CASES = STEPS.map((step, i) => [(i % 2) + 1, step] as const);

describe('a sit-and-go killed at each step of its payouts', { timeout: PROCESS_TEST_TIMEOUT_MS }, () => {
  beforeEach(() => clearDatabase(t.db));

  it.each(CASES)(
    'GIVEN place %i’s prize killed at %s THEN recovery pays the pool exactly once, by place',
    async (place, step) => {
      const made = makeBotDeps(t);
      const { deps } = made;
      await openTournament(deps, {
        id: 'sng',
        host: MEMBERS[0] as string,
        members: MEMBERS,
        grant: GRANT,
        buyIn: BUY_IN,
        players: 3,
        registered: MEMBERS,
      });
      const plan = { step, tableId: 'sng', place };
      const { stdout } = await runCrashChild<SitAndGoCrashPlan>(
        'test/support/sitAndGoCrashChild.ts',
        plan,
        t,
      );
      expect(stdout).toContain(reached(step));
      // A restarted bot: the ledger's recovery, then the table's timers. Twice, as a retry would.
      for (let pass = 0; pass < 2; pass++) {
        made.clock.advance(61_000);
        await recoverLedger(
          { cols: t.cols, clock: made.clock, log: silentLogger },
          { graceMs: 0, fenceRetentionMs: 86_400_000 },
        );
        await deps.scheduler.runDue();
        await deps.services.poker.finishMoves('sng');
      }
      await deps.ledger.flush();
      const table = (await deps.services.poker.get('sng')) as TableDoc;
      expect(table.pending).toEqual([]);
      expect(chipProblems(table)).toEqual([]);
      // 65/35 of 300: 195 and 105, or 195 and two halves of 105 when second place is shared.
      const amounts = table.sng?.prizes?.map((p) => p.amount) ?? [];
      expect(amounts[0]).toBe(195);
      expect(amounts.reduce((a, b) => a + b, 0)).toBe(300);
      expect(table.chips).toEqual({ in: 300, out: 300, rake: 0 });
      expect(await deps.ledger.balanceOf('cookies', 'pot:poker:sng')).toBe(0);
      for (const member of MEMBERS) {
        const prize = table.sng?.prizes?.find((p) => p.userId === member)?.amount ?? 0;
        expect(await deps.ledger.balanceOf('cookies', member)).toBe(GRANT - BUY_IN + prize);
      }
      expect(await booksProblems(t.cols)).toEqual([]);
      expect(await ASSEMBLY.checkInvariants(t.db, deps.config, deps.ledger, deps.clock.now())).toEqual([]);
    },
  );
});
