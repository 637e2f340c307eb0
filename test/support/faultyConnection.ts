import { type Db, MongoClient } from 'mongodb';
import { afterAll, beforeAll, beforeEach } from 'vitest';
import { appCollections } from '../../app/openApp.js';
import type { Collections } from '../../src/db/collections.js';
import { MONEY_PATH_CLIENT_OPTIONS } from '../../src/db/connect.js';
import { clearDatabase, type TestDatabase } from './database.js';
import { FaultProxy } from './faultProxy.js';

/**
 * A second process's connection to the test database through a FaultProxy: `faulty` are the
 * app's collections over it (`db` its database), `proxy` decides what happens to each request. Registers its
 * hooks: every test starts on an empty database with every request passing.
 */
export function useFaultyConnection(t: TestDatabase): {
  readonly proxy: FaultProxy;
  readonly faulty: Collections;
  readonly db: Db;
} {
  let proxy: FaultProxy | undefined;
  let client: MongoClient | undefined;
  let faulty: Collections | undefined;
  beforeAll(async () => {
    proxy = await FaultProxy.start(t.uri);
    client = new MongoClient(proxy.uri, MONEY_PATH_CLIENT_OPTIONS);
    await client.connect();
    faulty = appCollections(client.db(t.name));
  });
  afterAll(async () => {
    await client?.close();
    await proxy?.close();
  });
  beforeEach(async () => {
    proxy?.setRule(() => 'pass');
    proxy?.resetStats();
    await clearDatabase(t.db);
  });
  return {
    get proxy() {
      return proxy as FaultProxy;
    },
    get faulty() {
      return faulty as Collections;
    },
    get db() {
      return (client as MongoClient).db(t.name);
    },
  };
}
