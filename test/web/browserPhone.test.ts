import { existsSync, mkdirSync } from 'node:fs';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestDatabase } from '../support/database.js';
import { startWeb } from '../support/webHarness.js';

/** Debian's chromium (installed by the setup script); Playwright's own download is not used. */
const CHROMIUM = ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find((p) => existsSync(p));
/** The sizes of browser.test.ts; the phone with a phone's pixel density. */
const SIZES = [
  { name: 'desktop', width: 1280, height: 800, touch: false, scale: 1 },
  { name: 'tablet', width: 820, height: 1180, touch: true, scale: 2 },
  { name: 'phone', width: 390, height: 844, touch: true, scale: 3 },
] as const;
const PHONE = SIZES[2];
const CLEO = '897200000000000001';
const PLACED = 20;

const t = useTestDatabase('web_browser_phone');
let web: Awaited<ReturnType<typeof startWeb>>;
let browser: Browser;

async function open(size: (typeof SIZES)[number], path = '/place') {
  const context = await browser.newContext({
    viewport: { width: size.width, height: size.height },
    deviceScaleFactor: size.scale,
    hasTouch: size.touch,
    isMobile: size.name === 'phone',
  });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  await page.goto(`${web.url}${path}`);
  return { context, page, errors };
}

async function ready(page: Page) {
  await page.waitForSelector('body[data-ready="true"]');
}

/** The selected pixel's box on screen (the cursor drawn over it). */
async function cursor(page: Page) {
  const box = await page.locator('#cursor').boundingBox();
  if (!box) throw new Error('no pixel is selected');
  return { ...box, cx: box.x + box.width / 2, cy: box.y + box.height / 2 };
}

/** Taps (or clicks) the middle of canvas pixel (x, y) where the page draws it now. */
async function tapPixel(page: Page, x: number, y: number, touch: boolean) {
  const board = await page.locator('#board').boundingBox();
  if (!board) throw new Error('the canvas is not shown');
  const cell = board.width / 256;
  const at = { x: board.x + (x + 0.5) * cell, y: board.y + (y + 0.5) * cell };
  if (touch) await page.touchscreen.tap(at.x, at.y);
  else await page.mouse.click(at.x, at.y);
  await expect.poll(() => page.textContent('#coords')).toBe(`(${x}, ${y})`);
}

/**
 * What the grid overlay holds around the selected pixel, in device pixels: the opacity on its
 * left edge and the next pixel's, in the middle of its width, and over the whole overlay.
 */
async function gridAroundSelection(page: Page) {
  return page.evaluate(() => {
    const overlay = document.getElementById('grid') as HTMLCanvasElement;
    const frame = overlay.getBoundingClientRect();
    const sel = (document.getElementById('cursor') as HTMLElement).getBoundingClientRect();
    const dpr = overlay.width / frame.width;
    const data = overlay.getContext('2d')?.getImageData(0, 0, overlay.width, overlay.height).data;
    if (!data) throw new Error('the grid overlay has no pixels');
    const alpha = (x: number, y: number) => data[(y * overlay.width + x) * 4 + 3] ?? 0;
    const row = Math.round((sel.top - frame.top + sel.height / 2) * dpr);
    // A line is one device pixel wide; where exactly it lands depends on rounding: look ±1.
    const lineAt = (cssX: number) => {
      const x = Math.round((cssX - frame.left) * dpr);
      return Math.max(alpha(x - 1, row), alpha(x, row), alpha(x + 1, row));
    };
    let total = 0;
    for (let i = 3; i < data.length; i += 4) total += data[i] ?? 0;
    return {
      leftEdge: lineAt(sel.left),
      nextEdge: lineAt(sel.right),
      middle: alpha(Math.round((sel.left - frame.left + sel.width / 2) * dpr), row),
      total,
    };
  });
}

describe('the /place page on a phone in a real browser', () => {
  beforeAll(async () => {
    if (!CHROMIUM) throw new Error('chromium is missing: run node scripts/ensure-setup.mjs');
    web = await startWeb(t);
    // A painter with a name, and placements before any page opens: a row of pixels (i, 200).
    await web.deps.profiles.touch({ id: CLEO, name: 'cleo' });
    await web.fund(CLEO, 100 * (PLACED + 1));
    for (let i = 0; i < PLACED; i++) {
      await web.deps.services.place.place({
        opId: `phone.cleo:${i}`,
        userId: CLEO,
        x: i,
        y: 200,
        color: i % 32,
      });
    }
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
    mkdirSync('out/web', { recursive: true });
  });
  afterAll(async () => {
    await browser?.close();
    await web?.close();
  });

  it('GIVEN placements before the page opens THEN the feed lists the latest ones, newest first, right after load, and a new one goes on top', async () => {
    const { context, page, errors } = await open(PHONE);
    await ready(page);
    const lines = page.locator('#feed li');
    await expect.poll(() => lines.count()).toBe(15);
    expect(await lines.first().textContent()).toMatch(/^#20 \(19, 200\) .+ by cleo · /);
    expect(await lines.last().textContent()).toMatch(/^#6 \(5, 200\) .+ by cleo · /);

    // A placement after load: one line more, on top, none of the earlier ones twice.
    await web.deps.services.place.place({ opId: 'phone.cleo:live', userId: CLEO, x: 30, y: 200, color: 2 });
    await expect.poll(() => lines.first().textContent()).toMatch(/^#21 \(30, 200\) red by cleo · /);
    const texts = await lines.allTextContents();
    expect(texts).toHaveLength(16);
    expect(new Set(texts.map((line) => line.split(' ')[0])).size).toBe(16);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('GIVEN a phone and a selected pixel WHEN + and − are pressed THEN the zoom changes around that pixel, which stays under the finger', async () => {
    const { context, page, errors } = await open(PHONE);
    await ready(page);
    await page.getByRole('button', { name: 'Show the whole canvas' }).click();
    // A pixel near the top-left corner: zooming around the viewport's centre would push it off.
    await tapPixel(page, 40, 30, true);
    const before = await cursor(page);

    let pixel = before.width;
    for (let press = 0; press < 3; press++) {
      await page.getByRole('button', { name: 'Zoom in' }).click();
      const after = await cursor(page);
      expect(after.width).toBeGreaterThan(pixel);
      expect(Math.abs(after.cx - before.cx)).toBeLessThanOrEqual(1);
      expect(Math.abs(after.cy - before.cy)).toBeLessThanOrEqual(1);
      pixel = after.width;
    }
    // Three presses: about 1.5, 3, 6, 12 screen pixels per canvas pixel.
    expect(pixel).toBeGreaterThanOrEqual(8);
    expect(await page.textContent('#coords')).toBe('(40, 30)');

    await page.getByRole('button', { name: 'Zoom out' }).click();
    const out = await cursor(page);
    expect(out.width).toBeLessThan(pixel);
    expect(Math.abs(out.cx - before.cx)).toBeLessThanOrEqual(1);
    expect(Math.abs(out.cy - before.cy)).toBeLessThanOrEqual(1);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('GIVEN a phone WHEN zoomed in far enough THEN thin grid lines lie on the pixel edges and leave the pixels’ colours uncovered; fitted there is no grid', async () => {
    const { context, page, errors } = await open(PHONE);
    await ready(page);
    await page.getByRole('button', { name: 'Show the whole canvas' }).click();
    // One of cleo's pixels, painted.
    await tapPixel(page, 15, 200, true);
    // Fitted (about 1.5 screen pixels per canvas pixel): the overlay is empty.
    await expect.poll(async () => (await gridAroundSelection(page)).total).toBe(0);

    await page.getByRole('button', { name: 'Zoom in' }).click();
    await page.getByRole('button', { name: 'Zoom in' }).click();
    // 6 screen pixels per canvas pixel: still none.
    expect((await cursor(page)).width).toBeLessThan(8);
    expect((await gridAroundSelection(page)).total).toBe(0);

    await page.getByRole('button', { name: 'Zoom in' }).click();
    expect((await cursor(page)).width).toBeGreaterThanOrEqual(8);
    const grid = await gridAroundSelection(page);
    // Lines on both edges of the selected pixel, translucent; nothing over its middle.
    expect(grid.leftEdge).toBeGreaterThan(0);
    expect(grid.leftEdge).toBeLessThan(160);
    expect(grid.nextEdge).toBeGreaterThan(0);
    expect(grid.middle).toBe(0);

    // A drag pans the grid with the canvas.
    const box = await page.locator('#viewport').boundingBox();
    if (!box) throw new Error('no viewport');
    await page.mouse.move(box.x + 100, box.y + 100);
    await page.mouse.down();
    await page.mouse.move(box.x + 137, box.y + 121, { steps: 4 });
    await page.mouse.up();
    const panned = await gridAroundSelection(page);
    expect(panned.leftEdge).toBeGreaterThan(0);
    expect(panned.middle).toBe(0);
    expect(errors).toEqual([]);
    await page.screenshot({ path: 'out/web/place-phone-grid.png' });
    await context.close();
  });

  it('GIVEN the three screen sizes WHEN a paint is refused THEN the toast is on screen over the canvas and covers no button or link', async () => {
    for (const size of SIZES) {
      const { token } = await web.deps.services.web.createLink({
        userId: `8973000000000000${SIZES.indexOf(size)}1`,
        name: `broke-${size.name}`,
        roleIds: [],
      });
      const { context, page, errors } = await open(size, `/place/login?token=${token}`);
      await page.getByRole('button', { name: 'Sign in and open the canvas' }).click();
      await page.waitForURL(`${web.url}/place`);
      await ready(page);
      await expect.poll(() => page.getAttribute('body', 'data-signed-in')).toBe('true');
      await tapPixel(page, 100, 100, size.touch);
      await page.locator('#place').click();
      await page.locator('#confirm-ok').click();
      await expect.poll(() => page.textContent('#status')).toMatch(/^Not painted: you have 0 points/);
      const layout = await page.evaluate(() => {
        const plain = (r: DOMRect) => ({ left: r.left, top: r.top, right: r.right, bottom: r.bottom });
        const controls = [
          ...document.querySelectorAll<HTMLElement>('button, a[href], input, select, textarea'),
        ]
          .filter((el) => el.checkVisibility())
          .map((el) => ({
            name: el.getAttribute('aria-label') ?? el.textContent,
            ...plain(el.getBoundingClientRect()),
          }))
          .filter((r) => r.right > r.left && r.bottom > r.top);
        return {
          toast: plain((document.getElementById('status') as HTMLElement).getBoundingClientRect()),
          viewport: plain((document.getElementById('viewport') as HTMLElement).getBoundingClientRect()),
          controls,
          width: window.innerWidth,
          height: window.innerHeight,
        };
      });
      const { toast } = layout;
      // On screen, over the canvas.
      expect(toast.left).toBeGreaterThanOrEqual(layout.viewport.left);
      expect(toast.right).toBeLessThanOrEqual(layout.viewport.right);
      expect(toast.top).toBeGreaterThanOrEqual(layout.viewport.top);
      expect(toast.bottom).toBeLessThanOrEqual(Math.min(layout.viewport.bottom, layout.height));
      // The zoom buttons, the palette, Paint, Sign out: the toast overlaps none.
      expect(layout.controls.length).toBeGreaterThan(35);
      const covered = layout.controls.filter(
        (c) => c.left < toast.right && toast.left < c.right && c.top < toast.bottom && toast.top < c.bottom,
      );
      expect([size.name, covered]).toEqual([size.name, []]);
      expect(errors).toEqual([]);
      await page.screenshot({ path: `out/web/place-${size.name}-toast.png` });
      await context.close();
    }
  });
});
