import { mkdirSync } from 'node:fs';
import { DryMongoBinary, MongoMemoryReplSet } from 'mongodb-memory-server';
import type { Logger } from '../logger.js';
import type { RunningServer } from './mongoJavaServer.js';

const PROBE_TIMEOUT_MS = 3_000;

/** Path of an already present mongod binary (system binary or earlier download), if any. */
async function presentBinary(): Promise<string | undefined> {
  const options = await DryMongoBinary.generateOptions();
  return DryMongoBinary.locateBinary(options);
}

/** One quick request to the download mirror, so an offline machine fails over in seconds. */
async function mirrorReachable(): Promise<boolean> {
  const mirror = process.env.MONGOMS_DOWNLOAD_MIRROR ?? 'https://fastdl.mongodb.org';
  try {
    await fetch(mirror, { method: 'HEAD', signal: AbortSignal.timeout(PROBE_TIMEOUT_MS) });
    return true;
  } catch {
    return false;
  }
}

/**
 * A real mongod through mongodb-memory-server, when a binary is present or can be
 * downloaded. Returns undefined (quickly) when neither is the case.
 */
export async function tryStartMongod(
  options: { dbPath?: string; force: boolean },
  log: Logger,
): Promise<RunningServer | undefined> {
  const binary = await presentBinary().catch(() => undefined);
  if (!binary && !options.force && !(await mirrorReachable())) {
    log.debug(
      { event: 'db.mongod.unavailable' },
      'no mongod binary present and the download mirror is unreachable',
    );
    return undefined;
  }
  try {
    if (options.dbPath) mkdirSync(options.dbPath, { recursive: true });
    // A replica set of one: MongoDB reads a whole database at one instant (read concern
    // snapshot, what a backup needs) only on a replica set, never on a lone mongod.
    const server = await MongoMemoryReplSet.create({
      replSet: { count: 1, storageEngine: 'wiredTiger' },
      instanceOpts: [options.dbPath ? { dbPath: options.dbPath, storageEngine: 'wiredTiger' } : {}],
    });
    return {
      uri: server.getUri(),
      async stop() {
        await server.stop({ doCleanup: !options.dbPath });
      },
    };
  } catch (error) {
    if (options.force) throw error;
    log.warn({ event: 'db.mongod.failed', err: error }, 'mongodb-memory-server could not start a mongod');
    return undefined;
  }
}
