import { existsSync, mkdirSync } from 'node:fs';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestDatabase } from '../support/database.js';
import { startWeb } from '../support/webHarness.js';

/** Debian's chromium (installed by the setup script); Playwright's own download is not used. */
const CHROMIUM = ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find((p) => existsSync(p));
const MIA = '897100000000000001';

const t = useTestDatabase('web_browser_areas');
let web: Awaited<ReturnType<typeof startWeb>>;
let browser: Browser;

/** Where canvas pixel (x, y)'s middle is drawn now, and the size of one pixel on screen. */
async function pixelBox(page: Page, x: number, y: number) {
  const board = await page.locator('#board').boundingBox();
  if (!board) throw new Error('the canvas is not shown');
  const box = { left: board.x, top: board.y, cell: board.width / 256 };
  return { x: box.left + (x + 0.5) * box.cell, y: box.top + (y + 0.5) * box.cell, cell: box.cell };
}

describe('protected areas on the /place page in a real browser', () => {
  beforeAll(async () => {
    if (!CHROMIUM) throw new Error('chromium is missing: run node scripts/ensure-setup.mjs');
    web = await startWeb(t);
    await web.deps.services.place.areas.protect({
      id: 'browser.area',
      name: 'Logo',
      x1: 100,
      y1: 60,
      x2: 139,
      y2: 79,
      roleId: null,
      by: web.adminId,
    });
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
    mkdirSync('out/web', { recursive: true });
  });
  afterAll(async () => {
    await browser?.close();
    await web?.close();
  });

  it('GIVEN a protected area THEN its outline lies on its rectangle, a hover names it, and a click on its edge says it is protected', async () => {
    const signedIn = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await signedIn.newPage();
    await page.goto(`${web.url}/place`);
    await page.waitForSelector('body[data-ready="true"]');
    const outline = page.locator('.area[data-name="Logo"]');
    await expect.poll(() => outline.count()).toBe(1);
    const corner = await pixelBox(page, 100, 60);
    const box = await outline.boundingBox();
    expect(box?.x).toBeCloseTo(corner.x - corner.cell / 2, 0);
    expect(box?.width).toBeCloseTo(40 * corner.cell, 0);
    expect(box?.height).toBeCloseTo(20 * corner.cell, 0);

    const edge = await pixelBox(page, 139, 79);
    await page.mouse.move(edge.x, edge.y);
    await expect.poll(() => page.textContent('#coords')).toBe('(139, 79) · 🛡️ Logo');
    await page.mouse.click(edge.x, edge.y);
    await expect
      .poll(() => page.textContent('#pixel-info'))
      .toBe(
        "(139, 79) has never been painted. 🛡️ Protected: Logo. Only moderators, or members with the area's role, paint here.",
      );
    const outside = await pixelBox(page, 140, 79);
    await page.mouse.click(outside.x, outside.y);
    await expect.poll(() => page.textContent('#pixel-info')).toBe('(140, 79) has never been painted.');
    await page.screenshot({ path: 'out/web/place-protected-area.png' });
  });

  it('GIVEN a signed-in member WHEN they paint inside the area THEN the page says why in its own words', async () => {
    await web.fund(MIA, 1_000);
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    const { token } = await web.deps.services.web.createLink({ userId: MIA, name: 'mia', roleIds: [] });
    await page.goto(`${web.url}/place/login?token=${token}`);
    await page.getByRole('button', { name: 'Sign in and open the canvas' }).click();
    await page.waitForURL(`${web.url}/place`);
    await page.waitForSelector('body[data-ready="true"]');
    const inside = await pixelBox(page, 120, 70);
    await page.mouse.click(inside.x, inside.y);
    await page.getByRole('button', { name: /^Paint / }).click();
    await page.getByRole('button', { name: 'Paint', exact: true }).click();
    await expect
      .poll(() => page.textContent('#status'))
      .toBe(
        'Not painted: this pixel is in the protected area Logo: only moderators, or members with its role, paint there. Nothing was charged.',
      );
    expect(await web.deps.services.place.wallet(MIA)).toMatchObject({ placements: 0 });
  });
});
