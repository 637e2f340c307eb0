import { existsSync } from 'node:fs';
import { type Browser, chromium } from 'playwright-core';

/** Debian's chromium (installed by the setup script); Playwright's own download is not used. */
const CHROMIUM = ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find((p) => existsSync(p));

/** The phone of browserPhone.test.ts, with a phone's pixel density. */
export const PHONE = { width: 390, height: 844, scale: 3 } as const;

/** Debian's chromium, started for a test file; refused with the fix when it is missing. */
export function launchChromium(): Promise<Browser> {
  if (!CHROMIUM) throw new Error('chromium is missing: run node scripts/ensure-setup.mjs');
  return chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
}

/** The canvas page at `url` on a touch phone, ready, with the page's script errors collected. */
export async function openPhone(browser: Browser, url: string) {
  const context = await browser.newContext({
    viewport: { width: PHONE.width, height: PHONE.height },
    deviceScaleFactor: PHONE.scale,
    hasTouch: true,
    isMobile: true,
  });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  await page.goto(`${url}/place`);
  await page.waitForSelector('body[data-ready="true"]');
  return { context, page, errors };
}
