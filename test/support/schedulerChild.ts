/**
 * Child process of the scheduler tests: claims the one due task with a handler that never
 * finishes, prints CLAIMED, and waits to be killed while it holds the lease.
 * Input (argv): uri, database name, lease in ms.
 */
import { MongoClient } from 'mongodb';
import { z } from 'zod';
import { systemClock } from '../../src/clock.js';
import { collections } from '../../src/db/collections.js';
import { silentLogger } from '../../src/logger.js';
import { defineTask, Scheduler } from '../../src/scheduler/scheduler.js';

const [uri, dbName, leaseMs] = process.argv.slice(2);
const client = new MongoClient(uri as string);
await client.connect();
const scheduler = new Scheduler(
  { tasks: collections(client.db(dbName)).dueTasks, clock: systemClock, log: silentLogger },
  { owner: 'doomed', leaseMs: Number(leaseMs) },
);
scheduler.register([
  defineTask('test.record', z.object({ n: z.number() }), async () => {
    process.stdout.write('CLAIMED\n');
    await new Promise(() => {});
  }),
]);
await scheduler.runDue();
