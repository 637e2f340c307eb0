/**
 * `npm run sim:economy -- [--days 30] [--agents 200] [--seed n] [--behaviours file] [--out dir]
 * [--set key=value]… [--profile-db]`, or over several sizes and seeds:
 * `npm run sim:economy -- --sizes 20,50,200 --seeds 3 [--days 30] [--seed first]` (sim/matrix.ts):
 * every size run with seeds first…first+k−1, each figure reported as a mean with its 95 %
 * interval, into `out/sim/matrix.md` and a last line
 * `economy: sizes=… seeds=… days=… supply_growth_pct_per_day=… vault_min_over_reserve=…
 * best_strategy/baseline=… best_strategy_hi95=… pixels_per_active_hour=… violations=…`.
 * A single run:
 * a month of a community through the real services on the embedded database, on a simulated
 * clock. Writes a Markdown report with charts to `out/sim/` and ends with the line
 * `economy: days=… agents=… supply_growth_pct_per_day=… vault_min_over_reserve=… gini=…
 * best_strategy/baseline=… pixels_per_active_hour=… violations=…`. Exit 1 on any violation.
 */

import { mkdir } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { type Behaviours, loadBehaviours } from './behaviours.js';
import { figuresOf, matrixLine, type SizeFigures, writeMatrix } from './matrix.js';
import { writeReport } from './report.js';
import { runSimulation, SettingRefused } from './run.js';
import { speedLine, summarize, summaryLine } from './summary.js';

/** A greedy strategy's figure rests on at least so many members over the seeds of a size. */
const MIN_MEMBERS_PER_STRATEGY = 5;

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
    /** A runtime setting changed before the run, as `/admin runtime set` would: a candidate default. */
    set: { type: 'string', multiple: true, default: [] },
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
const behaviours = loadBehaviours(values.behaviours);
const settings = values.set.map((pair): [string, string] => {
  const at = pair.indexOf('=');
  if (at <= 0) {
    console.error(`--set takes key=value, as /admin runtime set does (got ${pair})`);
    process.exit(2);
  }
  return [pair.slice(0, at), pair.slice(at + 1)];
});

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
  const figures: SizeFigures[] = [];
  for (const size of sizes) {
    const runs = [];
    for (let k = 0; k < seeds; k++) {
      const started = performance.now();
      const result = await runSimulation({
        behaviours,
        days,
        agents: size,
        seed: seed + k,
        settings,
        greedyFloor: { perStrategy: Math.ceil(MIN_MEMBERS_PER_STRATEGY / seeds) },
      });
      const run = summarize(result);
      console.log(
        `${summaryLine(run)} seed=${seed + k} (${((performance.now() - started) / 1000).toFixed(0)} s)`,
      );
      // A violation is never only counted: each one is named, with its day.
      for (const d of result.days)
        for (const problem of d.violations) console.log(`  violation day ${d.day}: ${problem}`);
      runs.push(run);
    }
    figures.push(figuresOf(size, runs));
  }
  await mkdir(values.out, { recursive: true });
  console.log(`report: ${await writeMatrix(values.out, figures, days)}`);
  const line = matrixLine(figures, days);
  console.log(line);
  return figures.some((f) => f.violations > 0) ? 1 : 0;
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
  greedyFloor: { perStrategy: MIN_MEMBERS_PER_STRATEGY },
  profileDb: values['profile-db'],
  onDay: (d, slowest) => {
    console.log(
      `day ${d.day}: supply ${d.supply} vault ${d.vault} gini ${d.gini.toFixed(3)} active ${d.activeAgents} pixels ${d.pixels} violations ${d.violations.length} (${((performance.now() - dayStarted) / 1000).toFixed(1)} s, checks ${(d.checkMs / 1000).toFixed(1)} s)`,
    );
    dayTimes.push(performance.now() - dayStarted);
    dayStarted = performance.now();
    for (const problem of d.violations) console.log(`  violation: ${problem}`);
    for (const c of slowest ?? []) {
      console.log(`  db ${c.ms.toFixed(0).padStart(7)} ms ${String(c.count).padStart(7)}× ${c.shape}`);
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
  `${speedLine(dayTimes)} checks: day1=${((result.days[0]?.checkMs ?? 0) / 1000).toFixed(1)} s ` +
    `day${result.days.length}=${((result.days.at(-1)?.checkMs ?? 0) / 1000).toFixed(1)} s ` +
    `full_at_end=${(result.fullCheckMs / 1000).toFixed(1)} s`,
);
console.log(summaryLine(summary));
process.exit(summary.violations === 0 ? 0 : 1);
