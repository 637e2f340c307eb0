import { type ChildProcessWithoutNullStreams, spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync } from 'node:fs';
import { totalmem } from 'node:os';
import { createInterface } from 'node:readline';
import { z } from 'zod';
import type { Logger } from '../logger.js';
import { fromRoot } from '../paths.js';

export const MONGO_JAVA_SERVER_VERSION = '1.47.0';

const TOOL_DIR = fromRoot('tools', 'mongo-java-server');
const LAUNCHER_SOURCE = `${TOOL_DIR}/MongoLauncher.java`;
const START_TIMEOUT_MS = 60_000;

/**
 * The persistent H2 backend (every bot and console without MONGODB_URI) keeps its documents on
 * disk, but the heap still holds what a request reads: H2's page cache (16 MB), every match of a
 * query (the launcher narrows only by unique indexes there; docs/architecture.md, "The database")
 * and, while a backup reads, a copy of the whole database. Measured with the ledger's shapes
 * (50,000 to 120,000 documents, about 1 MB of H2 file per 1,000): the tour holds 6 MB after a
 * collection; a backup about 3.5 MB of heap per MB of file, `npm run check:invariants` about 5 (a
 * 256 MB heap ran it at 49 MB of file and ran out at 57). So the ceiling follows the data: 8 MB per
 * MB of the file when the server starts, at least 256 MB (about 50,000 documents; the tour's file
 * is 0.9 MB), at most half the memory this process may use. The heap starts at 8 MB and grows
 * only as a request asks, so the ceiling costs nothing until a backup or a check needs it (what
 * they took then stays resident until the next full collection: Serial gives memory back only
 * there). EMBEDDED_DB_HEAP_MB replaces the computed value; the start logs it (`db.java.heap`).
 */
const H2_HEAP_PER_FILE_MB = 8;
const H2_MIN_HEAP_MB = 256;

/**
 * The JVM's own share, beside the heap, for the H2 backend (measured with the tour, peak
 * resident: 205 MB as started before, 60-70 MB with all of these):
 * - a launcher compiled once (`ensureLauncher`) instead of `java MongoLauncher.java`, which
 *   loads javac into every server: 75 MB less at idle;
 * - `-XX:+UseSerialGC`: one small collector for a heap this size, where G1 (the JVM's choice on
 *   two cores) keeps regions, remembered sets and a heap it grows ahead of need;
 * - `-XX:TieredStopAtLevel=1`: the C1 compiler only. C2's arenas and code took 30 MB; the
 *   ledger bench on H2 ran 15-45 % slower (debits least, hot payments most), still hundreds of
 *   operations a second, far above what a community asks of its database;
 * - `-Xms8m`: the heap starts small and grows with what is asked of it (the JVM's default start
 *   is 1/64 of the machine, all of it resident after a few collections).
 * Tried and left out, as they changed nothing measurable: MALLOC_ARENA_MAX=2, capping metaspace
 * (10 MB used) or the code cache (6 MB with C1); a cap there only turns growth into a crash. G1
 * with periodic collections and Shenandoah held 30 and 130 MB more through the tour.
 */
const H2_JVM = ['-XX:+UseSerialGC', '-XX:TieredStopAtLevel=1', '-Xms8m'];

/**
 * The memory backend keeps every document in the Java heap and serves what the run puts in:
 * `npm test` (measured: at most 210 MB live with four of its largest files, two at a time as the
 * suite runs them; each file drops its database) and the simulation and benches (a year of 50
 * members or a month of 1,000: about 2 and 3 million documents at about 3.7 KB each), so its
 * ceiling stays a share of the machine (70 %: the JVM's default quarter was too small for the
 * year). It grows only as documents come, so a test's server stays small. EMBEDDED_DB_HEAP_MB,
 * when set, caps it too.
 * Field names and repeated values (account ids, kinds, currencies) are strings in every
 * document: deduplicated by the collector, 600,000 documents of the simulation's kinds took
 * 0.95 GB instead of 1.25 GB.
 */
const MEMORY_BACKEND_HEAP = ['-XX:MaxRAMPercentage=70', '-XX:+UseStringDeduplication'];

/**
 * Both backends: `-Xss4m` as ever (a thread's stack is resident only as deep as it is used); a
 * heap that ran out exits at once instead of leaving H2 or a half-answered command behind, and
 * this process then stops with a fatal error naming the ceiling, which its supervisor restarts.
 */
const COMMON_JVM = ['-Xss4m', '-XX:+ExitOnOutOfMemoryError'];

const heapSchema = z.coerce
  .number()
  .int()
  .min(32, 'must be at least 32 (MB)')
  .max(1_048_576, 'must be at most 1048576 (MB)')
  .optional();

/** EMBEDDED_DB_HEAP_MB: the embedded Java server's heap ceiling in MB, when an operator sets one. */
export function embeddedHeapMbFromEnv(env: NodeJS.ProcessEnv = process.env): number | undefined {
  const raw = env.EMBEDDED_DB_HEAP_MB?.trim();
  const parsed = heapSchema.safeParse(raw === '' ? undefined : raw);
  if (!parsed.success) {
    throw new Error(`EMBEDDED_DB_HEAP_MB: ${parsed.error.issues.map((i) => i.message).join('; ')}`);
  }
  return parsed.data;
}

/** The memory this process may use: the machine's, or less when a cgroup (systemd's MemoryMax) limits it. */
function availableMb(): number {
  const limit = process.constrainedMemory();
  return (limit > 0 && limit < totalmem() ? limit : totalmem()) / 2 ** 20;
}

/** The H2 backend's heap ceiling for the data in `file` (see H2_HEAP_PER_FILE_MB). */
export function h2HeapMb(file: string, machineMb = availableMb()): number {
  const fileMb = existsSync(file) ? statSync(file).size / 2 ** 20 : 0;
  return Math.round(Math.min(Math.max(H2_MIN_HEAP_MB, H2_HEAP_PER_FILE_MB * fileMb), machineMb / 2));
}

/** The JVM's options for a backend; `heapMb` (EMBEDDED_DB_HEAP_MB) replaces the default ceiling. */
export function jvmOptions(backend: JavaBackend, heapMb: number | undefined): string[] {
  if (backend.kind === 'h2') return [...COMMON_JVM, ...H2_JVM, `-Xmx${heapMb ?? h2HeapMb(backend.file)}m`];
  return [
    ...COMMON_JVM,
    ...(heapMb === undefined ? MEMORY_BACKEND_HEAP : [`-Xmx${heapMb}m`, '-XX:+UseStringDeduplication']),
  ];
}

export interface RunningServer {
  uri: string;
  stop(): Promise<void>;
}

export type JavaBackend = { kind: 'memory' } | { kind: 'h2'; file: string };

function versionDir(): string {
  return fromRoot('.cache', 'mongo-java-server', MONGO_JAVA_SERVER_VERSION);
}

function libDir(): string {
  return `${versionDir()}/lib`;
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
  mkdirSync(versionDir(), { recursive: true });
  rmSync(lib, { recursive: true, force: true });
  renameSync(staging, lib);
  return lib;
}

/**
 * Compiles the launcher into .cache/ once per version of its source (the folder is named for
 * its hash, so an edited launcher is compiled again). Running the `.java` file directly would
 * load the compiler into every server for its whole life. Without `javac` on the PATH: null,
 * and the server runs the source as before.
 */
export function ensureLauncher(lib: string, log: Logger): string | null {
  const hash = createHash('sha256').update(readFileSync(LAUNCHER_SOURCE)).digest('hex').slice(0, 16);
  const classes = `${versionDir()}/launcher-${hash}`;
  if (existsSync(`${classes}/MongoLauncher.class`)) return classes;
  const staging = `${classes}.tmp-${process.pid}`;
  rmSync(staging, { recursive: true, force: true });
  const result = spawnSync(
    'javac',
    ['-nowarn', '-encoding', 'UTF-8', '-cp', `${lib}/*`, '-d', staging, LAUNCHER_SOURCE],
    { stdio: ['ignore', 'pipe', 'pipe'], encoding: 'utf8' },
  );
  if ((result.error as NodeJS.ErrnoException | undefined)?.code === 'ENOENT') {
    rmSync(staging, { recursive: true, force: true });
    log.warn({ event: 'db.java.no_javac' }, 'javac not found: the launcher runs from its source');
    return null;
  }
  if (result.error || result.status !== 0) {
    rmSync(staging, { recursive: true, force: true });
    const reason = result.error?.message ?? `${result.stdout}\n${result.stderr}`.trim().slice(-2000);
    throw new Error(`Could not compile ${LAUNCHER_SOURCE}: ${reason}`);
  }
  try {
    renameSync(staging, classes);
  } catch (error) {
    // Another process compiled the same source meanwhile: its classes are the same.
    rmSync(staging, { recursive: true, force: true });
    if (!existsSync(`${classes}/MongoLauncher.class`)) throw error;
  }
  return classes;
}

/** Resolves with the address the server prints once it listens; an exit before that rejects. */
function listeningAddress(child: ChildProcessWithoutNullStreams, stderr: () => string): Promise<string> {
  return new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`mongo-java-server did not start within ${START_TIMEOUT_MS} ms: ${stderr()}`));
    }, START_TIMEOUT_MS);
    createInterface({ input: child.stdout }).on('line', (line) => {
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
      reject(new Error(`mongo-java-server exited early (code ${code}, signal ${signal}): ${stderr()}`));
    });
  });
}

/**
 * Starts mongo-java-server on a free loopback port. The Java process watches its standard
 * input and exits when this process goes away, so it never outlives us. It runs in a process
 * group of its own: Ctrl-C in a terminal (SIGINT to the whole group) reaches only this
 * process, which stops gracefully and then stops the server, instead of losing its database
 * while it flushes. A server that exits on its own (its heap ran out, it was killed) is a
 * failure nothing can handle here: it is thrown, and the process guard stops the process so
 * its supervisor starts both again.
 */
export async function startMongoJavaServer(
  backend: JavaBackend,
  log: Logger,
  options: { heapMb?: number } = {},
): Promise<RunningServer> {
  const lib = ensureJars(log);
  const classes = ensureLauncher(lib, log);
  const heapMb = options.heapMb ?? embeddedHeapMbFromEnv();
  const jvm = jvmOptions(backend, heapMb);
  const xmx = jvm.find((o) => o.startsWith('-Xmx'));
  const ceiling = xmx ? `${xmx.slice(4, -1)} MB` : '70 % of the machine';
  const source = heapMb ? 'EMBEDDED_DB_HEAP_MB' : 'default';
  log.info(
    { event: 'db.java.heap', backend: backend.kind, ceiling, source },
    `embedded database heap ceiling ${ceiling}`,
  );
  const args = [
    ...jvm,
    '-cp',
    classes ? `${lib}/*:${classes}` : `${lib}/*`,
    classes ? 'MongoLauncher' : LAUNCHER_SOURCE,
    backend.kind,
    ...(backend.kind === 'h2' ? [backend.file] : []),
  ];
  const child = spawn('java', args, { stdio: ['pipe', 'pipe', 'pipe'], detached: true });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-4000);
  });
  const address = await listeningAddress(child, () => stderr);

  let stopping = false;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.once('exit', (code, signal) => {
    if (stopping) return;
    throw new Error(
      `the embedded database stopped on its own (code ${code}, signal ${signal}; heap ceiling ${ceiling}, EMBEDDED_DB_HEAP_MB raises it): ${stderr.trim().slice(-1000)}`,
    );
  });
  return {
    uri: `mongodb://${address}/`,
    async stop() {
      stopping = true;
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.stdin.end();
      const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
      await exited;
      clearTimeout(timer);
    },
  };
}
