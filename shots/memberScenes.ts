/** The images that show members: the profile card and the Cookie leaderboard. */
import { createCanvas } from 'canvas';
import { type ProfileFacts, profileCardTexts } from '../commands/cookies/profile.js';
import type { Translator } from '../src/i18n/i18n.js';
import { discColor, initialsOf, type TextRecorder } from '../src/render/canvasTools.js';
import { type LeaderboardImageRow, renderLeaderboard } from '../src/render/leaderboardImage.js';
import { renderProfileCard } from '../src/render/profileCard.js';
import { type ImageScene, i18n, LANGUAGES, LONG_NAMES } from './sceneKit.js';

function profileFacts(long: boolean): ProfileFacts {
  const big = (n: number, seven: number) => (long ? seven : n);
  return {
    name: long ? (LONG_NAMES[2] as string) : 'Alice',
    userId: '410000000000006699',
    profile: {
      userId: '410000000000006699',
      balance: big(1_284, 9_876_543),
      rank: big(3, 1_234_567),
      streak: big(4, 365),
      bestStreak: big(9, 1_000),
      collects: big(12, 1_234_567),
      collected: big(486, 8_765_432),
      stolen: big(120, 2_345_678),
      lostToThieves: big(35, 3_456_789),
      heists: big(2, 1_111_111),
      heistNet: big(340, -7_654_321),
    },
    games: { played: big(3, 1_234_567), won: big(1, 1_000_000), net: big(-60, -9_999_999) },
    streak: { bonusPct: 10, maxDays: 7 },
  };
}

/** A picture as Discord would serve it: a 128-pixel PNG. */
async function samplePicture(): Promise<Buffer> {
  const canvas = createCanvas(128, 128);
  const g = canvas.getContext('2d');
  const sky = g.createLinearGradient(0, 0, 0, 128);
  sky.addColorStop(0, '#5865f2');
  sky.addColorStop(1, '#eb459e');
  g.fillStyle = sky;
  g.fillRect(0, 0, 128, 128);
  g.fillStyle = '#fee75c';
  g.beginPath();
  g.arc(64, 70, 34, 0, Math.PI * 2);
  g.fill();
  return canvas.toBuffer('image/png');
}

export function profileScenes(): ImageScene[] {
  return LANGUAGES.flatMap(({ locale, label }) =>
    (['plain', 'avatar', 'long'] as const).map((variant) => ({
      file: `profile-${variant}-${locale}.png`,
      title: `Profile card · ${label} · ${variant === 'long' ? 'longest name, seven-digit numbers, initials' : variant === 'avatar' ? 'with the member’s picture' : 'no picture: initials'}`,
      locale,
      async render(record?: TextRecorder) {
        const facts = {
          ...profileFacts(variant === 'long'),
          // What the shop sold them shows as a line under the tiles.
          ...(variant === 'avatar'
            ? {
                belongings: [
                  { name: i18n.for(locale).t('shop:effects.padlock.name'), count: 2 },
                  { name: 'VIP', count: 1 },
                ],
              }
            : {}),
        };
        const texts = profileCardTexts(i18n.for(locale), facts);
        const picture = variant === 'avatar' ? await samplePicture() : null;
        const face = { picture, initials: initialsOf(facts.name), color: discColor(facts.userId) };
        return (await renderProfileCard({ ...texts, face }, record ? { record } : {})).png;
      },
    })),
  );
}

function leaderboardRows(
  t: Translator,
  long: boolean,
): { rows: LeaderboardImageRow[]; you: LeaderboardImageRow } {
  const short = ['Alice', 'Bob', 'Chiara', 'Dmitri', 'Emma', 'Farid', 'Greta', 'Hannes', 'Ines', 'Jonas'];
  const rows = short.map((name, i) => ({
    rank: i + 1,
    name: long ? (LONG_NAMES[i % LONG_NAMES.length] as string) : name,
    value: long ? 9_999_999 - i * 876_543 : 4_200 - i * 370,
  }));
  const you = {
    rank: long ? 1_234_567 : 37,
    name: t.t('cookies:leaderboard.yourRow', { name: long ? LONG_NAMES[0] : 'Zoe' }),
    value: long ? 1_234_567 : 1_234,
  };
  return { rows, you };
}

export function leaderboardScenes(): ImageScene[] {
  return LANGUAGES.flatMap(({ locale, label }) =>
    [false, true].map((long) => ({
      file: `leaderboard-${long ? 'long' : 'top10'}-${locale}.png`,
      title: `Cookie leaderboard · ${label} · ${long ? 'longest names, seven-digit numbers' : 'top 10'}, the reader outside the top 10 below`,
      locale,
      async render(record?: TextRecorder) {
        const t = i18n.for(locale);
        const { rows, you } = leaderboardRows(t, long);
        const labels = {
          title: t.t('cookies:leaderboard.titleServer'),
          empty: t.t('cookies:leaderboard.empty'),
          formatValue: (v: number) => t.number(v),
        };
        return (await renderLeaderboard(labels, rows, record ? { you, record } : { you })).png;
      },
    })),
  );
}
