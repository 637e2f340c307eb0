/**
 * How long choosing and starting the database takes, as the bot does it without
 * MONGODB_URI (embedded, in memory). Offline, this is the mongod probe failing over to
 * mongo-java-server; the last line is `db-selection: <kind> <ms> ms`.
 */
import { loadConfig } from '../src/config.js';
import { startDatabaseServer } from '../src/db/connect.js';
import { silentLogger } from '../src/logger.js';

const RUNS = 3;
const timings: number[] = [];
let kind = '';
for (let i = 0; i < RUNS; i++) {
  const started = performance.now();
  const server = await startDatabaseServer(loadConfig().mongo, { persistent: false }, silentLogger);
  timings.push(performance.now() - started);
  kind = server.kind;
  await server.stop();
}
for (const [i, ms] of timings.entries()) console.log(`run ${i + 1}: ${kind} ready in ${ms.toFixed(0)} ms`);
console.log(`db-selection: ${kind} ${Math.min(...timings).toFixed(0)} ms (best of ${RUNS})`);
