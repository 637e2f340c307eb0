/**
 * Ledger throughput against the raw driver, on the same server, 32 operations in flight.
 * Prints ops/s for: raw `updateOne` + `$inc` (the reference), ledger debit, ledger
 * transfer; the last line is `ledger: debit/raw=<ratio> transfer/raw=<ratio>`.
 * Uses the database selection of the bot (MONGODB_URI, else embedded), in memory.
 */
import { randomBytes } from 'node:crypto';
import { systemClock } from '../src/clock.js';
import { runPool } from '../src/concurrency.js';
import { loadConfig } from '../src/config.js';
import { collections } from '../src/db/collections.js';
import { connectDatabase, describeServer, startDatabaseServer } from '../src/db/connect.js';
import { createLogger } from '../src/logger.js';
import { cryptoRng } from '../src/rng.js';
import { Ledger } from '../utils/ledger/ledger.js';

const IN_FLIGHT = 32;
const OPS = Number(process.env.BENCH_OPS ?? 6_000);
const ACCOUNTS = 256;
const WARMUP = 500;

const config = loadConfig();
const log = createLogger('warn');
const server = await startDatabaseServer(config.mongo, { persistent: false }, log);
const { client, db } = await connectDatabase(server.uri, `bench_${randomBytes(4).toString('hex')}`);
const cols = collections(db);
const ledger = new Ledger({
  cols,
  clock: systemClock,
  rng: cryptoRng,
  log,
  config: config.ledger,
});
const raw = db.collection<{ _id: string; cookies: number }>('bench_raw', {
  writeConcern: { w: 1, journal: true },
});
const account = (i: number) => `acct-${i % ACCOUNTS}`;

async function measure(name: string, ops: number, task: (i: number) => Promise<unknown>): Promise<number> {
  await runPool(WARMUP, IN_FLIGHT, (i) => task(ops + i));
  const started = process.hrtime.bigint();
  const results = await runPool(ops, IN_FLIGHT, task);
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  const failed = results.filter((r) => r.status === 'rejected');
  if (failed.length > 0)
    throw new Error(
      `${name}: ${failed.length} operations failed: ${String((failed[0] as PromiseRejectedResult).reason)}`,
    );
  const rate = ops / seconds;
  console.log(
    `${name.padEnd(18)} ${rate.toFixed(0).padStart(7)} ops/s  (${ops} ops, ${IN_FLIGHT} in flight, ${seconds.toFixed(2)} s)`,
  );
  return rate;
}

try {
  console.log(`server: ${describeServer(server)}`);
  await raw.insertMany(Array.from({ length: ACCOUNTS }, (_, i) => ({ _id: account(i), cookies: 1e12 })));
  await runPool(ACCOUNTS, IN_FLIGHT, (i) =>
    ledger.credit({
      opId: `seed-${i}`,
      currency: 'cookies',
      account: account(i),
      amount: 1e12,
      kind: 'bench.seed',
    }),
  );
  await ledger.flush();

  const rawRate = await measure('raw updateOne $inc', OPS, (i) =>
    raw.updateOne({ _id: account(i), cookies: { $gte: 1 } }, { $inc: { cookies: -1 } }),
  );
  const debitRate = await measure('ledger debit', OPS, (i) =>
    ledger.debit({
      opId: `debit-${i}`,
      currency: 'cookies',
      account: account(i),
      amount: 1,
      kind: 'bench.debit',
    }),
  );
  const transferRate = await measure('ledger transfer', OPS, (i) =>
    ledger.transfer({
      opId: `transfer-${i}`,
      currency: 'cookies',
      from: account(i),
      to: account(i + 1),
      amount: 1,
      kind: 'bench.transfer',
    }),
  );
  await ledger.flush();
  console.log(
    `ledger: debit/raw=${(debitRate / rawRate).toFixed(2)} transfer/raw=${(transferRate / rawRate).toFixed(2)}`,
  );
} finally {
  await db.dropDatabase();
  await client.close();
  await server.stop();
}
