/**
 * Guarded writes `{ _id, <field>: <condition> }` as the collection grows, on the database the
 * bot chooses. MongoDB serves them from the `_id` index; mongo-java-server 1.47.0 used an index
 * only when a filter names exactly its keys and scanned the collection instead, until its
 * launcher (tools/mongo-java-server, "Narrowing") gave it MongoDB's plan. Medians of 300 calls
 * at 1,000 and at 160,000 documents; the last line is
 * `narrowing: <kind> guarded update <ms> -> <ms> ms, findOneAndUpdate <ms> -> <ms> ms (ratio <x>)`:
 * flat (ratio about 1) when the `_id` index serves them. Then a range read by time (the newest
 * 100 documents, `{ at: { $gte } }` on an index that is not unique, as the day's ledger check
 * and the scheduler read), and the same 100 summed by an aggregation (the economy's figures):
 * `narrowing: <kind> range of 100 by time <ms> -> <ms> ms, aggregated <ms> -> <ms> ms (ratio <x>)`.
 * mongo-java-server kept no such index and read every document, until its launcher's
 * OrderedIndex. Last, the balances of 16,000 accounts by `_id`, as the checker reads the accounts of
 * every hold: one `$in` of all of them against parts of 256 (src/db/inChunks.ts); the library
 * compared each document it read with every value of a `$in` (one list of n cost n²) until its
 * launcher's SetMatcher looked the `_id`s up in a set.
 * `narrowing: <kind> 16000 balances by one $in <ms> ms, in parts of 256 <ms> ms (ratio <x>)`. And
 * the recovery pass's look for operation markers (`$exists` on a sparse index) against a read
 * of every account.
 */
import { randomBytes } from 'node:crypto';
import type { Collection } from 'mongodb';
import { loadConfig } from '../src/config.js';
import { connectDatabase, startDatabaseServer } from '../src/db/connect.js';
import { inChunks } from '../src/db/inChunks.js';
import { silentLogger } from '../src/logger.js';

const SIZES = [1_000, 160_000] as const;
const CALLS = 300;

interface Account {
  _id: string;
  status: 'open';
  balance: number;
  /** Creation order as a time: account k at k seconds. */
  at: Date;
}

async function median(size: number, call: (id: string) => Promise<unknown>): Promise<number> {
  const ms: number[] = [];
  for (let i = 0; i < CALLS; i++) {
    const started = performance.now();
    await call(`a${(i * 7919) % size}`);
    ms.push(performance.now() - started);
  }
  return ms.sort((a, b) => a - b)[Math.floor(CALLS / 2)] as number;
}

async function growTo(accounts: Collection<Account>, size: number): Promise<void> {
  for (let k = await accounts.countDocuments({}); k < size; k += 1000) {
    await accounts.insertMany(
      Array.from({ length: 1000 }, (_, j) => ({
        _id: `a${k + j}`,
        status: 'open' as const,
        balance: 1_000_000,
        at: new Date((k + j) * 1000),
      })),
    );
  }
}

const server = await startDatabaseServer(loadConfig().mongo, { persistent: false }, silentLogger);
const { client, db } = await connectDatabase(server.uri, `bench_${randomBytes(4).toString('hex')}`);
try {
  const accounts = db.collection<Account>('accounts');
  const update: number[] = [];
  const findAndModify: number[] = [];
  const range: number[] = [];
  const summed: number[] = [];
  await accounts.createIndex({ at: 1 }, { name: 'by_time' });
  // Warm-up: a fresh server's first calls also pay for the JVM compiling its code.
  await growTo(accounts, SIZES[0]);
  await median(SIZES[0], (id) => accounts.findOne({ _id: id, status: 'open' }));
  for (const size of SIZES) {
    await growTo(accounts, size);
    update.push(
      await median(size, (id) =>
        accounts.updateOne({ _id: id, status: 'open' }, { $set: { status: 'open' } }),
      ),
    );
    findAndModify.push(
      await median(size, (id) =>
        accounts.findOneAndUpdate(
          { _id: id, balance: { $gte: 1 } },
          { $inc: { balance: -1 } },
          { returnDocument: 'after' },
        ),
      ),
    );
    const newest = { at: { $gte: new Date((size - 100) * 1000) } };
    range.push(await median(size, () => accounts.find(newest).toArray()));
    summed.push(
      await median(size, () =>
        accounts
          .aggregate([{ $match: newest }, { $group: { _id: null, n: { $sum: '$balance' } } }])
          .toArray(),
      ),
    );
    console.log(
      `${size} documents: range of the newest 100 by time ${range.at(-1)?.toFixed(2)} ms, their sum by aggregation ${summed.at(-1)?.toFixed(2)} ms (medians of ${CALLS})`,
    );
    console.log(
      `${size} documents: update { _id, status } ${update.at(-1)?.toFixed(2)} ms, findOneAndUpdate { _id, balance ≥ 1 } ${findAndModify.at(-1)?.toFixed(2)} ms (medians of ${CALLS})`,
    );
  }
  const [u0, u1] = update as [number, number];
  const [f0, f1] = findAndModify as [number, number];
  console.log(
    `narrowing: ${server.kind} guarded update ${u0.toFixed(2)} -> ${u1.toFixed(2)} ms, findOneAndUpdate ${f0.toFixed(2)} -> ${f1.toFixed(2)} ms (ratio ${(Math.max(u1 / u0, f1 / f0)).toFixed(2)})`,
  );
  const [r0, r1] = range as [number, number];
  const [s0, s1] = summed as [number, number];
  console.log(
    `narrowing: ${server.kind} range of 100 by time ${r0.toFixed(2)} -> ${r1.toFixed(2)} ms, aggregated ${s0.toFixed(2)} -> ${s1.toFixed(2)} ms (ratio ${Math.max(r1 / r0, s1 / s0).toFixed(2)})`,
  );
  // The recovery pass, every 15 s: the few accounts holding operation markers among them all.
  await accounts.createIndex({ 'pendingOps.op': 1 }, { name: 'pending_ops', sparse: true });
  await accounts.updateMany(
    { _id: { $in: ['a1', 'a77', 'a5000', 'a99999'] } },
    { $set: { pendingOps: [{ op: 'o', att: 'x' }] } },
  );
  const marked = await median(SIZES[1], () =>
    accounts.find({ 'pendingOps.op': { $exists: true } }).toArray(),
  );
  const everyOne = await median(SIZES[1], () => accounts.find({ pendingOps: { $size: 1 } }).toArray());
  console.log(
    `narrowing: ${server.kind} 4 accounts with markers among ${SIZES[1]}: by the index ${marked.toFixed(2)} ms, reading every account ${everyOne.toFixed(2)} ms (ratio ${(everyOne / marked).toFixed(0)})`,
  );
  const ids = Array.from({ length: 16_000 }, (_, i) => `a${(i * 7919) % (SIZES[1] as number)}`);
  const timed = async (read: () => Promise<number>) => {
    const started = performance.now();
    const found = await read();
    if (found !== ids.length) throw new Error(`read ${found} of ${ids.length} balances`);
    return performance.now() - started;
  };
  const whole = await timed(async () => (await accounts.find({ _id: { $in: ids } }).toArray()).length);
  const parts = await timed(async () => {
    let found = 0;
    for (const part of inChunks(ids)) found += (await accounts.find({ _id: { $in: part } }).toArray()).length;
    return found;
  });
  console.log(
    `narrowing: ${server.kind} ${ids.length} balances by one $in ${whole.toFixed(0)} ms, in parts of 256 ${parts.toFixed(0)} ms (ratio ${(whole / parts).toFixed(1)})`,
  );
} finally {
  await db.dropDatabase().catch(() => {});
  await client.close();
  await server.stop();
}
