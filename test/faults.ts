/**
 * `npm run test:faults -- [--seed n] [--ops N]`: the randomised ledger fault suite
 * (test/support/faultRun.ts), longer than CI runs it, on its own embedded database server.
 * Last line: `faults: ops=<n> cut_replies=<n> stalls=<n> violations=<n>`; exit 1 on a violation.
 */
import { parseArgs } from 'node:util';
import { loadConfig } from '../src/config.js';
import { startDatabaseServer } from '../src/db/connect.js';
import { createLogger } from '../src/logger.js';
import { runFaultSuite } from './support/faultRun.js';

const { values } = parseArgs({
  options: {
    seed: { type: 'string', default: String(Date.now() % 1_000_000) },
    ops: { type: 'string', default: '20000' },
  },
});
const seed = Number(values.seed);
const ops = Number(values.ops);
if (!Number.isSafeInteger(seed) || !Number.isSafeInteger(ops) || ops < 1) {
  console.error('usage: npm run test:faults -- [--seed <integer>] [--ops <positive integer>]');
  process.exit(2);
}

const config = loadConfig();
const server = await startDatabaseServer(config.mongo, { persistent: false }, createLogger('warn'));
try {
  const started = performance.now();
  const r = await runFaultSuite({ serverUri: server.uri, dbName: `faults_${seed}`, seed, ops });
  for (const v of r.violations) console.log(`VIOLATION ${v}`);
  console.log(
    `seed=${seed} seconds=${((performance.now() - started) / 1000).toFixed(1)} calls=${r.calls} succeeded=${r.succeeded} refused=${r.refused} gave_up=${r.gaveUp} late_deliveries=${r.lateDeliveries}`,
  );
  console.log(`recovery (other process): ${JSON.stringify(r.recovery)}`);
  console.log(
    `fences: held=${r.fences.total} max_per_document=${r.fences.maxPerDocument} largest_document_bytes=${r.fences.largestDocumentBytes} left_after_prune=${r.fences.leftAfterPrune}`,
  );
  console.log(
    `faults: ops=${r.ops} cut_replies=${r.cutReplies} stalls=${r.stalls} violations=${r.violations.length}`,
  );
  process.exitCode = r.violations.length > 0 ? 1 : 0;
} finally {
  await server.stop();
}
