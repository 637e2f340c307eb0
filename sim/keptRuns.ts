/**
 * A matrix run's outcome kept on disk, next to its day lines (`out/sim/runs/`), so that a matrix
 * of several hours can be finished over several sittings (`--reuse`) and a crash costs only its
 * own run. The file names the plan it answers, the behaviours it ran with (their digest, not
 * their path) and the code (git commit), so that only a run of the same plan is ever reused and
 * the table says which code each figure came from.
 */

import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Summary } from './summary.js';

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
  /** Each simulated day's wall time, checks included (outcomes kept before it have none). */
  dayMs?: number[];
}

/** A run's outcome as a file: what it answers and which code gave it. */
export interface KeptOutcome extends RunOutcome {
  plan: RunPlan;
  behavioursSha256: string;
  /** `git rev-parse --short HEAD`, with `+changes` when tracked files differed from it. */
  commit: string;
  finishedAt: string;
}

/** Where a plan's outcome is kept (its day lines are beside it, `.log`). */
export const keptFile = (dir: string, plan: RunPlan, ext: 'json' | 'log') =>
  path.join(dir, `${plan.agents}-seed${plan.seed}-${plan.days}d.${ext}`);

export async function behavioursDigest(file: string): Promise<string> {
  return createHash('sha256')
    .update(await readFile(file))
    .digest('hex');
}

/** The commit this code is at, or `unknown` outside a git checkout. */
export function codeVersion(): string {
  try {
    const git = (...args: string[]) => execFileSync('git', args, { encoding: 'utf8', stdio: 'pipe' }).trim();
    const commit = git('rev-parse', '--short', 'HEAD');
    return git('status', '--porcelain', '--untracked-files=no') === '' ? commit : `${commit}+changes`;
  } catch {
    return 'unknown';
  }
}

/** Writes the outcome whole or not at all (a run killed while writing leaves no half file). */
export async function writeKept(file: string, kept: KeptOutcome): Promise<void> {
  const summary = { ...kept.summary, cookiesPerHourByPath: [...kept.summary.cookiesPerHourByPath] };
  await writeFile(`${file}.tmp`, JSON.stringify({ ...kept, summary }, null, 1));
  await rename(`${file}.tmp`, file);
}

export async function readKept(file: string): Promise<KeptOutcome> {
  const raw = JSON.parse(await readFile(file, 'utf8')) as KeptOutcome & {
    summary: Summary & { cookiesPerHourByPath: [string, number][] };
  };
  return {
    ...raw,
    summary: { ...raw.summary, cookiesPerHourByPath: new Map(raw.summary.cookiesPerHourByPath) },
  };
}

/**
 * The kept outcome of exactly this plan, or null: a missing or unreadable file, another number
 * of days, members per strategy, settings or behaviours is a run still to do.
 */
export async function keptFor(file: string, plan: RunPlan, digest: string): Promise<KeptOutcome | null> {
  const kept = await readKept(file).catch(() => null);
  if (!kept || kept.behavioursSha256 !== digest) return null;
  const same =
    kept.plan.agents === plan.agents &&
    kept.plan.seed === plan.seed &&
    kept.plan.days === plan.days &&
    kept.plan.perStrategy === plan.perStrategy &&
    JSON.stringify(kept.plan.settings) === JSON.stringify(plan.settings);
  return same ? kept : null;
}
