import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { createInterface } from 'node:readline';
import type { Logger } from '../logger.js';
import { fromRoot } from '../paths.js';

export const MONGO_JAVA_SERVER_VERSION = '1.47.0';

const TOOL_DIR = fromRoot('tools', 'mongo-java-server');
const START_TIMEOUT_MS = 60_000;

/**
 * The memory backend keeps every document in the Java heap, and the JVM's default ceiling is a
 * quarter of the machine's memory: a year of 50 members or a month of 1,000 (about 2 and 3
 * million documents at about 3.7 KB each) would not fit it. The heap may take up to 70 %; it
 * grows only as documents come, so a test's server stays small. Field names and repeated
 * values (account ids, kinds, currencies) are strings in every document: deduplicated by the
 * collector, 600,000 documents of the simulation's kinds took 0.95 GB instead of 1.25 GB.
 */
const MEMORY_BACKEND_HEAP = ['-XX:MaxRAMPercentage=70', '-XX:+UseStringDeduplication'];

export interface RunningServer {
  uri: string;
  stop(): Promise<void>;
}

export type JavaBackend = { kind: 'memory' } | { kind: 'h2'; file: string };

function libDir(): string {
  return fromRoot('.cache', 'mongo-java-server', MONGO_JAVA_SERVER_VERSION, 'lib');
}

/** Fetches the server's jars from Maven Central into .cache/ once; later starts reuse them. */
export function ensureJars(log: Logger): string {
  const lib = libDir();
  if (existsSync(lib) && readdirSync(lib).some((f) => f.startsWith('mongo-java-server-core'))) return lib;
  log.info({ event: 'db.java.fetch', lib }, 'fetching mongo-java-server jars with Maven (first run only)');
  const staging = `${lib}.tmp-${process.pid}`;
  rmSync(staging, { recursive: true, force: true });
  const result = spawnSync(
    'mvn',
    ['-q', '-B', '-f', `${TOOL_DIR}/pom.xml`, 'dependency:copy-dependencies', `-DoutputDirectory=${staging}`],
    { stdio: ['ignore', 'pipe', 'pipe'], encoding: 'utf8' },
  );
  if (result.error || result.status !== 0) {
    const reason = result.error?.message ?? `${result.stdout}\n${result.stderr}`.trim().slice(-2000);
    throw new Error(
      `Could not fetch mongo-java-server with Maven (is Java 17 + Maven installed?): ${reason}`,
    );
  }
  mkdirSync(fromRoot('.cache', 'mongo-java-server', MONGO_JAVA_SERVER_VERSION), { recursive: true });
  rmSync(lib, { recursive: true, force: true });
  renameSync(staging, lib);
  return lib;
}

/**
 * Starts mongo-java-server on a free loopback port. The Java process watches its
 * standard input and exits when this process goes away, so it never outlives us.
 */
export async function startMongoJavaServer(backend: JavaBackend, log: Logger): Promise<RunningServer> {
  const lib = ensureJars(log);
  const args = [
    '-Xss4m',
    ...(backend.kind === 'memory' ? MEMORY_BACKEND_HEAP : []),
    '-cp',
    `${lib}/*`,
    `${TOOL_DIR}/MongoLauncher.java`,
    backend.kind,
  ];
  if (backend.kind === 'h2') args.push(backend.file);
  const child = spawn('java', args, { stdio: ['pipe', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-4000);
  });

  const address = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`mongo-java-server did not start within ${START_TIMEOUT_MS} ms: ${stderr}`));
    }, START_TIMEOUT_MS);
    const lines = createInterface({ input: child.stdout });
    lines.on('line', (line) => {
      const match = /^LISTENING (\S+)$/.exec(line.trim());
      if (match?.[1]) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    });
    child.once('error', (error) => {
      clearTimeout(timer);
      reject(new Error(`could not run java: ${error.message}`));
    });
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`mongo-java-server exited early (code ${code}, signal ${signal}): ${stderr}`));
    });
  });

  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return {
    uri: `mongodb://${address}/`,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.stdin.end();
      const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
      await exited;
      clearTimeout(timer);
    },
  };
}
