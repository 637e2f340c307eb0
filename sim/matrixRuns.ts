import { spawn } from 'node:child_process';
import { mkdir, open } from 'node:fs/promises';
import path from 'node:path';
import { runPool } from '../src/concurrency.js';
import type { Behaviours } from './behaviours.js';
import type { DayStats } from './dayStats.js';
import {
  codeVersion,
  type KeptOutcome,
  keptFile,
  keptFor,
  type RunOutcome,
  type RunPlan,
  readKept,
  writeKept,
} from './keptRuns.js';
import { runSimulation } from './run.js';
import { dayLine, summarize } from './summary.js';

export type { RunOutcome, RunPlan } from './keptRuns.js';

/** Runs one plan in this process; `onDay` sees each day as it ends. */
export async function runPlan(
  plan: RunPlan,
  behaviours: Behaviours,
  onDay?: (day: DayStats, ms: number) => void,
): Promise<RunOutcome> {
  const started = performance.now();
  let dayStarted = started;
  const dayMs: number[] = [];
  const result = await runSimulation({
    behaviours,
    days: plan.days,
    agents: plan.agents,
    seed: plan.seed,
    settings: plan.settings,
    greedyFloor: { perStrategy: plan.perStrategy },
    onDay: (day) => {
      dayMs.push(performance.now() - dayStarted);
      dayStarted = performance.now();
      onDay?.(day, dayMs.at(-1) as number);
    },
  });
  return {
    summary: summarize(result),
    // A violation is never only counted: each one is named, with its day.
    violations: result.days.flatMap((d) => d.violations.map((problem) => `day ${d.day}: ${problem}`)),
    seconds: (performance.now() - started) / 1000,
    dayMs,
  };
}

/** Runs one plan with its day lines on stdout, and keeps its outcome in `file` (a matrix's child). */
export async function runAndKeep(
  plan: RunPlan,
  behaviours: Behaviours,
  file: string,
  behavioursSha256: string,
): Promise<KeptOutcome> {
  const outcome = await runPlan(plan, behaviours, (d, ms) => console.log(dayLine(d, ms)));
  const kept = {
    ...outcome,
    plan,
    behavioursSha256,
    commit: codeVersion(),
    finishedAt: new Date().toISOString(),
  };
  await writeKept(file, kept);
  return kept;
}

/**
 * Every plan, up to `jobs` at once, each in a child process of its own (`sim/main.ts
 * --outcome-json`) with its own embedded database server and seeded randomness. A run keeps
 * about 1.3 cores busy (its Node process and its database server), so on this two-core machine
 * two side by side take about as long as one after the other (20 members: 31 s a simulated
 * day each, against 16 s alone); on a larger machine they finish in half the time. Each run's
 * day lines go to `<dir>/<members>-seed<seed>-<days>d.log`, to follow a long matrix while it
 * runs, and its outcome to the `.json` beside it (sim/keptRuns.ts). With `reuse`, a plan whose
 * outcome is kept there is not run again: a matrix of hours can be finished over several
 * sittings. Outcomes come back in the plans' order (null for a run that crashed: named on
 * stderr, left out of the figures); `onDone` sees each as it finishes.
 */
export async function runPlans(
  plans: readonly RunPlan[],
  options: { jobs: number; dir: string; reuse: boolean; behavioursSha256: string },
  onDone: (outcome: KeptOutcome, reused: boolean) => void,
): Promise<(KeptOutcome | null)[]> {
  const { jobs, dir, reuse, behavioursSha256 } = options;
  await mkdir(dir, { recursive: true });
  const settled = await runPool(plans.length, jobs, async (i) => {
    const plan = plans[i] as RunPlan;
    const file = keptFile(dir, plan, 'json');
    const kept = reuse ? await keptFor(file, plan, behavioursSha256) : null;
    const outcome = kept ?? (await runInChild(plan, file, keptFile(dir, plan, 'log')));
    onDone(outcome, kept !== null);
    return outcome;
  });
  // A run that crashed is named and left out; the others still make the matrix.
  return settled.map((s, i) => {
    if (s.status === 'fulfilled') return s.value;
    const plan = plans[i] as RunPlan;
    console.error(`the run of ${plan.agents} members, seed ${plan.seed} failed: ${String(s.reason)}`);
    return null;
  });
}

/** The same run by `sim/main.ts` in a child process, which writes its outcome to `file`. */
async function runInChild(plan: RunPlan, file: string, logFile: string): Promise<KeptOutcome> {
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
  return readKept(file);
}
