import { existsSync } from 'node:fs';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestDatabase } from '../support/database.js';
import { startWeb } from '../support/webHarness.js';

/**
 * The page in the member's language, in a real browser: a German browser gets German; a member
 * whose Discord speaks German gets German in any browser, with German numbers, plurals, colour
 * names and words (GLOSSARY.de.md); a used link says so in the member's language.
 */
const CHROMIUM = ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find((p) => existsSync(p));
const ANNA = '897200000000000001';
const t = useTestDatabase('web_browser_language');
let web: Awaited<ReturnType<typeof startWeb>>;
let browser: Browser;

async function open(locale: string, path = '/place'): Promise<Page> {
  const context = await browser.newContext({ locale, viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  await page.goto(`${web.url}${path}`);
  return page;
}

const ready = (page: Page) => page.waitForSelector('body[data-ready="true"]');

describe('the /place page in the member’s language', () => {
  beforeAll(async () => {
    if (!CHROMIUM) throw new Error('chromium is missing: run node scripts/ensure-setup.mjs');
    web = await startWeb(t);
    await web.fund(ANNA, 1_234);
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
  });
  afterAll(async () => {
    await browser?.close();
    await web?.close();
  });

  it('GIVEN a German browser, signed out THEN every text on the page is German', async () => {
    const page = await open('de-DE');
    await ready(page);
    expect(await page.getAttribute('html', 'lang')).toBe('de');
    await expect.poll(() => page.textContent('#revision')).toBe('Stand 0');
    await expect.poll(() => page.textContent('#wallet-title')).toBe('Dein Place-Guthaben');
    await expect
      .poll(() => page.textContent('#wallet'))
      .toBe('Führe in Discord /place web aus, um dich hier anzumelden.');
    await expect.poll(() => page.textContent('#place')).toBe('Zum Malen anmelden');
    await page.getByRole('radio', { name: 'Burgunderrot (#6D001A)' }).click();
    await page.getByRole('button', { name: 'Die ganze Leinwand zeigen' }).click();
    const box = await page.locator('#board').boundingBox();
    const cell = (box?.width ?? 0) / 256;
    await page.mouse.click((box?.x ?? 0) + 3.5 * cell, (box?.y ?? 0) + 4.5 * cell);
    await expect.poll(() => page.textContent('#pixel-info')).toBe('(3, 4) wurde noch nie gemalt.');
    await page.context().close();
  });

  it('GIVEN a member whose Discord speaks German, in an English browser THEN the page, numbers and plurals are German, the same colour again is flagged before paying, and the used link says so in German', async () => {
    const { token } = await web.deps.services.web.createLink({
      userId: ANNA,
      name: 'anna',
      roleIds: [],
      locale: 'de',
    });
    const page = await open('en-US', `/place/login?token=${token}`);
    await page.getByRole('button', { name: 'Anmelden und Leinwand öffnen' }).click();
    await page.waitForURL(`${web.url}/place`);
    await ready(page);
    expect(await page.getAttribute('html', 'lang')).toBe('de');
    await expect.poll(() => page.textContent('#account')).toContain('anna · 1.234 Punkte');
    await expect
      .poll(() => page.textContent('#wallet'))
      .toContain('1.234 Punkte – das reicht für 12 Pixel. Ein Pixel kostet 100 Punkte.');
    await expect
      .poll(() => page.textContent('#wallet'))
      .toContain('Verdient: 1.234 Punkte, ausgegeben: 0 Punkte');

    await page.getByRole('radio', { name: 'Blau (#3690EA)' }).click();
    const box = await page.locator('#board').boundingBox();
    const cell = (box?.width ?? 0) / 256;
    await page.mouse.click((box?.x ?? 0) + 5.5 * cell, (box?.y ?? 0) + 5.5 * cell);
    await page.getByRole('button', { name: 'In Blau malen' }).click();
    await expect
      .poll(() => page.textContent('#confirm-text'))
      .toBe('(5, 5) für 100 Punkte in Blau (#3690EA) malen? Du hast 1.234 Punkte.');
    await page.getByRole('button', { name: 'Malen', exact: true }).click();
    await expect.poll(() => page.textContent('#status')).toBe('(5, 5) gemalt – Stand 1.');
    await expect
      .poll(() => page.textContent('#pixel-info'))
      .toMatch(/^\(5, 5\) ist Blau \(#3690EA\), gemalt von anna \(Stand 1, .+\)\. Noch nie übermalt\.$/);
    await expect
      .poll(() => page.textContent('#wallet'))
      .toContain('Verdient: 1.234 Punkte, ausgegeben: 100 Punkte für 1 gesetzten Pixel.');
    await expect.poll(() => page.textContent('#feed')).toContain('#1 (5, 5) Blau von dir');
    // Blue again on the same pixel: the dialog says it changes nothing, before anything is paid.
    await page.getByRole('button', { name: 'In Blau malen' }).click();
    await expect
      .poll(() => page.textContent('#confirm-text'))
      .toBe(
        'Der Pixel (5, 5) ist schon Blau (#3690EA). Noch mal malen kostet 100 Punkte, ändert aber nichts. Trotzdem malen? Du hast 1.134 Punkte.',
      );
    await page.getByRole('button', { name: 'Abbrechen', exact: true }).click();
    await expect.poll(() => page.locator('#confirm').isVisible()).toBe(false);
    await web.deps.ledger.flush();
    expect((await web.deps.services.place.wallet(ANNA)).balance).toBe(1_134_000);

    // The link again: it no longer signs in, and the page says what to do, in German.
    await page.goto(`${web.url}/place/login?token=${token}`);
    await expect
      .poll(() => page.textContent('#link-used'))
      .toBe('Dieser Anmeldelink wurde schon benutzt oder ist abgelaufen.');
    await expect
      .poll(() => page.textContent('main'))
      .toContain('Führe in Discord /place web aus, um einen neuen zu bekommen.');
    await page.getByRole('link', { name: 'Leinwand ohne Anmeldung ansehen' }).click();
    await ready(page);
    await page.context().close();
  });

  it('GIVEN a link pressed twice (the sign-in form sent again) THEN the browser shows the used-link page, not JSON', async () => {
    const { token } = await web.deps.services.web.createLink({ userId: ANNA, name: 'anna', roleIds: [] });
    const page = await open('en-US', `/place/login?token=${token}`);
    const form = page.getByRole('button', { name: 'Sign in and open the canvas' });
    await web.deps.services.web.signIn(token);
    await form.click();
    await expect
      .poll(() => page.textContent('#link-used'))
      .toBe('This sign-in link was already used or has expired.');
    await expect.poll(() => page.textContent('main')).toContain('Run /place web in Discord for a new one.');
    await page.context().close();
  });
});
