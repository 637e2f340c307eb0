import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createCanvas } from 'canvas';
import { Chart, type ChartConfiguration, registerables } from 'chart.js';
import { COOKIE_KINDS } from '../utils/cookieEconomy.js';
import { PLACE_KINDS } from '../utils/placeEconomy.js';
import type { DayStats, SimResult } from './simulation.js';
import { type Summary, summaryLine } from './summary.js';

Chart.register(...registerables);

const WIDTH = 900;
const HEIGHT = 420;
const COLOURS = ['#3690EA', '#FF4500', '#00A368', '#FFA800', '#811E9F', '#515252', '#DE107F', '#00CCC0'];

/** Charts are drawn by Chart.js on a node-canvas canvas, on white (PNG keeps transparency). */
function renderChart(path: string, config: ChartConfiguration): void {
  const canvas = createCanvas(WIDTH, HEIGHT);
  // Chart.js draws on anything with a 2D context; node-canvas has one.
  const chart = new Chart(canvas as unknown as ConstructorParameters<typeof Chart>[0], {
    ...config,
    options: { ...config.options, responsive: false, animation: false },
    plugins: [
      {
        id: 'white',
        beforeDraw: (c) => {
          c.ctx.save();
          c.ctx.fillStyle = '#ffffff';
          c.ctx.fillRect(0, 0, c.width, c.height);
          c.ctx.restore();
        },
      },
    ],
  });
  writeFileSync(path, canvas.toBuffer('image/png'));
  chart.destroy();
}

const title = (text: string) => ({ title: { display: true, text, font: { size: 16 } } });

/** Horizontal bars of Cookies by kind: gains green, losses red. */
function kindBars(path: string, heading: string, rows: [string, number][]): void {
  renderChart(path, {
    type: 'bar',
    data: {
      labels: rows.map(([kind]) => KIND_LABELS[kind] ?? kind),
      datasets: [
        {
          label: heading,
          data: rows.map(([, v]) => v),
          backgroundColor: rows.map(([, v]) => (v > 0 ? COLOURS[2] : COLOURS[1])) as string[],
        },
      ],
    },
    options: { indexAxis: 'y', plugins: { ...title(heading), legend: { display: false } } },
  });
}

/** Where a kind of Cookie change comes from or goes to, in words for the report. */
const KIND_LABELS: Record<string, string> = {
  [COOKIE_KINDS.collect]: 'collect (minted)',
  [COOKIE_KINDS.grant]: 'moderator grants (minted)',
  [COOKIE_KINDS.gameStake]: 'game stakes',
  [COOKIE_KINDS.gamePayout]: 'game payouts',
  [COOKIE_KINDS.gameReturn]: 'game returns',
  [COOKIE_KINDS.gameRefund]: 'game refunds',
  [COOKIE_KINDS.stealFine]: 'steal fines',
  [COOKIE_KINDS.stealLoot]: 'steal loot (member to member)',
  [COOKIE_KINDS.give]: 'gives (member to member)',
  [COOKIE_KINDS.heistStake]: 'heist stakes',
  [COOKIE_KINDS.heistPayout]: 'heist payouts',
  [COOKIE_KINDS.heistReturn]: 'heist returns',
  [COOKIE_KINDS.pokerBuyIn]: 'poker buy-ins',
  [COOKIE_KINDS.pokerCashOut]: 'poker cash-outs',
  'games (net)': 'house games (net)',
  'heist (net)': 'heists (net)',
  'poker (net)': 'poker tables (net)',
};

/**
 * The report: `economy-report.md` and its charts in `dir` (EVE Online's monthly economic
 * report is the model: money in and out by kind, who holds it, what each way of earning pays).
 */
export async function writeReport(
  dir: string,
  result: SimResult,
  summary: Summary,
  about: { seed: number; behavioursFile: string; settings?: [string, string][] },
): Promise<string> {
  mkdirSync(dir, { recursive: true });
  const { days } = result;
  const labels = days.map((d) => `day ${d.day}`);
  const png = (name: string) => join(dir, name);

  const growth = days.map((d, i) => {
    const before = i > 0 ? (days[i - 1]?.supply ?? 0) : 0;
    return before > 0 ? (d.supply / before - 1) * 100 : null;
  });
  renderChart(png('supply.png'), {
    type: 'line',
    data: {
      labels,
      datasets: [
        {
          label: 'Cookies held by members',
          data: days.map((d) => d.supply),
          borderColor: COLOURS[0],
          yAxisID: 'y',
        },
        { label: 'growth % per day', data: growth, borderColor: COLOURS[1], yAxisID: 'growth' },
      ],
    },
    options: {
      plugins: title('Cookie supply'),
      scales: { growth: { position: 'right', grid: { drawOnChartArea: false } } },
    },
  });

  // Faucets and sinks: the members' net change by kind over the run (member-to-member kinds net to 0).
  const net = new Map<string, number>();
  for (const d of days) {
    for (const [kind, t] of d.cookieFlows) net.set(kind, (net.get(kind) ?? 0) + t.in - t.out);
  }
  const flows = [...net].filter(([, v]) => v !== 0).sort((a, b) => b[1] - a[1]);
  kindBars(png('faucets-sinks.png'), 'Members’ Cookies by kind over the run: in (green), out (red)', flows);

  renderChart(png('vault.png'), {
    type: 'line',
    data: {
      labels,
      datasets: [
        { label: 'vault at the end of the day', data: days.map((d) => d.vault), borderColor: COLOURS[0] },
        {
          label: 'reserve',
          data: days.map(() => result.reserve),
          borderColor: COLOURS[1],
          borderDash: [6, 4],
        },
      ],
    },
    options: { plugins: title('The house vault against its reserve') },
  });

  renderChart(png('gini.png'), {
    type: 'line',
    data: {
      labels,
      datasets: [
        { label: 'Gini of members’ Cookies', data: days.map((d) => d.gini), borderColor: COLOURS[4] },
      ],
    },
    options: {
      plugins: title('Inequality (0: equal, 1: one member holds all)'),
      scales: { y: { min: 0, max: 1 } },
    },
  });

  const paths = [...summary.cookiesPerHourByPath]
    .filter(([, v]) => Math.abs(v) >= 0.05)
    .sort((a, b) => b[1] - a[1]);
  kindBars(png('paths.png'), 'Honest members: Cookies per active hour by path', paths);

  const sources = [PLACE_KINDS.time, PLACE_KINDS.draw, PLACE_KINDS.progress, PLACE_KINDS.grant];
  renderChart(png('place.png'), {
    type: 'bar',
    data: {
      labels,
      datasets: [
        ...sources.map((kind, i) => ({
          type: 'bar' as const,
          label: `${kind.replace('place.', '')} points`,
          data: days.map((d) => (d.placeFlows.get(kind)?.in ?? 0) / 1000),
          backgroundColor: COLOURS[i],
          stack: 'points',
          yAxisID: 'y',
        })),
        {
          type: 'line' as const,
          label: 'pixels placed',
          data: days.map((d) => d.pixels),
          borderColor: COLOURS[4],
          yAxisID: 'pixels',
        },
      ],
    },
    options: {
      plugins: title('Place points earned by source, and pixels placed, per day'),
      scales: {
        x: { stacked: true },
        y: { stacked: true },
        pixels: { position: 'right', grid: { drawOnChartArea: false } },
      },
    },
  });

  const strategies = summary.strategies;
  renderChart(png('strategies.png'), {
    type: 'bar',
    data: {
      labels: strategies.map((s) => `${s.strategy} (${s.currency})`),
      datasets: [
        {
          label: 'earnings per active hour / honest baseline',
          data: strategies.map((s) => s.ratio),
          backgroundColor: strategies.map((s) => (s.ratio > 1.5 ? COLOURS[1] : COLOURS[0])) as string[],
        },
      ],
    },
    options: {
      plugins: {
        ...title('Each strategy against the honest baseline (target ≤ 1.5)'),
        legend: { display: false },
      },
    },
  });

  /** The faucets: Cookies created for members (collects and moderators' grants). */
  const minted = (d: DayStats) =>
    (d.cookieFlows.get(COOKIE_KINDS.collect)?.in ?? 0) + (d.cookieFlows.get(COOKIE_KINDS.grant)?.in ?? 0);
  /** The vault's change on a day, without the operator's funding. */
  const vaultNet = (d: DayStats) => {
    let net = 0;
    for (const [kind, t] of d.houseFlows) if (kind !== COOKIE_KINDS.vaultFund) net += t.in - t.out;
    return net;
  };
  const fmt = (n: number, digits = 0) =>
    n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });
  const lines = [
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
    '![Cookie supply](supply.png)',
    '![Faucets and sinks](faucets-sinks.png)',
    '![The vault](vault.png)',
    '![Gini](gini.png)',
    '![Cookies per active hour by path](paths.png)',
    '![Place points and pixels](place.png)',
    '![Strategies](strategies.png)',
    '',
    '## Day by day',
    '',
    '| day | members active | minted (collect, grants) | to the vault, net | supply | growth | vault | Gini | pixels | violations |',
    '| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |',
    ...days.map(
      (d, i) =>
        `| ${d.day} | ${d.activeAgents} | ${fmt(minted(d))} | ${fmt(vaultNet(d))} | ${fmt(d.supply)} | ${growth[i] === null ? '—' : `${fmt(growth[i] as number, 2)} %`} | ${fmt(d.vault)} | ${fmt(d.gini, 3)} | ${d.pixels} | ${d.violations.length} |`,
    ),
    '',
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
    ...(summary.violations > 0
      ? ['## Violations', '', ...days.flatMap((d) => d.violations.map((v) => `- day ${d.day}: ${v}`)), '']
      : []),
  ];
  const path = join(dir, 'economy-report.md');
  writeFileSync(path, `${lines.join('\n')}\n`);
  return path;
}
