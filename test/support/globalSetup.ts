import type { TestProject } from 'vitest/node';
import { loadConfig } from '../../src/config.js';
import { type DatabaseServer, startDatabaseServer } from '../../src/db/connect.js';
import { createLogger } from '../../src/logger.js';

declare module 'vitest' {
  export interface ProvidedContext {
    mongoUri: string;
    mongoKind: string;
  }
}

/**
 * The run's one server, shared by the projects of vitest.config.ts: vitest calls this setup once
 * per project, and each call would otherwise start a database of its own. Kept on globalThis, as
 * each project may load this file anew.
 */
const SHARED = Symbol.for('cookie-place-bot.test.databaseServer');
type Shared = { server: Promise<DatabaseServer>; users: number };
const registry = globalThis as { [SHARED]?: Shared };

/** Starts the one database server of a test run, chosen exactly as for local runs. */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  registry[SHARED] ??= { server: start(), users: 0 };
  const shared = registry[SHARED];
  shared.users += 1;
  const server = await shared.server;
  project.provide('mongoUri', server.uri);
  project.provide('mongoKind', server.kind);
  return async () => {
    shared.users -= 1;
    if (shared.users > 0) return;
    delete registry[SHARED];
    await server.stop();
  };
}

function start(): Promise<DatabaseServer> {
  const config = loadConfig(process.env);
  const log = createLogger(process.env.LOG_LEVEL ?? 'info');
  return startDatabaseServer(config.mongo, { persistent: false }, log);
}
