import { createHash, randomBytes } from 'node:crypto';
import { type Db, MongoClient } from 'mongodb';
import { afterAll, beforeAll, inject } from 'vitest';
import { appCollections, ensureAppIndexes } from '../../app/openApp.js';
import { ASSEMBLY } from '../../commands/index.js';
import type { Collections } from '../../src/db/collections.js';
import { Holds } from '../../utils/money/holds/holds.js';

export interface TestDatabase {
  client: MongoClient;
  db: Db;
  cols: Collections;
  uri: string;
  name: string;
}

/** A fresh database of the suite's shared server, for one test file; dropped afterwards. */
export function useTestDatabase(label: string): TestDatabase {
  const handle = {} as TestDatabase;
  beforeAll(async () => {
    const uri = inject('mongoUri');
    const client = new MongoClient(uri, { maxPoolSize: 100 });
    await client.connect();
    const name = `t_${label}_${randomBytes(4).toString('hex')}`;
    const db = client.db(name);
    await ensureAppIndexes(db);
    await ASSEMBLY.ensureIndexes(db);
    await Holds.ensureIndexes(db);
    Object.assign(handle, { client, db, cols: appCollections(db), uri, name });
  });
  afterAll(async () => {
    await handle.db?.dropDatabase();
    await handle.client?.close();
  });
  return handle;
}

/** Empties every collection between tests of one file. */
export async function clearDatabase(db: Db): Promise<void> {
  const list = await db.listCollections({}, { nameOnly: true }).toArray();
  await Promise.all(list.map((c) => db.collection(c.name).deleteMany({})));
}

/** Every document of every collection, hashed: a write anywhere changes it. */
export async function databaseFingerprint(db: Db): Promise<string> {
  const hash = createHash('sha256');
  const names = (await db.listCollections({}, { nameOnly: true }).toArray()).map((c) => c.name).sort();
  for (const name of names) {
    const docs = await db.collection(name).find().sort({ _id: 1 }).toArray();
    hash.update(`${name}:${JSON.stringify(docs)}\n`);
  }
  return hash.digest('hex');
}
