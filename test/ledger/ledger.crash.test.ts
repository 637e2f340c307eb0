import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/clock.js';
import { silentLogger } from '../../src/logger.js';
import { checkInvariants } from '../../utils/money/ledger/invariants.js';
import { LEDGER_STEPS, type LedgerStep } from '../../utils/money/ledger/ledger.js';
import { recoverLedger } from '../../utils/money/ledger/recovery.js';
import type { LedgerCrashPlan } from '../support/crashChild.js';
import { clearDatabase, useTestDatabase } from '../support/database.js';
import {
  booksProblems,
  callLedger,
  GIVE as give,
  HOUSE,
  type LedgerCall,
  makeLedger,
  seedBalance,
} from '../support/ledgerHarness.js';
import { PROCESS_TEST_TIMEOUT_MS, reached, runCrashChild } from '../support/nodeProcess.js';

const t = useTestDatabase('ledger_crash');

interface CrashPoint {
  name: string;
  call: LedgerCall;
  killAt: LedgerStep;
  failCredit?: boolean;
  /** Balances after recovery and one retry of the same id: the operation applied exactly once. */
  expected: Record<string, number>;
}

const burn = { opId: 'burn-1', currency: 'cookies', account: 'ann', amount: 30, kind: 'shop.buy' } as const;
const mint = {
  opId: 'mint-1',
  currency: 'cookies',
  account: 'ann',
  amount: 30,
  kind: 'cookies.collect',
} as const;
const win = {
  opId: 'win-1',
  currency: 'cookies',
  from: HOUSE,
  to: 'ann',
  amount: 30,
  kind: 'game.win',
} as const;

const CRASH_POINTS: CrashPoint[] = [
  {
    name: 'transfer after the debit',
    call: { op: 'transfer', input: give },
    killAt: 'debit.applied',
    expected: { ann: 70, ben: 30 },
  },
  {
    name: 'transfer between its debit and its credit',
    call: { op: 'transfer', input: give },
    killAt: 'credit.before',
    expected: { ann: 70, ben: 30 },
  },
  {
    name: 'transfer after the credit',
    call: { op: 'transfer', input: give },
    killAt: 'credit.applied',
    expected: { ann: 70, ben: 30 },
  },
  {
    name: 'transfer before its markers are removed',
    call: { op: 'transfer', input: give },
    killAt: 'events.written',
    expected: { ann: 70, ben: 30 },
  },
  {
    name: 'transfer during compensation of a failed credit',
    call: { op: 'transfer', input: give },
    killAt: 'compensation.started',
    failCredit: true,
    expected: { ann: 70, ben: 30 },
  },
  {
    name: 'debit after the debit',
    call: { op: 'debit', input: burn },
    killAt: 'debit.applied',
    expected: { ann: 70 },
  },
  {
    name: 'debit before its marker is removed',
    call: { op: 'debit', input: burn },
    killAt: 'events.written',
    expected: { ann: 70 },
  },
  {
    name: 'credit before the credit',
    call: { op: 'credit', input: mint },
    killAt: 'credit.before',
    expected: { ann: 130 },
  },
  {
    name: 'credit after the credit',
    call: { op: 'credit', input: mint },
    killAt: 'credit.applied',
    expected: { ann: 130 },
  },
  {
    name: 'credit before its marker is removed',
    call: { op: 'credit', input: mint },
    killAt: 'events.written',
    expected: { ann: 130 },
  },
  {
    name: 'house payout after the credit',
    call: { op: 'transfer', input: win },
    killAt: 'credit.applied',
    expected: { ann: 130, [HOUSE]: 970 },
  },
];

function runChild(point: CrashPoint) {
  return runCrashChild<LedgerCrashPlan>(
    'test/support/crashChild.ts',
    { ...point.call, killAt: point.killAt, failCredit: !!point.failCredit },
    t,
  );
}

describe('ledger crash points', { timeout: PROCESS_TEST_TIMEOUT_MS }, () => {
  it.each(CRASH_POINTS)(
    'GIVEN a process killed: $name THEN recovery restores the invariants and a retry applies once',
    async (point) => {
      await clearDatabase(t.db);
      const seeder = makeLedger(t.cols);
      await seedBalance(seeder, 'ann', 100);
      await seedBalance(seeder, HOUSE, 1_000);
      await seeder.flush();

      const child = await runChild(point);
      expect(child.stdout).toContain(reached(point.killAt));
      expect(child.signal).toBe('SIGKILL');

      const report = await recoverLedger(
        { cols: t.cols, clock: new ManualClock(new Date('2026-01-01T01:00:00Z')), log: silentLogger },
        { graceMs: 0 },
      );
      expect(report.stuck).toEqual([]);
      const afterRecovery = await checkInvariants(t.cols);
      expect(afterRecovery.problems).toEqual([]);

      const retry = makeLedger(t.cols);
      await callLedger(retry, point.call);
      await retry.flush();
      for (const [account, balance] of Object.entries(point.expected)) {
        expect(await retry.balanceOf('cookies', account), account).toBe(balance);
      }
      expect(await t.cols.cookies.countDocuments({ pendingOps: { $exists: true } })).toBe(0);
      expect(await booksProblems(t.cols)).toEqual([]);
    },
  );

  it(`covers ${CRASH_POINTS.length} crash points across every named step`, () => {
    // Derived from the ledger's own list, so a step added there fails here until it has a crash point.
    const steps = new Set(CRASH_POINTS.map((p) => p.killAt));
    expect([...steps].sort()).toEqual([...LEDGER_STEPS].sort());
    console.info(`ledger crash points covered: ${CRASH_POINTS.length}`);
  });
});
