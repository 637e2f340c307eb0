import { join } from 'node:path';
import { PLACE_KINDS } from '../utils/money/placeEconomy.js';
import { COLOURS, kindBars, renderChart, title } from './renderChart.js';
import type { SimResult } from './simResult.js';
import type { Summary } from './summary.js';

/** What the charts are drawn from; `growth` is the supply's growth in % per day (null on day 1). */
interface ChartInput {
  dir: string;
  result: SimResult;
  summary: Summary;
  labels: string[];
  growth: (number | null)[];
}

/** The report's charts, as PNG files in `dir`. */
export function drawCharts(
  dir: string,
  result: SimResult,
  summary: Summary,
  growth: (number | null)[],
): void {
  const input: ChartInput = { dir, result, summary, labels: result.days.map((d) => `day ${d.day}`), growth };
  supplyChart(input);
  faucetsAndSinksChart(input);
  vaultChart(input);
  giniChart(input);
  pathsChart(input);
  placeChart(input);
  strategiesChart(input);
}

function supplyChart({ dir, result: { days }, labels, growth }: ChartInput): void {
  renderChart(join(dir, 'supply.png'), {
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
}

/** Faucets and sinks: the members' net change by kind over the run (member-to-member kinds net to 0). */
function faucetsAndSinksChart({ dir, result: { days } }: ChartInput): void {
  const net = new Map<string, number>();
  for (const d of days) {
    for (const [kind, t] of d.cookieFlows) net.set(kind, (net.get(kind) ?? 0) + t.in - t.out);
  }
  const flows = [...net].filter(([, v]) => v !== 0).sort((a, b) => b[1] - a[1]);
  kindBars(
    join(dir, 'faucets-sinks.png'),
    'Members’ Cookies by kind over the run: in (green), out (red)',
    flows,
  );
}

function vaultChart({ dir, result, labels }: ChartInput): void {
  const { days } = result;
  renderChart(join(dir, 'vault.png'), {
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
}

function giniChart({ dir, result: { days }, labels }: ChartInput): void {
  renderChart(join(dir, 'gini.png'), {
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
}

function pathsChart({ dir, summary }: ChartInput): void {
  const paths = [...summary.cookiesPerHourByPath]
    .filter(([, v]) => Math.abs(v) >= 0.05)
    .sort((a, b) => b[1] - a[1]);
  kindBars(join(dir, 'paths.png'), 'Honest members: Cookies per active hour by path', paths);
}

function placeChart({ dir, result: { days }, labels }: ChartInput): void {
  const sources = [PLACE_KINDS.time, PLACE_KINDS.draw, PLACE_KINDS.progress, PLACE_KINDS.grant];
  renderChart(join(dir, 'place.png'), {
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
}

function strategiesChart({ dir, summary: { strategies } }: ChartInput): void {
  renderChart(join(dir, 'strategies.png'), {
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
}
