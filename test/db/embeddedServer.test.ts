import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Db, MongoClient } from 'mongodb';
import { afterAll, describe, expect, test } from 'vitest';
import { dropRetiredIndex } from '../../src/db/collections.js';
import { type JavaBackend, startMongoJavaServer } from '../../src/db/mongoJavaServer.js';
import { createLogger } from '../../src/logger.js';
import { useTestDatabase } from '../support/database.js';

/**
 * What the app's version-guarded read-modify-write relies on, and MongoDB guarantees: a read
 * returns one whole version of a document, and findOneAndUpdate's post-image is the version
 * its own update wrote. mongo-java-server did neither under concurrent writes until its
 * launcher copied documents under the collection's lock (tools/mongo-java-server).
 */
interface Doc {
  _id: string;
  first: number;
  middle: number[];
  last: number;
  n: number;
}

async function tornReads(db: Db, writes: number): Promise<number> {
  const docs = db.collection<Doc>('torn');
  await docs.insertOne({ _id: 'x', first: 0, middle: [], last: 0, n: 0 });
  let writing = true;
  let torn = 0;
  const writer = (async () => {
    for (let i = 1; i <= writes; i++) {
      const middle = Array.from({ length: 200 }, () => i);
      await docs.updateOne({ _id: 'x' }, { $set: { first: i, middle, last: i } });
    }
    writing = false;
  })();
  const readers = Array.from({ length: 8 }, async () => {
    while (writing) {
      const d = await docs.findOne({ _id: 'x' });
      if (d && (d.first !== d.last || d.middle.some((v) => v !== d.first))) torn++;
    }
  });
  await Promise.all([writer, ...readers]);
  return torn;
}

/** The post-images of N concurrent increments: each must be the value its own update wrote. */
async function postImages(db: Db, n: number): Promise<number[]> {
  const docs = db.collection<Doc>('counter');
  await docs.insertOne({ _id: 'c', first: 0, middle: [], last: 0, n: 0 });
  const after = await Promise.all(
    Array.from({ length: n }, () =>
      docs.findOneAndUpdate({ _id: 'c' }, { $inc: { n: 1 } }, { returnDocument: 'after' }),
    ),
  );
  return after.map((d) => d?.n ?? -1).sort((a, b) => a - b);
}

const expected = (n: number) => Array.from({ length: n }, (_, i) => i + 1);

describe('the suite database (embedded unless MONGODB_URI)', () => {
  const t = useTestDatabase('embedded');

  test('a read racing writes sees one whole version of the document', async () => {
    expect(await tornReads(t.db, 1500)).toBe(0);
  });

  test('each findOneAndUpdate returns the version its own update wrote', async () => {
    expect(await postImages(t.db, 400)).toEqual(expected(400));
  });

  test('an index a later version retired is dropped once, and dropping it again or from no collection is no error', async () => {
    const rounds = t.db.collection('retired');
    await rounds.createIndex({ _id: 1, status: 1 }, { name: 'guard_status', unique: true });
    await dropRetiredIndex(t.db, 'retired', 'guard_status');
    expect(await rounds.indexExists('guard_status')).toBe(false);
    await dropRetiredIndex(t.db, 'retired', 'guard_status');
    await dropRetiredIndex(t.db, 'never_created', 'guard_status');
  });
});

describe('the embedded server on its H2 file (the bot without MONGODB_URI)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'cookiebot-h2-'));
  const backend: JavaBackend = { kind: 'h2', file: join(dir, 'data.mv') };
  const log = createLogger('silent');
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  async function withServer<T>(use: (db: Db) => Promise<T>): Promise<T> {
    const server = await startMongoJavaServer(backend, log);
    const client = new MongoClient(server.uri);
    try {
      return await use(client.db('h2test'));
    } finally {
      await client.close();
      await server.stop();
    }
  }

  test('reads see whole documents, post-images are their own, and data outlives a restart', async () => {
    await withServer(async (db) => {
      expect(await tornReads(db, 1000)).toBe(0);
      expect(await postImages(db, 200)).toEqual(expected(200));
    });
    const kept = await withServer((db) => db.collection<Doc>('counter').findOne({ _id: 'c' }));
    expect(kept?.n).toBe(200);
  });

  test('a range of `_id`s finds exactly its documents, before and after a restart, inserts and deletes', async () => {
    type Ranged = { _id: number | string; kind: string };
    const ids = (docs: Ranged[]) => docs.map((d) => d._id);
    const oneToFour = async (db: Db) =>
      ids(
        await db
          .collection<Ranged>('ranged')
          .find({ _id: { $gt: 1, $lte: 4 } }, { sort: { _id: 1 } })
          .toArray(),
      );
    await withServer(async (db) => {
      const docs = db.collection<Ranged>('ranged');
      await docs.insertMany([
        ...Array.from({ length: 300 }, (_, i) => ({ _id: i + 1, kind: i % 2 ? 'place' : 'void' })),
        { _id: 2.5, kind: 'place' },
        { _id: 'a', kind: 'place' },
      ]);
      expect(await oneToFour(db)).toEqual([2, 2.5, 3, 4]);
    });
    await withServer(async (db) => {
      const docs = db.collection<Ranged>('ranged');
      await docs.deleteMany({ _id: { $in: [3, 2.5] } });
      await docs.insertOne({ _id: 3.5, kind: 'place' });
      expect(await oneToFour(db)).toEqual([2, 3.5, 4]);
      expect(await docs.countDocuments({ _id: { $gte: 291 }, kind: 'place' })).toBe(5);
      expect(ids(await docs.find({ _id: { $gte: 'a' } }).toArray())).toEqual(['a']);
    });
  });
});

describe("the embedded server's cursors", () => {
  test('GIVEN a read of 2,500 documents as a stream THEN they arrive in MongoDB-sized batches (101 first, then at most 1,000), not as one reply the Node process must hold whole', async () => {
    const server = await startMongoJavaServer({ kind: 'memory' }, createLogger('silent'));
    const client = new MongoClient(server.uri, { monitorCommands: true });
    const batches: number[] = [];
    client.on('commandSucceeded', (e) => {
      const cursor = (e.reply as { cursor?: { firstBatch?: unknown[]; nextBatch?: unknown[] } }).cursor;
      const batch = cursor?.firstBatch ?? cursor?.nextBatch;
      if (e.commandName === 'find' || e.commandName === 'getMore') batches.push(batch?.length ?? 0);
    });
    try {
      const docs = client.db('cursors').collection<{ _id: number }>('docs');
      await docs.insertMany(Array.from({ length: 2_500 }, (_, i) => ({ _id: i })));
      let read = 0;
      for await (const _ of docs.find({})) read++;
      expect(read).toBe(2_500);
      expect(batches).toEqual([101, 1_000, 1_000, 399]);
      batches.length = 0;
      // A batch size the reader names is the server's to follow, and a findOne asks for one document.
      expect((await docs.find({}, { batchSize: 2_000 }).toArray()).length).toBe(2_500);
      expect(await docs.findOne({ _id: 7 })).toEqual({ _id: 7 });
      expect(batches).toEqual([2_000, 500, 1]);
    } finally {
      await client.close();
      await server.stop();
    }
  });
});
