/**
 * The web half of `npm run shots`: the `/place` page in Chromium at desktop, tablet and phone
 * sizes, signed out and signed in, in English and German, after a paint, and the sign-in
 * link before and after use. The bot's HTTP server runs on an embedded in-memory database
 * (never MONGODB_URI: shots must not write to a real bot's data), with a small picture painted
 * through the real placement service first.
 */
import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { type Browser, chromium, type Page } from 'playwright-core';
import { prepareBotDeps } from '../app/botDeps.js';
import { type App, openApp } from '../app/openApp.js';
import { ASSEMBLY } from '../commands/index.js';
import { loadConfig } from '../src/config.js';
import { buildHttpApp } from '../src/http/server.js';
import { describeAppError } from '../src/interactions/errorReplies.js';
import type { BotDeps } from '../src/interactions/types.js';
import { createLogger } from '../src/logger.js';
import type { PostTransport } from '../src/posting/channelPoster.js';
import { takePortalShots } from './portalPages.js';
import type { Shot } from './shot.js';

const GROUP = 'Web page';
const ADMIN = '897300000000000001';
const ARTISTS = [
  { id: '897300000000000011', name: 'Ada' },
  { id: '897300000000000012', name: 'Bruno' },
];
/** The member signed in, by language (a long name, with umlauts in German). */
const MEMBER_NAMES: Record<'en' | 'de', string> = { en: 'Chiara Lindqvist', de: 'Jörg Müller-Lüdenscheidt' };
const CHROMIUM = ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find((p) => existsSync(p));
const NO_POSTS: PostTransport = {
  send: async () => {},
  edit: async () => {},
};

const SIZES = {
  desktop: { width: 1280, height: 800, touch: false },
  tablet: { width: 820, height: 1180, touch: true },
  phone: { width: 390, height: 844, touch: true },
} as const;
type Size = keyof typeof SIZES;
type Language = 'en' | 'de';

/** One picture: where, in which language, who is signed in, and what happens before it is taken. */
interface Scene {
  size: Size;
  language: Language;
  show: 'page' | 'pixel' | 'paint' | 'link' | 'used link';
  signedIn: boolean;
}

const SCENES: Scene[] = [
  ...(['desktop', 'tablet', 'phone'] as const).flatMap((size) =>
    (['en', 'de'] as const).flatMap((language) => [
      { size, language, show: 'pixel' as const, signedIn: false },
      { size, language, show: 'page' as const, signedIn: true },
    ]),
  ),
  { size: 'phone', language: 'en', show: 'paint', signedIn: true },
  { size: 'phone', language: 'de', show: 'paint', signedIn: true },
  { size: 'desktop', language: 'de', show: 'paint', signedIn: true },
  { size: 'phone', language: 'de', show: 'link', signedIn: false },
  { size: 'phone', language: 'en', show: 'used link', signedIn: false },
  { size: 'desktop', language: 'de', show: 'used link', signedIn: false },
];

const WORDS: Record<Scene['show'], string> = {
  page: 'canvas',
  pixel: 'a painted pixel selected',
  paint: 'after Paint (panel and toast)',
  link: 'sign-in link opened',
  'used link': 'sign-in link used already',
};

function describe(scene: Scene): { file: string; title: string } {
  const { width, height } = SIZES[scene.size];
  const who = scene.signedIn ? 'signed in' : 'signed out';
  const file = `web/${scene.size}-${scene.language}-${scene.show.replace(' ', '-')}-${scene.signedIn ? 'in' : 'out'}.png`;
  const language = scene.language === 'en' ? 'English' : 'German';
  return { file, title: `${scene.size} ${width}×${height} · ${language} · ${who} · ${WORDS[scene.show]}` };
}

/** A cookie with chips, a palette band and a heart, painted by two members. */
async function paintPicture(deps: BotDeps): Promise<void> {
  const pixels: [number, number, number, number][] = [];
  const [cx, cy, r] = [128, 108, 14];
  for (let y = cy - r; y <= cy + r; y++) {
    for (let x = cx - r; x <= cx + r; x++) {
      const d = Math.hypot(x - cx, y - cy);
      if (d > r) continue;
      const chip = (x * 7 + y * 13) % 23 === 0 || (x * 5 + y * 11) % 29 === 0;
      pixels.push([x, y, d > r - 2 || chip ? 24 : 25, 0]);
    }
  }
  for (let x = 64; x < 192; x++) for (let y = 150; y < 152; y++) pixels.push([x, y, (x - 64) >> 2, 1]);
  for (const [dx, dy] of [
    [0, 0],
    [1, 0],
    [3, 0],
    [4, 0],
    [-1, 1],
    [0, 1],
    [1, 1],
    [2, 1],
    [3, 1],
    [4, 1],
    [5, 1],
    [0, 2],
    [1, 2],
    [2, 2],
    [3, 2],
    [4, 2],
    [1, 3],
    [2, 3],
    [3, 3],
    [2, 4],
  ] as const) {
    pixels.push([170 + dx, 70 + dy, 22, 1]);
  }
  for (const [i, artist] of ARTISTS.entries()) {
    await deps.profiles.touch(artist);
    const mine = pixels.filter((p) => p[3] === i).length;
    await deps.services.place.grant({
      opId: `shots.grant:${artist.id}`,
      moderatorId: ADMIN,
      to: artist.id,
      amount: mine * 100_000,
      reason: 'shots',
    });
  }
  for (let i = 0; i < pixels.length; i += 64) {
    await Promise.all(
      pixels.slice(i, i + 64).map(([x, y, color, who]) =>
        deps.services.place.place({
          opId: `shots.paint:${x}:${y}`,
          userId: ARTISTS[who]?.id ?? '',
          x,
          y,
          color,
        }),
      ),
    );
  }
}

/** Clicks or taps canvas pixel (x, y) where the page draws it now. */
async function pointAt(page: Page, touch: boolean, x: number, y: number): Promise<void> {
  const box = await page.locator('#board').boundingBox();
  if (!box) throw new Error('the canvas is not on the page');
  const cell = box.width / 256;
  const [px, py] = [box.x + (x + 0.5) * cell, box.y + (y + 0.5) * cell];
  if (touch) await page.touchscreen.tap(px, py);
  else await page.mouse.click(px, py);
}

/**
 * A fresh sign-in link for the scene's member, in the scene's language; returns its path. Each
 * scene has a member of its own with 1,234.5 Place points, so scenes taken side by side do
 * not change each other's wallet.
 */
async function linkPath(deps: BotDeps, scene: Scene): Promise<string> {
  const userId = `8973000000000001${String(SCENES.indexOf(scene)).padStart(2, '0')}`;
  const name = MEMBER_NAMES[scene.language];
  await deps.profiles.touch({ id: userId, name });
  await deps.services.place.grant({
    opId: `shots.grant:${userId}`,
    moderatorId: ADMIN,
    to: userId,
    amount: 1_234_500,
    reason: 'shots',
  });
  const { token } = await deps.services.web.createLink({ userId, name, roleIds: [], locale: scene.language });
  return `/place/login?token=${token}`;
}

async function stage(page: Page, url: string, deps: BotDeps, scene: Scene): Promise<void> {
  const touch = SIZES[scene.size].touch;
  if (scene.show === 'link' || scene.show === 'used link') {
    const link = await linkPath(deps, scene);
    if (scene.show === 'used link') await deps.services.web.signIn(link.split('=')[1] ?? '');
    await page.goto(`${url}${link}`);
    return;
  }
  if (scene.signedIn) {
    await page.goto(`${url}${await linkPath(deps, scene)}`);
    await page.locator('form button[type="submit"]').click();
    await page.waitForURL(`${url}/place`);
  } else {
    await page.goto(`${url}/place`);
  }
  await page.locator('body[data-ready="true"]').waitFor();
  if (scene.show === 'pixel') {
    await pointAt(page, touch, 128, 108);
    await page.locator('#pixel-info', { hasText: 'Ada' }).waitFor();
  }
  if (scene.show === 'paint') {
    await page.locator('.swatch[data-index="13"]').click();
    // Each paint scene its own pixel of the heart, so the panel shows Bruno before the paint.
    await pointAt(page, touch, 170 + SCENES.filter((s) => s.show === 'paint').indexOf(scene), 72);
    await page.locator('#pixel-info', { hasText: 'Bruno' }).waitFor();
    await page.locator('#place').click();
    await page.locator('#confirm-ok').click();
    await page.locator('#pixel-info', { hasText: MEMBER_NAMES[scene.language] }).waitFor();
    await page.locator('#status:not(:empty)').waitFor();
    // The wallet counts the paint, and the live feed has brought it back.
    await page.locator('#wallet', { hasText: /(on|für) 1 / }).waitFor();
    await page.locator('#feed li').first().waitFor();
  }
}

/** One scene in a fresh browser context of its size and language; returns its shot. */
async function takeShot(browser: Browser, url: string, deps: BotDeps, outDir: string, scene: Scene) {
  const { width, height, touch } = SIZES[scene.size];
  const context = await browser.newContext({
    viewport: { width, height },
    hasTouch: touch,
    isMobile: scene.size === 'phone',
    locale: scene.language === 'de' ? 'de-DE' : 'en-US',
    timezoneId: 'Europe/Berlin',
  });
  try {
    const page = await context.newPage();
    page.setDefaultTimeout(15_000);
    await stage(page, url, deps, scene);
    const shot = describe(scene);
    await page.screenshot({ path: path.join(outDir, shot.file) });
    return { ...shot, group: GROUP };
  } finally {
    await context.close();
  }
}

/** Every scene, three browser tabs at a time, listed in the scenes' order. */
async function takeShots(browser: Browser, url: string, deps: BotDeps, outDir: string): Promise<Shot[]> {
  const shots: Shot[] = [];
  for (let i = 0; i < SCENES.length; i += 3) {
    const batch = SCENES.slice(i, i + 3).map((scene) => takeShot(browser, url, deps, outDir, scene));
    shots.push(...(await Promise.all(batch)));
  }
  return shots;
}

/** Starts the web server on an in-memory database, paints, and screenshots every scene into `<outDir>/web/`. */
export async function renderWebShots(outDir: string): Promise<Shot[]> {
  if (!CHROMIUM) throw new Error('chromium is missing: run node scripts/ensure-setup.mjs');
  await mkdir(path.join(outDir, 'web'), { recursive: true });
  const { MONGODB_URI: _notHere, ...env } = process.env;
  const config = loadConfig({ ...env, LOG_LEVEL: 'error', HTTP_PORT: '0', ADMIN_USER_IDS: ADMIN });
  const log = createLogger('error');
  let app: App | null = null;
  let http: FastifyInstance | null = null;
  let browser: Browser | null = null;
  try {
    app = await openApp(config, log, { persistent: false });
    const deps = await prepareBotDeps(app, ASSEMBLY, { transport: NO_POSTS });
    http = buildHttpApp(ASSEMBLY.httpRoutes(deps), {
      describe: (error, locale) => describeAppError(error, ASSEMBLY.errorMessages, deps.i18n.for(locale)),
      now: () => deps.clock.now(),
    });
    const url = await http.listen({ host: '127.0.0.1', port: 0 });
    const launching = chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
    const painted = paintPicture(deps);
    browser = await launching;
    await painted;
    const shots = await takeShots(browser, url, deps, outDir);
    await mkdir(path.join(outDir, 'portal'), { recursive: true });
    const artist = ARTISTS[0] as { id: string; name: string };
    return [...shots, ...(await takePortalShots(browser, url, deps, outDir, { adminId: ADMIN, artist }))];
  } finally {
    await browser?.close();
    await http?.close();
    await app?.close();
  }
}
