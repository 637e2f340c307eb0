import { createCanvas } from 'canvas';
import { encodePng, oneAtATime, truncate } from './canvasTools.js';

/** What the card shows, already in the reader's language. */
export interface ProfileCardData {
  name: string;
  title: string;
  balance: string;
  /** The word after the balance ("Cookies"). */
  unit: string;
  rank: string;
  /** Label and value pairs, drawn as tiles (up to 6). */
  stats: { label: string; value: string }[];
  /** 0–1: how far the collect streak is towards its largest bonus. */
  streakProgress: number;
  streakLabel: string;
}

const WIDTH = 900;
const HEIGHT = 420;
const PAD = 36;

/** A member's Cookie profile as a PNG card (`/cookies profile`). */
export function renderProfileCard(
  data: ProfileCardData,
): Promise<{ png: Buffer; width: number; height: number }> {
  return oneAtATime(async () => {
    const canvas = createCanvas(WIDTH, HEIGHT);
    const g = canvas.getContext('2d');
    const background = g.createLinearGradient(0, 0, WIDTH, HEIGHT);
    background.addColorStop(0, '#3b2617');
    background.addColorStop(1, '#1f140c');
    g.fillStyle = background;
    g.fillRect(0, 0, WIDTH, HEIGHT);

    // The cookie: a disc with chips, left of the name.
    g.fillStyle = '#c8813b';
    g.beginPath();
    g.arc(PAD + 44, PAD + 44, 44, 0, Math.PI * 2);
    g.fill();
    g.fillStyle = '#5a3415';
    for (const [dx, dy] of [
      [-18, -12],
      [12, -20],
      [20, 10],
      [-8, 18],
      [-22, 8],
      [4, -2],
    ] as const) {
      g.beginPath();
      g.arc(PAD + 44 + dx, PAD + 44 + dy, 6, 0, Math.PI * 2);
      g.fill();
    }

    g.fillStyle = '#c9b08a';
    g.font = '20px "DejaVu Sans"';
    g.fillText(data.title, PAD + 112, PAD + 24);
    g.fillStyle = '#f3e3c3';
    g.font = 'bold 36px "DejaVu Sans"';
    g.fillText(truncate(g, data.name, WIDTH - PAD * 2 - 112 - 160), PAD + 112, PAD + 68);
    g.fillStyle = '#f5c542';
    g.font = 'bold 30px "DejaVu Sans"';
    const rankWidth = g.measureText(data.rank).width;
    g.fillText(data.rank, WIDTH - PAD - rankWidth, PAD + 60);

    g.fillStyle = '#f3e3c3';
    g.font = 'bold 44px "DejaVu Sans"';
    g.fillText(data.balance, PAD, PAD + 150);
    const unitX = PAD + g.measureText(data.balance).width + 14;
    g.fillStyle = '#c9b08a';
    g.font = '26px "DejaVu Sans"';
    g.fillText(data.unit, unitX, PAD + 150);

    // Streak bar.
    const barY = PAD + 176;
    g.fillStyle = '#4a3322';
    g.fillRect(PAD, barY, WIDTH - PAD * 2, 18);
    g.fillStyle = '#e0a54e';
    g.fillRect(PAD, barY, Math.max(6, (WIDTH - PAD * 2) * Math.min(1, Math.max(0, data.streakProgress))), 18);
    g.fillStyle = '#c9b08a';
    g.font = '18px "DejaVu Sans"';
    g.fillText(data.streakLabel, PAD, barY + 44);

    const tileW = (WIDTH - PAD * 2 - 2 * 16) / 3;
    data.stats.slice(0, 6).forEach((stat, i) => {
      const x = PAD + (i % 3) * (tileW + 16);
      const y = barY + 66 + Math.floor(i / 3) * 74;
      g.fillStyle = '#33231a';
      g.fillRect(x, y, tileW, 62);
      g.fillStyle = '#c9b08a';
      g.font = '16px "DejaVu Sans"';
      g.fillText(truncate(g, stat.label, tileW - 24), x + 12, y + 22);
      g.fillStyle = '#f3e3c3';
      g.font = 'bold 22px "DejaVu Sans"';
      g.fillText(truncate(g, stat.value, tileW - 24), x + 12, y + 50);
    });
    return { png: await encodePng(canvas), width: WIDTH, height: HEIGHT };
  });
}
