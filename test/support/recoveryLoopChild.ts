/**
 * "Another process" of the fault suite: runs the ledger recovery pass in a loop on its own
 * connection (no fault proxy) until SIGTERM, then prints its totals as one JSON line on stderr.
 * Input (JSON in argv[2]): { uri, dbName, graceMs, intervalMs }.
 */
import { systemClock } from '../../src/clock.js';
import { silentLogger } from '../../src/logger.js';
import { recoverLedger } from '../../utils/money/ledger/recovery.js';
import { type ChildDatabase, openChild } from './nodeProcess.js';

const { plan, client, cols } = await openChild<ChildDatabase & { graceMs: number; intervalMs: number }>();
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
  // The loop's interval (a live bot's recovery runs on one), not a wait for anything.
  await new Promise((resolve) => setTimeout(resolve, plan.intervalMs));
}
process.stderr.write(`${JSON.stringify(totals)}\n`);
await client.close();
