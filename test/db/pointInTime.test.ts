import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Db, type Document, Int32, Long, MongoClient } from 'mongodb';
import { afterAll, describe, expect, test } from 'vitest';
import { type JavaBackend, startMongoJavaServer } from '../../src/db/mongoJavaServer.js';
import { openPointInTime, type PointInTimeRead } from '../../src/db/pointInTime.js';
import { createLogger } from '../../src/logger.js';
import { useTestDatabase } from '../support/database.js';
import { waitFor } from '../support/waitFor.js';

/**
 * What a backup relies on: a read of the whole database at one instant (MongoDB's read concern
 * `snapshot`; on the embedded server, its copy under the write gate). The instant holds
 * whatever ran before it and nothing after, in every collection at once.
 */

async function readAll(read: PointInTimeRead, collection: string): Promise<Document[]> {
  const docs: Document[] = [];
  for await (const doc of read.read(collection)) docs.push(doc);
  return docs;
}

/**
 * One writer inserts entry i into `first`, then into `second`: at every instant `second` holds
 * the entries of `first`, or all but the newest. A read of one collection after the other
 * while it writes could find `second` ahead of `first`; a read at one instant never.
 */
async function chainedWrites(db: Db, reads: number): Promise<{ gaps: number[]; written: number }> {
  const first = db.collection<{ _id: number }>('first');
  const second = db.collection<{ _id: number }>('second');
  let writing = true;
  let written = 0;
  const writer = (async () => {
    while (writing) {
      await first.insertOne({ _id: written });
      await second.insertOne({ _id: written });
      written++;
    }
  })();
  const gaps: number[] = [];
  try {
    for (let i = 0; i < reads; i++) {
      const read = await openPointInTime(db);
      try {
        const a = await readAll(read, 'first');
        const b = await readAll(read, 'second');
        gaps.push(a.length - b.length);
        // Whole collections: the entries 0..n-1, none missing in the middle.
        expect(new Set(a.map((d) => Number(d._id))).size).toBe(a.length);
        expect(Math.max(-1, ...a.map((d) => Number(d._id)))).toBe(a.length - 1);
      } finally {
        await read.close();
      }
    }
  } finally {
    writing = false;
    await writer;
  }
  return { gaps, written };
}

/**
 * One writer changes the 2,500 documents of `first`, then those of `second`, in place ($set),
 * while each collection is read in batches of 1,000: at
 * every instant `first` is at the value of `second` or one ahead. The embedded server copies a
 * collection's documents on write after the instant: a copy that missed a change in place would
 * show a value from after the instant.
 */
async function chainedUpdates(db: Db, reads: number): Promise<{ gaps: number[]; written: number }> {
  const first = db.collection<{ _id: string; v: number }>('first_updated');
  const second = db.collection<{ _id: string; v: number }>('second_updated');
  await first.insertMany(Array.from({ length: 2_500 }, (_, i) => ({ _id: `d${i}`, v: 0 })));
  await second.insertMany(Array.from({ length: 2_500 }, (_, i) => ({ _id: `d${i}`, v: 0 })));
  let writing = true;
  let written = 0;
  const writer = (async () => {
    while (writing) {
      written++;
      await first.updateMany({}, { $set: { v: written } });
      await second.updateOne({ _id: `d${written % 2_500}` }, { $set: { v: written } });
      await second.updateMany({}, { $set: { v: written } });
    }
  })();
  const gaps: number[] = [];
  try {
    for (let i = 0; i < reads; i++) {
      const read = await openPointInTime(db);
      try {
        // The second first; then the writer changes the first a few more times before it is read.
        const b = (await readAll(read, 'second_updated')).map((d) => Number(d.v));
        const seen = written;
        await waitFor(() => written >= seen + 3, { what: 'three more changes by the writer' });
        const a = (await readAll(read, 'first_updated')).map((d) => Number(d.v));
        // Every document of a collection at one value, and `first` at most one ahead of `second`.
        expect(new Set(a).size).toBe(1);
        expect(Math.min(...a) - Math.max(...b)).toBeGreaterThanOrEqual(0);
        gaps.push((a[0] ?? 0) - Math.min(...b));
      } finally {
        await read.close();
      }
    }
  } finally {
    writing = false;
    await writer;
  }
  return { gaps, written };
}

describe('a point-in-time read of the suite database', () => {
  const t = useTestDatabase('point_in_time');

  test('GIVEN one writer filling two collections in turn WHEN the database is read at one instant 40 times THEN the second never holds an entry the first lacks, and the first leads by at most one', async () => {
    const { gaps, written } = await chainedWrites(t.db, 40);
    expect(written).toBeGreaterThan(0);
    for (const gap of gaps) expect([0, 1]).toContain(gap);
  });

  test('GIVEN a writer changing 2,500 documents of two collections in place while they are read batch by batch, one after the other WHEN the database is read at one instant 20 times THEN each read holds every document at one value, never the second ahead of the first', async () => {
    const { gaps, written } = await chainedUpdates(t.db, 20);
    expect(written).toBeGreaterThan(0);
    for (const gap of gaps) expect([0, 1]).toContain(gap);
  });

  test('GIVEN a read opened WHEN documents are written, changed and removed afterwards THEN the read holds the database as it was, with the types as stored', async () => {
    const docs = t.db.collection<{ _id: string } & Document>('instant');
    await docs.insertMany([
      { _id: 'a', n: new Int32(1), big: Long.fromString('9007199254740993') },
      { _id: 'b', n: 2.5 },
    ]);
    const read = await openPointInTime(t.db);
    try {
      await docs.insertOne({ _id: 'c', n: 3 });
      await docs.updateOne({ _id: 'a' }, { $set: { n: 100 } });
      await docs.deleteOne({ _id: 'b' });
      await t.db.collection<{ _id: string }>('made_after').insertOne({ _id: 'late' });
      expect(read.collections).toContain('instant');
      const seen = await readAll(read, 'instant');
      expect(seen.map((d) => d._id).sort()).toEqual(['a', 'b']);
      const a = seen.find((d) => d._id === 'a');
      expect(a?.n).toBeInstanceOf(Int32);
      expect(String(a?.big)).toBe('9007199254740993');
      expect(await readAll(read, 'made_after')).toEqual([]);
    } finally {
      await read.close();
    }
  });

  test('GIVEN 2,500 documents THEN the read streams them in batches and ends with every one', async () => {
    const docs = t.db.collection<{ _id: number }>('many');
    await docs.insertMany(Array.from({ length: 2_500 }, (_, i) => ({ _id: i })));
    const read = await openPointInTime(t.db);
    try {
      const seen = await readAll(read, 'many');
      expect(seen.map((d) => Number(d._id)).sort((x, y) => x - y)).toEqual(
        Array.from({ length: 2_500 }, (_, i) => i),
      );
    } finally {
      await read.close();
    }
  });
});

describe('a point-in-time read of the embedded server on its H2 file', () => {
  const dir = mkdtempSync(join(tmpdir(), 'cookiebot-pit-'));
  const backend: JavaBackend = { kind: 'h2', file: join(dir, 'data.mv') };
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  test('GIVEN writes racing the reads THEN each read is one instant, as on the memory backend', async () => {
    const server = await startMongoJavaServer(backend, createLogger('silent'));
    const client = new MongoClient(server.uri);
    try {
      const { gaps } = await chainedWrites(client.db('h2pit'), 15);
      for (const gap of gaps) expect([0, 1]).toContain(gap);
    } finally {
      await client.close();
      await server.stop();
    }
  });
});
