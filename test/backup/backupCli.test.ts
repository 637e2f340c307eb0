import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { MongoClient } from 'mongodb';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { upgradeDatabase } from '../../app/openApp.js';
import { openArchive } from '../../src/backup/archive.js';
import { loadConfig } from '../../src/config.js';
import { createLogger } from '../../src/logger.js';
import { PROCESS_TEST_TIMEOUT_MS, runNode } from '../support/nodeProcess.js';

/**
 * `npm run backup` and `npm run restore` as an operator runs them: on MONGODB_URI, and on the
 * embedded database of DATA_DIR with no bot running (docs/operating.md, "Backups").
 */
const dir = mkdtempSync(path.join(tmpdir(), 'cookiebot-cli-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const run = (script: string, args: string[], env: Record<string, string | undefined>) =>
  runNode([script, ...args], { env: { LOG_LEVEL: 'warn', DISCORD_TOKEN: '', ...env }, captureStderr: true });

describe('npm run backup and npm run restore', () => {
  it(
    'GIVEN a bot database on MONGODB_URI WHEN it is backed up and restored into another THEN the copy is whole and clean, and a restore into a database that holds documents is refused',
    async () => {
      const uri = inject('mongoUri');
      const source = `cli_src_${Date.now()}`;
      const target = `cli_dst_${Date.now()}`;
      // A bot's console run writes real records: a collect, a grant, the vault's funding.
      const script = path.join(dir, 'day.txt');
      await import('node:fs/promises').then((fs) =>
        fs.writeFile(
          script,
          'as admin /admin vault fund amount:5000\n/cookies collect\n/games coinflip bet:10 side:heads\n',
        ),
      );
      const day = await run('app/main.ts', ['--script', script], {
        MONGODB_URI: uri,
        MONGODB_DB_NAME: source,
        DATA_DIR: dir,
      });
      expect(day.code).toBe(0);
      const file = path.join(dir, 'uri.ndjson.gz');
      const backup = await run('app/backup.ts', ['--out', file], {
        MONGODB_URI: uri,
        MONGODB_DB_NAME: source,
      });
      expect(backup.stdout).toMatch(
        /backup: .*uri\.ndjson\.gz \(\d+ documents in \d+ collections, \d+ bytes/,
      );
      expect(backup.code).toBe(0);
      const restore = await run('app/restore.ts', [file], { MONGODB_URI: uri, MONGODB_DB_NAME: target });
      expect(restore.stdout).toContain('books: clean');
      expect(restore.stdout).toMatch(/restored: \d+ documents, the database as it was at /);
      expect(restore.code).toBe(0);
      const client = new MongoClient(uri);
      try {
        const [a, b] = [client.db(source), client.db(target)];
        for (const name of ['items_cookies', 'ledger_events', 'games_rounds']) {
          expect(await b.collection(name).countDocuments(), name).toBe(
            await a.collection(name).countDocuments(),
          );
        }
        const again = await run('app/restore.ts', [file], { MONGODB_URI: uri, MONGODB_DB_NAME: target });
        expect(again.code).toBe(2);
        expect(again.stderr).toMatch(/restore refused: the database cli_dst_\d+ is not empty/);
        await Promise.all([a.dropDatabase(), b.dropDatabase()]);
      } finally {
        await client.close();
      }
    },
    PROCESS_TEST_TIMEOUT_MS,
  );

  it(
    'GIVEN the embedded database of a DATA_DIR with no bot running WHEN it is backed up into BACKUP_DIR and restored into another DATA_DIR THEN both start their own embedded server and the restore is clean',
    async () => {
      const first = path.join(dir, 'first');
      const second = path.join(dir, 'second');
      const backups = path.join(dir, 'backups');
      const embedded = { MONGODB_URI: '', EMBEDDED_DB: 'java' };
      const script = path.join(dir, 'embedded.txt');
      await import('node:fs/promises').then((fs) => fs.writeFile(script, '/cookies collect\n'));
      expect(
        (await run('app/main.ts', ['--script', script, '--persistent'], { ...embedded, DATA_DIR: first }))
          .code,
      ).toBe(0);
      const backup = await run('app/backup.ts', [], { ...embedded, DATA_DIR: first, BACKUP_DIR: backups });
      expect(backup.code).toBe(0);
      const [archive] = readdirSync(backups);
      expect(archive).toMatch(/^cookiebot-\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}Z\.ndjson\.gz$/);
      const restore = await run('app/restore.ts', [path.join(backups, archive as string)], {
        ...embedded,
        DATA_DIR: second,
      });
      expect(restore.stdout).toContain('books: clean');
      expect(restore.code).toBe(0);
      expect(existsSync(path.join(second, 'mongo-java-server.mv'))).toBe(true);
    },
    PROCESS_TEST_TIMEOUT_MS,
  );

  it('GIVEN a database with records and a migration pending THEN start-up takes a backup of it as it was, before the first step, and it restores', async () => {
    const client = new MongoClient(inject('mongoUri'));
    const backups = path.join(dir, 'before');
    try {
      const db = client.db(`cli_upgrade_${Date.now()}`);
      await db
        .collection<{ _id: string; value: number; updatedBy: string }>('runtime_config')
        .insertOne({ _id: 'games.enabled', value: 1, updatedBy: 'old' });
      const config = { ...loadConfig({ BACKUP_DIR: backups }) };
      const report = await upgradeDatabase(db, config, createLogger('silent'));
      expect(report.applied[0]).toBe('001-settings-revision');
      const [taken] = readdirSync(backups);
      expect(taken).toMatch(/^before-001-settings-revision-cli_upgrade_\d+-.*\.ndjson\.gz$/);
      const { header, entries } = await openArchive(path.join(backups, taken as string));
      const docs = [];
      for await (const entry of entries) docs.push(entry);
      expect(header.schema).toBeNull();
      expect(docs.find((d) => d.collection === 'runtime_config')?.doc).not.toHaveProperty('revision');
      expect(await db.collection('runtime_config').findOne({ _id: 'games.enabled' as never })).toMatchObject({
        revision: 0,
      });
      await db.dropDatabase();
    } finally {
      await client.close();
    }
  });
});
