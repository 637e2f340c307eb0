/** The moderators' picture of the economy (`/admin economy health`), from a synthetic month. */

import { DAY_MS } from '../src/clock.js';
import type { TextRecorder } from '../src/render/canvasTools.js';
import { renderEconomyImage } from '../src/render/economyImage.js';
import type { EconomyDay, EconomyReport } from '../utils/admin/economyHealth.js';
import { economyPicture } from '../utils/admin/economyPicture.js';
import { COOKIE_KINDS } from '../utils/money/cookieEconomy.js';
import { AT, type ImageScene, i18n, LANGUAGES } from './sceneKit.js';

/** A month of a community of about 200 (`big`: seven-digit figures everywhere). */
function month(big: boolean): EconomyReport {
  const scale = big ? 1_000 : 1;
  const days: EconomyDay[] = [];
  let supply = 600_000 * scale;
  let vault = 480_000 * scale;
  for (let i = 0; i < 30; i++) {
    const wave = Math.sin(i / 3);
    const collect = Math.round((9_000 + 800 * wave) * scale);
    const stakes = Math.round((30_000 + 5_000 * wave) * scale);
    const payouts = Math.round(stakes * 0.97);
    const share = i > 0 ? Math.round((stakes - payouts) * 0.8) : 0;
    supply += collect + payouts + share - stakes + 1_200 * scale;
    vault += stakes - payouts - share;
    days.push({
      day: new Date(AT.getTime() - (29 - i) * DAY_MS).toISOString().slice(0, 10),
      supply,
      vault,
      flows: new Map([
        [COOKIE_KINDS.collect, { count: 400, in: collect, out: 0 }],
        [COOKIE_KINDS.gameStake, { count: 900, in: 0, out: stakes }],
        [COOKIE_KINDS.gamePayout, { count: 450, in: payouts, out: 0 }],
        [COOKIE_KINDS.bakeryShare, { count: 120, in: share, out: 0 }],
        [COOKIE_KINDS.grant, { count: 4, in: 1_200 * scale, out: 0 }],
        [COOKIE_KINDS.stealLoot, { count: 30, in: 2_000 * scale, out: 2_000 * scale }],
      ]),
      placeEarned: Math.round((2_400 + 300 * wave) * scale) / 1,
      pixels: Math.round((260 + 40 * wave) * scale),
    });
  }
  return { days, reserve: 100_000 * scale, gini: 0.412, members: big ? 1_234_567 : 187 };
}

export function economyScenes(): ImageScene[] {
  return LANGUAGES.flatMap(({ locale, label }) =>
    [false, true].map((big) => ({
      file: `economy-${big ? 'large' : 'month'}-${locale}.png`,
      title: `Economy health (/admin economy health) · ${label} · ${big ? 'seven-digit figures' : 'a month of 200 members'}`,
      locale,
      render: (record?: TextRecorder) =>
        renderEconomyImage(economyPicture(month(big), i18n.for(locale)), record),
    })),
  );
}
