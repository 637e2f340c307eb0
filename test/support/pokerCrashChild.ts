/**
 * Child process of the poker crash tests: a buy-in or a leave (cash-out) through the real
 * service, dying at a named step: one of the table's own (`intent.persisted`,
 * `state.absorbed`) or the ledger's, for the poker operation's kind.
 * Input (JSON in argv[2]): PokerCrashPlan.
 */
import { makeBotDeps } from './botHarness.js';
import { type ChildDatabase, crashChild, dieAt } from './nodeProcess.js';
import { pokerServiceOf } from './pokerTable.js';

export interface PokerCrashPlan extends ChildDatabase {
  action: 'buyin' | 'cashout';
  /** A PokerStep or a LedgerStep. */
  step: string;
  tableId: string;
  userId: string;
  amount: number;
}

await crashChild<PokerCrashPlan>(async ({ plan, db, cols }) => {
  const kind = plan.action === 'buyin' ? 'poker.buyin' : 'poker.cashout';
  const { deps } = makeBotDeps(
    { db, cols },
    { hooks: { step: (step, spec) => (step === plan.step && spec.kind === kind ? dieAt(step) : undefined) } },
  );
  const poker = pokerServiceOf(deps, db, { step: (step) => (step === plan.step ? dieAt(step) : undefined) });
  await (plan.action === 'buyin'
    ? poker.join(plan.tableId, plan.userId, plan.amount)
    : poker.leave(plan.tableId, plan.userId));
});
