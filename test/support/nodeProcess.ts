/**
 * The one harness for the Node processes the tests start: an entry point of the bot, or a
 * child script of test/support that dies in the middle of a money operation.
 *
 * Parent side (in a test):
 * - `runNode(args, options)`: runs an entry point to its end; its exit, signal and output.
 * - `startNode(args, env, options)`: a long-running process whose output a test waits on.
 * - `runCrashChild(script, plan, database)`: runs a crash child on the test's database until
 *   it kills itself at the planned step; `reached(where)` is the line it prints just before.
 *
 * Child side (in a script of test/support):
 * - `openChild()`: the plan the parent passed (JSON in argv[2]) and its database.
 * - `crashChild(body)`: `openChild`, then `body`, which calls `dieAt(where)` at the planned step.
 * - `dieAt(where)`: prints `reached(where)` and SIGKILLs its own process, as a crash would.
 *
 * Every wait here waits for something the process does (an exit, a line of output), with a
 * deadline; none waits for a length of time.
 */
import { type ChildProcess, type StdioOptions, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { type Db, MongoClient, type MongoClientOptions } from 'mongodb';
import { appCollections } from '../../app/openApp.js';
import type { Collections } from '../../src/db/collections.js';
import { waitFor } from './waitFor.js';

const TSX = ['--import', 'tsx'];
/** Scripts are given relative to the repository root, whatever the caller's directory. */
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
/**
 * The time a test that starts a process may take: a TypeScript process starting on a machine
 * busy with other suites takes tens of seconds, not one. A deadline, never a wait.
 */
export const PROCESS_TEST_TIMEOUT_MS = 180_000;
/** A crash child still running after this long hangs: it is stopped, and its test fails. */
const CRASH_CHILD_LIMIT_MS = 150_000;

type Env = Record<string, string | undefined>;

function spawnTs(args: string[], env: Env, stdio: StdioOptions): ChildProcess {
  return spawn(process.execPath, [...TSX, ...args], { cwd: ROOT, env: { ...process.env, ...env }, stdio });
}

export interface NodeRun {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  /** Empty unless `captureStderr`; otherwise it went to the test's own output. */
  stderr: string;
}

export interface RunOptions {
  env?: Env;
  /** Written to standard input, which is then closed. */
  input?: string;
  captureStderr?: boolean;
  /** Stops the process (SIGTERM) if it is still running after this long: a hang is a finding. */
  killAfterMs?: number;
}

/** Runs a TypeScript entry point of this repo to completion; returns its exit and output. */
export function runNode(args: string[], options: RunOptions = {}): Promise<NodeRun> {
  return new Promise((resolve, reject) => {
    const child = spawnTs(args, options.env ?? {}, [
      options.input === undefined ? 'ignore' : 'pipe',
      'pipe',
      options.captureStderr ? 'pipe' : 'inherit',
    ]);
    child.stdin?.end(options.input);
    let stdout = '';
    let stderr = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    child.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const limit =
      options.killAfterMs === undefined ? null : setTimeout(() => child.kill('SIGTERM'), options.killAfterMs);
    child.once('error', reject);
    // 'close', not 'exit': the output is all read by then (a crash child's last line with it).
    child.once('close', (code, signal) => {
      if (limit) clearTimeout(limit);
      resolve({ code, signal, stdout, stderr });
    });
  });
}

export interface LoggingProcess {
  child: ChildProcess;
  /** Everything the process wrote so far on the stream it is watched on. */
  logs(): string;
  /**
   * Resolves with the first match of `pattern` (a string is matched literally) in the output;
   * fails if the process exits first or nothing matches within `timeoutMs` (default 2 minutes).
   */
  waitForLog(pattern: string | RegExp, timeoutMs?: number): Promise<RegExpExecArray>;
  /** Resolves once the process has exited by itself, its output all read. */
  exited(): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** Sends `signal` unless the process already exited; resolves once it has, its output all read. */
  kill(signal?: NodeJS.Signals): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** Sends SIGTERM and resolves with the exit code. */
  terminate(): Promise<number | null>;
}

export interface StartOptions {
  /** The stream waited on: the bot's pino logs arrive on stderr (default); a script's lines on stdout. */
  watch?: 'stderr' | 'stdout';
  /** Keeps standard input open as a pipe (`child.stdin`), as a terminal at a prompt would be. */
  stdin?: boolean;
}

/** Starts a long-running entry point; its other output stream is passed through or ignored. */
export function startNode(args: string[], env: Env, options: StartOptions = {}): LoggingProcess {
  const watch = options.watch ?? 'stderr';
  const stdin = options.stdin ? 'pipe' : 'ignore';
  const child = spawnTs(
    args,
    env,
    watch === 'stderr' ? [stdin, 'ignore', 'pipe'] : [stdin, 'pipe', 'inherit'],
  );
  let logs = '';
  child[watch]?.on('data', (chunk: Buffer) => {
    logs += chunk.toString();
  });
  // 'close' comes once the process exited and its output is all read ('exit' may come before).
  let closed = false;
  const done = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('close', (code, signal) => {
      closed = true;
      resolve({ code, signal });
    }),
  );
  const kill: LoggingProcess['kill'] = (signal = 'SIGTERM') => {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    return done;
  };
  return {
    child,
    logs: () => logs,
    async waitForLog(pattern, timeoutMs = 120_000) {
      const regexp =
        typeof pattern === 'string' ? new RegExp(pattern.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')) : pattern;
      const found = await waitFor(() => regexp.exec(logs) ?? (closed ? ('exited' as const) : null), {
        timeoutMs,
        what: () => `${pattern} in the output of ${args[0]}:\n${logs}`,
      });
      if (found === 'exited') throw new Error(`${args[0]} exited before printing ${pattern}:\n${logs}`);
      return found;
    },
    exited: () => done,
    kill,
    async terminate() {
      return (await kill('SIGTERM')).code;
    },
  };
}

/** Where a child process finds the test's database; every child plan carries it. */
export interface ChildDatabase {
  uri: string;
  dbName: string;
}

/** The line a crash child prints just before it kills itself at `where`. */
export function reached(where: string): string {
  return `REACHED ${where}`;
}

/**
 * Runs a crash child (a script built on `crashChild`) with `plan` on the test's database, to
 * its end: normally its own SIGKILL at the planned step, after printing `reached(...)`.
 */
export function runCrashChild<P extends ChildDatabase>(
  script: string,
  plan: Omit<P, keyof ChildDatabase>,
  database: { uri: string; name: string },
): Promise<NodeRun> {
  const full = { ...plan, uri: database.uri, dbName: database.name };
  return runNode([script, JSON.stringify(full)], { killAfterMs: CRASH_CHILD_LIMIT_MS });
}

/** Child side: the plan in argv[2] and a connection to its database. */
export async function openChild<P extends ChildDatabase>(
  options: MongoClientOptions = {},
): Promise<{ plan: P; client: MongoClient; db: Db; cols: Collections }> {
  const plan = JSON.parse(process.argv[2] ?? '{}') as P;
  const client = new MongoClient(plan.uri, options);
  await client.connect();
  const db = client.db(plan.dbName);
  return { plan, client, db, cols: appCollections(db) };
}

/** Child side: a process dying at `where`, with no cleanup and no flush. */
export function dieAt(where: string): void {
  process.stdout.write(`${reached(where)}\n`);
  process.kill(process.pid, 'SIGKILL');
}

/**
 * Child side of a crash test: runs `body` on the plan's database; the body's hooks call
 * `dieAt` at the planned step. A body that ends (or fails) instead says so on stdout and the
 * process exits normally, which the parent's assertions on `reached(...)` and the signal catch.
 */
export async function crashChild<P extends ChildDatabase>(
  body: (child: { plan: P; db: Db; cols: Collections }) => Promise<unknown>,
): Promise<void> {
  const { plan, client, db, cols } = await openChild<P>();
  await body({ plan, db, cols }).catch((error: unknown) => process.stdout.write(`FAILED ${String(error)}\n`));
  process.stdout.write('FINISHED without reaching the kill point\n');
  await client.close();
}
