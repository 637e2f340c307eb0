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
const BLUE = 13; // #3690EA

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
      const layout = await page.evaluate(() => ({
        scrollWidth: document.documentElement.scrollWidth,
        innerWidth: window.innerWidth,
        swatches: document.querySelectorAll('.swatch').length,
        canvas: document.getElementById('viewport')?.getBoundingClientRect().width ?? 0,
        small: [...document.querySelectorAll('button')]
          .map((b) => b.getBoundingClientRect())
          .filter((r) => r.width > 0 && (r.width < 40 || r.height < 40)).length,
      }));
      // Nothing wider than the screen (no sideways scrolling, nothing cut off).
      expect(layout.scrollWidth).toBeLessThanOrEqual(size.width);
      expect(layout.innerWidth).toBe(size.width);
      expect(layout.swatches).toBe(32);
      expect(layout.canvas).toBeGreaterThan(size.width * 0.5);
      if (size.name === 'phone') expect(layout.small).toBe(0);
      expect(errors).toEqual([]);
      await page.screenshot({ path: `out/web/place-${size.name}-${size.width}x${size.height}.png` });
      await context.close();
    }
  });

  it('GIVEN a one-time link THEN the member signs in, paints a pixel after confirming, and a second browser sees it live', async () => {
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

    // Choose blue with the keyboard-usable palette, then tap pixel (10, 10).
    await page.getByRole('radio', { name: 'blue #3690EA' }).click();
    const box = await page.evaluate(() => {
      const r = (document.getElementById('board') as HTMLCanvasElement).getBoundingClientRect();
      return { left: r.left, top: r.top, cell: r.width / 256 };
    });
    await page.mouse.click(box.left + 10.5 * box.cell, box.top + 10.5 * box.cell);
    await expect.poll(() => page.textContent('#pixel-info')).toContain('(10, 10) has never been painted');
    await page.getByRole('button', { name: /^Paint blue/ }).click();
    await expect
      .poll(() => page.textContent('#confirm-text'))
      .toBe('Paint (10, 10) blue #3690EA for 100 points? You have 500 points.');
    await page.getByRole('button', { name: 'Paint', exact: true }).click();
    await expect.poll(() => page.textContent('#status')).toMatch(/Painted \(10, 10\) at revision \d+\./);
    await expect.poll(() => page.textContent('#account')).toContain('ann · 400 points');
    await page.screenshot({ path: 'out/web/place-phone-signed-in.png' });

    // The watcher got it through the WebSocket: its canvas has the blue pixel, its feed the line.
    await watcher.waitForFunction((r) => Number(document.body.dataset.revision) > r, start);
    const colour = await watcher.evaluate(() => {
      const canvas = document.getElementById('board') as HTMLCanvasElement;
      return [...(canvas.getContext('2d')?.getImageData(10, 10, 1, 1).data ?? [])];
    });
    expect(colour).toEqual([0x36, 0x90, 0xea, 255]);
    expect(await watcher.textContent('#feed')).toContain('(10, 10) blue by ann');
    await web.deps.ledger.flush();
    expect((await web.deps.services.place.wallet(ANN)).balance).toBe(400_000);
    expect((await web.deps.services.place.pixelInfo(10, 10))?.pixel.color).toBe(BLUE);
    await watcher.screenshot({ path: 'out/web/place-desktop-live.png' });
    await context.close();
  });
});
