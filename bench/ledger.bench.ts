/**
 * Ledger throughput against the raw driver, on the same server.
 *
 * Spread workloads (32 operations in flight over 256 accounts): raw `updateOne` + `$inc`
 * (the reference), ledger debit, ledger transfer. Hot workload: one member paying 500 times
 * at once (500 transfers from one account, all started together) against 500 raw guarded
 * `$inc` debits on one document, started together.
 *
 * After one discarded warm-up round, the workloads run interleaved, in ROUNDS rounds
 * (default 5; the order rotates each round),
 * and each ratio printed is the median of the per-round ratios: a machine that gets busier
 * or quieter during the run moves raw and ledger alike, so the figure means the same on a
 * noisy machine. The last line is `ledger: debit/raw=<r> transfer/raw=<r> hot/raw=<r>`.
 * Uses the database selection of the bot (MONGODB_URI, else embedded), in memory.
 */
import { randomBytes } from 'node:crypto';
import { appCollections, ensureAppIndexes } from '../app/openApp.js';
import { systemClock } from '../src/clock.js';
import { runPool } from '../src/concurrency.js';
import { loadConfig } from '../src/config.js';
import { connectDatabase, describeServer, startDatabaseServer } from '../src/db/connect.js';
import { createLogger } from '../src/logger.js';
import { cryptoRng } from '../src/rng.js';
import { Ledger } from '../utils/money/ledger/ledger.js';

const IN_FLIGHT = 32;
const OPS = Number(process.env.BENCH_OPS ?? 4_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const HOT_PAYMENTS = 500;
const ACCOUNTS = 256;

const config = loadConfig();
const log = createLogger('warn');
const server = await startDatabaseServer(config.mongo, { persistent: false }, log);
const { client, db } = await connectDatabase(server.uri, `bench_${randomBytes(4).toString('hex')}`);
await ensureAppIndexes(db);
const cols = appCollections(db);
const ledger = new Ledger({ cols, clock: systemClock, rng: cryptoRng, log, config: config.ledger });
const raw = db.collection<{ _id: string; cookies: number }>('bench_raw', {
  writeConcern: { w: 1, journal: true },
});
const account = (i: number) => `acct-${i % ACCOUNTS}`;
let sequence = 0;

/** Runs `ops` tasks `inFlight` at a time; returns ops/s. Every task must succeed. */
async function rate(name: string, ops: number, inFlight: number, task: (i: number) => Promise<unknown>) {
  const base = sequence;
  sequence += ops;
  const started = process.hrtime.bigint();
  const results = await runPool(ops, inFlight, (i) => task(base + i));
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  const failed = results.filter((r) => r.status === 'rejected');
  if (failed.length > 0) {
    throw new Error(
      `${name}: ${failed.length} failed: ${String((failed[0] as PromiseRejectedResult).reason)}`,
    );
  }
  return ops / seconds;
}

const WORKLOADS = {
  raw: () =>
    rate('raw', OPS, IN_FLIGHT, (i) =>
      raw.updateOne({ _id: account(i), cookies: { $gte: 1 } }, { $inc: { cookies: -1 } }),
    ),
  debit: () =>
    rate('debit', OPS, IN_FLIGHT, (i) =>
      ledger.debit({
        opId: `debit-${i}`,
        currency: 'cookies',
        account: account(i),
        amount: 1,
        kind: 'bench.debit',
      }),
    ),
  transfer: () =>
    rate('transfer', OPS, IN_FLIGHT, (i) =>
      ledger.transfer({
        opId: `transfer-${i}`,
        currency: 'cookies',
        from: account(i),
        to: account(i + 1),
        amount: 1,
        kind: 'bench.transfer',
      }),
    ),
  hotRaw: () =>
    rate('hot raw', HOT_PAYMENTS, HOT_PAYMENTS, () =>
      raw.updateOne({ _id: 'hot', cookies: { $gte: 1 } }, { $inc: { cookies: -1 } }),
    ),
  hot: async () => {
    const paid = await rate('hot', HOT_PAYMENTS, HOT_PAYMENTS, (i) =>
      ledger.transfer({
        opId: `hot-${i}`,
        currency: 'cookies',
        from: 'hot',
        to: account(i),
        amount: 1,
        kind: 'bench.hot',
      }),
    );
    // Marker removals are part of the work: the next round starts from a clean document.
    await ledger.flush();
    return paid;
  },
} as const;

type Workload = keyof typeof WORKLOADS;

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[mid] as number)
    : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

try {
  console.log(
    `server: ${describeServer(server)}; ${ROUNDS} rounds of ${OPS} spread ops and ${HOT_PAYMENTS} hot payments`,
  );
  await raw.insertMany([
    ...Array.from({ length: ACCOUNTS }, (_, i) => ({ _id: account(i), cookies: 1e12 })),
    { _id: 'hot', cookies: 1e12 },
  ]);
  await runPool(ACCOUNTS + 1, IN_FLIGHT, (i) =>
    ledger.credit({
      opId: `seed-${i}`,
      currency: 'cookies',
      account: i === ACCOUNTS ? 'hot' : account(i),
      amount: 1e11,
      kind: 'bench.seed',
    }),
  );
  await ledger.flush();

  const names = Object.keys(WORKLOADS) as Workload[];
  // One discarded round: the server's JIT warms up on every workload, raw included.
  for (const name of names) await WORKLOADS[name]();
  const ratios = { debit: [] as number[], transfer: [] as number[], hot: [] as number[] };
  for (let round = 0; round < ROUNDS; round++) {
    const order = names.map((_, i) => names[(i + round) % names.length] as Workload);
    const rates = {} as Record<Workload, number>;
    for (const name of order) rates[name] = await WORKLOADS[name]();
    ratios.debit.push(rates.debit / rates.raw);
    ratios.transfer.push(rates.transfer / rates.raw);
    ratios.hot.push(rates.hot / rates.raw);
    console.log(
      `round ${round + 1}: ${names.map((n) => `${n}=${rates[n].toFixed(0)}/s`).join(' ')}` +
        `  debit/raw=${(rates.debit / rates.raw).toFixed(2)} transfer/raw=${(rates.transfer / rates.raw).toFixed(2)} hot/raw=${(rates.hot / rates.raw).toFixed(2)}`,
    );
  }
  await ledger.flush();
  console.log(
    `ledger: debit/raw=${median(ratios.debit).toFixed(2)} transfer/raw=${median(ratios.transfer).toFixed(2)} hot/raw=${median(ratios.hot).toFixed(2)}`,
  );
} finally {
  await db.dropDatabase();
  await client.close();
  await server.stop();
}
