import { mkdirSync } from 'node:fs';
import { type Db, MongoClient } from 'mongodb';
import type { Config } from '../config.js';
import type { Logger } from '../logger.js';
import { ensureIndexes } from './collections.js';
import { DatabaseHealth } from './databaseHealth.js';
import { tryStartMongod } from './mongodMemoryServer.js';
import { type RunningServer, startMongoJavaServer } from './mongoJavaServer.js';
import { findRunningServer, recordRunningServer } from './runningServer.js';

export type ServerKind = 'uri' | 'mongod' | 'mongo-java-server';

export interface DatabaseServer {
  kind: ServerKind;
  uri: string;
  persistent: boolean;
  /** The process that started the embedded server, when it is another one (src/db/runningServer.ts). */
  startedBy?: number;
  stop(): Promise<void>;
}

export interface Database {
  client: MongoClient;
  db: Db;
  server: DatabaseServer;
  /** Whether the driver can reach the server now. */
  health: DatabaseHealth;
  close(): Promise<void>;
}

/**
 * Chooses the MongoDB server, in this order, identically for tests and local runs:
 * 1. MONGODB_URI; 2. in a persistent run, the embedded server another live process runs on
 * DATA_DIR (the bot, while `npm run backup` runs beside it); 3. a real mongod via
 * mongodb-memory-server (binary present or downloadable); 4. mongo-java-server on the JVM (in
 * memory for tests, an H2 file under DATA_DIR for persistent local runs).
 */
export async function startDatabaseServer(
  config: Config['mongo'],
  options: { persistent: boolean },
  log: Logger,
): Promise<DatabaseServer> {
  const pick = async (): Promise<DatabaseServer> => {
    if (config.uri) return { kind: 'uri', uri: config.uri, persistent: true, stop: async () => {} };
    if (options.persistent) {
      const running = await findRunningServer(config.dataDir);
      if (running) {
        const kind = running.kind === 'mongod' ? 'mongod' : 'mongo-java-server';
        return { kind, uri: running.uri, persistent: true, startedBy: running.pid, stop: async () => {} };
      }
    }
    if (config.embedded !== 'java') {
      const dbPath = options.persistent ? `${config.dataDir}/mongod` : undefined;
      const mongod = await tryStartMongod({ dbPath, force: config.embedded === 'mongod' }, log);
      if (mongod) return fromRunning('mongod', mongod, options.persistent, config.dataDir);
    }
    const backend = options.persistent
      ? ({ kind: 'h2', file: `${config.dataDir}/mongo-java-server.mv` } as const)
      : ({ kind: 'memory' } as const);
    if (backend.kind === 'h2') mkdirSync(config.dataDir, { recursive: true });
    return fromRunning(
      'mongo-java-server',
      await startMongoJavaServer(backend, log),
      options.persistent,
      config.dataDir,
    );
  };
  const server = await pick();
  log.info(
    { event: 'db.selected', kind: server.kind, persistent: server.persistent, uri: redact(server.uri) },
    `database: ${describeServer(server)}`,
  );
  return server;
}

/** A server this process started; a persistent one is recorded for the commands run beside it. */
function fromRunning(
  kind: ServerKind,
  running: RunningServer,
  persistent: boolean,
  dataDir: string,
): DatabaseServer {
  const forget = persistent
    ? recordRunningServer(dataDir, { uri: running.uri, pid: process.pid, kind })
    : () => {};
  return {
    kind,
    uri: running.uri,
    persistent,
    async stop() {
      forget();
      await running.stop();
    },
  };
}

export function describeServer(server: DatabaseServer): string {
  switch (server.kind) {
    case 'uri':
      return `MONGODB_URI (${redact(server.uri)})`;
    case 'mongod':
      return `embedded mongod via mongodb-memory-server${server.persistent ? ' (persistent)' : ' (in memory)'}${startedBy(server)}`;
    case 'mongo-java-server':
      return `embedded mongo-java-server${server.persistent ? ' (H2 file under DATA_DIR)' : ' (in memory)'}${startedBy(server)}`;
  }
}

function startedBy(server: DatabaseServer): string {
  return server.startedBy === undefined ? '' : `, started by process ${server.startedBy}`;
}

function redact(uri: string): string {
  return uri.replace(/\/\/[^@/]*@/, '//***@');
}

/**
 * Bounds on every wait of the driver, so no request waits forever: the ledger also stops
 * waiting for one request after LEDGER_REQUEST_TIMEOUT_MS and decides it (ECONOMY.md);
 * the socket timeout is the backstop that frees a connection whose reply never came.
 * (Driver 6.22 no longer honours the experimental `timeoutMS`.)
 */
export const MONEY_PATH_CLIENT_OPTIONS = {
  serverSelectionTimeoutMS: 10_000,
  // An idle bot learns within seconds that its database is gone (DatabaseHealth).
  heartbeatFrequencyMS: 2_000,
  connectTimeoutMS: 10_000,
  socketTimeoutMS: 30_000,
  maxPoolSize: 64,
} as const;

/**
 * Connects a client to a chosen server, selects the database and creates every index.
 * `monitorCommands` makes the client emit an event per command (the simulation's profile);
 * `patientMs` replaces every bound of the driver's waits (socket, connect and the monitor's
 * heartbeat, server selection) for a client whose reads may be long on a busy server (the
 * simulation's reads of its whole history).
 */
export async function connectDatabase(
  uri: string,
  dbName: string,
  options: { monitorCommands?: boolean; patientMs?: number } = {},
): Promise<Pick<Database, 'client' | 'db'>> {
  const { patientMs, ...rest } = options;
  const patience =
    patientMs === undefined
      ? {}
      : { socketTimeoutMS: patientMs, connectTimeoutMS: patientMs, serverSelectionTimeoutMS: patientMs };
  const client = new MongoClient(uri, { ...MONEY_PATH_CLIENT_OPTIONS, ...rest, ...patience });
  await client.connect();
  const db = client.db(dbName);
  await ensureIndexes(db);
  return { client, db };
}

/** Start-up path of the bot: choose the server, connect, index. */
export async function openDatabase(
  config: Config['mongo'],
  options: { persistent: boolean },
  log: Logger,
): Promise<Database> {
  const server = await startDatabaseServer(config, options, log);
  try {
    const { client, db } = await connectDatabase(server.uri, config.dbName);
    return {
      client,
      db,
      server,
      health: new DatabaseHealth(client, log),
      async close() {
        await client.close();
        await server.stop();
      },
    };
  } catch (error) {
    await server.stop();
    throw error;
  }
}
