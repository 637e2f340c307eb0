import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, open, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { runPool } from '../src/concurrency.js';
import type { Behaviours } from './behaviours.js';
import type { DayStats } from './dayStats.js';
import { runSimulation } from './run.js';
import { type Summary, summarize } from './summary.js';

/** One run of the matrix: a community size with one seed. */
export interface RunPlan {
  agents: number;
  seed: number;
  days: number;
  /** At least so many members per greedy strategy (sim/agent.ts, `GreedyFloor`). */
  perStrategy: number;
  behavioursFile: string;
  settings: [string, string][];
}

/** What the matrix keeps of a run: its figures, each violation by day, and its wall time. */
export interface RunOutcome {
  summary: Summary;
  violations: string[];
  seconds: number;
}

/** Runs one plan in this process; `onDay` sees each day as it ends. */
export async function runPlan(
  plan: RunPlan,
  behaviours: Behaviours,
  onDay?: (day: DayStats) => void,
): Promise<RunOutcome> {
  const started = performance.now();
  const result = await runSimulation({
    behaviours,
    days: plan.days,
    agents: plan.agents,
    seed: plan.seed,
    settings: plan.settings,
    greedyFloor: { perStrategy: plan.perStrategy },
    ...(onDay ? { onDay } : {}),
  });
  return {
    summary: summarize(result),
    // A violation is never only counted: each one is named, with its day.
    violations: result.days.flatMap((d) => d.violations.map((problem) => `day ${d.day}: ${problem}`)),
    seconds: (performance.now() - started) / 1000,
  };
}

/** A run's outcome as a file (its one Map as entries), for a parent process to read back. */
export async function writeOutcome(file: string, outcome: RunOutcome): Promise<void> {
  const summary = { ...outcome.summary, cookiesPerHourByPath: [...outcome.summary.cookiesPerHourByPath] };
  await writeFile(file, JSON.stringify({ ...outcome, summary }));
}

async function readOutcome(file: string): Promise<RunOutcome> {
  const raw = JSON.parse(await readFile(file, 'utf8')) as RunOutcome & {
    summary: Summary & { cookiesPerHourByPath: [string, number][] };
  };
  return {
    ...raw,
    summary: { ...raw.summary, cookiesPerHourByPath: new Map(raw.summary.cookiesPerHourByPath) },
  };
}

/**
 * Every plan, up to `jobs` at once. Runs are independent (each has its own embedded database
 * server, its own seeded randomness), so with `jobs` above 1 each runs in a child process of
 * its own (`sim/main.ts --outcome-json`). A run keeps about 1.3 cores busy (its Node process
 * and its database server), so on this two-core machine two side by side take about as long
 * as one after the other (20 members: 31 s a simulated day each, against 16 s alone); on a
 * larger machine they finish in half the time. A child's day lines go to `<logDir>/<members>-seed<seed>.log`, to follow a long matrix
 * while it runs. Outcomes come back in the plans' order (null for a run that crashed: named on
 * stderr, left out of the figures); `onDone` sees each as it finishes.
 */
export async function runPlans(
  plans: readonly RunPlan[],
  options: { jobs: number; behaviours: Behaviours; logDir: string },
  onDone: (plan: RunPlan, outcome: RunOutcome) => void,
): Promise<(RunOutcome | null)[]> {
  const { jobs, behaviours, logDir } = options;
  const dir = jobs > 1 ? await mkdtemp(path.join(tmpdir(), 'sim-matrix-')) : null;
  if (dir) await mkdir(logDir, { recursive: true });
  try {
    const settled = await runPool(plans.length, jobs, async (i) => {
      const plan = plans[i] as RunPlan;
      const log = path.join(logDir, `${plan.agents}-seed${plan.seed}.log`);
      const outcome = dir
        ? await runInChild(plan, path.join(dir, `run-${i}.json`), log)
        : await runPlan(plan, behaviours);
      onDone(plan, outcome);
      return outcome;
    });
    // A run that crashed is named and left out; the others still make the matrix.
    return settled.map((s, i) => {
      if (s.status === 'fulfilled') return s.value;
      const plan = plans[i] as RunPlan;
      console.error(`the run of ${plan.agents} members, seed ${plan.seed} failed: ${String(s.reason)}`);
      return null;
    });
  } finally {
    if (dir) await rm(dir, { recursive: true, force: true });
  }
}

/** The same run by `sim/main.ts` in a child process, which writes its outcome to `file`. */
async function runInChild(plan: RunPlan, file: string, logFile: string): Promise<RunOutcome> {
  const args = [
    '--import',
    'tsx',
    path.join(import.meta.dirname, 'main.ts'),
    ...['--agents', String(plan.agents), '--seed', String(plan.seed), '--days', String(plan.days)],
    ...['--greedy-floor', String(plan.perStrategy), '--behaviours', plan.behavioursFile],
    ...plan.settings.flatMap(([key, value]) => ['--set', `${key}=${value}`]),
    ...['--outcome-json', file],
  ];
  const log = await open(logFile, 'w');
  const code = await new Promise<number | null>((resolve, reject) => {
    const child = spawn(process.execPath, args, { stdio: ['ignore', log.fd, 'inherit'] });
    child.once('error', reject);
    child.once('exit', resolve);
  }).finally(() => log.close());
  // Exit 1 is a run with violations: its outcome names them. Anything else is a crash.
  if (code !== 0 && code !== 1) {
    throw new Error(`the run of ${plan.agents} members, seed ${plan.seed} ended with exit code ${code}`);
  }
  return readOutcome(file);
}
