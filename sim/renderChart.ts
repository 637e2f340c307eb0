import { writeFileSync } from 'node:fs';
import { createCanvas } from 'canvas';
import { Chart, type ChartConfiguration, registerables } from 'chart.js';
import { COOKIE_KINDS } from '../utils/money/cookieEconomy.js';

Chart.register(...registerables);

const WIDTH = 900;
const HEIGHT = 420;
export const COLOURS = [
  '#3690EA',
  '#FF4500',
  '#00A368',
  '#FFA800',
  '#811E9F',
  '#515252',
  '#DE107F',
  '#00CCC0',
];

/** Charts are drawn by Chart.js on a node-canvas canvas, on white (PNG keeps transparency). */
export function renderChart(path: string, config: ChartConfiguration): void {
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

export const title = (text: string) => ({ title: { display: true, text, font: { size: 16 } } });

/** Horizontal bars of Cookies by kind: gains green, losses red. */
export function kindBars(path: string, heading: string, rows: [string, number][]): void {
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
