import { existsSync, mkdirSync } from 'node:fs';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestDatabase } from '../support/database.js';
import { startWeb } from '../support/webHarness.js';

/** Debian's chromium (installed by the setup script); Playwright's own download is not used. */
const CHROMIUM = ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find((p) => existsSync(p));
const SIZES = [
  { name: 'desktop', width: 1280, height: 800, touch: false },
  { name: 'tablet', width: 820, height: 1180, touch: true },
  { name: 'phone', width: 390, height: 844, touch: true },
] as const;
const ANN = '897000000000000001';
const BOB = '897000000000000002';

const t = useTestDatabase('web_browser');
let web: Awaited<ReturnType<typeof startWeb>>;
let browser: Browser;

/**
 * A picture on the board before the pages open (a cookie with chips and a palette band), made
 * by a member through the real placement service, so the screenshots show a canvas in use.
 */
async function paintPicture() {
  const artist = '897000000000000009';
  const pixels: [number, number, number][] = [];
  const [cx, cy, r] = [128, 110, 22];
  for (let y = cy - r; y <= cy + r; y++) {
    for (let x = cx - r; x <= cx + r; x++) {
      const d = Math.hypot(x - cx, y - cy);
      if (d > r) continue;
      const chip = (x * 7 + y * 13) % 23 === 0 || (x * 5 + y * 11) % 29 === 0;
      pixels.push([x, y, d > r - 2 ? 24 : chip ? 24 : 25]);
    }
  }
  for (let x = 64; x < 192; x++) for (let y = 160; y < 164; y++) pixels.push([x, y, (x - 64) >> 2]);
  await web.deps.services.place.grant({
    opId: 'browser.artist',
    moderatorId: web.adminId,
    to: artist,
    amount: pixels.length * 100_000,
    reason: 'test',
  });
  for (let i = 0; i < pixels.length; i += 32) {
    await Promise.all(
      pixels
        .slice(i, i + 32)
        .map(([x, y, color]) =>
          web.deps.services.place.place({ opId: `browser.art:${x}:${y}`, userId: artist, x, y, color }),
        ),
    );
  }
}

async function ready(page: Page) {
  await page.waitForSelector('body[data-ready="true"]');
}

/** Clicks (or taps) the middle of canvas pixel (x, y) where the page draws it now. */
async function clickPixel(page: Page, x: number, y: number) {
  const box = await page.evaluate(() => {
    const r = (document.getElementById('board') as HTMLCanvasElement).getBoundingClientRect();
    return { left: r.left, top: r.top, cell: r.width / 256 };
  });
  await page.mouse.click(box.left + (x + 0.5) * box.cell, box.top + (y + 0.5) * box.cell);
}

describe('the /place page in a real browser', () => {
  beforeAll(async () => {
    if (!CHROMIUM) throw new Error('chromium is missing: run node scripts/ensure-setup.mjs');
    web = await startWeb(t);
    await paintPicture();
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
    mkdirSync('out/web', { recursive: true });
  });
  afterAll(async () => {
    await browser?.close();
    await web?.close();
  });

  it('GIVEN the three screen sizes THEN the canvas, palette and panels fit, and every control on the phone is at least 40 px', async () => {
    for (const size of SIZES) {
      const context = await browser.newContext({
        viewport: { width: size.width, height: size.height },
        hasTouch: size.touch,
        isMobile: size.name === 'phone',
      });
      const page = await context.newPage();
      const errors: string[] = [];
      page.on('pageerror', (error) => errors.push(error.message));
      page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
      await page.goto(`${web.url}/place`);
      await ready(page);
      await page.getByRole('button', { name: 'Show the whole canvas' }).click();
      const layout = await page.evaluate(() => {
        const rect = (id: string) => (document.getElementById(id) as HTMLElement).getBoundingClientRect();
        const swatches = [...document.querySelectorAll('.swatch')].map((b) => b.getBoundingClientRect());
        return {
          scrollWidth: document.documentElement.scrollWidth,
          innerWidth: window.innerWidth,
          innerHeight: window.innerHeight,
          swatches: swatches.length,
          lowestSwatch: Math.max(...swatches.map((r) => r.bottom)),
          viewport: rect('viewport'),
          board: rect('board'),
          place: rect('place'),
          sheet: rect('sheet'),
          small: [...document.querySelectorAll('button')]
            .map((b) => b.getBoundingClientRect())
            .filter((r) => r.width > 0 && (r.width < 40 || r.height < 40)).length,
        };
      });
      // Nothing wider than the screen (no sideways scrolling, nothing cut off).
      expect(layout.scrollWidth).toBeLessThanOrEqual(size.width);
      expect(layout.innerWidth).toBe(size.width);
      expect(layout.swatches).toBe(32);
      expect(layout.viewport.width).toBeGreaterThan(size.width * 0.5);
      if (size.touch) {
        // Fit fills the screen's width with the canvas, and the palette and Paint sit in a sheet
        // at the bottom of the first screen, the canvas above it: no scrolling to paint.
        expect(layout.board.width).toBeGreaterThan(size.width * 0.95);
        expect(layout.sheet.bottom).toBeCloseTo(layout.innerHeight, 0);
        expect(layout.lowestSwatch).toBeLessThanOrEqual(layout.innerHeight);
        expect(layout.place.bottom).toBeLessThanOrEqual(layout.innerHeight);
        expect(layout.board.bottom).toBeLessThanOrEqual(layout.sheet.top + 1);
        // A tap selects a pixel, and the readout says which.
        const cell = layout.board.width / 256;
        await page.touchscreen.tap(layout.board.left + 40.5 * cell, layout.board.top + 30.5 * cell);
        await expect.poll(() => page.textContent('#coords')).toBe('(40, 30)');
        await expect
          .poll(() => page.textContent('#pixel-info'))
          .toContain('(40, 30) has never been painted.');
      }
      if (size.name === 'phone') expect(layout.small).toBe(0);
      expect(errors).toEqual([]);
      await page.screenshot({ path: `out/web/place-${size.name}-${size.width}x${size.height}.png` });
      await context.close();
    }
  });

  it('GIVEN a one-time link THEN the member signs in, paints after confirming, and the pixel panels of both browsers follow every paint live', async () => {
    await web.deps.services.place.grant({
      opId: 'browser.grant',
      moderatorId: web.adminId,
      to: ANN,
      amount: 500_000,
      reason: 'test',
    });
    const watcher = await (await browser.newContext({ viewport: { width: 1280, height: 800 } })).newPage();
    await watcher.goto(`${web.url}/place`);
    await ready(watcher);
    const start = Number(await watcher.getAttribute('body', 'data-revision'));
    await clickPixel(watcher, 10, 10);
    await expect.poll(() => watcher.textContent('#pixel-info')).toContain('(10, 10) has never been painted');

    const context = await browser.newContext({
      viewport: { width: 390, height: 844 },
      hasTouch: true,
      isMobile: true,
    });
    const page = await context.newPage();
    const { token } = await web.deps.services.web.createLink({ userId: ANN, name: 'ann', roleIds: [] });
    await page.goto(`${web.url}/place/login?token=${token}`);
    await page.getByRole('button', { name: 'Sign in and open the canvas' }).click();
    await page.waitForURL(`${web.url}/place`);
    await ready(page);
    await expect.poll(() => page.textContent('#account')).toContain('ann · 500 points');
    await expect
      .poll(() => page.textContent('#wallet'))
      .toContain('500 points: enough for 5 pixels at 100 points each.');

    // Choose blue with the keyboard-usable palette, then tap pixel (10, 10).
    await page.getByRole('radio', { name: 'blue (#3690EA)' }).click();
    await clickPixel(page, 10, 10);
    await expect.poll(() => page.textContent('#pixel-info')).toContain('(10, 10) has never been painted');
    await page.getByRole('button', { name: /^Paint blue/ }).click();
    await expect
      .poll(() => page.textContent('#confirm-text'))
      .toBe('Paint (10, 10) blue (#3690EA) for 100 points? You have 500 points.');
    await page.getByRole('button', { name: 'Paint', exact: true }).click();
    await expect.poll(() => page.textContent('#status')).toMatch(/Painted \(10, 10\) in version [\d,]+\./);
    const revision = ((await page.textContent('#status')) ?? '').match(/version ([\d,]+)/)?.[1];
    // The panel follows the paint at once: no longer "never painted".
    await expect
      .poll(() => page.textContent('#pixel-info'))
      .toMatch(
        new RegExp(
          `^\\(10, 10\\) is blue \\(#3690EA\\), painted by ann in version ${revision} \\(.+\\)\\. Painted once\\.$`,
        ),
      );
    await expect.poll(() => page.textContent('#account')).toContain('ann · 400 points');
    await expect.poll(() => page.textContent('#wallet')).toContain('spent 100 points on 1 pixel.');
    await page.screenshot({ path: 'out/web/place-phone-signed-in.png' });

    // The watcher got it through the WebSocket: its canvas has the blue pixel, its feed the line,
    // and its panel, on that pixel, the new owner.
    await watcher.waitForFunction((r) => Number(document.body.dataset.revision) > r, start);
    const colour = await watcher.evaluate(() => {
      const canvas = document.getElementById('board') as HTMLCanvasElement;
      return [...(canvas.getContext('2d')?.getImageData(10, 10, 1, 1).data ?? [])];
    });
    expect(colour).toEqual([0x36, 0x90, 0xea, 255]);
    expect(await watcher.textContent('#feed')).toContain('(10, 10) blue by ann');
    await expect
      .poll(() => watcher.textContent('#pixel-info'))
      .toContain('is blue (#3690EA), painted by ann');

    // Someone else paints the same pixel (in Discord): both panels follow the live feed.
    await web.deps.profiles.touch({ id: BOB, name: 'bob' });
    await web.fund(BOB, 100);
    await web.deps.services.place.place({ opId: 'browser.bob', userId: BOB, x: 10, y: 10, color: 2 });
    for (const p of [page, watcher]) {
      await expect
        .poll(() => p.textContent('#pixel-info'))
        .toMatch(
          /^\(10, 10\) is red \(#FF4500\), painted by bob in version [\d,]+ \(.+\)\. Painted 2 times\.$/,
        );
    }
    await web.deps.ledger.flush();
    expect((await web.deps.services.place.wallet(ANN)).balance).toBe(400_000);
    await watcher.screenshot({ path: 'out/web/place-desktop-live.png' });
    await context.close();
  });
});
