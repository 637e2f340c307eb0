import { mkdir, readdir, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Db, Document } from 'mongodb';
import { type Clock, systemClock } from '../clock.js';
import { MIGRATIONS_COLLECTION, PROCESS_RECORDS, RESTORING } from '../db/migrations.js';
import { openPointInTime } from '../db/pointInTime.js';
import {
  ARCHIVE_SUFFIX,
  type ArchiveHeader,
  openArchive,
  syncDirectory,
  type WrittenArchive,
  writeArchive,
} from './archive.js';

export interface TakenBackup extends WrittenArchive {
  /** How long writes were held back for the copy, when the server reports it (src/db/pointInTime.ts). */
  pauseMs: number | undefined;
  /** From the read's start to the file's rename. */
  ms: number;
}

/**
 * Writes the database as it was at one instant to `file` (src/backup/archive.ts), but for the
 * `leaveOut` collections (the features' `transient` ones: minutes-long records with network
 * addresses). What a restorable backup is, docs/operating.md, "Backups": the state a crash of every
 * process at that instant would have left, which recovery finishes.
 */
export async function takeBackup(
  db: Db,
  file: string,
  schemaOf: (records: Document[]) => string | null,
  clock: Clock = systemClock,
  leaveOut: readonly string[] = [],
): Promise<TakenBackup> {
  const started = performance.now();
  await mkdir(path.dirname(path.resolve(file)), { recursive: true });
  const read = await openPointInTime(db, () => clock.now());
  try {
    const written = await writeArchive(read, file, db.databaseName, schemaOf, leaveOut);
    return { ...written, pauseMs: read.pauseMs, ms: Math.round(performance.now() - started) };
  } finally {
    await read.close();
  }
}

/**
 * A file name for a backup taken at `at`, sortable by time: `cookiebot-2026-12-04T18-30-00Z.ndjson.gz`;
 * the bot's own (`auto`) are `cookiebot-auto-…`, and only those are rotated: an operator's
 * `npm run backup` and the backups before upgrades are theirs to remove.
 */
export function backupFileName(database: string, at: Date, kind: 'manual' | 'auto' = 'manual'): string {
  const stamp = at
    .toISOString()
    .replace(/\.\d{3}Z$/, 'Z')
    .replaceAll(':', '-');
  return `${database}-${kind === 'auto' ? 'auto-' : ''}${stamp}${ARCHIVE_SUFFIX}`;
}

export interface LoadedArchive {
  header: ArchiveHeader;
  documents: Record<string, number>;
}

const INSERT_BATCH = 1_000;

/**
 * Loads an archive into `db`, which must hold no documents (the caller empties it when told
 * to). Every document goes in with its types as stored; indexes are the code's to create.
 * A damaged archive stops the load with `ArchiveDamaged` before its last part is written:
 * the caller must not use a database whose load failed.
 */
export async function loadArchive(db: Db, file: string): Promise<LoadedArchive> {
  const { header, entries } = await openArchive(file);
  const documents: Record<string, number> = Object.fromEntries(header.collections.map((c) => [c, 0]));
  let batch: Document[] = [];
  let batchOf: string | null = null;
  const flush = async () => {
    if (batchOf === null || batch.length === 0) return;
    await db.collection(batchOf).insertMany(batch, { ordered: false });
    documents[batchOf] = (documents[batchOf] ?? 0) + batch.length;
    batch = [];
  };
  for await (const { collection, doc } of entries) {
    // A lock or restore record in the archive was another process's, at the instant.
    if (collection === MIGRATIONS_COLLECTION && PROCESS_RECORDS.includes(doc._id)) continue;
    if (collection !== batchOf || batch.length >= INSERT_BATCH) {
      await flush();
      batchOf = collection;
    }
    batch.push(doc);
  }
  await flush();
  // A collection that was empty at the instant exists after the restore too.
  const existing = new Set((await db.listCollections({}, { nameOnly: true }).toArray()).map((c) => c.name));
  for (const name of header.collections) if (!existing.has(name)) await db.createCollection(name);
  return { header, documents };
}

/**
 * Drops every collection of `db` (restore's `--replace`) but the migrations' own, of which it
 * keeps only the restore's record (`markRestoring`, written before): a restore stopped half-way
 * leaves a database the bot refuses to open.
 */
export async function emptyDatabase(db: Db): Promise<void> {
  const names = (await db.listCollections({}, { nameOnly: true }).toArray())
    .map((c) => c.name)
    .filter((name) => !name.startsWith('system.') && name !== MIGRATIONS_COLLECTION);
  for (const name of names) await db.collection(name).drop();
  await db.collection<{ _id: string }>(MIGRATIONS_COLLECTION).deleteMany({ _id: { $ne: RESTORING } });
}

export interface KeptBackup {
  file: string;
  takenAt: Date;
  bytes: number;
}

/** The bot's own complete archives in `dir` (`backupFileName(…, 'auto')`), newest first. */
export async function listBackups(dir: string, database: string): Promise<KeptBackup[]> {
  const names = await readdir(dir).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return [] as string[];
    throw error;
  });
  const literal = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const pattern = new RegExp(
    `^${literal(database)}-auto-(\\d{4}-\\d{2}-\\d{2}T\\d{2}-\\d{2}-\\d{2}Z)${literal(ARCHIVE_SUFFIX)}$`,
  );
  const kept: KeptBackup[] = [];
  for (const name of names) {
    const match = pattern.exec(name);
    if (!match?.[1]) continue;
    const [day, time] = match[1].split('T') as [string, string];
    const file = path.join(dir, name);
    kept.push({
      file,
      takenAt: new Date(`${day}T${time.replaceAll('-', ':')}`),
      bytes: (await stat(file)).size,
    });
  }
  return kept.sort((a, b) => b.takenAt.getTime() - a.takenAt.getTime());
}

/**
 * Keeps the `keep` newest of the bot's own archives in `dir` and removes the rest, with any
 * partial file a stopped process left more than an hour ago (by the files' own clock: the
 * wall's). Returns the files removed.
 */
export async function pruneBackups(dir: string, database: string, keep: number): Promise<string[]> {
  const removed: string[] = [];
  for (const old of (await listBackups(dir, database)).slice(keep)) {
    await rm(old.file, { force: true });
    removed.push(old.file);
  }
  for (const name of await readdir(dir).catch(() => [] as string[])) {
    if (!name.includes(`${ARCHIVE_SUFFIX}.partial-`)) continue;
    const file = path.join(dir, name);
    const { mtimeMs } = await stat(file);
    if (Date.now() - mtimeMs > 3_600_000) {
      await rm(file, { force: true });
      removed.push(file);
    }
  }
  if (removed.length > 0) await syncDirectory(dir);
  return removed;
}
