/**
 * `npm run sim:economy -- [--days 30] [--agents 200] [--seed n] [--behaviours file] [--out dir]
 * [--set key=value]… [--profile-db]`, or over several sizes and seeds:
 * `npm run sim:economy -- --sizes 20,50,200 --seeds 3 [--days 30] [--seed first] [--jobs 2] [--reuse]`
 * (sim/matrix.ts): every size run with seeds first…first+k−1 (more for a size too small to give
 * each greedy strategy 10 members over k seeds; `--jobs` runs at once, each in a process of its own), each figure reported as a mean with its 95 %
 * interval, into `out/sim/matrix.md` and a last line (each run's outcome is kept in `out/sim/runs/`;
 * `--reuse` takes it instead of running the same plan again: sim/keptRuns.ts)
 * `economy: sizes=… seeds=… days=… supply_growth_pct_per_day=… vault_min_over_reserve=…
 * best_strategy/baseline=… best_strategy_hi95=… pixels_per_active_hour=… violations=…`.
 * A single run:
 * a month of a community through the real services on the embedded database, on a simulated
 * clock. Writes a Markdown report with charts to `out/sim/` and ends with the line
 * `economy: days=… agents=… supply_growth_pct_per_day=… vault_min_over_reserve=… gini=…
 * best_strategy/baseline=… pixels_per_active_hour=… violations=…`. Exit 1 on any violation.
 */

import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { archetypeCounts } from './agent.js';
import { type Behaviours, loadBehaviours } from './behaviours.js';
import { behavioursDigest } from './keptRuns.js';
import { figuresOf, matrixLine, type SizeFigures, writeMatrix } from './matrix.js';
import { type RunPlan, runAndKeep, runPlans } from './matrixRuns.js';
import { writeReport } from './report.js';
import { runSimulation, SettingRefused } from './run.js';
import { dayLine, speedLine, summarize, summaryLine } from './summary.js';

/** A single run's members per greedy strategy (the greedy floor, sim/agent.ts). */
const MIN_MEMBERS_PER_STRATEGY = 5;
/**
 * In a matrix, each greedy strategy's interval rests on at least so many members per size:
 * a doubling gambler's month is a few big losses among many small wins, and over five members
 * its interval spans more than the whole band it is judged by. A small community gives the
 * greedy at most half its members, so a size runs more seeds than asked until it has them
 * (20 members: 5 seeds).
 */
const MATRIX_MEMBERS_PER_STRATEGY = 10;

const { values } = parseArgs({
  options: {
    days: { type: 'string', default: '30' },
    agents: { type: 'string', default: '200' },
    seed: { type: 'string', default: '1' },
    /** Community sizes to compare (a list of member counts); with --seeds, a matrix of runs. */
    sizes: { type: 'string' },
    seeds: { type: 'string' },
    behaviours: { type: 'string', default: 'sim/behaviours.json' },
    out: { type: 'string', default: 'out/sim' },
    'profile-db': { type: 'boolean', default: false },
    /** A runtime setting changed before the run, as `/settings set` would: a candidate default. */
    set: { type: 'string', multiple: true, default: [] },
    /** How many runs of a matrix at once, each in a process of its own (sim/matrixRuns.ts). */
    jobs: { type: 'string', default: '1' },
    /** A matrix takes the outcome kept of a run it already made (same plan), instead of running it again. */
    reuse: { type: 'boolean', default: false },
    /** A matrix's child run: its members per greedy strategy, and where its outcome goes. */
    'greedy-floor': { type: 'string', default: String(MIN_MEMBERS_PER_STRATEGY) },
    'outcome-json': { type: 'string' },
  },
});
const number = (name: string, text: string, min: number, max: number) => {
  const n = Number(text);
  if (!Number.isInteger(n) || n < min || n > max) {
    console.error(`--${name} must be a whole number from ${min} to ${max} (got ${text})`);
    process.exit(2);
  }
  return n;
};
const days = number('days', values.days, 1, 365);
const agents = number('agents', values.agents, 2, 5_000);
const seed = number('seed', values.seed, 0, 2 ** 31);
const jobs = number('jobs', values.jobs, 1, 16);
const perStrategy = number('greedy-floor', values['greedy-floor'], 0, 1_000);
const behaviours = loadBehaviours(values.behaviours);
const settings = values.set.map((pair): [string, string] => {
  const at = pair.indexOf('=');
  if (at <= 0) {
    console.error(`--set takes key=value, as /settings set does (got ${pair})`);
    process.exit(2);
  }
  return [pair.slice(0, at), pair.slice(at + 1)];
});

if (values['outcome-json'] !== undefined) {
  const plan = { agents, seed, days, perStrategy, behavioursFile: values.behaviours, settings };
  // The day lines go to the matrix's log of this run (out/sim/runs/).
  const digest = await behavioursDigest(values.behaviours);
  const outcome = await runAndKeep(plan, behaviours, values['outcome-json'], digest);
  process.exit(outcome.violations.length === 0 ? 0 : 1);
}

if (values.sizes !== undefined || values.seeds !== undefined) {
  const sizes = (values.sizes ?? String(agents)).split(',').map((n) => number('sizes', n.trim(), 2, 5_000));
  const seeds = number('seeds', values.seeds ?? '1', 1, 100);
  process.exit(await runMatrix(sizes, seeds, behaviours, settings));
}

/** Every size with every seed, quietly; one line per run, then the table and the last line. */
async function runMatrix(
  sizes: number[],
  seeds: number,
  behaviours: Behaviours,
  settings: [string, string][],
): Promise<number> {
  const plans: RunPlan[] = sizes.flatMap((size) => {
    const perStrategy = Math.ceil(MATRIX_MEMBERS_PER_STRATEGY / seeds);
    const counts = archetypeCounts(behaviours.archetypes, size, { perStrategy });
    const fewest = Math.min(
      ...behaviours.archetypes.flatMap((a, i) => (a.strategy === 'honest' ? [] : [counts[i] ?? 0])),
    );
    const runs = Math.max(seeds, Math.ceil(MATRIX_MEMBERS_PER_STRATEGY / Math.max(1, fewest)));
    return Array.from({ length: runs }, (_, k) => ({
      agents: size,
      seed: seed + k,
      days,
      perStrategy,
      behavioursFile: values.behaviours,
      settings,
    }));
  });
  const options = {
    jobs,
    dir: path.join(values.out, 'runs'),
    reuse: values.reuse,
    behavioursSha256: await behavioursDigest(values.behaviours),
  };
  const outcomes = await runPlans(plans, options, (outcome, reused) => {
    const how = reused ? `kept from ${outcome.finishedAt}, ${outcome.commit}` : outcome.commit;
    console.log(
      `${summaryLine(outcome.summary)} seed=${outcome.plan.seed} (${outcome.seconds.toFixed(0)} s, ${how})`,
    );
    for (const problem of outcome.violations) console.log(`  violation ${problem}`);
  });
  const figures: SizeFigures[] = sizes.map((size) =>
    figuresOf(
      size,
      outcomes.flatMap((o, i) => (o && plans[i]?.agents === size ? [o.summary] : [])),
    ),
  );
  await mkdir(values.out, { recursive: true });
  const runs = outcomes.flatMap((o) => (o ? [o] : []));
  console.log(`report: ${await writeMatrix(values.out, figures, days, runs)}`);
  const line = matrixLine(figures, days);
  console.log(line);
  return figures.some((f) => f.violations > 0) || outcomes.includes(null) ? 1 : 0;
}

const started = performance.now();
let dayStarted = started;
/** Each day's wall time (play and checks), to show that a day costs the same at day 30 as at day 1. */
const dayTimes: number[] = [];
const result = await runSimulation({
  behaviours,
  days,
  agents,
  seed,
  settings,
  greedyFloor: { perStrategy },
  profileDb: values['profile-db'],
  onDay: (d, profile) => {
    console.log(dayLine(d, performance.now() - dayStarted));
    dayTimes.push(performance.now() - dayStarted);
    dayStarted = performance.now();
    for (const problem of d.violations) console.log(`  violation: ${problem}`);
    for (const c of profile?.commands ?? []) {
      console.log(`  db ${c.ms.toFixed(0).padStart(7)} ms ${String(c.count).padStart(7)}× ${c.shape}`);
    }
    for (const s of profile?.scans ?? []) {
      console.log(
        `  scan ${String(s.documents).padStart(10)} documents ${String(s.reads).padStart(6)}× ${s.shape}`,
      );
    }
  },
}).catch((error: unknown) => {
  // A setting an operator could not set (an unknown key, a value out of range): say which.
  if (!(error instanceof SettingRefused)) throw error;
  const { min, max } = error.refusal.context;
  const bounds = [min === undefined ? '' : `at least ${min}`, max === undefined ? '' : `at most ${max}`];
  const limits = bounds.filter(Boolean).join(', ');
  console.error(`--set: ${error.message}${limits ? ` (${limits})` : ''}`);
  process.exit(2);
});
const summary = summarize(result);
const report = await writeReport(values.out, result, summary, {
  seed,
  behavioursFile: values.behaviours,
  settings,
});
console.log(`report: ${report} (${((performance.now() - started) / 1000).toFixed(0)} s)`);
console.log(
  `${speedLine(dayTimes)} ${speedLine(
    dayTimes.map((ms, i) => ms - (result.days[i]?.checkMs ?? 0)),
    'play',
  )} checks: day1=${((result.days[0]?.checkMs ?? 0) / 1000).toFixed(1)} s ` +
    `day${result.days.length}=${((result.days.at(-1)?.checkMs ?? 0) / 1000).toFixed(1)} s ` +
    `full_at_end=${(result.fullCheckMs / 1000).toFixed(1)} s`,
);
console.log(summaryLine(summary));
process.exit(summary.violations === 0 ? 0 : 1);
