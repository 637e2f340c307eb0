/**
 * `npm run backup [-- --out FILE]`: writes the database, as it is at one instant, to one
 * compressed archive (docs/operating.md, "Backups"): to FILE, else to BACKUP_DIR (DATA_DIR/backups when
 * unset). It reads MONGODB_URI, or the database server the running bot started itself, or,
 * with no bot running, the database on DATA_DIR. It changes nothing.
 */
import path from 'node:path';
import { parseArgs } from 'node:util';
import { ASSEMBLY } from '../commands/index.js';
import { backupFileName, takeBackup } from '../src/backup/backup.js';
import { runCli } from '../src/cli.js';
import { describeServer } from '../src/db/connect.js';
import { schemaOf } from '../src/db/migrations.js';
import { backupDirOf, openApp } from './openApp.js';

const { values } = parseArgs({ options: { out: { type: 'string' } } });

await runCli(async (config, log) => {
  const app = await openApp(config, log, { migrate: false });
  try {
    const file =
      values.out ?? path.join(backupDirOf(config), backupFileName(app.db.databaseName, new Date()));
    console.log(`backup of ${app.db.databaseName} on ${describeServer(app.database.server)}`);
    const taken = await takeBackup(app.db, file, schemaOf, app.clock, ASSEMBLY.transient);
    const total = Object.values(taken.documents).reduce((a, b) => a + b, 0);
    for (const [collection, count] of Object.entries(taken.documents)) {
      console.log(`  ${collection.padEnd(28)} ${String(count).padStart(10)}`);
    }
    const held = taken.pauseMs === undefined ? '' : `, writes held ${taken.pauseMs} ms`;
    console.log(
      `backup: ${taken.file} (${total} documents in ${Object.keys(taken.documents).length} collections, ${taken.bytes} bytes, the database at ${taken.header.takenAt}, schema ${taken.header.schema ?? 'none'}${held}, ${taken.ms} ms)`,
    );
    return 0;
  } finally {
    await app.close();
  }
});
