import { COOKIE_KINDS } from '../utils/money/cookieEconomy.js';
import type { DayStats } from './dayStats.js';
import type { SimResult } from './simResult.js';
import { type Summary, summaryLine } from './summary.js';

/** How the run was made, for the report's first lines. */
export interface ReportAbout {
  seed: number;
  behavioursFile: string;
  settings?: [string, string][];
}

/** The faucets: Cookies created for members (collects, moderators' grants, role income). */
const minted = (d: DayStats) =>
  [COOKIE_KINDS.collect, COOKIE_KINDS.grant, COOKIE_KINDS.roleIncome].reduce(
    (sum, kind) => sum + (d.cookieFlows.get(kind)?.in ?? 0),
    0,
  );
/** The vault's change on a day, without the operator's funding. */
const vaultNet = (d: DayStats) => {
  let net = 0;
  for (const [kind, t] of d.houseFlows) if (kind !== COOKIE_KINDS.vaultFund) net += t.in - t.out;
  return net;
};
const fmt = (n: number, digits = 0) =>
  n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });

/** The Markdown of `economy-report.md`, line by line; `growth` as the supply chart draws it. */
export function reportLines(
  result: SimResult,
  summary: Summary,
  about: ReportAbout,
  growth: (number | null)[],
): string[] {
  return [
    ...headline(result, summary, about),
    ...strategiesTable(summary),
    ...charts(),
    ...dayByDay(result.days, growth),
    ...actionsAndRefusals(result),
    ...violations(result, summary),
  ];
}

/** The title, how the run was made, the summary line and the figures against their targets. */
function headline(result: SimResult, summary: Summary, about: ReportAbout): string[] {
  return [
    '# Economy report',
    '',
    `${summary.days} simulated days, ${summary.agents} members (\`${about.behavioursFile}\`, seed ${about.seed}), through the bot's real services on the embedded database.`,
    '',
    (about.settings ?? []).length > 0
      ? `Settings changed from their defaults: ${(about.settings ?? []).map(([k, v]) => `\`${k}=${v}\``).join(', ')}.`
      : 'Every runtime setting at its default.',
    '',
    '```text',
    summaryLine(summary),
    '```',
    '',
    '| figure | value | target |',
    '| --- | --- | --- |',
    `| Cookie supply growth per day (mature half) | ${fmt(summary.supplyGrowthPctPerDay, 2)} % | 0.5–2 % |`,
    `| lowest vault / reserve | ${fmt(summary.vaultMinOverReserve, 2)} (vault ${fmt(result.vaultMin)}, reserve ${fmt(result.reserve)}) | ≥ 1 |`,
    `| Gini of members' Cookies (last day) | ${fmt(summary.gini, 3)} | — |`,
    `| best greedy strategy / honest baseline | ${fmt(summary.bestStrategyOverBaseline, 2)} | ≤ 1.5 |`,
    `| pixels per hour of hunting | ${fmt(summary.pixelsPerActiveHour, 1)} | about 12 (a pixel in 5 minutes) |`,
    `| invariant violations (checked every day) | ${summary.violations} | 0 |`,
    '',
  ];
}

function strategiesTable({ strategies }: Summary): string[] {
  return [
    '## Strategies',
    '',
    '| strategy | currency | members | hours (hunting, for points) | earned per hour | / baseline |',
    '| --- | --- | --- | --- | --- | --- |',
    ...strategies.map(
      (s) =>
        `| ${s.strategy} | ${s.currency} | ${s.members} | ${fmt(s.activeHours, 1)} | ${fmt(s.perHour, 1)} | ${fmt(s.ratio, 2)} |`,
    ),
    '',
    "Earnings leave out gifts between members and moderators' prizes; Place points count what the hunt paid (time, draws, progress).",
    '',
  ];
}

/** The charts `drawCharts` wrote beside the report. */
function charts(): string[] {
  return [
    '![Cookie supply](supply.png)',
    '![Faucets and sinks](faucets-sinks.png)',
    '![The vault](vault.png)',
    '![Gini](gini.png)',
    '![Cookies per active hour by path](paths.png)',
    '![Place points and pixels](place.png)',
    '![Strategies](strategies.png)',
    '',
  ];
}

function dayByDay(days: DayStats[], growth: (number | null)[]): string[] {
  return [
    '## Day by day',
    '',
    '| day | members active | minted (collect, grants) | to the vault, net | supply | growth | vault | Gini | pixels | violations |',
    '| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |',
    ...days.map(
      (d, i) =>
        `| ${d.day} | ${d.activeAgents} | ${fmt(minted(d))} | ${fmt(vaultNet(d))} | ${fmt(d.supply)} | ${growth[i] === null ? '—' : `${fmt(growth[i] as number, 2)} %`} | ${fmt(d.vault)} | ${fmt(d.gini, 3)} | ${d.pixels} | ${d.violations.length} |`,
    ),
    '',
  ];
}

function actionsAndRefusals(result: SimResult): string[] {
  return [
    '## Actions and refusals',
    '',
    `Done: ${[...result.actions]
      .sort((a, b) => b[1] - a[1])
      .map(([k, n]) => `${k} ${fmt(n)}`)
      .join(', ')}.`,
    '',
    `Refused (expected: cooldowns, limits, members who cannot pay): ${
      [...result.refusals]
        .sort((a, b) => b[1] - a[1])
        .map(([k, n]) => `${k} ${fmt(n)}`)
        .join(', ') || 'none'
    }.`,
    '',
  ];
}

function violations({ days }: SimResult, summary: Summary): string[] {
  return summary.violations > 0
    ? ['## Violations', '', ...days.flatMap((d) => d.violations.map((v) => `- day ${d.day}: ${v}`)), '']
    : [];
}
