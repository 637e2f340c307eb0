import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/clock.js';
import type { AppError } from '../../src/errors.js';
import { silentLogger } from '../../src/logger.js';
import type { Ledger, LedgerStep } from '../../utils/money/ledger/ledger.js';
import { recoverLedger } from '../../utils/money/ledger/recovery.js';
import { clearDatabase, useTestDatabase } from '../support/database.js';
import { booksProblems, makeLedger } from '../support/ledgerHarness.js';

const t = useTestDatabase('ledger_model');
const ACCOUNTS = ['a', 'b', 'c'] as const;

/** The model: plain balances, and the operations that succeeded (for retries). */
interface Model {
  balances: Record<string, number>;
  done: { call: Call; delta: Record<string, number> }[];
}

type Call =
  | { op: 'debit'; opId: string; account: string; amount: number }
  | { op: 'credit'; opId: string; account: string; amount: number }
  | { op: 'transfer'; opId: string; from: string; to: string; amount: number };

interface Real {
  ledger: Ledger;
  crashAt: { step: LedgerStep | null };
}

let counter = 0;

function deltaOf(call: Call): Record<string, number> {
  if (call.op === 'debit') return { [call.account]: -call.amount };
  if (call.op === 'credit') return { [call.account]: call.amount };
  return { [call.from]: -call.amount, [call.to]: call.amount };
}

function affordable(model: Model, call: Call): boolean {
  return Object.entries(deltaOf(call)).every(([acc, d]) => (model.balances[acc] ?? 0) + d >= 0);
}

function apply(model: Model, call: Call): void {
  const delta = deltaOf(call);
  for (const [acc, d] of Object.entries(delta)) model.balances[acc] = (model.balances[acc] ?? 0) + d;
  model.done.push({ call, delta });
}

function invoke(ledger: Ledger, call: Call) {
  const base = { opId: call.opId, currency: 'cookies' as const, amount: call.amount, kind: 'model.op' };
  if (call.op === 'transfer') return ledger.transfer({ ...base, from: call.from, to: call.to });
  return call.op === 'debit'
    ? ledger.debit({ ...base, account: call.account })
    : ledger.credit({ ...base, account: call.account });
}

/** Compares balances without waiting for marker removal, so later commands meet live markers. */
async function assertSame(model: Model, real: Real): Promise<void> {
  for (const acc of ACCOUNTS)
    expect(await real.ledger.balanceOf('cookies', acc), acc).toBe(model.balances[acc] ?? 0);
}

class MoveCommand implements fc.AsyncCommand<Model, Real> {
  constructor(readonly call: Call) {}
  check = () => true;
  async run(model: Model, real: Real): Promise<void> {
    const ok = affordable(model, this.call);
    const result = await invoke(real.ledger, this.call).catch((e: AppError) => e);
    if (ok) {
      expect(result).toMatchObject({ replayed: false });
      apply(model, this.call);
    } else {
      expect((result as AppError).code).toBe('INSUFFICIENT_COOKIES');
    }
    await assertSame(model, real);
  }
  toString = () => `${this.call.op}(${JSON.stringify(this.call)})`;
}

class RetryCommand implements fc.AsyncCommand<Model, Real> {
  constructor(readonly pick: number) {}
  check = (model: Readonly<Model>) => model.done.length > 0;
  async run(model: Model, real: Real): Promise<void> {
    const { call } = model.done[this.pick % model.done.length] as Model['done'][number];
    const result = await invoke(real.ledger, call);
    expect(result.replayed).toBe(true);
    await assertSame(model, real);
  }
  toString = () => `retry(#${this.pick})`;
}

/** The same id with another amount: refused, nothing moves. */
class ReuseCommand implements fc.AsyncCommand<Model, Real> {
  constructor(readonly pick: number) {}
  check = (model: Readonly<Model>) => model.done.length > 0;
  async run(model: Model, real: Real): Promise<void> {
    const { call } = model.done[this.pick % model.done.length] as Model['done'][number];
    const result = await invoke(real.ledger, { ...call, amount: call.amount + 1 }).catch((e: AppError) => e);
    expect((result as AppError).code).toBe('OPERATION_ID_REUSED');
    await assertSame(model, real);
  }
  toString = () => `reuse(#${this.pick})`;
}

/** One new operation sent three times at once (double clicks, retries): applied at most once. */
class ConcurrentCommand implements fc.AsyncCommand<Model, Real> {
  constructor(readonly call: Call) {}
  check = () => true;
  async run(model: Model, real: Real): Promise<void> {
    const ok = affordable(model, this.call);
    const results = await Promise.allSettled([1, 2, 3].map(() => invoke(real.ledger, this.call)));
    const applied = results.filter((r) => r.status === 'fulfilled' && !r.value.replayed).length;
    expect(applied).toBe(ok ? 1 : 0);
    if (ok) apply(model, this.call);
    await assertSame(model, real);
  }
  toString = () => `concurrent(${JSON.stringify(this.call)})`;
}

/** The process "dies" at a step (the hook throws past every handler), then recovery runs. */
class CrashCommand implements fc.AsyncCommand<Model, Real> {
  constructor(
    readonly call: Call,
    readonly step: LedgerStep,
  ) {}
  check = () => true;
  async run(model: Model, real: Real): Promise<void> {
    const ok = affordable(model, this.call);
    real.crashAt.step = this.step;
    await invoke(real.ledger, this.call).catch(() => undefined);
    real.crashAt.step = null;
    await recoverLedger(
      { cols: t.cols, clock: new ManualClock(new Date('2030-01-01T00:00:00Z')), log: silentLogger },
      { graceMs: 0 },
    );
    // Recovery rolls back only a transfer that died right after its debit (its credit never
    // landed); every other interrupted change is rolled forward. A step the operation never
    // reaches (a credit has no debit) lets it finish normally.
    const rolledBack = this.call.op === 'transfer' && this.step === 'debit.applied';
    if (ok && !rolledBack) apply(model, this.call);
    await assertSame(model, real);
  }
  toString = () => `crash(${JSON.stringify(this.call)} at ${this.step})`;
}

const account = fc.constantFrom(...ACCOUNTS);
const amount = fc.integer({ min: 1, max: 60 });
const callArb: fc.Arbitrary<Call> = fc
  .oneof(
    fc.record({ op: fc.constant('debit' as const), account, amount }),
    fc.record({ op: fc.constant('credit' as const), account, amount }),
    fc
      .record({ op: fc.constant('transfer' as const), from: account, to: account, amount })
      .filter((c) => c.from !== c.to),
  )
  .map((c) => ({ ...c, opId: `m${++counter}` }) as Call);

const commands = [
  callArb.map((c) => new MoveCommand(c)),
  fc.nat().map((n) => new RetryCommand(n)),
  fc.nat().map((n) => new ReuseCommand(n)),
  callArb.map((c) => new ConcurrentCommand(c)),
  fc
    .tuple(callArb, fc.constantFrom<LedgerStep>('debit.applied', 'credit.applied', 'events.written'))
    .map(([c, s]) => new CrashCommand(c, s)),
];

describe('ledger against a model', () => {
  it('GIVEN random debits, credits, transfers, retries and crashes THEN balances match the model and invariants hold', async () => {
    const seed = Number(process.env.FC_SEED ?? Date.now() % 2_147_483_647);
    try {
      await fc.assert(
        fc.asyncProperty(fc.commands(commands, { maxCommands: 25 }), async (cmds) => {
          await clearDatabase(t.db);
          const crashAt: Real['crashAt'] = { step: null };
          const ledger = makeLedger(t.cols, {
            hooks: {
              step(step) {
                if (step === crashAt.step) throw new Error(`simulated crash at ${step}`);
              },
            },
          });
          await fc.asyncModelRun(
            () => ({ model: { balances: {}, done: [] }, real: { ledger, crashAt } }),
            cmds,
          );
          await ledger.flush();
          expect(await booksProblems(t.cols)).toEqual([]);
        }),
        { seed, numRuns: 40 },
      );
    } catch (error) {
      console.error(`ledger model test failed; reproduce with FC_SEED=${seed}`);
      throw error;
    }
  });
});
