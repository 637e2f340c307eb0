import { mkdirSync } from 'node:fs';
import { createCanvas, loadImage } from 'canvas';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rgb } from '../../utils/place/palette.js';
import { useTestDatabase } from '../support/database.js';
import { launchChromium, openPhone, PHONE } from '../support/phoneBrowser.js';
import { startWeb } from '../support/webHarness.js';

const CLEO = '897400000000000001';
const RED = 2;
const BLUE = 13;
const WHITE = [255, 255, 255];
/** The template: a 6×4 red frame (its inside transparent) with its top-left corner at (120, 80). */
const FRAME = { x: 120, y: 80, width: 6, height: 4 };

const t = useTestDatabase('web_browser_templates');
let web: Awaited<ReturnType<typeof startWeb>>;
let browser: Browser;

function frameImage() {
  const data = new Uint8ClampedArray(FRAME.width * FRAME.height * 4);
  for (let y = 0; y < FRAME.height; y++) {
    for (let x = 0; x < FRAME.width; x++) {
      const edge = x === 0 || y === 0 || x === FRAME.width - 1 || y === FRAME.height - 1;
      if (edge) data.set([...rgb(RED), 255], (y * FRAME.width + x) * 4);
    }
  }
  return { width: FRAME.width, height: FRAME.height, data };
}

/** Taps the middle of canvas pixel (x, y) where the page draws it now. */
async function tapPixel(page: Page, x: number, y: number) {
  const board = await page.locator('#board').boundingBox();
  if (!board) throw new Error('the canvas is not shown');
  const cell = board.width / 256;
  await page.touchscreen.tap(board.x + (x + 0.5) * cell, board.y + (y + 0.5) * cell);
  await expect.poll(() => page.textContent('#coords')).toBe(`(${x}, ${y})`);
}

/** What the member sees in the middle of each canvas pixel: its colour on screen (red, green, blue). */
async function seen(page: Page, pixels: Record<string, [number, number]>) {
  const board = await page.locator('#board').boundingBox();
  if (!board) throw new Error('the canvas is not shown');
  const cell = board.width / 256;
  const shot = await loadImage(await page.screenshot({ scale: 'css' }));
  const canvas = createCanvas(shot.width, shot.height);
  const g = canvas.getContext('2d');
  g.drawImage(shot, 0, 0);
  const colours: Record<string, number[]> = {};
  for (const [name, [x, y]] of Object.entries(pixels)) {
    const sx = Math.floor(board.x + (x + 0.5) * cell);
    const sy = Math.floor(board.y + (y + 0.5) * cell);
    colours[name] = [...g.getImageData(sx, sy, 1, 1).data.slice(0, 3)];
  }
  return colours;
}

/** The pixels whose colour on screen is off the expected one by more than 3 in red, green or blue (screens round). */
const unlike = (colours: Record<string, number[]>, expected: Record<string, readonly number[]>) =>
  Object.entries(expected).flatMap(([name, want]) => {
    const got = colours[name] ?? [];
    return want.every((c, i) => Math.abs((got[i] ?? -99) - c) <= 3) ? [] : [`${name}: ${got} not ${want}`];
  });
/** `top` laid over `under` at an opacity (0–1), as a browser composes it. */
const over = (top: readonly number[], under: readonly number[], alpha: number) =>
  top.map((c, i) => Math.round(c * alpha + (under[i] ?? 0) * (1 - alpha)));

/** The pixels the test looks at: each on the frame, inside it, or outside it. */
const SPOTS = {
  /** On the frame, painted blue on the canvas: the template wants red there. */
  wrong: [FRAME.x, FRAME.y],
  /** On the frame, painted red: right already. */
  right: [FRAME.x + 1, FRAME.y],
  /** On the frame's far corner, never painted (white). */
  corner: [FRAME.x + FRAME.width - 1, FRAME.y + FRAME.height - 1],
  /** Inside the frame, where the artwork is transparent. */
  inside: [FRAME.x + 2, FRAME.y + 1],
  /** Just outside its left and bottom edges. */
  left: [FRAME.x - 1, FRAME.y + 1],
  below: [FRAME.x + FRAME.width - 1, FRAME.y + FRAME.height],
} as const satisfies Record<string, [number, number]>;

describe("the canvas's templates over the /place page on a phone in a real browser", () => {
  beforeAll(async () => {
    web = await startWeb(t);
    const { services } = web.deps;
    await web.deps.profiles.touch({ id: CLEO, name: 'cleo' });
    await web.fund(CLEO, 1_000);
    await services.place.templates.add({
      id: '1400000000000000001',
      name: 'Red Frame',
      x: FRAME.x,
      y: FRAME.y,
      image: frameImage(),
      roleId: '897400000000000090',
      channelId: '897400000000000091',
      guildId: null,
      locale: 'en',
      by: CLEO,
    });
    await services.place.place({ opId: 'tpl.cleo:1', userId: CLEO, x: FRAME.x, y: FRAME.y, color: BLUE });
    await services.place.place({ opId: 'tpl.cleo:2', userId: CLEO, x: FRAME.x + 1, y: FRAME.y, color: RED });
    browser = await launchChromium();
    mkdirSync('out/web', { recursive: true });
  });
  afterAll(async () => {
    await browser?.close();
    await web?.close();
  });

  it('GIVEN a template WHEN a phone switches Templates on THEN its artwork lies over its place at half opacity, the slider changes how strongly, and switching off removes it', async () => {
    const { context, page, errors } = await openPhone(browser, web.url);
    const toggle = page.getByRole('button', { name: 'Templates' });
    const slider = page.getByRole('slider', { name: 'Template opacity' });
    expect(await toggle.getAttribute('aria-pressed')).toBe('false');
    expect(await slider.isVisible()).toBe(false);
    // Zoomed in on the frame, as a member looks at it: about 12 screen pixels per canvas pixel.
    await tapPixel(page, FRAME.x + 3, FRAME.y + 2);
    for (let press = 0; press < 3; press++) await page.getByRole('button', { name: 'Zoom in' }).click();
    const canvasOnly = { wrong: rgb(BLUE), right: rgb(RED), corner: WHITE, inside: WHITE, left: WHITE };
    await expect.poll(async () => unlike(await seen(page, SPOTS), canvasOnly)).toEqual([]);

    await toggle.tap();
    await page.waitForSelector('#viewport[data-templates="on"]');
    expect(await toggle.getAttribute('aria-pressed')).toBe('true');
    expect(await slider.inputValue()).toBe('50');
    // The layer lies exactly on the canvas: same place, same size, scaled alike.
    const [board, layer] = await Promise.all([
      page.locator('#board').boundingBox(),
      page.locator('#templates-layer').boundingBox(),
    ]);
    if (!board || !layer) throw new Error('the canvas or the template layer is not shown');
    for (const side of ['x', 'y', 'width', 'height'] as const)
      expect(layer[side]).toBeCloseTo(board[side], 2);
    // Half opacity: the frame's red over what the canvas shows; nothing inside it or around it.
    const half = {
      wrong: over(rgb(RED), rgb(BLUE), 0.5),
      right: rgb(RED),
      corner: over(rgb(RED), WHITE, 0.5),
      inside: WHITE,
      left: WHITE,
      below: WHITE,
    };
    await expect.poll(async () => unlike(await seen(page, SPOTS), half)).toEqual([]);
    // The list beside the canvas: its name and progress (1 of its 16 pixels is right).
    const item = page.locator('#templates-list li');
    await expect.poll(() => item.textContent()).toMatch(/^Red Frame/);
    expect(await item.textContent()).toContain('at (120, 80), 6×4');
    expect(await item.textContent()).toContain('1 of 16 pixels right (6.2%)');
    await page.screenshot({ path: 'out/web/phone-templates.png' });

    // The toolbar still fits the phone's width, no control over another.
    const tools = await page
      .locator('.tools button:visible, .tools select, .tools input:visible')
      .evaluateAll((els) =>
        els.map((el) => {
          const r = el.getBoundingClientRect();
          return { left: r.left, top: r.top, right: r.right, bottom: r.bottom };
        }),
      );
    expect(tools).toHaveLength(6);
    for (const box of tools) expect(box.right).toBeLessThanOrEqual(PHONE.width);
    const overlapping = tools.filter((a, i) =>
      tools.some(
        (b, j) => i !== j && a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom,
      ),
    );
    expect(overlapping).toEqual([]);

    // All the way up: the artwork alone; all the way down: the canvas alone.
    await slider.fill('100');
    expect(await slider.getAttribute('aria-valuetext')).toBe('100%');
    await expect
      .poll(async () => unlike(await seen(page, SPOTS), { wrong: rgb(RED), corner: rgb(RED), inside: WHITE }))
      .toEqual([]);
    await slider.fill('0');
    await expect.poll(async () => unlike(await seen(page, SPOTS), canvasOnly)).toEqual([]);
    await slider.fill('50');
    await expect.poll(async () => unlike(await seen(page, SPOTS), half)).toEqual([]);

    await toggle.tap();
    await page.waitForSelector('#viewport[data-templates="off"]');
    expect(await toggle.getAttribute('aria-pressed')).toBe('false');
    expect(await slider.isVisible()).toBe(false);
    expect(await page.locator('#templates-list').isVisible()).toBe(false);
    await expect.poll(async () => unlike(await seen(page, SPOTS), canvasOnly)).toEqual([]);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('GIVEN the Templates overlay on WHEN someone paints a pixel of the template right THEN its progress in the list follows without a reload', async () => {
    const { context, page, errors } = await openPhone(browser, web.url);
    await page.getByRole('button', { name: 'Templates' }).tap();
    await page.waitForSelector('#viewport[data-templates="on"]');
    const item = page.locator('#templates-list li');
    await expect.poll(() => item.textContent()).toContain('1 of 16 pixels right');
    // The server keeps its list 5 seconds; the page asks again once the feed shows a pixel on the template.
    web.clock.advance(5_000);
    await web.deps.services.place.place({
      opId: 'tpl.cleo:3',
      userId: CLEO,
      x: FRAME.x + 2,
      y: FRAME.y,
      color: RED,
    });
    await expect
      .poll(() => item.textContent(), { timeout: 15_000 })
      .toContain('2 of 16 pixels right (12.5%)');
    expect(errors).toEqual([]);
    await context.close();
  });
});
