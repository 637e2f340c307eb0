import { MongoClient } from 'mongodb';
import { describe, expect, it } from 'vitest';
import { appCollections } from '../../app/openApp.js';
import { systemClock } from '../../src/clock.js';
import { loadConfig } from '../../src/config.js';
import { MONEY_PATH_CLIENT_OPTIONS } from '../../src/db/connect.js';
import { type AppError, isAppError } from '../../src/errors.js';
import { silentLogger } from '../../src/logger.js';
import { startPeriodic } from '../../src/periodic.js';
import { MAX_BALANCE } from '../../utils/money/ledger/books.js';
import { checkInvariants } from '../../utils/money/ledger/invariants.js';
import type { LedgerStep } from '../../utils/money/ledger/ledger.js';
import { pause } from '../../utils/money/ledger/patience.js';
import { recoverLedger } from '../../utils/money/ledger/recovery.js';
import { makeConsole } from '../support/consoleHarness.js';
import { useTestDatabase } from '../support/database.js';
import type { WireRequest } from '../support/faultProxy.js';
import { useFaultyConnection } from '../support/faultyConnection.js';
import {
  booksProblems,
  callLedger,
  GIVE as give,
  HOUSE,
  type LedgerCall,
  makeLedger,
  seedBalance,
} from '../support/ledgerHarness.js';
import { PROCESS_TEST_TIMEOUT_MS, runNode } from '../support/nodeProcess.js';
import { waitFor } from '../support/waitFor.js';

const t = useTestDatabase('ledger_faults');
const net = useFaultyConnection(t);

/** The first balance update (findAndModify) on `account` in `collection`, once. */
function firstUpdateOf(collection: string, account: string, action: 'cut-reply' | 'drop') {
  let done = false;
  return (request: WireRequest) => {
    const query = (request.body.query ?? {}) as { _id?: unknown };
    if (done || request.command !== 'findAndModify' || request.collection !== collection) return 'pass';
    if (query._id !== account) return 'pass';
    done = true;
    return action;
  };
}

async function balances(currency: 'cookies' | 'place', accounts: string[]): Promise<Record<string, number>> {
  const ledger = makeLedger(t.cols);
  return Object.fromEntries(
    await Promise.all(accounts.map(async (a) => [a, await ledger.balanceOf(currency, a)] as const)),
  );
}

async function expectCleanBooks(): Promise<void> {
  const report = await checkInvariants(t.cols);
  expect(report.problems).toEqual([]);
}

interface LostReplyCase {
  name: string;
  call: LedgerCall;
  collection: string;
  account: string;
  expected: Record<string, number>;
}

const LOST_REPLIES: LostReplyCase[] = [
  {
    name: "a transfer's credit",
    call: { op: 'transfer', input: give },
    collection: 'items_cookies',
    account: 'ben',
    expected: { ann: 70, ben: 31 },
  },
  {
    name: "a transfer's debit",
    call: { op: 'transfer', input: give },
    collection: 'items_cookies',
    account: 'ann',
    expected: { ann: 70, ben: 31 },
  },
  {
    name: 'a debit',
    call: {
      op: 'debit',
      input: { opId: 'buy-1', currency: 'cookies', account: 'ann', amount: 30, kind: 'shop' },
    },
    collection: 'items_cookies',
    account: 'ann',
    expected: { ann: 70, ben: 1 },
  },
  {
    name: 'a credit',
    call: {
      op: 'credit',
      input: { opId: 'mint-1', currency: 'cookies', account: 'ben', amount: 30, kind: 'collect' },
    },
    collection: 'items_cookies',
    account: 'ben',
    expected: { ann: 100, ben: 31 },
  },
  {
    name: "a house payout's credit",
    call: { op: 'transfer', input: { ...give, opId: 'win-1', from: HOUSE, kind: 'game.win' } },
    collection: 'items_cookies',
    account: 'ben',
    expected: { ann: 100, ben: 31, [HOUSE]: 970 },
  },
  {
    name: "a Place transfer's credit",
    call: { op: 'transfer', input: { ...give, opId: 'pts-1', currency: 'place' } },
    collection: 'place_wallets',
    account: 'ben',
    expected: { ann: 70, ben: 31 },
  },
  {
    name: 'a Place debit (a pixel)',
    call: {
      op: 'debit',
      input: { opId: 'px-1', currency: 'place', account: 'ann', amount: 30, kind: 'place.pixel' },
    },
    collection: 'place_wallets',
    account: 'ann',
    expected: { ann: 70, ben: 1 },
  },
];

describe('ledger under network faults', () => {
  it.each(LOST_REPLIES)(
    'GIVEN the reply to $name is lost with its connection THEN it applies exactly once and a retry replays it',
    async ({ call, collection, account, expected }) => {
      const currency = call.input.currency;
      const seeder = makeLedger(t.cols);
      await seedBalance(seeder, 'ann', 100, currency);
      await seedBalance(seeder, 'ben', 1, currency);
      await seedBalance(seeder, HOUSE, 1_000);
      await seeder.flush();
      net.proxy.setRule(firstUpdateOf(collection, account, 'cut-reply'));
      const ledger = makeLedger(net.faulty);

      const first = await callLedger(ledger, call);
      expect(first.replayed).toBe(false);
      expect(net.proxy.stats.cutReplies).toBe(1);
      await ledger.flush();
      expect(await balances(currency, Object.keys(expected))).toEqual(expected);

      const retry = await callLedger(ledger, call);
      expect(retry.replayed).toBe(true);
      await ledger.flush();
      expect(await balances(currency, Object.keys(expected))).toEqual(expected);
      await expectCleanBooks();
    },
  );

  it('GIVEN a credit request that never arrives THEN the give fails cleanly, and a retry of the id applies once', async () => {
    await seedBalance(makeLedger(t.cols), 'ann', 100);
    net.proxy.setRule(firstUpdateOf('items_cookies', 'ben', 'drop'));
    const ledger = makeLedger(net.faulty);

    const failed = await ledger.transfer(give).catch((e: AppError) => e);
    expect(isAppError(failed, 'LEDGER_UNAVAILABLE')).toBe(true);
    await ledger.flush();
    expect(await balances('cookies', ['ann', 'ben'])).toEqual({ ann: 100, ben: 0 });
    // The fence blocks only the attempt it decided; the retry is a new attempt.
    expect((await t.cols.cookies.findOne({ _id: 'ben' }))?.fences).toHaveLength(1);

    const retry = await ledger.transfer(give);
    expect(retry.replayed).toBe(false);
    await ledger.flush();
    expect(await balances('cookies', ['ann', 'ben'])).toEqual({ ann: 70, ben: 30 });
    await expectCleanBooks();
  });

  it(
    'GIVEN credits stalled past the grace while ledger:recover runs in another process THEN no Cookie is minted',
    async () => {
      await seedBalance(makeLedger(t.cols), 'ann', 300);
      // The old failure: the process waits as long as it takes (no timeout) while the other process
      // rolls back. Its own connection has no socket timeout either: with the file's (30 s), a
      // recovery process slow to start on a busy machine found the stalled process had already
      // given up and rolled its transfers back itself (recovery: "examined":0).
      const patientClient = new MongoClient(net.proxy.uri, {
        ...MONEY_PATH_CLIENT_OPTIONS,
        socketTimeoutMS: 0,
      });
      await patientClient.connect();
      const patient = makeLedger(appCollections(patientClient.db(t.name)), {
        clock: systemClock,
        timeouts: { requestTimeoutMs: 600_000, attemptDeadlineMs: 600_000 },
      });
      // The credits stay in the network until recovery has run, however long its process takes to start.
      let release = () => {};
      const released = new Promise<void>((resolve) => {
        release = resolve;
      });
      net.proxy.setRule((r) =>
        r.command === 'findAndModify' && (r.body.query as { _id?: string })._id === 'ben'
          ? { stallUntil: released }
          : 'pass',
      );
      try {
        const gives = [1, 2, 3].map((n) =>
          patient.transfer({ ...give, opId: `stalled-${n}`, amount: 100 }).catch((e) => e),
        );
        // The other process rolls back only attempts older than its grace: wait until the three
        // credits are held in the network and the debits' three markers are in the database, that old.
        const graceMs = 300;
        await waitFor(
          async () => {
            if (net.proxy.stats.stalls < 3) return false;
            const markers = (await t.cols.cookies.findOne({ _id: 'ann' }))?.pendingOps ?? [];
            const stalled = markers.filter((m) => m.op.startsWith('stalled-'));
            return (
              stalled.length === 3 && stalled.every((m) => Date.now() - new Date(m.at).getTime() > graceMs)
            );
          },
          {
            timeoutMs: 60_000,
            what: () => `three stalled transfers (${net.proxy.stats.stalls} stalls so far)`,
          },
        );

        const recover = await runNode(['app/checkInvariants.ts', '--recover'], {
          env: {
            MONGODB_URI: t.uri,
            MONGODB_DB_NAME: t.name,
            LEDGER_RECOVERY_GRACE_MS: String(graceMs),
            LOG_LEVEL: 'silent',
          },
        });
        expect(recover.stdout).toContain('"rolledBack":3');
        expect(await balances('cookies', ['ann', 'ben'])).toEqual({ ann: 300, ben: 0 });

        release();
        const results = await Promise.all(gives);
        expect(net.proxy.stats.stalls).toBe(3);
        expect(results.map((r) => (isAppError(r) ? r.code : 'succeeded'))).toEqual([
          'LEDGER_UNAVAILABLE',
          'LEDGER_UNAVAILABLE',
          'LEDGER_UNAVAILABLE',
        ]);
        await patient.flush();
        expect(await balances('cookies', ['ann', 'ben'])).toEqual({ ann: 300, ben: 0 });
        await expectCleanBooks();
      } finally {
        release();
        await patientClient.close();
      }
    },
    PROCESS_TEST_TIMEOUT_MS,
  );

  it('GIVEN one member paying 200 times at once while grouped debits lose replies or stall THEN each payment moves once or not at all', async () => {
    await seedBalance(makeLedger(t.cols), 'whale', 1_000);
    const ledger = makeLedger(net.faulty, { clock: systemClock, timeouts: { requestTimeoutMs: 400 } });
    // Every group of debits on the payer's document (one update pushing several markers):
    // a third lose their reply, a third arrive late, a third pass. The 600 ms lateness (past the
    // 400 ms request timeout) is the fault under test, not a wait; `proxy.settled()` below waits.
    let groups = 0;
    net.proxy.setRule((r) => {
      const push = (r.body.update as { $push?: { pendingOps?: { $each?: unknown[] } } } | undefined)?.$push;
      if (r.command !== 'findAndModify' || !push?.pendingOps?.$each) return 'pass';
      groups += 1;
      return groups % 3 === 0 ? 'cut-reply' : groups % 3 === 1 ? { stallMs: 600 } : 'pass';
    });
    const results = await Promise.all(
      Array.from({ length: 200 }, (_, i) =>
        ledger
          .transfer({
            opId: `burst-${i}`,
            currency: 'cookies',
            from: 'whale',
            to: `fan-${i % 20}`,
            amount: 7,
            kind: 'test.burst',
          })
          .then(
            () => 'paid',
            (e: unknown) => (isAppError(e) ? e.code : String(e)),
          ),
      ),
    );
    expect(groups).toBeGreaterThan(3);
    net.proxy.setRule(() => 'pass');
    // Every stalled group reaches the server (late) before recovery looks.
    await net.proxy.settled();
    await ledger.flush();
    await recoverLedger({ cols: t.cols, clock: systemClock, log: silentLogger }, { graceMs: 0 });

    const paid = results.filter((r) => r === 'paid').length;
    const recorded = await t.cols.ledgerEvents.countDocuments({ opId: /^burst-/, leg: 'debit' });
    // Every payment told "paid" is recorded; none told "nothing moved" is.
    expect(recorded).toBeGreaterThanOrEqual(paid);
    for (const [i, result] of results.entries()) {
      if (result === 'LEDGER_UNAVAILABLE' || result === 'INSUFFICIENT_COOKIES') {
        expect(await t.cols.ledgerEvents.countDocuments({ opId: `burst-${i}` }), `burst-${i}`).toBe(0);
      }
    }
    expect(await balances('cookies', ['whale'])).toEqual({ whale: 1_000 - 7 * recorded });
    expect(await t.cols.cookies.countDocuments({ pendingOps: { $exists: true } })).toBe(0);
    await expectCleanBooks();
    const counts = new Map<string, number>();
    for (const r of results) counts.set(r, (counts.get(r) ?? 0) + 1);
    const answers = [...counts].map(([answer, n]) => `${answer}=${n}`);
    console.info(
      `grouped debits under faults: ${groups} groups, ${recorded} recorded; answers ${answers.join(' ')}`,
    );
  });

  it('GIVEN a give of the whole balance retried while the first attempt finishes THEN the retry replays it', async () => {
    await seedBalance(makeLedger(t.cols), 'ann', 50);
    const allIn = { ...give, opId: 'all-in', amount: 50 };
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    let reached: () => void = () => undefined;
    const atDebit = new Promise<void>((resolve) => {
      reached = resolve;
    });
    const first = makeLedger(t.cols, {
      hooks: {
        async step(step: LedgerStep) {
          if (step !== 'debit.applied') return;
          reached();
          await gate;
        },
      },
    });
    const firstCall = first.transfer(allIn);
    await atDebit;
    // The first attempt finished: its events written and its markers removed.
    const firstFinished = firstCall.then(() => first.flush()).catch(() => undefined);
    // The retry misses (marker, short balance); while it reads the balance document, the first
    // attempt finishes: the read reaches the server once it has, however long that takes.
    net.proxy.setRule((r) => {
      if (r.command !== 'find' || r.collection !== 'items_cookies') return 'pass';
      release();
      return { stallUntil: firstFinished };
    });
    const retry = await makeLedger(net.faulty).transfer(allIn);
    expect((await firstCall).replayed).toBe(false);
    expect(retry.replayed).toBe(true);
    await first.flush();
    expect(await balances('cookies', ['ann', 'ben'])).toEqual({ ann: 0, ben: 50 });
    await expectCleanBooks();
  });

  it('GIVEN 20 clicks at once on a give of the whole balance THEN every click answers the one give', async () => {
    const ledger = makeLedger(t.cols);
    for (let round = 0; round < 15; round++) {
      const payer = `payer-${round}`;
      await seedBalance(ledger, payer, 40 + round);
      const click = () =>
        ledger.transfer({ ...give, opId: `click-${round}`, from: payer, amount: 40 + round }).catch((e) => e);
      const answers = await Promise.all(Array.from({ length: 20 }, click));
      expect(answers.filter((a) => isAppError(a))).toEqual([]);
      expect(answers.filter((a) => a.replayed === false)).toHaveLength(1);
    }
    await ledger.flush();
    expect(await ledger.balanceOf('cookies', 'ben')).toBe(15 * 40 + (14 * 15) / 2);
    await expectCleanBooks();
  });
});

describe('the balance limit', () => {
  it('GIVEN an amount above the limit THEN it is refused before anything is written', async () => {
    const grant = makeLedger(t.cols).credit({
      opId: 'huge',
      currency: 'cookies',
      account: 'ann',
      amount: Number.MAX_SAFE_INTEGER,
      kind: 'grant',
    });
    await expect(grant).rejects.toThrow('INVALID_INPUT: amount: amount must be at most 1000000000000');
    expect(await t.cols.cookies.countDocuments()).toBe(0);
  });

  it('GIVEN 50 concurrent grants of a tenth of the limit THEN exactly 10 land and the rest say BALANCE_LIMIT', async () => {
    const ledger = makeLedger(t.cols);
    const tenth = MAX_BALANCE / 10;
    const results = await Promise.allSettled(
      Array.from({ length: 50 }, (_, i) =>
        ledger.credit({ opId: `g-${i}`, currency: 'place', account: 'ann', amount: tenth, kind: 'grant' }),
      ),
    );
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(10);
    const refusals = results.flatMap((r) => (r.status === 'rejected' ? [r.reason as AppError] : []));
    expect(refusals.every((e) => e.code === 'BALANCE_LIMIT')).toBe(true);
    expect(refusals[0]?.context).toMatchObject({ balance: MAX_BALANCE, needed: tenth, max: MAX_BALANCE });
    await ledger.flush();
    expect(await ledger.balanceOf('place', 'ann')).toBe(MAX_BALANCE);
    await expectCleanBooks();
  });

  it('GIVEN a transfer into a full account THEN it is refused and the payer keeps everything', async () => {
    const ledger = makeLedger(t.cols);
    await seedBalance(ledger, 'ann', 100);
    await seedBalance(ledger, 'ben', MAX_BALANCE - 10);
    await expect(ledger.transfer({ ...give, amount: 11 })).rejects.toThrow('BALANCE_LIMIT');
    await ledger.flush();
    expect(await balances('cookies', ['ann', 'ben'])).toEqual({ ann: 100, ben: MAX_BALANCE - 10 });
    await expectCleanBooks();
  });
});

describe('recovery that meets failures', () => {
  async function interruptedTransfers(count: number): Promise<void> {
    const crashing = makeLedger(t.cols, {
      hooks: {
        step(step) {
          if (step === 'debit.applied') throw new Error('simulated crash after the debit');
        },
      },
    });
    for (let i = 0; i < count; i++) {
      await seedBalance(makeLedger(t.cols), `src-${i}`, 10);
      await crashing
        .transfer({ ...give, opId: `cut-${i}`, from: `src-${i}`, amount: 10 })
        .catch(() => undefined);
    }
  }

  it('GIVEN one operation whose recovery write fails THEN the pass finishes the others and the next pass the rest', async () => {
    await interruptedTransfers(3);
    let failedOnce = false;
    net.proxy.setRule((r) => {
      if (failedOnce || r.command !== 'update' || r.collection !== 'items_cookies') return 'pass';
      failedOnce = true;
      return 'drop';
    });
    const recover = () =>
      recoverLedger({ cols: net.faulty, clock: systemClock, log: silentLogger }, { graceMs: 0 });
    const first = await recover();
    expect(first.failed).toHaveLength(1);
    expect(first.rolledBack).toBe(2);
    expect((await booksProblems(t.cols)).join('\n')).toContain('stuck operation');

    const second = await recover();
    expect(second).toMatchObject({ failed: [], rolledBack: 1, stuck: [] });
    expect(await balances('cookies', ['src-0', 'src-1', 'src-2', 'ben'])).toEqual({
      'src-0': 10,
      'src-1': 10,
      'src-2': 10,
      ben: 0,
    });
    await expectCleanBooks();
  });

  it('GIVEN a give whose outcome the ledger could not learn THEN the live recovery loop decides it within seconds', async () => {
    await seedBalance(makeLedger(t.cols), 'ann', 100);
    await seedBalance(makeLedger(t.cols), 'ben', 1);
    let blackout = false;
    net.proxy.setRule((r) => {
      if (!['items_cookies', 'ledger_events'].includes(r.collection ?? '')) return 'pass';
      // The outage under test: every request held past the 250 ms timeout (a slower machine only adds).
      if (blackout) return { stallMs: 1_500 };
      if (r.command === 'findAndModify' && (r.body.query as { _id?: string })._id === 'ben') {
        blackout = true;
        return 'cut-reply';
      }
      return 'pass';
    });
    const ledger = makeLedger(net.faulty, { clock: systemClock, timeouts: { requestTimeoutMs: 250 } });
    const stuck = await ledger.transfer(give).catch((e: AppError) => e);
    expect(isAppError(stuck, 'OPERATION_IN_PROGRESS')).toBe(true);
    blackout = false;
    net.proxy.setRule(() => 'pass');

    const started = performance.now();
    const loop = startPeriodic(
      'ledger.recovery',
      async () => {
        await ledger.decideAbandoned();
        return recoverLedger({ cols: net.faulty, clock: systemClock, log: silentLogger }, { graceMs: 300 });
      },
      { intervalMs: 200, log: silentLogger },
    );
    while ((await t.cols.cookies.countDocuments({ pendingOps: { $exists: true } })) > 0) {
      expect(performance.now() - started).toBeLessThan(30_000);
      await pause(50); // the poll interval of a wait with a deadline
    }
    await loop.stop();
    console.info(
      `stuck give settled by the live recovery loop in ${Math.round(performance.now() - started)} ms`,
    );

    const retry = await ledger.transfer(give);
    expect(retry.replayed).toBe(true);
    await ledger.flush();
    expect(await balances('cookies', ['ann', 'ben'])).toEqual({ ann: 70, ben: 31 });
    await expectCleanBooks();
  });

  it('decides a stuck give within a minute with the default settings', () => {
    const { ledger } = loadConfig({});
    expect(ledger.recoveryGraceMs).toBeGreaterThan(ledger.attemptDeadlineMs + ledger.requestTimeoutMs);
    expect(ledger.recoveryGraceMs + ledger.recoveryIntervalMs).toBeLessThanOrEqual(60_000);
  });
});

describe('what a member sees when a reply is lost', () => {
  it('GIVEN the reply to a grant and to a give is lost THEN each moves once and the replies show real balances', async () => {
    const c = makeConsole({ db: net.db, cols: net.faulty });
    const bob = c.identities.get('bob').id;
    const zoe = c.identities.get('zoe').id;
    net.proxy.setRule(firstUpdateOf('items_cookies', bob, 'cut-reply'));
    expect(await c.session.run('as admin /admin cookies grant user:bob amount:500')).toBe('ok');
    expect(c.take()).toBe('[ephemeral] 🎁 Granted 500 🍪 to @bob; they now have 500 🍪.\n');

    net.proxy.setRule(firstUpdateOf('items_cookies', zoe, 'cut-reply'));
    await c.session.run('as bob /cookies give user:zoe amount:120');
    expect(await c.session.run('as bob !click Give')).toBe('ok');
    expect(c.take()).toContain('✅ You gave 120 🍪 to @zoe. You have 380 🍪 left.');
    expect(await c.session.run('as bob !click Give')).toBe('ok');
    expect(c.take()).toContain('✅ Already done: you gave 120 🍪 to @zoe.');
    expect(net.proxy.stats.cutReplies).toBe(2);
    await c.deps.ledger.flush();
    expect(await balances('cookies', [bob, zoe])).toEqual({ [bob]: 380, [zoe]: 120 });
    await expectCleanBooks();
  });
});
