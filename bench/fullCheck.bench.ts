/**
 * The full check (`npm run check:invariants`, a simulation's end) on a history the size of a
 * year of 50 members or a month of 1,000: what it costs in time and in the Node process's
 * memory. The history (test/support/roundHistory.ts) is `--holds` game rounds (default
 * 500,000) written directly, four events and a hold each; nothing is wrong in it, so both
 * checks must find nothing.
 * The last line is
 * `full-check: events=<n> holds=<n> ledger=<s> s holds=<s> s heap_peak=<MB> MB heap_before=<MB> MB`:
 * the peak follows the money in use at once, not the length of the history, when the checks
 * read part by part.
 */
import { randomBytes } from 'node:crypto';
import { parseArgs } from 'node:util';
import { appCollections, ensureAppIndexes } from '../app/openApp.js';
import { systemClock } from '../src/clock.js';
import { loadConfig } from '../src/config.js';
import { connectDatabase, startDatabaseServer } from '../src/db/connect.js';
import { silentLogger } from '../src/logger.js';
import { seededRng } from '../src/rng.js';
import { writeRoundHistory } from '../test/support/roundHistory.js';
import { holdProblems } from '../utils/money/holds/invariants.js';
import { checkInvariants } from '../utils/money/ledger/invariants.js';
import { Ledger } from '../utils/money/ledger/ledger.js';

if (typeof globalThis.gc !== 'function')
  throw new Error('run with node --expose-gc (npm run bench:full-check)');
const gc = globalThis.gc;
const { values } = parseArgs({ options: { holds: { type: 'string', default: '500000' } } });
const HOLD_COUNT = Number(values.holds);
/**
 * The most the Node heap held live while `work` ran: every 250 ms a garbage collection, then
 * the heap's size (what the check keeps, not what it has let go of and V8 not yet freed).
 */
async function heapPeak<T>(work: () => Promise<T>): Promise<{ result: T; peakMb: number; seconds: number }> {
  const live = () => {
    gc();
    return process.memoryUsage().heapUsed;
  };
  let peak = live();
  const sampler = setInterval(() => {
    peak = Math.max(peak, live());
  }, 250);
  const started = performance.now();
  try {
    const result = await work();
    return { result, peakMb: peak / 2 ** 20, seconds: (performance.now() - started) / 1000 };
  } finally {
    clearInterval(sampler);
  }
}

const config = loadConfig({ ...process.env, LOG_LEVEL: 'error' });
const server = await startDatabaseServer(config.mongo, { persistent: false }, silentLogger);
const { client, db } = await connectDatabase(server.uri, `bench_full_${randomBytes(4).toString('hex')}`, {
  patientMs: 1_800_000,
});
try {
  await ensureAppIndexes(db);
  const cols = appCollections(db);
  const ledger = new Ledger({
    cols,
    clock: systemClock,
    rng: seededRng('bench'),
    log: silentLogger,
    config: config.ledger,
  });
  const writeStarted = performance.now();
  await writeRoundHistory(db, cols, HOLD_COUNT);
  console.log(`wrote ${HOLD_COUNT} rounds in ${((performance.now() - writeStarted) / 1000).toFixed(1)} s`);
  gc();
  const before = process.memoryUsage().heapUsed / 2 ** 20;
  const books = await heapPeak(() => checkInvariants(cols));
  const holds = await heapPeak(() => holdProblems(db, ledger, new Date(), 0));
  const problems = [...books.result.problems, ...holds.result];
  if (problems.length > 0)
    throw new Error(`the full check found ${problems.length} problem(s): ${problems[0]}`);
  console.log(
    `full-check: events=${books.result.events} holds=${HOLD_COUNT} ledger=${books.seconds.toFixed(1)} s ` +
      `holds=${holds.seconds.toFixed(1)} s heap_peak=${Math.max(books.peakMb, holds.peakMb).toFixed(0)} MB (ledger ${books.peakMb.toFixed(0)}, holds ${holds.peakMb.toFixed(0)}) ` +
      `heap_before=${before.toFixed(0)} MB`,
  );
} finally {
  await client.close();
  await server.stop();
}
