/**
 * `npm run test:outage -- [--down-s 30]`: the bot process through a database outage of that
 * many seconds (test/support/outageRun.ts), on its own embedded database server. Prints what
 * members read meanwhile and ends with
 * `outage: down_s=<n> process_up=yes answered=<n>/<n> stuck_holds=0 books=clean`; exit 1 otherwise.
 */
import { parseArgs } from 'node:util';
import { loadConfig } from '../src/config.js';
import { startDatabaseServer } from '../src/db/connect.js';
import { createLogger } from '../src/logger.js';
import { outageLine, runOutage } from './support/outageRun.js';

const { values } = parseArgs({ options: { 'down-s': { type: 'string', default: '30' } } });
const downSeconds = Number(values['down-s']);
if (!Number.isFinite(downSeconds) || downSeconds <= 0) {
  console.error('usage: npm run test:outage -- [--down-s <seconds>]');
  process.exit(2);
}

const config = loadConfig();
const server = await startDatabaseServer(config.mongo, { persistent: false }, createLogger('warn'));
try {
  const r = await runOutage({
    uri: server.uri,
    dbName: `outage_${Date.now()}`,
    downMs: downSeconds * 1_000,
    httpPort: 31_000 + (process.pid % 2_000),
  });
  for (const text of r.texts) console.log(`a member read: ${text}`);
  console.log(
    `web API during the outage: ${r.apiRefusedWithRetryAfter}/${r.apiAsked} answered 503 with Retry-After; /healthz said the database was down: ${r.healthSaidDown ? 'yes' : 'no'}`,
  );
  console.log(
    `slowest first callback ${r.slowestFirstCallbackMs.toFixed(0)} ms, slowest answer ${r.slowestAnswerMs.toFixed(0)} ms; requests Discord would refuse: ${r.refusals}`,
  );
  console.log(outageLine(r));
  const ok =
    r.processUp && r.answered === r.asked && r.stuckHolds === 0 && r.books === 'clean' && r.refusals === 0;
  process.exitCode = ok ? 0 : 1;
} finally {
  await server.stop();
}
