/**
 * Child process of the crash-point tests: runs one ledger operation and dies when the
 * operation reaches the named step, like a process dying mid-operation.
 * Input (JSON in argv[2]): LedgerCrashPlan.
 */
import type { LedgerStep } from '../../utils/money/ledger/ledger.js';
import { callLedger, type LedgerCall, makeLedger } from './ledgerHarness.js';
import { type ChildDatabase, crashChild, dieAt } from './nodeProcess.js';

export type LedgerCrashPlan = LedgerCall &
  ChildDatabase & {
    killAt: LedgerStep;
    failCredit: boolean;
  };

await crashChild<LedgerCrashPlan>(async ({ plan, cols }) => {
  const ledger = makeLedger(cols, {
    hooks: {
      step(step) {
        if (step === plan.killAt) dieAt(step);
        if (step === 'credit.before' && plan.failCredit) throw new Error('injected credit failure');
      },
    },
  });
  await callLedger(ledger, plan);
});
