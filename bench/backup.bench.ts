/**
 * What a backup and a restore cost an operator (docs/operating.md, "Backups"): a
 * history of `--holds` game rounds (default 200,000: about a million documents, a few months of
 * 50 members; test/support/roundHistory.ts) on the embedded server, then
 * - `npm run backup`'s work while a writer keeps updating a balance: the archive's time and
 *   size, how long the server held writes to copy the database, and the longest single write
 *   the writer saw meanwhile (what a member's command would have waited);
 * - `npm run restore`'s work into an empty database: load, migrations, recovery, full check.
 * Last line:
 * `backup: documents=<n> backup_s=<s> bytes=<MB> MB writes_held_ms=<ms> longest_write_ms=<ms> restore_s=<s> clean=<yes|no>`
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { appCollections, ensureAppIndexes } from '../app/openApp.js';
import { restoreBackup } from '../app/restoreBackup.js';
import { takeBackup } from '../src/backup/backup.js';
import { systemClock } from '../src/clock.js';
import { loadConfig } from '../src/config.js';
import { connectDatabase, startDatabaseServer } from '../src/db/connect.js';
import { schemaOf } from '../src/db/migrations.js';
import { silentLogger } from '../src/logger.js';
import { seededRng } from '../src/rng.js';
import { writeRoundHistory } from '../test/support/roundHistory.js';
import { Ledger } from '../utils/money/ledger/ledger.js';

const { values } = parseArgs({ options: { holds: { type: 'string', default: '200000' } } });
const HOLD_COUNT = Number(values.holds);
const config = loadConfig({ ...process.env, LOG_LEVEL: 'error' });
const server = await startDatabaseServer(config.mongo, { persistent: false }, silentLogger);
const { client, db } = await connectDatabase(server.uri, 'bench_backup', { patientMs: 1_800_000 });
const dir = mkdtempSync(path.join(tmpdir(), 'bench-backup-'));
try {
  await ensureAppIndexes(db);
  const cols = appCollections(db);
  const written = performance.now();
  await writeRoundHistory(db, cols, HOLD_COUNT);
  const documents = (
    await Promise.all(
      (await db.listCollections().toArray()).map((c) => db.collection(c.name).estimatedDocumentCount()),
    )
  ).reduce((a, b) => a + b, 0);
  console.log(`wrote ${documents} documents in ${((performance.now() - written) / 1000).toFixed(1)} s`);

  // A member's writes go on while the backup runs: the longest one is what the pause costs.
  let writing = true;
  let longestWriteMs = 0;
  const writer = (async () => {
    const probe = db.collection<{ _id: string; n: number }>('bench_probe');
    while (writing) {
      const started = performance.now();
      await probe.updateOne({ _id: 'p' }, { $inc: { n: 1 } }, { upsert: true });
      longestWriteMs = Math.max(longestWriteMs, performance.now() - started);
    }
  })();
  await new Promise((resolve) => setTimeout(resolve, 500));
  const file = path.join(dir, 'bench.ndjson.gz');
  const backup = await takeBackup(db, file, schemaOf);
  writing = false;
  await writer;
  console.log(
    `backup: ${backup.ms} ms, ${(backup.bytes / 2 ** 20).toFixed(1)} MB, writes held ${backup.pauseMs} ms, longest write meanwhile ${longestWriteMs.toFixed(0)} ms`,
  );

  const into = client.db('bench_backup_restored');
  const restored = performance.now();
  const app = {
    config,
    log: silentLogger,
    clock: systemClock,
    wallClock: systemClock,
    rng: seededRng('bench'),
    db: into,
    cols: appCollections(into),
    ledger: new Ledger({
      cols: appCollections(into),
      clock: systemClock,
      rng: seededRng('bench'),
      log: silentLogger,
      config: config.ledger,
    }),
  };
  const report = await restoreBackup(app, file);
  const restoreS = (performance.now() - restored) / 1000;
  console.log(
    `restore: ${restoreS.toFixed(1)} s, ${report.events} events checked, ${report.problems.length} difference(s)`,
  );
  console.log(
    `backup: documents=${documents} backup_s=${(backup.ms / 1000).toFixed(1)} bytes=${(backup.bytes / 2 ** 20).toFixed(1)} MB ` +
      `writes_held_ms=${backup.pauseMs} longest_write_ms=${longestWriteMs.toFixed(0)} restore_s=${restoreS.toFixed(1)} clean=${report.problems.length === 0 ? 'yes' : 'no'}`,
  );
} finally {
  rmSync(dir, { recursive: true, force: true });
  await client.close();
  await server.stop();
}
