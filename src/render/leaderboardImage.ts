import { type CanvasRenderingContext2D, createCanvas } from 'canvas';
import { encodePng, oneAtATime, TextPen, type TextRecorder, type TextStyle } from './canvasTools.js';

export interface LeaderboardImageRow {
  rank: number;
  name: string;
  value: number;
}

const WIDTH = 960;
const ROW = 52;
const HEADER = 96;
const PAD = 32;
/** The gap before the reader's own row, when they are not among the rows shown. */
const GAP = 30;
const MIN_BAR = 100;
const MEDALS = ['#f5c542', '#c0c7d1', '#d08a4f'];
const RANK: TextStyle = { size: 24, bold: true, color: '#a98c66' };
const NAME: TextStyle = { size: 22, color: '#f3e3c3', minSize: 16 };
const VALUE: TextStyle = { size: 22, bold: true, color: '#f3e3c3', align: 'right' };

/** The image's words and numbers, in the reader's language. */
export interface LeaderboardLabels {
  title: string;
  /** Shown when there are no rows. */
  empty: string;
  formatValue(value: number): string;
}

export interface LeaderboardOptions {
  /** The reader's own row, drawn below the others when they are not among them. */
  you?: LeaderboardImageRow | null;
  record?: TextRecorder;
}

type Rendered = { png: Buffer; width: number; height: number };

/** The last images by content: many members asking at once for the same board share one render. */
const recent = new Map<string, Promise<Rendered>>();
const RECENT_MAX = 16;

/** Renders the Cookie leaderboard as a PNG: one bar per member, longest for the richest. */
export function renderLeaderboard(
  labels: LeaderboardLabels,
  rows: LeaderboardImageRow[],
  options: LeaderboardOptions = {},
): Promise<Rendered> {
  if (options.record) return oneAtATime(() => draw(labels, rows, options));
  const shown = (r: LeaderboardImageRow) => [r.rank, r.name, labels.formatValue(r.value)];
  const key = JSON.stringify([
    labels.title,
    labels.empty,
    rows.map(shown),
    options.you && shown(options.you),
  ]);
  const known = recent.get(key);
  if (known) return known;
  const rendering = oneAtATime(() => draw(labels, rows, options));
  recent.set(key, rendering);
  rendering.catch(() => recent.delete(key));
  if (recent.size > RECENT_MAX) recent.delete(recent.keys().next().value as string);
  return rendering;
}

async function draw(
  labels: LeaderboardLabels,
  rows: LeaderboardImageRow[],
  options: LeaderboardOptions,
): Promise<Rendered> {
  const you = options.you ?? null;
  const height = HEADER + Math.max(rows.length, 1) * ROW + (you ? GAP + ROW : 0) + PAD;
  const canvas = createCanvas(WIDTH, height);
  const g = canvas.getContext('2d');
  const pen = new TextPen(g, options.record);

  g.fillStyle = '#2b1d14';
  g.fillRect(0, 0, WIDTH, height);
  pen.text(labels.title, PAD, 58, WIDTH - PAD * 2, { size: 34, bold: true, color: '#f3e3c3' });
  if (rows.length === 0)
    pen.text(labels.empty, PAD, HEADER + 30, WIDTH - PAD * 2, { size: 22, color: '#c9b08a' });

  // Columns fit what they hold: the values' widest, the names' widest (up to what leaves a bar).
  const all = you ? [...rows, you] : rows;
  const rankWidth = Math.max(52, ...all.map((r) => pen.measure(`#${labels.formatValue(r.rank)}`, RANK)));
  const nameLeft = PAD + rankWidth + 16;
  const valueWidth = Math.max(0, ...all.map((r) => pen.measure(labels.formatValue(r.value), VALUE)));
  const nameBox = WIDTH - PAD - valueWidth - 24 - MIN_BAR - 16 - nameLeft;
  const nameWidth = Math.min(nameBox, Math.max(0, ...all.map((r) => pen.measure(r.name, NAME))));
  const columns = {
    rankWidth,
    nameLeft,
    nameBox,
    barLeft: nameLeft + nameWidth + 16,
    valueRight: WIDTH - PAD,
  };
  const barMax = columns.valueRight - valueWidth - 24 - columns.barLeft;
  const max = Math.max(1, ...all.map((r) => r.value));
  rows.forEach((row, i) => {
    drawRow(g, pen, labels, row, HEADER + i * ROW, {
      ...columns,
      barMax,
      max,
      shade: i % 2 === 0 ? '#3a281c' : '#33231a',
    });
  });
  if (you) {
    const y = HEADER + rows.length * ROW + GAP;
    g.fillStyle = '#a98c66';
    for (let dot = 0; dot < 3; dot++) g.fillRect(PAD + 20 + dot * 10, y - GAP / 2 - 3, 4, 4);
    drawRow(g, pen, labels, you, y, { ...columns, barMax, max, shade: '#5a3a22' });
  }
  return { png: await encodePng(canvas), width: WIDTH, height };
}

function drawRow(
  g: CanvasRenderingContext2D,
  pen: TextPen,
  labels: LeaderboardLabels,
  row: LeaderboardImageRow,
  y: number,
  at: {
    rankWidth: number;
    nameLeft: number;
    nameBox: number;
    barLeft: number;
    valueRight: number;
    barMax: number;
    max: number;
    shade: string;
  },
) {
  g.fillStyle = at.shade;
  g.fillRect(PAD / 2, y, WIDTH - PAD, ROW - 6);
  pen.text(`#${labels.formatValue(row.rank)}`, PAD, y + 33, at.rankWidth, {
    ...RANK,
    color: MEDALS[row.rank - 1] ?? RANK.color,
  });
  pen.name(row.name, at.nameLeft, y + 32, at.nameBox, NAME);
  g.fillStyle = '#c8813b';
  g.fillRect(at.barLeft, y + 12, Math.max(4, (row.value / at.max) * at.barMax), ROW - 30);
  pen.text(
    labels.formatValue(row.value),
    at.valueRight,
    y + 32,
    at.valueRight - at.barLeft - at.barMax,
    VALUE,
  );
}
