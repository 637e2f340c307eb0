import { type Canvas, type CanvasRenderingContext2D, createCanvas } from 'canvas';
import { Chart, type ChartConfiguration, registerables } from 'chart.js';
import { encodePng, oneAtATime, TextPen, type TextRecorder } from './canvasTools.js';

Chart.register(...registerables);

/** What `/admin economy health` shows, every text already in the reader's language. */
export interface EconomyPicture {
  /** BCP 47 tag for the numbers on the axes (`en-US`, `de-DE`). */
  numberLocale: string;
  title: string;
  subtitle: string;
  /** The 7- and 30-day figures: a head row and rows of label, 7 days, 30 days. */
  table: { head: readonly [string, string, string]; rows: (readonly [string, string, string])[] };
  /** One label per day, oldest first; every series below has one value per day. */
  days: string[];
  supply: { title: string; values: number[] };
  vault: { title: string; vaultLabel: string; reserveLabel: string; values: number[]; reserve: number };
  flows: {
    title: string;
    weekLabel: string;
    monthLabel: string;
    kinds: string[];
    week: number[];
    month: number[];
  };
  place: { title: string; pointsLabel: string; pixelsLabel: string; points: number[]; pixels: number[] };
}

const WIDTH = 1200;
const HEIGHT = 1180;
const CHART_W = 580;
const CHART_H = 340;
const INK = '#23272A';
const MUTED = '#5C6470';
const BLUE = '#3690EA';
const ORANGE = '#FF4500';
const GREEN = '#00A368';
const RED = '#BE0039';
const FONT = 'DejaVu Sans';

/**
 * The economy's health as one PNG: a header, the 7- and 30-day figures as a table, and four
 * charts drawn by Chart.js (supply, vault against its reserve, faucets and sinks by kind, the
 * hunt's Place points and pixels). Chart.js draws the axes and legends in the locale's numbers.
 */
export function renderEconomyImage(p: EconomyPicture, record?: TextRecorder): Promise<Buffer> {
  return oneAtATime(async () => {
    const canvas = createCanvas(WIDTH, HEIGHT);
    const g = canvas.getContext('2d');
    g.fillStyle = '#FFFFFF';
    g.fillRect(0, 0, WIDTH, HEIGHT);
    const pen = new TextPen(g, record);
    pen.text(p.title, 30, 52, WIDTH - 60, { size: 32, bold: true, color: INK });
    pen.text(p.subtitle, 30, 86, WIDTH - 60, { size: 18, color: MUTED });
    const tableBottom = drawTable(g, pen, p.table, 110);
    const top = tableBottom + 20;
    const charts: ChartConfiguration[] = [supplyChart(p), vaultChart(p), flowsChart(p), placeChart(p)];
    charts.forEach((config, i) => {
      const x = 15 + (i % 2) * (CHART_W + 10);
      const y = top + Math.floor(i / 2) * (CHART_H + 10);
      drawChart(config, p.numberLocale, (chart) => g.drawImage(chart as never, x, y));
    });
    return encodePng(canvas);
  });
}

function drawTable(
  g: CanvasRenderingContext2D,
  pen: TextPen,
  table: EconomyPicture['table'],
  top: number,
): number {
  const columns = [30, 700, 950];
  const widths = [640, 230, 220];
  const row = 34;
  g.fillStyle = '#F2F3F5';
  g.fillRect(20, top, WIDTH - 40, row);
  const cell = (text: string, i: number, y: number, style: { bold?: boolean; color: string }) => {
    pen.text(text, columns[i] as number, y, widths[i] as number, { size: 18, ...style });
  };
  table.head.forEach((text, i) => {
    cell(text, i, top + 24, { bold: true, color: INK });
  });
  table.rows.forEach((cells, r) => {
    cells.forEach((text, i) => {
      cell(text, i, top + row * (r + 1) + 24, { color: i === 0 ? MUTED : INK });
    });
  });
  return top + row * (table.rows.length + 1) + 6;
}

/** Draws one chart on a canvas of its own and hands it to `place` before Chart.js clears it. */
function drawChart(config: ChartConfiguration, locale: string, place: (chart: Canvas) => void): void {
  const canvas = createCanvas(CHART_W, CHART_H);
  Chart.defaults.font.family = FONT;
  const chart = new Chart(canvas as unknown as ConstructorParameters<typeof Chart>[0], {
    ...config,
    options: { ...config.options, locale, responsive: false, animation: false },
    plugins: [
      {
        id: 'white',
        beforeDraw: (c) => {
          const ctx = c.ctx;
          ctx.save();
          ctx.fillStyle = '#FFFFFF';
          ctx.fillRect(0, 0, c.width, c.height);
          ctx.restore();
        },
      },
    ],
  });
  chart.draw();
  place(canvas);
  chart.destroy();
}

const titled = (text: string) => ({
  display: true,
  text,
  font: { size: 15, weight: 'bold' as const },
  color: INK,
});

function supplyChart(p: EconomyPicture): ChartConfiguration {
  return {
    type: 'line',
    data: {
      labels: p.days,
      datasets: [{ label: p.supply.title, data: p.supply.values, borderColor: BLUE, pointRadius: 2 }],
    },
    options: { plugins: { title: titled(p.supply.title), legend: { display: false } } },
  };
}

function vaultChart(p: EconomyPicture): ChartConfiguration {
  return {
    type: 'line',
    data: {
      labels: p.days,
      datasets: [
        { label: p.vault.vaultLabel, data: p.vault.values, borderColor: ORANGE, pointRadius: 2 },
        {
          label: p.vault.reserveLabel,
          data: p.days.map(() => p.vault.reserve),
          borderColor: MUTED,
          borderDash: [6, 4],
          pointRadius: 0,
        },
      ],
    },
    options: { plugins: { title: titled(p.vault.title) }, scales: { y: { beginAtZero: true } } },
  };
}

function flowsChart(p: EconomyPicture): ChartConfiguration {
  return {
    type: 'bar',
    data: {
      labels: p.flows.kinds,
      datasets: [
        { label: p.flows.weekLabel, data: p.flows.week, backgroundColor: GREEN },
        { label: p.flows.monthLabel, data: p.flows.month, backgroundColor: BLUE },
      ],
    },
    options: {
      indexAxis: 'y',
      plugins: { title: titled(p.flows.title) },
      scales: {
        x: { grid: { color: (c: { tick?: { value: number } }) => (c.tick?.value === 0 ? RED : '#E3E5E8') } },
      },
    },
  };
}

function placeChart(p: EconomyPicture): ChartConfiguration {
  return {
    type: 'bar',
    data: {
      labels: p.days,
      datasets: [
        {
          type: 'bar',
          label: p.place.pointsLabel,
          data: p.place.points,
          backgroundColor: GREEN,
          yAxisID: 'y',
        },
        {
          type: 'line',
          label: p.place.pixelsLabel,
          data: p.place.pixels,
          borderColor: ORANGE,
          pointRadius: 2,
          yAxisID: 'y1',
        },
      ],
    },
    options: {
      plugins: { title: titled(p.place.title) },
      scales: {
        y: { beginAtZero: true, position: 'left' },
        y1: { beginAtZero: true, position: 'right', grid: { drawOnChartArea: false } },
      },
    },
  };
}
