/**
 * `npm run restore -- FILE [--replace]`: loads a backup archive into an empty database (with
 * `--replace`, one whose collections are dropped first), brings its shapes up to date, runs the
 * ledger's recovery and the full check of the ledger and every game's books, and prints what it
 * restored. Exit 0: clean books; 1: differences (listed); 2: refused, nothing written
 * (docs/operating.md, "Backups").
 */
import { existsSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { ArchiveDamaged } from '../src/backup/archive.js';
import { runCli } from '../src/cli.js';
import { describeServer } from '../src/db/connect.js';
import { openApp } from './openApp.js';
import { RestoreRefused, restoreBackup } from './restoreBackup.js';

const { values, positionals } = parseArgs({
  options: { replace: { type: 'boolean', default: false } },
  allowPositionals: true,
});

await runCli(async (config, log) => {
  const file = positionals[0];
  if (!file || positionals.length > 1) {
    console.error('usage: npm run restore -- FILE [--replace]');
    return 2;
  }
  if (!existsSync(file)) {
    console.error(`restore: ${file} does not exist`);
    return 2;
  }
  const app = await openApp(config, log, { migrate: false });
  try {
    console.log(`restore of ${file} into ${app.db.databaseName} on ${describeServer(app.database.server)}`);
    const startedBy = app.database.server.startedBy;
    if (startedBy !== undefined) {
      throw new RestoreRefused(
        `process ${startedBy} runs on this database: stop the bot before restoring into it`,
      );
    }
    const report = await restoreBackup(app, file, { replace: values.replace });
    const { header, documents } = report.loaded;
    for (const [collection, count] of Object.entries(documents)) {
      console.log(`  ${collection.padEnd(28)} ${String(count).padStart(10)}`);
    }
    const total = Object.values(documents).reduce((a, b) => a + b, 0);
    console.log(
      `restored: ${total} documents, the database as it was at ${header.takenAt} (schema ${header.schema ?? 'none'})`,
    );
    const m = report.migrations;
    console.log(`migrations: ${m.applied.length > 0 ? m.applied.join(', ') : 'none pending'}`);
    const r = report.recovery;
    console.log(
      `recovery: ${r.examined} operation(s) in flight at the instant, ${r.rolledForward} finished, ${r.rolledBack} returned, ${r.duplicatesUndone} duplicate(s) undone, ${r.stuck.length} stuck`,
    );
    for (const problem of report.problems) console.log(`DIFFERENCE ${problem}`);
    console.log(
      report.problems.length === 0
        ? `books: clean (${report.events} audit events checked, every game's books)`
        : `books: ${report.problems.length} difference(s)`,
    );
    return report.problems.length === 0 ? 0 : 1;
  } catch (error) {
    if (error instanceof RestoreRefused || error instanceof ArchiveDamaged) {
      console.error(`restore refused: ${error.message}`);
      return 2;
    }
    throw error;
  } finally {
    await app.close();
  }
});
