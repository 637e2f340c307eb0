import fc from 'fast-check';
import { BSON, MongoClient } from 'mongodb';
import { appCollections, ensureAppIndexes } from '../../app/openApp.js';
import { systemClock } from '../../src/clock.js';
import { runPool } from '../../src/concurrency.js';
import type { Collections } from '../../src/db/collections.js';
import { MONEY_PATH_CLIENT_OPTIONS } from '../../src/db/connect.js';
import { isAppError } from '../../src/errors.js';
import { silentLogger } from '../../src/logger.js';
import { checkInvariants } from '../../utils/money/ledger/invariants.js';
import type { Ledger, LedgerOutcome } from '../../utils/money/ledger/ledger.js';
import { pause } from '../../utils/money/ledger/patience.js';
import { recoverLedger } from '../../utils/money/ledger/recovery.js';
import { FaultProxy } from './faultProxy.js';
import { HOUSE, makeLedger } from './ledgerHarness.js';
import { startNode } from './nodeProcess.js';

export interface FaultRunOptions {
  /** The database server, reached directly (the ledger under test goes through the fault proxy). */
  serverUri: string;
  dbName: string;
  seed: number;
  ops: number;
  concurrency?: number;
  /** Share of money-path requests whose reply is lost after the server applied them. */
  cutRate?: number;
  /** Of those, the share that also closes the connection (the driver then clears its pool). */
  closeShare?: number;
  /** Share of money-path requests held in the network for `stallMs` (longer than the ledger waits). */
  stallRate?: number;
  stallMs?: number;
  /** Grace of the recovery loop in the other process: shorter than a stall, so it races them. */
  graceMs?: number;
  requestTimeoutMs?: number;
}

export interface FaultRunResult {
  ops: number;
  succeeded: number;
  refused: number;
  /** Calls that ended with LEDGER_UNAVAILABLE and whose caller gave up there ("told it failed"). */
  gaveUp: number;
  calls: number;
  /** Errors callers saw (and retried, unless definitive), by code. */
  errors: Record<string, number>;
  cutReplies: number;
  stalls: number;
  /** Stalled requests that reached the server after the ledger had stopped waiting for them. */
  lateDeliveries: number;
  recovery: { passes: number; rolledForward: number; rolledBack: number; duplicatesUndone: number };
  fences: { total: number; maxPerDocument: number; largestDocumentBytes: number; leftAfterPrune: number };
  violations: string[];
}

type Call =
  | { op: 'transfer'; currency: 'cookies' | 'place'; from: string; to: string; amount: number }
  | { op: 'debit'; currency: 'cookies' | 'place'; account: string; amount: number }
  | { op: 'credit'; currency: 'cookies' | 'place'; account: string; amount: number };

interface Planned {
  opId: string;
  call: Call;
  /** This caller stops at LEDGER_UNAVAILABLE instead of retrying (to check "failed" means not applied). */
  givesUpWhenUnavailable: boolean;
}

type Verdict = { status: 'ok'; outcome: LedgerOutcome } | { status: 'refused' | 'gave-up'; code: string };

const MEMBERS = Array.from({ length: 40 }, (_, i) => `m${i}`);
const WALLETS = Array.from({ length: 12 }, (_, i) => `w${i}`);
const MONEY_COLLECTIONS = new Set(['items_cookies', 'place_wallets', 'ledger_events']);
const MONEY_COMMANDS = new Set(['findAndModify', 'update', 'insert', 'find']);
const DEFINITIVE = new Set([
  'INSUFFICIENT_COOKIES',
  'INSUFFICIENT_PLACE_POINTS',
  'HOUSE_VAULT_INSUFFICIENT',
  'BALANCE_LIMIT',
  'OPERATION_ID_REUSED',
]);

/**
 * The randomised fault suite: a seeded workload of transfers, debits, credits and house
 * payouts in both currencies, through a ledger whose connection loses replies and stalls
 * requests past the recovery grace, while the recovery pass runs in another process.
 * Callers retry the same id after every error a careful caller would retry. Afterwards:
 * the invariant checker is clean, every call told "succeeded" was applied exactly once,
 * every call told "failed" was not applied at all, and no marker or fence outlives its use.
 * The seed fixes the workload and the fault dice; the interleaving still varies run to run.
 */
export async function runFaultSuite(options: FaultRunOptions): Promise<FaultRunResult> {
  const o = {
    concurrency: 24,
    cutRate: 0.05,
    closeShare: 0.002,
    stallRate: 0.004,
    stallMs: 1_500,
    graceMs: 400,
    requestTimeoutMs: 700,
    ...options,
  };
  const direct = new MongoClient(o.serverUri);
  await direct.connect();
  const db = direct.db(o.dbName);
  await ensureAppIndexes(db);
  const cols = appCollections(db);
  const proxy = await FaultProxy.start(o.serverUri);
  const proxied = new MongoClient(proxy.uri, {
    ...MONEY_PATH_CLIENT_OPTIONS,
    socketTimeoutMS: o.stallMs - 300,
  });
  await proxied.connect();
  const recovery = startNode(
    [
      'test/support/recoveryLoopChild.ts',
      JSON.stringify({ uri: o.serverUri, dbName: o.dbName, graceMs: o.graceMs, intervalMs: 100 }),
    ],
    {},
  );
  try {
    await recovery.waitForLog('RECOVERY LOOP READY');
    await seed(makeLedger(cols, { clock: systemClock }));
    const ledger = makeLedger(appCollections(proxied.db(o.dbName)), {
      clock: systemClock,
      timeouts: { requestTimeoutMs: o.requestTimeoutMs, attemptDeadlineMs: 4 * o.requestTimeoutMs },
    });
    const plan = planWorkload(o.seed, o.ops);
    const dice = fc.sample(fc.integer({ min: 0, max: 9_999 }), { seed: o.seed, numRuns: 50_000 });
    let roll = 0;
    proxy.setRule((request) => {
      if (!MONEY_COMMANDS.has(request.command) || !MONEY_COLLECTIONS.has(request.collection ?? ''))
        return 'pass';
      const die = (dice[roll++ % dice.length] as number) / 10_000;
      if (die < o.cutRate * o.closeShare) return 'cut-reply';
      if (die < o.cutRate) return 'lose-reply';
      if (die < o.cutRate + o.stallRate) return { stallMs: o.stallMs };
      return 'pass';
    });

    let calls = 0;
    const errors: Record<string, number> = {};
    const countError = (code: string) => {
      errors[code] = (errors[code] ?? 0) + 1;
    };
    const verdicts = new Map<string, Verdict>();
    const unanswered: Planned[] = [];
    await runPool(plan.length, o.concurrency, async (i) => {
      const planned = plan[i] as Planned;
      const verdict = await callCarefully(ledger, planned, 30, () => calls++, countError);
      if (verdict) verdicts.set(planned.opId, verdict);
      else unanswered.push(planned);
    });

    // The network heals: stalled requests land, the other process stops, everything is decided.
    proxy.setRule(() => 'pass');
    await proxy.settled();
    await recovery.terminate();
    const totals = JSON.parse(recovery.logs().trim().split('\n').at(-1) ?? '{}');
    await ledger.decideAbandoned();
    await recoverLedger({ cols, clock: systemClock, log: silentLogger }, { graceMs: 0 });
    for (const planned of unanswered) {
      const verdict = await callCarefully(ledger, planned, 10, () => calls++, countError);
      verdicts.set(planned.opId, verdict ?? { status: 'refused', code: 'NEVER_ANSWERED' });
    }
    await ledger.flush();
    // A request the ledger stopped waiting for (its 700 ms timeout, easily passed on a busy
    // machine) still lands: a late settle adds its fence then. Read the books once it has.
    await proxy.quiet();

    const fences = await measureFences(cols);
    const violations = await findViolations(cols, plan, verdicts);
    await recoverLedger({ cols, clock: systemClock, log: silentLogger }, { graceMs: 0, fenceRetentionMs: 0 });
    fences.leftAfterPrune = (await measureFences(cols)).total;
    if (fences.leftAfterPrune > 0) violations.push(`${fences.leftAfterPrune} fence(s) left after pruning`);

    const count = (status: Verdict['status']) =>
      [...verdicts.values()].filter((v) => v.status === status).length;
    return {
      ops: plan.length,
      succeeded: count('ok'),
      refused: count('refused'),
      gaveUp: count('gave-up'),
      calls,
      errors,
      cutReplies: proxy.stats.cutReplies,
      stalls: proxy.stats.stalls,
      lateDeliveries: proxy.stats.lateDeliveries,
      recovery: totals,
      fences,
      violations,
    };
  } finally {
    if (recovery.child.exitCode === null) await recovery.terminate();
    await proxied.close();
    await proxy.close();
    await direct.close();
  }
}

async function seed(ledger: Ledger): Promise<void> {
  for (const member of MEMBERS) {
    await ledger.credit({
      opId: `seed-${member}`,
      currency: 'cookies',
      account: member,
      amount: 2_000,
      kind: 'test.mint',
    });
  }
  await ledger.credit({
    opId: 'seed-house',
    currency: 'cookies',
    account: HOUSE,
    amount: 100_000,
    kind: 'test.mint',
  });
  for (const wallet of WALLETS) {
    await ledger.credit({
      opId: `seed-${wallet}`,
      currency: 'place',
      account: wallet,
      amount: 50_000,
      kind: 'test.mint',
    });
  }
  await ledger.flush();
}

function planWorkload(seedValue: number, ops: number): Planned[] {
  const member = fc.constantFrom(...MEMBERS);
  const wallet = fc.constantFrom(...WALLETS);
  const cookies = fc.integer({ min: 1, max: 400 });
  const milli = fc.integer({ min: 1, max: 9_000 });
  const pair = (who: fc.Arbitrary<string>) => fc.tuple(who, who).filter(([a, b]) => a !== b);
  const call: fc.Arbitrary<Call> = fc.oneof(
    {
      weight: 45,
      arbitrary: fc.tuple(pair(member), cookies).map(([[from, to], amount]) => ({
        op: 'transfer' as const,
        currency: 'cookies' as const,
        from,
        to,
        amount,
      })),
    },
    {
      weight: 12,
      arbitrary: fc.tuple(member, cookies).map(([account, amount]) => ({
        op: 'debit' as const,
        currency: 'cookies' as const,
        account,
        amount,
      })),
    },
    {
      weight: 12,
      arbitrary: fc.tuple(member, cookies).map(([account, amount]) => ({
        op: 'credit' as const,
        currency: 'cookies' as const,
        account,
        amount,
      })),
    },
    {
      weight: 8,
      arbitrary: fc.tuple(member, cookies).map(([to, amount]) => ({
        op: 'transfer' as const,
        currency: 'cookies' as const,
        from: HOUSE,
        to,
        amount,
      })),
    },
    {
      weight: 8,
      arbitrary: fc.tuple(pair(wallet), milli).map(([[from, to], amount]) => ({
        op: 'transfer' as const,
        currency: 'place' as const,
        from,
        to,
        amount,
      })),
    },
    {
      weight: 8,
      arbitrary: fc
        .tuple(wallet, milli)
        .map(([account, amount]) => ({ op: 'debit' as const, currency: 'place' as const, account, amount })),
    },
    {
      weight: 7,
      arbitrary: fc
        .tuple(wallet, milli)
        .map(([account, amount]) => ({ op: 'credit' as const, currency: 'place' as const, account, amount })),
    },
  );
  const planned = fc.record({ call, givesUpWhenUnavailable: fc.boolean() });
  return fc
    .sample(planned, { seed: seedValue, numRuns: ops })
    .map((p, i) => ({ ...p, opId: `fault-${seedValue}-${i}` }));
}

function invoke(ledger: Ledger, opId: string, call: Call): Promise<LedgerOutcome> {
  const base = { opId, currency: call.currency, amount: call.amount, kind: 'fault.op' };
  switch (call.op) {
    case 'transfer':
      return ledger.transfer({ ...base, from: call.from, to: call.to });
    case 'debit':
      return ledger.debit({ ...base, account: call.account });
    case 'credit':
      return ledger.credit({ ...base, account: call.account });
  }
}

/** Calls and retries the same id until a definitive answer, or returns null after `tries`. */
async function callCarefully(
  ledger: Ledger,
  planned: Planned,
  tries: number,
  onCall: () => void,
  onError: (code: string) => void,
): Promise<Verdict | null> {
  for (let attempt = 0; attempt < tries; attempt++) {
    onCall();
    try {
      return { status: 'ok', outcome: await invoke(ledger, planned.opId, planned.call) };
    } catch (error) {
      const code = isAppError(error)
        ? error.code
        : `UNEXPECTED ${(error as Error).name}: ${(error as Error).message}`;
      onError(code);
      // An unexpected error is a finding, not a retry: reported as refused, it fails the check if applied.
      if (code.startsWith('UNEXPECTED') || DEFINITIVE.has(code)) return { status: 'refused', code };
      if (code === 'LEDGER_UNAVAILABLE' && planned.givesUpWhenUnavailable) return { status: 'gave-up', code };
      await pause(25 + 25 * attempt);
    }
  }
  return null;
}

async function findViolations(
  cols: Collections,
  plan: Planned[],
  verdicts: Map<string, Verdict>,
): Promise<string[]> {
  const violations = (await checkInvariants(cols)).problems.map((p) => `invariants: ${p}`);
  const applied = new Map<string, number>();
  for await (const event of cols.ledgerEvents.find({ kind: 'fault.op' }, { projection: { opId: 1 } })) {
    applied.set(event.opId, (applied.get(event.opId) ?? 0) + 1);
  }
  for (const { opId, call } of plan) {
    const verdict = verdicts.get(opId);
    const legs = applied.get(opId) ?? 0;
    const expectedLegs = call.op === 'transfer' ? 2 : 1;
    if (verdict?.status === 'ok' && legs !== expectedLegs) {
      violations.push(`${opId}: told it succeeded, but ${legs} of ${expectedLegs} leg event(s) exist`);
    }
    if (verdict?.status !== 'ok' && legs > 0) {
      violations.push(
        `${opId}: told ${verdict?.status ?? 'nothing'} (${verdict && 'code' in verdict ? verdict.code : '-'}), but it was applied`,
      );
    }
  }
  return violations;
}

async function measureFences(cols: Collections): Promise<FaultRunResult['fences']> {
  const result = { total: 0, maxPerDocument: 0, largestDocumentBytes: 0, leftAfterPrune: 0 };
  for (const collection of [cols.cookies, cols.placeWallets] as const) {
    for await (const doc of collection.find({})) {
      const fences = doc.fences?.length ?? 0;
      result.total += fences;
      result.maxPerDocument = Math.max(result.maxPerDocument, fences);
      result.largestDocumentBytes = Math.max(result.largestDocumentBytes, BSON.calculateObjectSize(doc));
    }
  }
  return result;
}
