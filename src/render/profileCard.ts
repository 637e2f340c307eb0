import { type CanvasRenderingContext2D, createCanvas, loadImage } from 'canvas';
import { encodePng, oneAtATime, TextPen, type TextRecorder } from './canvasTools.js';

/** What the card shows, already in the reader's language. */
export interface ProfileCardData {
  name: string;
  title: string;
  balance: string;
  /** The word after the balance ("Cookies"). */
  unit: string;
  rank: string;
  /** The word above the rank ("Rank"). */
  rankTitle: string;
  /** Label and value pairs, drawn as tiles in two columns (up to 6). */
  stats: { label: string; value: string }[];
  /** 0–1: how far the collect streak is towards its largest bonus. */
  streakProgress: number;
  /** What the bar shows, said in words ("Streak: 4 days · +30 % on every collect"). */
  streakLabel: string;
  /** A line under the tiles: what the member owns besides Cookies ("Items: Padlock ×2 · VIP"); none: no line. */
  belongings?: string;
  /** The member's picture (PNG bytes; null: none), else their initials on a disc of their colour. */
  face: { picture: Buffer | null; initials: string; color: string };
}

const WIDTH = 900;
const HEIGHT = 540;
/** The line of belongings, when there is one, makes the card this much taller. */
const BELONGINGS_H = 44;
const PAD = 36;
const FACE = 48;
const TEXT_LEFT = PAD + FACE * 2 + 24;
const TILE_GAP = 16;
const TILE_W = (WIDTH - PAD * 2 - TILE_GAP) / 2;

/** A member's Cookie profile as a PNG card (`/cookies profile`). */
export function renderProfileCard(
  data: ProfileCardData,
  options: { record?: TextRecorder } = {},
): Promise<{ png: Buffer; width: number; height: number }> {
  return oneAtATime(async () => {
    const height = HEIGHT + (data.belongings ? BELONGINGS_H : 0);
    const canvas = createCanvas(WIDTH, height);
    const g = canvas.getContext('2d');
    const pen = new TextPen(g, options.record);
    const background = g.createLinearGradient(0, 0, WIDTH, HEIGHT);
    background.addColorStop(0, '#3b2617');
    background.addColorStop(1, '#1f140c');
    g.fillStyle = background;
    g.fillRect(0, 0, WIDTH, height);

    await drawFace(g, pen, data.face);
    const headBox = WIDTH - PAD - TEXT_LEFT;
    pen.text(data.title, TEXT_LEFT, PAD + 26, headBox, { size: 20, color: '#c9b08a' });
    pen.name(data.name, TEXT_LEFT, PAD + 72, headBox, {
      size: 36,
      bold: true,
      color: '#f3e3c3',
      minSize: 20,
    });

    const balanceWidth = pen.text(data.balance, PAD, PAD + 164, 420, {
      size: 44,
      bold: true,
      color: '#f3e3c3',
    });
    const unitWidth = pen.text(data.unit, PAD + balanceWidth + 14, PAD + 164, 140, {
      size: 26,
      color: '#c9b08a',
    });
    const rankBox = WIDTH - PAD - (PAD + balanceWidth + 14 + unitWidth + 24);
    pen.text(data.rankTitle, WIDTH - PAD, PAD + 118, rankBox, { size: 16, color: '#c9b08a', align: 'right' });
    pen.text(data.rank, WIDTH - PAD, PAD + 160, rankBox, {
      size: 34,
      bold: true,
      color: '#f5c542',
      align: 'right',
    });

    const barY = PAD + 218;
    pen.text(data.streakLabel, PAD, barY - 12, WIDTH - PAD * 2, { size: 18, color: '#e8cfa4' });
    g.fillStyle = '#4a3322';
    g.fillRect(PAD, barY, WIDTH - PAD * 2, 16);
    g.fillStyle = '#e0a54e';
    g.fillRect(PAD, barY, Math.max(6, (WIDTH - PAD * 2) * Math.min(1, Math.max(0, data.streakProgress))), 16);

    data.stats.slice(0, 6).forEach((stat, i) => {
      const x = PAD + (i % 2) * (TILE_W + TILE_GAP);
      const y = barY + 40 + Math.floor(i / 2) * 76;
      g.fillStyle = '#33231a';
      g.fillRect(x, y, TILE_W, 64);
      pen.text(stat.label, x + 14, y + 24, TILE_W - 28, { size: 17, color: '#c9b08a' });
      pen.text(stat.value, x + 14, y + 53, TILE_W - 28, { size: 23, bold: true, color: '#f3e3c3' });
    });
    if (data.belongings)
      pen.text(data.belongings, PAD, HEIGHT + 14, WIDTH - PAD * 2, { size: 19, color: '#e8cfa4' });
    return { png: await encodePng(canvas), width: WIDTH, height };
  });
}

/** The member's picture in a circle, or their initials on a disc when there is none. */
async function drawFace(g: CanvasRenderingContext2D, pen: TextPen, face: ProfileCardData['face']) {
  const [cx, cy] = [PAD + FACE, PAD + FACE];
  const picture = face.picture ? await loadImage(face.picture).catch(() => null) : null;
  g.save();
  g.beginPath();
  g.arc(cx, cy, FACE, 0, Math.PI * 2);
  g.closePath();
  if (picture) {
    g.clip();
    g.drawImage(picture, cx - FACE, cy - FACE, FACE * 2, FACE * 2);
  } else {
    g.fillStyle = face.color;
    g.fill();
  }
  g.restore();
  g.strokeStyle = '#e0a54e';
  g.lineWidth = 3;
  g.beginPath();
  g.arc(cx, cy, FACE + 1.5, 0, Math.PI * 2);
  g.stroke();
  if (!picture) {
    pen.text(face.initials, cx, cy + 14, FACE * 1.6, {
      size: 38,
      bold: true,
      color: '#fff8ec',
      align: 'center',
    });
  }
}
