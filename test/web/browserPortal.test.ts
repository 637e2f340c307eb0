import { existsSync, mkdirSync } from 'node:fs';
import type { FastifyInstance } from 'fastify';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ASSEMBLY } from '../../commands/index.js';
import { buildHttpApp } from '../../src/http/server.js';
import { describeAppError } from '../../src/interactions/errorReplies.js';
import { ADMIN_ID, grantPlacePoints } from '../support/botHarness.js';
import { useTestDatabase } from '../support/database.js';
import { type FakeBot, startFakeBot } from '../support/discordHarness.js';
import { FakeDiscord, type FakeUser, GUILD_ID } from '../support/fakeDiscord.js';
import { booksProblems } from '../support/ledgerHarness.js';

/**
 * The moderators' portal in a real browser (Debian's chromium), on desktop and phone sizes, in
 * English and German, over the same bot that the strict fake Discord talks to: an admin changes a
 * setting while a stale second tab is refused, grants 0,001 points to a worker whose owner gets
 * them and sees the grant among the earnings, previews and runs a rollback; a moderator bans a
 * member from painting, whose next placement is refused on the web and on Discord with the ban's
 * end; a moderator puts an item in the server's shop, changes its price in its row and takes it
 * off the shelf after a confirm; the member meets 403 on every portal page.
 */
const CHROMIUM = ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find((p) => existsSync(p));
const t = useTestDatabase('web_browser_portal');
const MOD = '897400000000000001';
const mia: FakeUser = { id: '897400000000000002', username: 'mia' };
const owen: FakeUser = { id: '897400000000000003', username: 'owen' };
const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 390, height: 844 };

const fake = new FakeDiscord();
let harness: FakeBot;
let http: FastifyInstance;
let url = '';
let browser: Browser;
let workerId = '';

/** A browser signed in as `user` through a one-time link, as `/place web` makes it. */
async function signedIn(
  user: { id: string; username: string },
  options: { viewport: { width: number; height: number }; locale?: string },
): Promise<BrowserContext> {
  const context = await browser.newContext({ viewport: options.viewport, locale: options.locale ?? 'en-US' });
  const page = await context.newPage();
  const { token } = await harness.deps.services.web.createLink({
    userId: user.id,
    name: user.username,
    roleIds: [],
  });
  await page.goto(`${url}/place/login?token=${token}`);
  await page.locator('form button[type="submit"]').click();
  await page.waitForURL(`${url}/place`);
  await page.close();
  return context;
}

async function openPortal(context: BrowserContext, path: string): Promise<Page> {
  const page = await context.newPage();
  await page.goto(`${url}${path}`);
  await page.waitForSelector('body[data-ready="true"]');
  return page;
}

/** Picks a member or worker in a picker by typing part of its name, as a moderator would. */
async function pick(page: Page, name: string, typed: string, id: string): Promise<void> {
  const input = page.locator(`input[name="${name}"]`);
  await input.fill(typed);
  await page.locator(`li[data-id="${id}"]`).click();
  await expect.poll(() => input.getAttribute('data-id')).toBe(id);
}

describe('the moderators’ portal in a real browser', () => {
  beforeAll(async () => {
    if (!CHROMIUM) throw new Error('chromium is missing: run node scripts/ensure-setup.mjs');
    await fake.start();
    harness = await startFakeBot(fake, t, { env: { MODERATOR_USER_IDS: MOD } });
    const { deps } = harness;
    http = buildHttpApp(ASSEMBLY.httpRoutes(deps), {
      describe: (error, locale) => describeAppError(error, ASSEMBLY.errorMessages, deps.i18n.for(locale)),
      now: () => deps.clock.now(),
    });
    url = await http.listen({ host: '127.0.0.1', port: 0 });
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
    mkdirSync('out/web', { recursive: true });
    // Mia paints three pixels on Discord; Owen has a worker.
    await grantPlacePoints(deps, [mia.id], 1_000);
    for (const x of [10, 11, 12]) {
      await fake.waitFor(fake.command(mia, 'place', ['pixel'], { x, y: 20, color: 'red' }));
    }
    await fake.waitFor(fake.command(owen, 'help', [], {}));
    workerId = (await deps.services.workers.link(owen.id, 'Night Shift'))._id;
  });

  afterAll(async () => {
    await browser?.close();
    await http?.close();
    await harness?.bot.stop();
    await fake.stop();
  });

  it('GIVEN an admin with two tabs THEN a setting changed in one is refused in the stale other with the newer value, and saved after', async () => {
    const context = await signedIn({ id: ADMIN_ID, username: 'ada' }, { viewport: DESKTOP });
    const first = await openPortal(context, '/admin');
    expect(new URL(first.url()).pathname).toBe('/admin/runtime');
    const second = await openPortal(context, '/admin/runtime');
    const row = (page: Page) => page.locator('[data-setting="place_pixel_cost"]');
    await row(first).locator('input').fill('150');
    await row(first).getByRole('button', { name: 'Save' }).click();
    await expect
      .poll(() => row(first).locator('.ok').textContent())
      .toBe('Saved: place_pixel_cost is now 150.');
    await expect.poll(() => row(first).textContent()).toContain('Changed by ada');

    await row(second).locator('input').fill('200');
    await row(second).getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => row(second).locator('.error').textContent()).toContain('150');
    expect(await row(second).locator('input').inputValue()).toBe('150');
    expect(await harness.deps.runtimeConfig.get('place_pixel_cost')).toBe(150);
    await row(second).locator('input').fill('200');
    await row(second).getByRole('button', { name: 'Save' }).click();
    await expect
      .poll(() => row(second).locator('.ok').textContent())
      .toBe('Saved: place_pixel_cost is now 200.');
    expect(await harness.deps.runtimeConfig.get('place_pixel_cost')).toBe(200);
    await first.screenshot({ path: 'out/web/portal-runtime.png', fullPage: true });
    await context.close();
  });

  it('GIVEN an admin on a German phone THEN 0,001 points to a worker reach its owner once for a double tap, and the grant shows among the earnings', async () => {
    const context = await signedIn({ id: ADMIN_ID, username: 'ada' }, { viewport: PHONE, locale: 'de-DE' });
    const page = await openPortal(context, '/admin/grants');
    const before = (await harness.deps.services.place.wallet(owen.id)).balance;
    await pick(page, 'grant-target', 'Night', workerId);
    await page.locator('input[name="amount"]').fill('0,001');
    await page.locator('input[name="reason"]').fill('Wettbewerb');
    await page.getByRole('button', { name: 'Bestätigen' }).dblclick();
    await expect
      .poll(() => page.locator('#grant-form ~ .ok').textContent())
      .toBe(
        `0,001 Punkte an den Worker ${workerId} gutgeschrieben und an seinen Besitzer owen ausgezahlt. Place-Guthaben von owen jetzt: 0,001 Punkte.`,
      );
    expect((await harness.deps.services.place.wallet(owen.id)).balance).toBe(before + 1);
    await page.screenshot({ path: 'out/web/portal-grants-phone-de.png', fullPage: true });

    const events = await openPortal(context, '/admin/events');
    const granted = events.locator('tr[data-kind="admin"]');
    await expect.poll(() => granted.count()).toBe(1);
    expect(await granted.textContent()).toContain('Gutschrift');
    expect(await granted.textContent()).toContain('owen');
    expect(await granted.textContent()).toContain('Night Shift');
    expect(await granted.textContent()).toContain('gutgeschrieben von ada: Wettbewerb');
    await context.close();
  });

  it('GIVEN an admin THEN a rollback of a member’s pixels shows before and after, and runs with a refund', async () => {
    const context = await signedIn({ id: ADMIN_ID, username: 'ada' }, { viewport: DESKTOP });
    const page = await openPortal(context, '/admin/canvas');
    const form = page.locator('#rollback-form');
    await pick(page, 'rollback-member', 'mi', mia.id);
    await form.locator('select[name="since"]').selectOption('');
    await form.locator('input[name="reason"]').fill('spam over the logo');
    await form.getByRole('button', { name: 'Preview' }).click();
    const images = page.locator('#rollback-preview img');
    await expect.poll(() => images.count()).toBe(2);
    for (const image of await images.all()) {
      await expect
        .poll(() =>
          image.evaluate((element) => {
            const img = element as unknown as { complete: boolean; naturalWidth: number };
            return img.complete ? img.naturalWidth : 0;
          }),
        )
        .toBeGreaterThan(0);
    }
    expect(await page.locator('#rollback-preview').textContent()).toContain(
      'restores the earlier colour of 3 pixels',
    );
    await page.screenshot({ path: 'out/web/portal-canvas.png', fullPage: true });
    const paidBefore = (await harness.deps.services.place.wallet(mia.id)).balance;
    await page.getByRole('button', { name: 'Roll back and refund' }).click();
    await expect
      .poll(() => page.locator('#rollback-form ~ .ok').textContent())
      .toContain('Restored 3 pixels');
    for (const x of [10, 11, 12]) {
      expect((await harness.deps.services.place.pixelInfo(x, 20))?.pixel.owner ?? null).not.toBe(mia.id);
    }
    expect((await harness.deps.services.place.wallet(mia.id)).balance).toBeGreaterThan(paidBefore);
    await harness.deps.ledger.flush();
    expect(await booksProblems(t.cols)).toEqual([]);
    await context.close();
  });

  it('GIVEN a moderator bans a member from painting THEN the member’s next placement is refused on the web and on Discord with the end', async () => {
    const moderator = await signedIn({ id: MOD, username: 'moe' }, { viewport: DESKTOP });
    const page = await openPortal(moderator, '/admin/sanctions');
    // A moderator's portal has no admin pages.
    expect(await page.locator('#nav a[data-page="runtime"]').isHidden()).toBe(true);
    await pick(page, 'ban-member', 'mia', mia.id);
    await page.locator('select[name="scope"]').selectOption('painting');
    await page.locator('select[name="duration"]').selectOption('1d');
    await page.locator('input[name="reason"]').fill('griefing the logo');
    await page.getByRole('button', { name: 'Ban', exact: true }).click();
    await expect
      .poll(() => page.locator('#ban-form ~ .ok').textContent())
      .toContain('Banned mia (Painting). Ends: ');
    await expect.poll(() => page.locator(`tr[data-member="${mia.id}"]`).count()).toBe(1);
    const end = Math.floor(harness.clock.now().getTime() / 1000) + 86_400;
    await page.screenshot({ path: 'out/web/portal-sanctions.png', fullPage: true });

    const member = await signedIn(mia, { viewport: DESKTOP });
    const canvas = await member.newPage();
    await canvas.goto(`${url}/place`);
    await canvas.waitForSelector('body[data-ready="true"]');
    const board = await canvas.locator('#board').boundingBox();
    if (!board) throw new Error('the canvas is not shown');
    const cell = board.width / 256;
    await canvas.mouse.click(board.x + 40.5 * cell, board.y + 40.5 * cell);
    await canvas.locator('#place').click();
    await canvas.locator('#confirm-ok').click();
    await expect.poll(() => canvas.textContent('#status')).toContain('You are banned from painting until');
    expect(await canvas.textContent('#status')).toContain('UTC');
    expect(await canvas.textContent('#status')).toContain('griefing the logo');

    const [refused] = await fake.waitFor(
      fake.command(mia, 'place', ['pixel'], { x: 40, y: 40, color: 'red' }),
    );
    expect(refused?.content).toBe(
      `❌ You are banned from painting until <t:${end}:f> (<t:${end}:R>): griefing the logo`,
    );

    // The member meets 403 on every portal page, and on the moderators' API.
    const portal = await member.newPage();
    for (const path of [
      '/admin',
      '/admin/runtime',
      '/admin/grants',
      '/admin/events',
      '/admin/economy',
      '/admin/canvas',
      '/admin/sanctions',
      '/admin/shop',
      '/admin/audit',
    ]) {
      const response = await portal.goto(`${url}${path}`);
      expect([path, response?.status()]).toEqual([path, 403]);
    }
    expect(await portal.textContent('#portal-refused')).toBe(
      "This portal is for the server's moderators and admins.",
    );
    const api = await portal.request.get(`${url}/api/admin/me`);
    expect(api.status()).toBe(403);
    await moderator.close();
    await member.close();
  });

  it('GIVEN a moderator seen in the server THEN an item added in the Shop page shows in the table, its price changes in its row, and a confirmed removal takes it off the shelf', async () => {
    const moe: FakeUser = { id: MOD, username: 'moe' };
    await fake.waitFor(fake.command(moe, 'help', [], {}));
    const context = await signedIn(moe, { viewport: DESKTOP });
    const page = await openPortal(context, '/admin/shop');
    const form = page.locator('#shop-add');
    await form.locator('select[name="kind"]').selectOption('item');
    await form.locator('select[name="effect"]').selectOption('padlock');
    await form.locator('input[name="name"]').fill('Lucky padlock');
    await form.locator('input[name="price"]').fill('120');
    await form.locator('input[name="stock"]').fill('5');
    await form.getByRole('button', { name: 'Add to the shop' }).click();
    await expect
      .poll(() => page.locator('#shop-add ~ .ok').textContent())
      .toBe('Lucky padlock is on the shelf for 120 🍪.');
    const row = page.locator('tr[data-item]', { hasText: 'Lucky padlock' });
    await expect.poll(() => row.count()).toBe(1);
    expect(await row.textContent()).toContain('5 left (0 sold)');
    const [item] = await harness.deps.services.shop.shelf(GUILD_ID);
    expect(item).toMatchObject({ name: 'Lucky padlock', effect: 'padlock', price: 120, stockLeft: 5 });

    // A price of 0 is refused with the shop's own words, and nothing changes.
    await row.getByRole('button', { name: 'Edit' }).click();
    const editing = page.locator('tr.editing');
    await editing.locator('input[name="price"]').fill('0');
    await editing.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => page.locator('.card .error').textContent()).toContain('A price is between 1 and');
    await editing.locator('input[name="price"]').fill('95');
    await editing.getByRole('button', { name: 'Save' }).click();
    await expect
      .poll(() => page.locator('.card .ok').first().textContent())
      .toBe('Lucky padlock changed: price 120 🍪 → 95 🍪.');
    await expect.poll(() => row.locator('td').nth(2).textContent()).toBe('95 🍪');
    await page.screenshot({ path: 'out/web/portal-shop.png', fullPage: true });

    await row.getByRole('button', { name: 'Remove' }).click();
    expect(await row.textContent()).toContain('Take Lucky padlock off the shelf?');
    await row.getByRole('button', { name: 'Yes, remove' }).click();
    await expect.poll(() => row.count()).toBe(0);
    expect(await page.locator('.card .ok').first().textContent()).toBe(
      'Lucky padlock is off the shelf. What members bought stays theirs.',
    );
    expect(await harness.deps.services.shop.shelf(GUILD_ID)).toEqual([]);

    // Taken off on Discord while the confirm was open: the page says so and the row goes.
    await harness.deps.services.shop.addItem({
      guildId: GUILD_ID,
      actorId: MOD,
      kind: 'item',
      effect: 'custom',
      roleId: null,
      fields: {
        name: 'Spare key',
        description: '',
        price: 10,
        stockLeft: null,
        perMember: null,
        requiredRoleId: null,
        durationH: null,
      },
    });
    await page.reload();
    await page.waitForSelector('body[data-ready="true"]');
    const spare = page.locator('tr[data-item]', { hasText: 'Spare key' });
    await spare.getByRole('button', { name: 'Remove' }).click();
    await harness.deps.services.shop.removeItem({ guildId: GUILD_ID, item: 'Spare key' });
    await spare.getByRole('button', { name: 'Yes, remove' }).click();
    await expect
      .poll(() => page.locator('.card .error').textContent())
      .toBe('Spare key is no longer on the shelf: someone took it off meanwhile.');
    await expect.poll(() => spare.count()).toBe(0);
    await context.close();
  });
});
