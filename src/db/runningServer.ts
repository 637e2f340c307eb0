import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { MongoClient } from 'mongodb';
import { z } from 'zod';

/**
 * The embedded database of a persistent run lives inside the process that started it (its
 * child JVM or mongod), and its files are locked while it runs. So that `npm run backup`,
 * `npm run check:invariants` and a second process can reach it while the bot runs, the
 * process that starts it writes its address to DATA_DIR/embedded-server.json and removes the
 * file when it stops; a later process finds it there. A file whose process is gone, or whose
 * server does not answer, is a leftover of a crash and is ignored.
 */
const FILE = 'embedded-server.json';
const PROBE_MS = 2_000;

const recordSchema = z.object({ uri: z.string(), pid: z.number().int(), kind: z.string() });
export type RunningRecord = z.infer<typeof recordSchema>;

function fileOf(dataDir: string): string {
  return path.join(dataDir, FILE);
}

/** Records the embedded server this process started (persistent runs only). */
export function recordRunningServer(dataDir: string, record: RunningRecord): () => void {
  const file = fileOf(dataDir);
  writeFileSync(file, `${JSON.stringify(record)}\n`);
  return () => {
    // Only our own record: a later process may have replaced a stale one.
    if (readRecord(dataDir)?.pid === record.pid) rmSync(file, { force: true });
  };
}

function readRecord(dataDir: string): RunningRecord | null {
  try {
    const parsed = recordSchema.safeParse(JSON.parse(readFileSync(fileOf(dataDir), 'utf8')));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The embedded server another live process runs on DATA_DIR, if one answers. */
export async function findRunningServer(dataDir: string): Promise<RunningRecord | null> {
  const record = readRecord(dataDir);
  if (!record || record.pid === process.pid || !alive(record.pid)) return null;
  const client = new MongoClient(record.uri, {
    serverSelectionTimeoutMS: PROBE_MS,
    connectTimeoutMS: PROBE_MS,
  });
  try {
    await client.db('admin').command({ ping: 1 });
    return record;
  } catch {
    return null;
  } finally {
    await client.close().catch(() => {});
  }
}
