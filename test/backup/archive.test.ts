import { mkdtempSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { Int32, Long } from 'mongodb';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { appCollections, ensureAppIndexes } from '../../app/openApp.js';
import { RestoreRefused, restoreBackup } from '../../app/restoreBackup.js';
import { ASSEMBLY } from '../../commands/index.js';
import { ArchiveDamaged, openArchive } from '../../src/backup/archive.js';
import { backupFileName, listBackups, pruneBackups, takeBackup } from '../../src/backup/backup.js';
import { schemaOf } from '../../src/db/migrations.js';
import { makeAppDeps } from '../support/botHarness.js';
import { clearDatabase, databaseFingerprint, useTestDatabase } from '../support/database.js';

const t = useTestDatabase('archive');
const dir = mkdtempSync(path.join(tmpdir(), 'cookiebot-archive-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function oneBackup(name: string): Promise<string> {
  const file = path.join(dir, name);
  await takeBackup(t.db, file, schemaOf);
  return file;
}

/** The archive's lines, changed by `edit`, written back as another archive. */
function rewrite(file: string, edit: (lines: string[]) => string[]): string {
  const lines = gunzipSync(readFileSync(file)).toString('utf8').split('\n').filter(Boolean);
  const out = `${file}.edited.ndjson.gz`;
  writeFileSync(out, gzipSync(`${edit(lines).join('\n')}\n`));
  return out;
}

async function readWhole(file: string): Promise<number> {
  const { entries } = await openArchive(file);
  let n = 0;
  for await (const _ of entries) n++;
  return n;
}

describe('backup archives', () => {
  beforeEach(() => clearDatabase(t.db));

  it('GIVEN documents of every BSON type the bot writes THEN a restore gives back the same documents, with their types', async () => {
    await t.db.collection<{ _id: string } & Record<string, unknown>>('kinds').insertMany([
      {
        _id: 'a',
        small: new Int32(7),
        big: Long.fromString('9007199254740993'),
        real: 2.5,
        when: new Date(0),
        list: [1, 'two', null],
        deep: { x: { y: [true] } },
      },
      { _id: 'b', text: 'Grüße 🍪 "quoted"\nline' },
    ]);
    const before = await databaseFingerprint(t.db);
    const file = await oneBackup('types.ndjson.gz');
    const into = t.client.db(`${t.name}_types`);
    try {
      const app = makeAppDeps({ db: into, cols: appCollections(into) });
      await restoreBackup(app, file);
      const a = await into.collection('kinds').findOne({ _id: 'a' as never }, { promoteValues: false });
      expect(a?.small).toBeInstanceOf(Int32);
      expect(String(a?.big)).toBe('9007199254740993');
      // Every collection of the source is in the restored database, document for document.
      for (const name of ['kinds']) {
        const source = await t.db.collection(name).find().sort({ _id: 1 }).toArray();
        expect(await into.collection(name).find().sort({ _id: 1 }).toArray()).toEqual(source);
      }
      expect(await databaseFingerprint(t.db)).toBe(before);
    } finally {
      await into.dropDatabase();
    }
  });

  it('GIVEN an archive cut short, with a count changed, a line garbled or lines after its end THEN it is refused whole, naming what is wrong, and nothing is written', async () => {
    await t.db
      .collection<{ _id: number }>('many')
      .insertMany(Array.from({ length: 30 }, (_, i) => ({ _id: i })));
    const file = await oneBackup('whole.ndjson.gz');
    expect(await readWhole(file)).toBeGreaterThanOrEqual(30);
    const cases: [string, (lines: string[]) => string[], RegExp][] = [
      ['cut short', (l) => l.slice(0, -5), /without its closing line/],
      [
        'a count changed',
        (l) => [...l.slice(0, -1), (l.at(-1) ?? '').replace('"many":30', '"many":31')],
        /many holds 30 documents, its closing line says 31/,
      ],
      [
        'a line garbled',
        (l) => l.map((x, i) => (i === 3 ? '{"c":"nowhere","d":{}}' : x)),
        /line 4 is not a document/,
      ],
      ['lines after its end', (l) => [...l, l[1] ?? ''], /goes on after its closing line/],
      ['no header', (l) => l.slice(1), /first line is not a backup header/],
    ];
    for (const [what, edit, message] of cases) {
      const damaged = rewrite(file, edit);
      await expect(readWhole(damaged), what).rejects.toThrow(message);
      await expect(readWhole(damaged)).rejects.toBeInstanceOf(ArchiveDamaged);
      const into = t.client.db(`${t.name}_damaged`);
      try {
        const app = makeAppDeps({ db: into, cols: appCollections(into) });
        await expect(restoreBackup(app, damaged)).rejects.toBeInstanceOf(ArchiveDamaged);
        expect(await into.collection('many').countDocuments(), what).toBe(0);
      } finally {
        await into.dropDatabase();
      }
    }
  });

  it('GIVEN a database that holds documents THEN a restore is refused unless told to replace them, and an archive of a newer version is refused', async () => {
    await t.db.collection<{ _id: string }>('mine').insertOne({ _id: 'kept' });
    const file = await oneBackup('refusals.ndjson.gz');
    const into = t.client.db(`${t.name}_busy`);
    try {
      await ensureAppIndexes(into);
      await into.collection<{ _id: string }>('other').insertOne({ _id: 'there already' });
      const app = makeAppDeps({ db: into, cols: appCollections(into) });
      await expect(restoreBackup(app, file)).rejects.toThrow(/is not empty \(other hold documents\)/);
      expect(await into.collection('mine').countDocuments()).toBe(0);
      await restoreBackup(app, file, { replace: true });
      expect(await into.collection('other').countDocuments()).toBe(0);
      expect(await into.collection('mine').countDocuments()).toBe(1);

      const newer = rewrite(file, (l) => [
        l[0]?.replace(/"schema":(null|"[^"]*")/, '"schema":"999-from-the-future"') ?? '',
        ...l.slice(1),
      ]);
      await expect(restoreBackup(app, newer, { replace: true })).rejects.toBeInstanceOf(RestoreRefused);
      await expect(restoreBackup(app, newer, { replace: true })).rejects.toThrow(
        /newer version of the bot \(its last migration is 999-from-the-future\)/,
      );
      expect(await into.collection('mine').countDocuments()).toBe(1);
    } finally {
      await into.dropDatabase();
    }
  });

  it('GIVEN two backups written to one name at once (a slot claimed again while its backup runs) THEN the name holds one whole archive, and no partial file is left', async () => {
    await t.db
      .collection<{ _id: number }>('many')
      .insertMany(Array.from({ length: 3_000 }, (_, i) => ({ _id: i })));
    const twice = path.join(mkdtempSync(path.join(dir, 'twice-')), 'slot.ndjson.gz');
    await Promise.all([takeBackup(t.db, twice, schemaOf), takeBackup(t.db, twice, schemaOf)]);
    expect(await readWhole(twice)).toBeGreaterThanOrEqual(3_000);
    expect(readdirSync(path.dirname(twice))).toEqual(['slot.ndjson.gz']);
  });

  it("GIVEN more of the bot's own backups than kept THEN the oldest go, with partial files a stopped process left over an hour ago, and an operator's own backups and other files stay", async () => {
    const keepDir = mkdtempSync(path.join(dir, 'keep-'));
    const day = (d: number) => new Date(Date.UTC(2026, 11, d));
    const auto = (d: number) => backupFileName('cookie+bot', day(d), 'auto');
    for (let d = 1; d <= 5; d++) writeFileSync(path.join(keepDir, auto(d)), 'x');
    writeFileSync(path.join(keepDir, 'notes.txt'), 'mine');
    writeFileSync(path.join(keepDir, backupFileName('cookie+bot', day(1))), "an operator's npm run backup");
    const stale = path.join(keepDir, `${auto(6)}.partial-123-abcd1234`);
    const fresh = path.join(keepDir, `${auto(7)}.partial-456-abcd1234`);
    writeFileSync(stale, 'half');
    writeFileSync(fresh, 'being written');
    utimesSync(stale, new Date(Date.now() - 2 * 3_600_000), new Date(Date.now() - 2 * 3_600_000));
    writeFileSync(path.join(keepDir, backupFileName('other', day(1), 'auto')), 'another database');
    const removed = await pruneBackups(keepDir, 'cookie+bot', 3);
    expect(removed.map((f) => path.basename(f)).sort()).toEqual(
      [auto(1), auto(2), path.basename(stale)].sort(),
    );
    expect((await listBackups(keepDir, 'cookie+bot')).map((b) => b.takenAt)).toEqual([
      day(5),
      day(4),
      day(3),
    ]);
    expect(readdirSync(keepDir)).toContain(backupFileName('cookie+bot', day(1)));
    expect(readdirSync(keepDir)).toContain(path.basename(fresh));
    expect((await listBackups(keepDir, 'other')).length).toBe(1);
  });
});

describe('what a backup leaves out', () => {
  beforeEach(() => clearDatabase(t.db));

  it('GIVEN rate-limit windows holding network addresses THEN no backup keeps them; everything else is there', async () => {
    await t.db.collection('web_rate_limits').insertOne({ _id: 'write:ip:203.0.113.7:0', count: 3 } as never);
    await t.db.collection('profiles').insertOne({ _id: '800000000000000042', name: 'mia' } as never);
    const file = path.join(dir, 'no-addresses.ndjson.gz');
    await takeBackup(t.db, file, schemaOf, undefined, ASSEMBLY.transient);
    const text = gunzipSync(readFileSync(file)).toString('utf8');
    expect(text).not.toContain('203.0.113.7');
    expect(text).not.toContain('web_rate_limits');
    expect(text).toContain('"mia"');
  });
});
