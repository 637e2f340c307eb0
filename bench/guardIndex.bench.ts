/**
 * Why `guardIndex` (src/db/collections.ts) exists: a guarded update `{ _id, status }` on a
 * growing collection, with and without an index on exactly those keys, on the database the
 * bot chooses (offline: mongo-java-server, which uses an index only when a filter names exactly
 * its keys). Medians of 300 calls after 40,000 documents; the last line is
 * `guard-index: <kind> find <ms> -> <ms> ms, upsert <ms> -> <ms> ms`.
 */
import { randomBytes } from 'node:crypto';
import type { Collection } from 'mongodb';
import { loadConfig } from '../src/config.js';
import { connectDatabase, startDatabaseServer } from '../src/db/connect.js';
import { silentLogger } from '../src/logger.js';

const DOCS = 40_000;
const CALLS = 300;

interface Tip {
  _id: string;
  status: 'pending' | 'drawn';
  score: number;
}

async function median(call: (i: number) => Promise<unknown>): Promise<number> {
  const ms: number[] = [];
  for (let i = 0; i < CALLS; i++) {
    const started = performance.now();
    await call((i * 7919) % DOCS);
    ms.push(performance.now() - started);
  }
  return ms.sort((a, b) => a - b)[Math.floor(CALLS / 2)] as number;
}

async function measure(tips: Collection<Tip>) {
  for (let k = 0; k < DOCS / 1000; k++) {
    await tips.insertMany(
      Array.from({ length: 1000 }, (_, j) => ({
        _id: `t${k * 1000 + j}`,
        status: 'pending' as const,
        score: 0,
      })),
    );
  }
  return {
    find: await median((i) => tips.findOne({ _id: `t${i}`, status: 'pending' })),
    upsert: await median((i) =>
      tips.replaceOne({ _id: `t${i}`, status: 'pending' }, { status: 'pending', score: i }, { upsert: true }),
    ),
  };
}

const server = await startDatabaseServer(loadConfig().mongo, { persistent: false }, silentLogger);
const { client, db } = await connectDatabase(server.uri, `bench_${randomBytes(4).toString('hex')}`);
try {
  const plain = await measure(db.collection<Tip>('plain'));
  const guarded = db.collection<Tip>('guarded');
  await guarded.createIndex({ _id: 1, status: 1 }, { unique: true });
  const indexed = await measure(guarded);
  console.log(`${DOCS} documents, median of ${CALLS} calls each`);
  console.log(
    `find   { _id, status }: ${plain.find.toFixed(2)} ms without, ${indexed.find.toFixed(2)} ms with the index`,
  );
  console.log(
    `upsert { _id, status }: ${plain.upsert.toFixed(2)} ms without, ${indexed.upsert.toFixed(2)} ms with the index`,
  );
  console.log(
    `guard-index: ${server.kind} find ${plain.find.toFixed(2)} -> ${indexed.find.toFixed(2)} ms, upsert ${plain.upsert.toFixed(2)} -> ${indexed.upsert.toFixed(2)} ms`,
  );
} finally {
  await db.dropDatabase().catch(() => {});
  await client.close();
  await server.stop();
}
