import { ASSEMBLY } from '../commands/index.js';
import { MIGRATIONS } from '../migrations/index.js';
import { openArchive } from '../src/backup/archive.js';
import { emptyDatabase, type LoadedArchive, loadArchive } from '../src/backup/backup.js';
import { systemClock } from '../src/clock.js';
import { holdingDocuments } from '../src/db/holdingDocuments.js';
import { type MigrationReport, markRestoring, migrate, restoreFinished } from '../src/db/migrations.js';
import { checkInvariants } from '../utils/money/ledger/invariants.js';
import type { RecoveryReport } from '../utils/money/ledger/recovery.js';
import { ensureHoldIndexes } from '../utils/money/moneyLayer.js';
import { type AppDeps, ensureAppIndexes, runLedgerRecovery } from './openApp.js';

export interface RestoreReport {
  loaded: LoadedArchive;
  migrations: MigrationReport;
  recovery: RecoveryReport;
  /** Every difference the full check found: none on a clean restore. */
  problems: string[];
  events: number;
}

/** Why a restore did not start: nothing was written. */
export class RestoreRefused extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RestoreRefused';
  }
}

/**
 * Restores an archive into the app's database: refuses a database that holds documents unless
 * `replace`, or an archive of a newer version; loads it, brings its shapes up to date, runs the
 * ledger's recovery (every operation in flight at the instant finished or reversed, as after a
 * crash there), creates the indexes, then runs the full check of the ledger and of every
 * feature's books as of the instant the backup was taken (docs/operating.md, "Backups").
 */
export async function restoreBackup(
  app: AppDeps,
  file: string,
  options: { replace?: boolean } = {},
): Promise<RestoreReport> {
  // The whole archive is read once before anything is written: a damaged one changes nothing.
  const { header, entries } = await openArchive(file);
  for await (const _ of entries);
  if (header.schema !== null && !MIGRATIONS.some((m) => m.id === header.schema)) {
    throw new RestoreRefused(
      `${file} was taken by a newer version of the bot (its last migration is ${header.schema}): restore it with that version`,
    );
  }
  const held = await holdingDocuments(app.db);
  if (held.length > 0 && !options.replace) {
    throw new RestoreRefused(
      `the database ${app.db.databaseName} is not empty (${held.join(', ')} hold documents): restore into an empty one, or pass --replace to drop what it holds`,
    );
  }
  // From here until the checks, a database the bot refuses to open: a restore that stops
  // half-way (a crash, a full disk) must be run again, never used as it is.
  await markRestoring(app.db, file, new Date());
  if (held.length > 0) await emptyDatabase(app.db);

  const loaded = await loadArchive(app.db, file);
  const migrations = await migrate(
    { db: app.db, log: app.log, clock: systemClock, owner: `restore:${process.pid}` },
    MIGRATIONS,
    { restoring: true },
  );
  await ensureAppIndexes(app.db);
  await Promise.all([ASSEMBLY.ensureIndexes(app.db), ensureHoldIndexes(app.db)]);
  // No process runs on a database being restored: nothing in flight is anyone's but recovery's.
  const recovery = await runLedgerRecovery(app, 0, { tidy: true });
  const ledger = await checkInvariants(app.cols);
  const takenAt = new Date(header.takenAt);
  const books = await ASSEMBLY.checkInvariants(app.db, app.config, app.ledger, takenAt);
  await restoreFinished(app.db);
  return { loaded, migrations, recovery, problems: [...ledger.problems, ...books], events: ledger.events };
}
