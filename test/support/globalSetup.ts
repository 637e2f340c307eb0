import type { TestProject } from 'vitest/node';
import { loadConfig } from '../../src/config.js';
import { startDatabaseServer } from '../../src/db/connect.js';
import { createLogger } from '../../src/logger.js';

declare module 'vitest' {
  export interface ProvidedContext {
    mongoUri: string;
    mongoKind: string;
  }
}

/** Starts the one database server of a test run, chosen exactly as for local runs. */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const config = loadConfig(process.env);
  const log = createLogger(process.env.LOG_LEVEL ?? 'info');
  const server = await startDatabaseServer(config.mongo, { persistent: false }, log);
  project.provide('mongoUri', server.uri);
  project.provide('mongoKind', server.kind);
  return () => server.stop();
}
