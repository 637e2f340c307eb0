import { existsSync } from 'node:fs';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clearDatabase, useTestDatabase } from '../support/database.js';
import { startWeb } from '../support/webHarness.js';

/**
 * The portal in a real browser when the connection fails: a grant whose answer is lost on the way
 * back was made by the server, and the moderator's second click (the same inputs) must not make it
 * again.
 */
const CHROMIUM = ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find((p) => existsSync(p));
const t = useTestDatabase('web_browser_portal_retry');
const MIA = '897600000000000002';
let web: Awaited<ReturnType<typeof startWeb>>;
let browser: Browser;

async function adminOnGrants(): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, locale: 'en-US' });
  const page = await context.newPage();
  const { token } = await web.deps.services.web.createLink({ userId: web.adminId, name: 'ada', roleIds: [] });
  await page.goto(`${web.url}/place/login?token=${token}`);
  await page.locator('form button[type="submit"]').click();
  await page.waitForURL(`${web.url}/place`);
  await page.goto(`${web.url}/admin/grants`);
  await page.waitForSelector('body[data-ready="true"]');
  return page;
}

describe('the portal when the connection fails', () => {
  beforeAll(async () => {
    if (!CHROMIUM) throw new Error('chromium is missing: run node scripts/ensure-setup.mjs');
    await clearDatabase(t.db);
    web = await startWeb(t);
    await web.deps.profiles.touch({ id: MIA, name: 'mia' });
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
  });
  afterAll(async () => {
    await browser?.close();
    await web?.close();
  });

  it('GIVEN a grant whose answer is lost WHEN the moderator clicks again without changing anything THEN the member is granted once', async () => {
    const page = await adminOnGrants();
    const input = page.locator('input[name="grant-target"]');
    await input.fill('mia');
    await page.locator(`li[data-id="${MIA}"]`).click();
    await expect.poll(() => input.getAttribute('data-id')).toBe(MIA);
    await page.locator('input[name="amount"]').fill('5');
    let sent = 0;
    await page.route('**/api/admin/place/points', async (route) => {
      sent++;
      if (sent > 1) return route.continue();
      // The server makes the grant; its answer never reaches the page.
      await route.fetch();
      await route.abort('connectionreset');
    });
    const submit = page.locator('#grant-form button[type="submit"]');
    await submit.click();
    await expect.poll(() => page.locator('#grant-form ~ .error').count()).toBe(1);
    expect((await web.deps.services.place.wallet(MIA)).balance).toBe(5_000);
    await submit.click();
    await expect.poll(() => page.locator('#grant-form ~ .ok').count()).toBe(1);
    expect(sent).toBe(2);
    expect((await web.deps.services.place.wallet(MIA)).balance).toBe(5_000);
  });
});
