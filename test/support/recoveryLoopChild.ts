/**
 * "Another process" of the fault suite: runs the ledger recovery pass in a loop on its own
 * connection (no fault proxy) until SIGTERM, then prints its totals as one JSON line on stderr.
 * Input (JSON in argv[2]): { uri, dbName, graceMs, intervalMs }.
 */
import { MongoClient } from 'mongodb';
import { systemClock } from '../../src/clock.js';
import { collections } from '../../src/db/collections.js';
import { silentLogger } from '../../src/logger.js';
import { recoverLedger } from '../../utils/ledger/recovery.js';

const plan = JSON.parse(process.argv[2] ?? '{}') as {
  uri: string;
  dbName: string;
  graceMs: number;
  intervalMs: number;
};
const client = new MongoClient(plan.uri);
await client.connect();
const cols = collections(client.db(plan.dbName));
const totals = { passes: 0, rolledForward: 0, rolledBack: 0, duplicatesUndone: 0, failed: 0, stuck: 0 };
let stopping = false;
process.once('SIGTERM', () => {
  stopping = true;
});
process.stderr.write('RECOVERY LOOP READY\n');
while (!stopping) {
  const report = await recoverLedger(
    { cols, clock: systemClock, log: silentLogger },
    { graceMs: plan.graceMs },
  );
  totals.passes++;
  totals.rolledForward += report.rolledForward;
  totals.rolledBack += report.rolledBack;
  totals.duplicatesUndone += report.duplicatesUndone;
  totals.failed += report.failed.length;
  totals.stuck += report.stuck.length;
  await new Promise((resolve) => setTimeout(resolve, plan.intervalMs));
}
process.stderr.write(`${JSON.stringify(totals)}\n`);
await client.close();
