import { copyFile, mkdir } from 'node:fs/promises';
import path from 'node:path';

/**
 * The pictures the documentation shows (README.md and `docs/*.md`), by the file in `docs/` it
 * links and the shot it is copied from: `npm run shots` regenerates them, so the documentation
 * never shows an older bot.
 */
export const README_SHOTS: Readonly<Record<string, string>> = {
  'profile-card.png': 'images/profile-plain-en.png',
  'profile-card-de.png': 'images/profile-long-de.png',
  'leaderboard-de.png': 'images/leaderboard-long-de.png',
  'place-canvas.png': 'images/canvas-sparse-en.png',
  'place-zoom.png': 'images/canvas-zoom16-en.png',
  'place-heatmap.png': 'images/heatmap-en.png',
  'place-virgin-de.png': 'images/virgin-de.png',
  'place-template-de.png': 'images/template-de.png',
  'web-desktop-1280x800.png': 'web/desktop-en-pixel-out.png',
  'web-tablet-820x1180.png': 'web/tablet-en-page-in.png',
  'web-phone-390x844.png': 'web/phone-en-paint-in.png',
  'web-phone-de-390x844.png': 'web/phone-de-paint-in.png',
  'web-used-link-de.png': 'web/desktop-de-used-link-out.png',
  'economy-de.png': 'images/economy-month-de.png',
  'poker-table.png': 'discord/poker-board-en.png',
  'poker-raise-de.png': 'discord/poker-raise-form-de.png',
  'poker-tournament.png': 'discord/poker-tournament-en.png',
  'apps-give-form.png': 'discord/apps-give-form-en.png',
};

/** Copies the documentation's pictures from the shots just taken into `docsDir`. */
export async function updateReadmeShots(shotsDir: string, docsDir: string): Promise<number> {
  await mkdir(docsDir, { recursive: true });
  const entries = Object.entries(README_SHOTS);
  for (const [doc, shot] of entries) await copyFile(path.join(shotsDir, shot), path.join(docsDir, doc));
  return entries.length;
}
