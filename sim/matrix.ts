import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Strategy } from './behaviours.js';
import { type Interval, meanInterval, showInterval } from './interval.js';
import type { KeptOutcome } from './keptRuns.js';
import type { Summary } from './summary.js';

/** One community size's figures over its seeds. */
export interface SizeFigures {
  agents: number;
  seeds: number;
  supplyGrowthPctPerDay: Interval;
  /** The lowest of every run: the vault must never fall under its reserve, in any run. */
  vaultMinOverReserve: number;
  gini: Interval;
  /**
   * Each greedy strategy's earnings against the honest baseline: `ratio` over its members of
   * every seed (each member's own hours), `members` how many that is.
   */
  strategies: { strategy: Strategy; currency: 'cookies' | 'place'; members: number; ratio: Interval }[];
  pixelsPerActiveHour: Interval;
  violations: number;
}

/**
 * The target band of the supply's daily growth (sim/findings/README.md, "The targets"): a run's
 * worst size is the farthest outside it.
 */
export const SUPPLY_GROWTH_TARGET = { min: 0.5, max: 2 } as const;

/** The figures of one size from the summaries of its runs (one per seed). */
export function figuresOf(agents: number, runs: readonly Summary[]): SizeFigures {
  const greedy = new Map<string, { strategy: Strategy; currency: 'cookies' | 'place'; ratios: number[] }>();
  for (const run of runs) {
    for (const s of run.strategies.filter((f) => f.strategy !== 'honest')) {
      const key = `${s.strategy}:${s.currency}`;
      const entry = greedy.get(key) ?? {
        strategy: s.strategy,
        currency: s.currency,
        ratios: [],
      };
      entry.ratios.push(...s.memberRatios);
      greedy.set(key, entry);
    }
  }
  return {
    agents,
    seeds: runs.length,
    supplyGrowthPctPerDay: meanInterval(runs.map((r) => r.supplyGrowthPctPerDay)),
    vaultMinOverReserve: Math.min(...runs.map((r) => r.vaultMinOverReserve)),
    gini: meanInterval(runs.map((r) => r.gini)),
    strategies: [...greedy.values()].map((g) => ({
      strategy: g.strategy,
      currency: g.currency,
      members: g.ratios.length,
      ratio: meanInterval(g.ratios),
    })),
    pixelsPerActiveHour: meanInterval(runs.map((r) => r.pixelsPerActiveHour)),
    violations: runs.reduce((sum, r) => sum + r.violations, 0),
  };
}

/** How far a growth lies outside the target band (0 inside it). */
const offTarget = (growth: number) =>
  Math.max(SUPPLY_GROWTH_TARGET.min - growth, growth - SUPPLY_GROWTH_TARGET.max, 0);

const number = (n: number, digits: number) =>
  Number.isFinite(n) ? n.toFixed(digits) : n > 0 ? 'inf' : '-inf';

/**
 * The last line over every size: the worst size's supply growth (farthest outside 0.5–2 % a
 * day), the lowest vault, the best greedy strategy's mean and the highest upper bound of any
 * strategy's interval, the slowest painting, and every violation.
 */
export function matrixLine(sizes: readonly SizeFigures[], days: number): string {
  const worst = [...sizes].sort(
    (a, b) => offTarget(b.supplyGrowthPctPerDay.mean) - offTarget(a.supplyGrowthPctPerDay.mean),
  )[0];
  const ratios = sizes.flatMap((s) => s.strategies.map((g) => g.ratio));
  return (
    `economy: sizes=${sizes.map((s) => s.agents).join(',')} seeds=${Math.min(...sizes.map((s) => s.seeds))} days=${days} ` +
    `supply_growth_pct_per_day=${number(worst?.supplyGrowthPctPerDay.mean ?? Number.NaN, 2)} ` +
    `vault_min_over_reserve=${number(Math.min(...sizes.map((s) => s.vaultMinOverReserve)), 2)} ` +
    `best_strategy/baseline=${number(Math.max(0, ...ratios.map((r) => r.mean)), 2)} ` +
    `best_strategy_hi95=${number(Math.max(0, ...ratios.map((r) => r.hi)), 2)} ` +
    `pixels_per_active_hour=${number(Math.min(...sizes.map((s) => s.pixelsPerActiveHour.mean)), 1)} ` +
    `violations=${sizes.reduce((sum, s) => sum + s.violations, 0)}`
  );
}

/** The sizes × figures table (Markdown), each figure a mean with its 95 % interval over the seeds. */
export function matrixTable(sizes: readonly SizeFigures[]): string {
  const strategies = [
    ...new Set(sizes.flatMap((s) => s.strategies.map((g) => `${g.strategy} (${g.currency})`))),
  ];
  const head = [
    'members',
    'seeds',
    'supply growth %/day',
    'vault min / reserve',
    'gini',
    'pixels / hunting hour',
    ...strategies.map((s) => `${s} / baseline`),
    'violations',
  ];
  const rows = sizes.map((s) => [
    String(s.agents),
    String(s.seeds),
    showInterval(s.supplyGrowthPctPerDay),
    number(s.vaultMinOverReserve, 2),
    showInterval(s.gini, 3),
    showInterval(s.pixelsPerActiveHour, 1),
    ...strategies.map((name) => {
      const g = s.strategies.find((f) => `${f.strategy} (${f.currency})` === name);
      return g ? `${showInterval(g.ratio)} (${g.members} members)` : '–';
    }),
    String(s.violations),
  ]);
  return [head, head.map(() => '---'), ...rows].map((r) => `| ${r.join(' | ')} |`).join('\n');
}

/** The runs behind the table: each with its time, its first and last day's, the code it ran and when it finished. */
export function runsTable(runs: readonly KeptOutcome[]): string {
  const head = ['members', 'seed', 'days', 'wall time', 'day 1 → last day', 'code', 'finished', 'violations'];
  const seconds = (ms: number | undefined) => (ms === undefined ? '–' : `${(ms / 1000).toFixed(1)} s`);
  const rows = runs.map((r) => [
    String(r.plan.agents),
    String(r.plan.seed),
    String(r.plan.days),
    `${r.seconds.toFixed(0)} s`,
    r.dayMs?.length ? `${seconds(r.dayMs[0])} → ${seconds(r.dayMs.at(-1))}` : '–',
    r.commit,
    r.finishedAt.slice(0, 16).replace('T', ' '),
    String(r.violations.length),
  ]);
  return [head, head.map(() => '---'), ...rows].map((r) => `| ${r.join(' | ')} |`).join('\n');
}

/** Writes `matrix.md` into `outDir` and returns its path. */
export async function writeMatrix(
  outDir: string,
  sizes: readonly SizeFigures[],
  days: number,
  runs: readonly KeptOutcome[],
): Promise<string> {
  const file = path.join(outDir, 'matrix.md');
  await writeFile(
    file,
    `# Economy at every size\n\n${days} days per run; each figure the mean over seeds with its 95 % interval (Student's t).\n\n${matrixTable(sizes)}\n\n\`${matrixLine(sizes, days)}\`\n\n## Runs\n\n${runsTable(runs)}\n`,
  );
  return file;
}
