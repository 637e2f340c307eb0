import { loadImage } from 'canvas';
import { describe, expect, it } from 'vitest';
import { renderLeaderboard } from '../../src/render/leaderboardImage.js';

const labels = (title: string) => ({
  title,
  empty: 'Nobody yet.',
  formatValue: (v: number) => v.toLocaleString('de-DE'),
});
const rows = [
  { rank: 1, name: 'ann', value: 1234 },
  { rank: 2, name: 'ben', value: 56 },
];

describe('the leaderboard image', () => {
  it('is a real PNG sized by its rows', async () => {
    const image = await renderLeaderboard(labels('Keks-Rangliste'), rows);
    const decoded = await loadImage(image.png);
    expect([decoded.width, decoded.height]).toEqual([960, 96 + 2 * 52 + 32]);
  });

  it('renders a board once when many ask for the same one at once, and anew when it changes', async () => {
    const [a, b] = await Promise.all([
      renderLeaderboard(labels('Same board'), rows),
      renderLeaderboard(labels('Same board'), rows),
    ]);
    expect(a.png).toBe(b.png);
    const changed = await renderLeaderboard(labels('Same board'), [
      { ...rows[0], value: 1235 } as (typeof rows)[0],
      rows[1] as (typeof rows)[0],
    ]);
    expect(changed.png).not.toBe(a.png);
    expect(changed.png.equals(a.png)).toBe(false);
  });
});
