import { randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { link, open, rm } from 'node:fs/promises';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGunzip, createGzip } from 'node:zlib';
import { BSON, type Document } from 'mongodb';
import { z } from 'zod';
import type { PointInTimeRead } from '../db/pointInTime.js';

/**
 * A backup archive: one gzip file of lines, each a JSON object, so that `zcat` shows it and a
 * member's data in it can be found with `grep`:
 *
 *     {"format":"cookie-place-bot backup","version":1,"database":…,"takenAt":…,"at":…,"collections":[…],"schema":…}
 *     {"c":"items_cookies","d":{…}}        one line per document, in MongoDB's canonical
 *     …                                     Extended JSON (types kept: Int32, Int64, Double, Date)
 *     {"end":true,"documents":{"items_cookies":1234,…}}
 *
 * The last line counts every collection's documents: an archive cut short (a full disk, a
 * process killed while writing) has no such line, or other counts, and is refused whole. The
 * file is written under a temporary name, synced, then renamed: a name ending in `.ndjson.gz`
 * is always a complete archive.
 */
export const ARCHIVE_FORMAT = 'cookie-place-bot backup';
export const ARCHIVE_VERSION = 1;
export const ARCHIVE_SUFFIX = '.ndjson.gz';

const headerSchema = z.object({
  format: z.literal(ARCHIVE_FORMAT),
  version: z.literal(ARCHIVE_VERSION),
  database: z.string(),
  takenAt: z.iso.datetime(),
  /** The server's name of the instant (a cluster time), for the record. */
  at: z.string(),
  collections: z.array(z.string()),
  /** The last migration applied to the database at the instant (null before any). */
  schema: z.string().nullable(),
});
export type ArchiveHeader = z.infer<typeof headerSchema>;

const trailerSchema = z.object({ end: z.literal(true), documents: z.record(z.string(), z.number().int()) });

/** The archive is not one this version can restore whole: named with the line where it fails. */
export class ArchiveDamaged extends Error {
  constructor(file: string, detail: string) {
    super(`${file} is not a complete backup archive: ${detail}`);
    this.name = 'ArchiveDamaged';
  }
}

export interface WrittenArchive {
  file: string;
  header: ArchiveHeader;
  documents: Record<string, number>;
  bytes: number;
}

/** The collection the migrations record their steps in (src/db/migrations.ts), read first. */
export const SCHEMA_COLLECTION = 'schema_migrations';

/** Writes every collection of a point-in-time read to `file` (see above). */
export async function writeArchive(
  read: PointInTimeRead,
  file: string,
  database: string,
  schemaOf: (records: Document[]) => string | null,
  leaveOut: readonly string[] = [],
): Promise<WrittenArchive> {
  const collections = read.collections.filter((name) => !leaveOut.includes(name));
  // The schema's records are small and read first, so the header can name the schema.
  const records: Document[] = [];
  if (collections.includes(SCHEMA_COLLECTION)) {
    for await (const doc of read.read(SCHEMA_COLLECTION)) records.push(doc);
  }
  const header: ArchiveHeader = {
    format: ARCHIVE_FORMAT,
    version: ARCHIVE_VERSION,
    database,
    takenAt: read.takenAt.toISOString(),
    at: String(read.at),
    collections,
    schema: schemaOf(records.map((r) => BSON.EJSON.deserialize(BSON.EJSON.serialize(r)) as Document)),
  };
  const documents: Record<string, number> = {};
  async function* lines(): AsyncGenerator<string> {
    yield `${JSON.stringify(header)}\n`;
    for (const collection of collections) {
      documents[collection] = 0;
      const docs = collection === SCHEMA_COLLECTION ? records : read.read(collection);
      for await (const doc of docs) {
        documents[collection] += 1;
        yield `{"c":${JSON.stringify(collection)},"d":${BSON.EJSON.stringify(doc, { relaxed: false })}}\n`;
      }
    }
    yield `${JSON.stringify({ end: true, documents })}\n`;
  }
  // A name of its own for every writer, created afresh: two runs never share a partial file.
  const partial = `${file}.partial-${process.pid}-${randomBytes(4).toString('hex')}`;
  try {
    await pipeline(Readable.from(lines()), createGzip(), createWriteStream(partial, { flags: 'wx' }));
    const handle = await open(partial, 'r+');
    const { size } = await handle.stat();
    await handle.sync();
    await handle.close();
    // Linked, never renamed over: an archive another run finished under this name is kept.
    await link(partial, file).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== 'EEXIST') throw error;
    });
    await rm(partial, { force: true });
    await syncDirectory(path.dirname(path.resolve(file)));
    return { file, header, documents, bytes: size };
  } catch (error) {
    await rm(partial, { force: true });
    throw error;
  }
}

/** The directory's entries are durable too: a rename or a removal survives a crash. */
export async function syncDirectory(dir: string): Promise<void> {
  const handle = await open(dir, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

export type ArchiveEntry = { collection: string; doc: Document };

/**
 * Reads an archive: its header, then each document with its BSON types, and at the end checks
 * the counts its last line names. Fails with `ArchiveDamaged` on anything else.
 */
export async function openArchive(
  file: string,
): Promise<{ header: ArchiveHeader; entries: AsyncGenerator<ArchiveEntry> }> {
  // An error of the file (missing, unreadable) ends the reading, never the process.
  const source = createReadStream(file);
  const input = createGunzip();
  source.on('error', (error) => input.destroy(error));
  source.pipe(input);
  const lines = createInterface({ input, crlfDelay: Number.POSITIVE_INFINITY })[Symbol.asyncIterator]();
  const damaged = (detail: string) => new ArchiveDamaged(file, detail);
  const next = async (): Promise<string | undefined> => {
    try {
      const line = await lines.next();
      return line.done ? undefined : line.value;
    } catch (error) {
      throw damaged((error as Error).message);
    }
  };
  const first = await next();
  const header = headerSchema.safeParse(first === undefined ? undefined : parseJson(first));
  if (!header.success) {
    source.destroy();
    input.destroy();
    throw damaged(`its first line is not a backup header (${header.error.issues[0]?.message ?? 'empty'})`);
  }
  const known = new Set(header.data.collections);
  async function* entries(): AsyncGenerator<ArchiveEntry> {
    const counted: Record<string, number> = {};
    let lineNumber = 1;
    try {
      for (;;) {
        const line = await next();
        lineNumber += 1;
        if (line === undefined) throw damaged(`it ends at line ${lineNumber - 1} without its closing line`);
        const value = parseJson(line);
        if (isTrailer(value)) {
          const trailer = trailerSchema.safeParse(value);
          if (!trailer.success) throw damaged(`its closing line (line ${lineNumber}) is malformed`);
          for (const name of new Set([...Object.keys(counted), ...Object.keys(trailer.data.documents)])) {
            if ((counted[name] ?? 0) !== (trailer.data.documents[name] ?? 0)) {
              throw damaged(
                `${name} holds ${counted[name] ?? 0} documents, its closing line says ${trailer.data.documents[name] ?? 0}`,
              );
            }
          }
          if ((await next()) !== undefined)
            throw damaged(`it goes on after its closing line (line ${lineNumber})`);
          return;
        }
        const { c, d } = (value ?? {}) as { c?: unknown; d?: unknown };
        if (typeof c !== 'string' || !known.has(c) || typeof d !== 'object' || d === null) {
          throw damaged(`line ${lineNumber} is not a document of a collection the header names`);
        }
        counted[c] = (counted[c] ?? 0) + 1;
        yield { collection: c, doc: BSON.EJSON.deserialize(d as Document, { relaxed: false }) as Document };
      }
    } finally {
      source.destroy();
      input.destroy();
    }
  }
  return { header: header.data, entries: entries() };
}

function parseJson(line: string): unknown {
  try {
    return JSON.parse(line);
  } catch {
    return undefined;
  }
}

function isTrailer(value: unknown): boolean {
  return typeof value === 'object' && value !== null && (value as { end?: unknown }).end === true;
}
