import { mkdirSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestDatabase } from '../support/database.js';
import { launchChromium, openPhone, PHONE } from '../support/phoneBrowser.js';
import { startWeb } from '../support/webHarness.js';

/** The phone of browserPhone.test.ts. */
const CLEO = '897600000000000001';
const DARA = '897600000000000002';
const PIXEL = { x: 40, y: 30 };

const t = useTestDatabase('web_browser_pixel_history');
/** The overlay's colours (utils/place/views.ts): never painted, and the canvas dimmed where it marks nothing. */
const VIRGIN = [0, 230, 118, 255];
const DIM = [20, 20, 20, 170];
let web: Awaited<ReturnType<typeof startWeb>>;
let browser: Browser;

/** Taps the middle of canvas pixel (x, y) where the page draws it now. */
/** The overlay's colour over canvas pixel (x, y), as drawn (red, green, blue, alpha); null while hidden. */
function overlayAt(page: Page, x: number, y: number) {
  return page.locator('#overlay').evaluate(
    (element, [x, y]) => {
      const overlay = element as unknown as {
        hidden: boolean;
        getContext(kind: '2d'): {
          getImageData(x: number, y: number, w: number, h: number): { data: ArrayLike<number> };
        };
      };
      if (overlay.hidden) return null;
      return Array.from(overlay.getContext('2d').getImageData(x as number, y as number, 1, 1).data);
    },
    [x, y],
  );
}

async function tapPixel(page: Page, x: number, y: number) {
  const board = await page.locator('#board').boundingBox();
  if (!board) throw new Error('the canvas is not shown');
  const cell = board.width / 256;
  await page.touchscreen.tap(board.x + (x + 0.5) * cell, board.y + (y + 0.5) * cell);
  await expect.poll(() => page.textContent('#coords')).toBe(`(${x}, ${y})`);
}

describe("a pixel's last changes and the canvas's overlays on a phone in a real browser", () => {
  beforeAll(async () => {
    web = await startWeb(t);
    const { services } = web.deps;
    await web.deps.profiles.touch({ id: CLEO, name: 'cleo' });
    await web.deps.profiles.touch({ id: DARA, name: 'dara' });
    await web.fund(CLEO, 1_000);
    await web.fund(DARA, 1_000);
    // cleo paints it red, dara orange (and is then forgotten), cleo yellow.
    await services.place.place({ opId: 'h.cleo:1', userId: CLEO, ...PIXEL, color: 2 });
    await services.place.place({ opId: 'h.dara:1', userId: DARA, ...PIXEL, color: 3 });
    await services.place.place({ opId: 'h.cleo:2', userId: CLEO, ...PIXEL, color: 4 });
    await services.privacy.forget(services, DARA, 'self', 'en');
    browser = await launchChromium();
    mkdirSync('out/web', { recursive: true });
  });
  afterAll(async () => {
    await browser?.close();
    await web?.close();
  });

  it('GIVEN a pixel painted three times WHEN a phone taps it THEN its changes show newest first, the forgotten painter as "A former member", and a new placement goes on top', async () => {
    const { context, page, errors } = await openPhone(browser, web.url);
    await page.getByRole('button', { name: 'Show the whole canvas' }).click();
    await tapPixel(page, PIXEL.x, PIXEL.y);
    const lines = page.getByRole('list', { name: 'Last changes of this pixel' }).locator('li');
    await expect.poll(() => lines.count()).toBe(3);
    const texts = await lines.allTextContents();
    expect(texts[0]).toMatch(/^cleo: orange → yellow · \S/);
    expect(texts[1]).toMatch(/^A former member: red → orange · \S/);
    expect(texts[2]).toMatch(/^cleo: unpainted → red · \S/);
    expect(texts.join('\n')).not.toContain('dara');
    // On the sheet, over the canvas's edge: seen, and the canvas still larger than the sheet.
    await expect.poll(() => lines.first().isVisible()).toBe(true);
    const sheet = await page.locator('#sheet').boundingBox();
    expect(sheet?.height ?? PHONE.height).toBeLessThan(PHONE.height / 2);
    await page.screenshot({ path: 'out/web/phone-pixel-history.png' });

    // Someone else paints the selected pixel: the list follows, the new change on top.
    await web.deps.services.place.place({ opId: 'h.cleo:3', userId: CLEO, ...PIXEL, color: 13 });
    await expect.poll(() => lines.first().textContent()).toMatch(/^cleo: yellow → blue · /);
    expect(await lines.count()).toBe(4);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('GIVEN a phone WHEN it picks "Never painted", then "Heatmap (1 h)" THEN the overlay marks the never-painted pixels, then the recently painted ones, and follows a new placement', async () => {
    const { context, page, errors } = await openPhone(browser, web.url);
    const chooser = page.getByRole('combobox', { name: 'Overlay' });
    await expect.poll(() => chooser.isVisible()).toBe(true);
    await chooser.selectOption({ label: 'Never painted' });
    await page.waitForSelector('#viewport[data-overlay="virgin"]');
    expect(await overlayAt(page, PIXEL.x, PIXEL.y)).toEqual(DIM);
    expect(await overlayAt(page, 0, 0)).toEqual(VIRGIN);
    // Someone paints (0, 0): it is no longer never painted, without reloading anything.
    await web.deps.services.place.place({ opId: 'h.cleo:corner', userId: CLEO, x: 0, y: 0, color: 7 });
    await expect.poll(() => overlayAt(page, 0, 0)).toEqual(DIM);

    await chooser.selectOption({ label: 'Heatmap (1 h)' });
    await page.waitForSelector('#viewport[data-overlay="heat1h"]');
    // Painted once: the coolest heat; painted four or more times: hotter; never: dimmed.
    expect(await overlayAt(page, 0, 0)).toEqual([120, 20, 40, 255]);
    const hot = await overlayAt(page, PIXEL.x, PIXEL.y);
    expect(hot?.[3]).toBe(255);
    expect(hot).not.toEqual([120, 20, 40, 255]);
    expect(await overlayAt(page, 100, 100)).toEqual(DIM);
    await page.screenshot({ path: 'out/web/phone-heatmap.png' });

    await chooser.selectOption({ label: 'No overlay' });
    await page.waitForSelector('#viewport[data-overlay="off"]');
    expect(await overlayAt(page, 0, 0)).toBeNull();
    expect(errors).toEqual([]);
    await context.close();
  });
});
