import { type ChildProcess, spawn } from 'node:child_process';

const TSX = ['--import', 'tsx'];

/** Runs a TypeScript entry point of this repo to completion; returns its exit and output. */
export function runNode(
  args: string[],
  options: { env?: Record<string, string | undefined>; input?: string } = {},
): Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...TSX, ...args], {
      env: { ...process.env, ...options.env },
      stdio: [options.input === undefined ? 'ignore' : 'pipe', 'pipe', 'inherit'],
    });
    child.stdin?.end(options.input);
    let stdout = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    child.once('error', reject);
    child.once('exit', (code, signal) => resolve({ code, signal, stdout }));
  });
}

export interface LoggingProcess {
  child: ChildProcess;
  logs(): string;
  /** Resolves once the process logged `text`; fails if it exits or takes over a minute. */
  waitForLog(text: string): Promise<void>;
  /** Sends SIGTERM and resolves with the exit code. */
  terminate(): Promise<number | null>;
}

/** Starts a long-running entry point (the bot) whose pino logs arrive on stderr. */
export function startNode(args: string[], env: Record<string, string | undefined>): LoggingProcess {
  const child = spawn(process.execPath, [...TSX, ...args], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let logs = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    logs += chunk.toString();
  });
  return {
    child,
    logs: () => logs,
    async waitForLog(text) {
      const started = Date.now();
      while (!logs.includes(text)) {
        if (child.exitCode !== null || Date.now() - started > 60_000) {
          throw new Error(`process never logged ${text}:\n${logs}`);
        }
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    },
    terminate() {
      const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
      child.kill('SIGTERM');
      return exited;
    },
  };
}
