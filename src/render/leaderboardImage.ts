import { createCanvas } from 'canvas';
import { encodePng, oneAtATime, truncate } from './canvasTools.js';

export interface LeaderboardImageRow {
  rank: number;
  name: string;
  value: number;
}

const WIDTH = 800;
const ROW = 52;
const HEADER = 96;
const PAD = 32;
const MEDALS = ['#f5c542', '#c0c7d1', '#d08a4f'];

/** The image's words and numbers, in the reader's language. */
export interface LeaderboardLabels {
  title: string;
  /** Shown when there are no rows. */
  empty: string;
  formatValue(value: number): string;
}

type Rendered = { png: Buffer; width: number; height: number };

/** The last images by content: many members asking at once for the same board share one render. */
const recent = new Map<string, Promise<Rendered>>();
const RECENT_MAX = 16;

/** Renders the Cookie leaderboard as a PNG: one bar per member, longest for the richest. */
export function renderLeaderboard(labels: LeaderboardLabels, rows: LeaderboardImageRow[]): Promise<Rendered> {
  const key = JSON.stringify([
    labels.title,
    labels.empty,
    rows.map((r) => [r.rank, r.name, labels.formatValue(r.value)]),
  ]);
  const known = recent.get(key);
  if (known) return known;
  const rendering = oneAtATime(() => draw(labels, rows));
  recent.set(key, rendering);
  rendering.catch(() => recent.delete(key));
  if (recent.size > RECENT_MAX) recent.delete(recent.keys().next().value as string);
  return rendering;
}

async function draw(labels: LeaderboardLabels, rows: LeaderboardImageRow[]): Promise<Rendered> {
  const height = HEADER + Math.max(rows.length, 1) * ROW + PAD;
  const canvas = createCanvas(WIDTH, height);
  const g = canvas.getContext('2d');

  g.fillStyle = '#2b1d14';
  g.fillRect(0, 0, WIDTH, height);
  g.fillStyle = '#f3e3c3';
  g.font = 'bold 34px "DejaVu Sans"';
  g.fillText(labels.title, PAD, 58);

  if (rows.length === 0) {
    g.font = '22px "DejaVu Sans"';
    g.fillStyle = '#c9b08a';
    g.fillText(labels.empty, PAD, HEADER + 30);
  }

  const max = Math.max(1, ...rows.map((r) => r.value));
  const barLeft = 300;
  const barMax = WIDTH - barLeft - 170;
  rows.forEach((row, i) => {
    const y = HEADER + i * ROW;
    g.fillStyle = i % 2 === 0 ? '#3a281c' : '#33231a';
    g.fillRect(PAD / 2, y, WIDTH - PAD, ROW - 6);
    g.fillStyle = MEDALS[row.rank - 1] ?? '#a98c66';
    g.font = 'bold 24px "DejaVu Sans"';
    g.fillText(`#${row.rank}`, PAD, y + 33);
    g.fillStyle = '#f3e3c3';
    g.font = '22px "DejaVu Sans"';
    g.fillText(truncate(g, row.name, barLeft - PAD - 80), PAD + 70, y + 32);
    g.fillStyle = '#c8813b';
    g.fillRect(barLeft, y + 12, Math.max(4, (row.value / max) * barMax), ROW - 30);
    g.fillStyle = '#f3e3c3';
    g.font = 'bold 22px "DejaVu Sans"';
    g.fillText(labels.formatValue(row.value), barLeft + barMax + 16, y + 32);
  });

  return { png: await encodePng(canvas), width: WIDTH, height };
}
