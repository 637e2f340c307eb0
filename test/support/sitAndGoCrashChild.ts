/**
 * Child process of the sit-and-go crash test: plays a registered tournament to its end through
 * the real service, dying at a named step of one place's prize: the table's own
 * (`intent.persisted`, `state.absorbed`) or the ledger's, for that prize's operation.
 * Input (JSON in argv[2]): SitAndGoCrashPlan.
 */
import { makeBotDeps } from './botHarness.js';
import { type ChildDatabase, crashChild, dieAt } from './nodeProcess.js';
import { pokerServiceOf } from './pokerTable.js';
import { playOut } from './sitAndGo.js';

export interface SitAndGoCrashPlan extends ChildDatabase {
  /** A PokerStep or a LedgerStep. */
  step: string;
  tableId: string;
  /** The paid place whose prize dies at `step`. */
  place: number;
}

await crashChild<SitAndGoCrashPlan>(async ({ plan, db, cols }) => {
  const op = `poker_prize:${plan.tableId}:${plan.place}`;
  const { deps } = makeBotDeps(
    { db, cols },
    {
      hooks: {
        step: (step, spec) => (step === plan.step && spec.opId.includes(`${op}:`) ? dieAt(step) : undefined),
      },
    },
  );
  const poker = pokerServiceOf(deps, db, {
    step: (step, opId) => (step === plan.step && opId === op ? dieAt(step) : undefined),
  });
  await playOut(poker, plan.tableId);
});
