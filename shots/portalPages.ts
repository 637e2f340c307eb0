/**
 * The moderators' portal in `npm run shots`: every page of `/admin` at desktop size in English
 * and on a phone in German, signed in as an admin, over the same server and painted canvas as
 * the `/place` shots; a member refused at `/admin`, and the public moderation log. The data
 * each page shows is made through the same actions moderators use (a grant, a ban, a rollback,
 * items put in the shop).
 */
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import type { BotDeps } from '../src/interactions/types.js';
import { grantPlacePoints } from '../utils/hunt/adminGrant.js';
import { banMember } from '../utils/moderation/banActions.js';
import { pressRollback } from '../utils/place/rollbackPress.js';
import type { EffectName } from '../utils/shop/effects/registry.js';
import type { ItemFields } from '../utils/shop/itemStore.js';
import type { Shot } from './shot.js';

const GROUP = 'Moderators’ portal';
const PAGES = ['runtime', 'grants', 'events', 'economy', 'canvas', 'sanctions', 'shop', 'audit'] as const;
const GRIEFER = { id: '897300000000000021', name: 'Grief Lord' };
/** The server whose shop the Shop page shows: the admin has run commands there. */
const SERVER = '897300000000000030';
const SIZES = {
  desktop: { viewport: { width: 1280, height: 900 }, isMobile: false, hasTouch: false },
  phone: { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true },
};

/** A griefer's scribble over the cookie, a ban, a grant and a rollback applied: what the pages list. */
async function stageModeration(deps: BotDeps, adminId: string, artistId: string): Promise<void> {
  await deps.profiles.touch(GRIEFER);
  await deps.services.place.grant({
    opId: 'shots.portal.grant',
    moderatorId: adminId,
    to: GRIEFER.id,
    amount: 5_000_000,
    reason: 'shots',
  });
  const scribble = (from: number, y: number) =>
    Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        deps.services.place.place({
          opId: `shots.grief:${from + i}:${y}`,
          userId: GRIEFER.id,
          x: from + i,
          y,
          color: 31,
        }),
      ),
    );
  await scribble(118, 100);
  // One scribble rolled back with a reason (the public log shows it); the other stays to preview.
  const server = deps.i18n.for('en');
  const plan = await deps.services.place.rollbacks.plan({
    id: 'shots-rollback',
    adminId,
    target: GRIEFER.id,
    area: { x0: 118, y0: 100, x1: 129, y1: 100 },
    reason: 'scribble over the cookie',
    role: 'admin',
  });
  await pressRollback(deps.services, server, { id: plan._id, action: 'refund', actorId: adminId });
  await scribble(120, 112);
  await banMember(deps.services, server, {
    actionId: 'shots-ban',
    member: GRIEFER.id,
    scope: 'painting',
    lengthMs: 3 * 86_400_000,
    reason: 'scribbling over the cookie',
    by: adminId,
    byAdmin: true,
  });
  await grantPlacePoints(deps.services, server, {
    opId: 'shots.portal.bonus',
    moderatorId: adminId,
    member: artistId,
    milli: 2_500,
    reason: 'cookie artwork',
  });
}

async function signIn(
  page: Page,
  url: string,
  deps: BotDeps,
  user: { id: string; name: string },
  locale: 'en' | 'de',
) {
  const { token } = await deps.services.web.createLink({
    userId: user.id,
    name: user.name,
    roleIds: [],
    locale,
  });
  await page.goto(`${url}/place/login?token=${token}`);
  await page.locator('form button[type="submit"]').click();
  await page.waitForURL(`${url}/place`);
}

/** A shelf of a role and two items, put there as `/shop add-role` and `add-item` do. */
async function stageShop(deps: BotDeps, adminId: string): Promise<void> {
  await deps.serverMembers.seen(SERVER, { id: adminId, name: 'Ada Admin', joinedAt: null });
  const add = (
    id: string,
    what: { kind: 'role'; roleId: string } | { kind: 'item'; effect: EffectName },
    fields: Partial<ItemFields> & Pick<ItemFields, 'name' | 'price'>,
  ) =>
    deps.services.shop.addItem({
      id,
      guildId: SERVER,
      actorId: adminId,
      kind: what.kind,
      effect: what.kind === 'item' ? what.effect : null,
      roleId: what.kind === 'role' ? what.roleId : null,
      fields: {
        description: '',
        stockLeft: null,
        perMember: null,
        requiredRoleId: null,
        durationH: null,
        ...fields,
      },
    });
  await add(
    'it5h075000a1',
    { kind: 'role', roleId: '897300000000000031' },
    { name: 'VIP', price: 2_500, durationH: 720, description: 'A gold name for a month' },
  );
  await add(
    'it5h075000a2',
    { kind: 'item', effect: 'padlock' },
    { name: 'Padlock', price: 300, stockLeft: 20, perMember: 2 },
  );
  await add(
    'it5h075000a3',
    { kind: 'item', effect: 'custom' },
    { name: 'Raffle ticket', price: 50, description: 'Drawn at the Friday event' },
  );
}

/** Before the shot of a page: the canvas page previews the griefer's rollback; the shop edits a row. */
async function prepare(page: Page, name: (typeof PAGES)[number]): Promise<void> {
  if (name === 'shop') {
    await page.locator('tr[data-item="it5h075000a2"]').getByRole('button').first().click();
    return;
  }
  if (name !== 'canvas') return;
  await page.locator('input[name="rollback-member"]').fill('Grief');
  await page.locator(`li[data-id="${GRIEFER.id}"]`).click();
  await page.locator('#rollback-form select[name="since"]').selectOption('');
  await page.locator('#rollback-form button[type="submit"]').click();
  await page.locator('#rollback-preview img').nth(1).waitFor();
  // Both previews loaded before the picture is taken.
  for (const image of await page.locator('#rollback-preview img').all()) {
    await image.evaluate(
      (element) =>
        new Promise<void>((resolve) => {
          const img = element as unknown as { complete: boolean; onload: (() => void) | null };
          if (img.complete) resolve();
          else img.onload = () => resolve();
        }),
    );
  }
}

/** Every portal page as an admin, desktop English and phone German; a refused member; the public log. */
export async function takePortalShots(
  browser: Browser,
  url: string,
  deps: BotDeps,
  outDir: string,
  people: { adminId: string; artist: { id: string; name: string } },
): Promise<Shot[]> {
  await stageModeration(deps, people.adminId, people.artist.id);
  await stageShop(deps, people.adminId);
  const shots: Shot[] = [];
  for (const [size, language] of [
    ['desktop', 'en'],
    ['phone', 'de'],
  ] as const) {
    const context = await browser.newContext({
      ...SIZES[size],
      locale: language === 'de' ? 'de-DE' : 'en-US',
      timezoneId: 'Europe/Berlin',
    });
    try {
      const page = await context.newPage();
      page.setDefaultTimeout(15_000);
      await signIn(
        page,
        url,
        deps,
        { id: people.adminId, name: language === 'de' ? 'Jörg' : 'Ada Admin' },
        language,
      );
      for (const name of PAGES) {
        await page.goto(`${url}/admin/${name}`);
        await page.locator('body[data-ready="true"]').waitFor();
        await prepare(page, name);
        const file = `portal/${name}-${size}-${language}.png`;
        await page.screenshot({ path: path.join(outDir, file), fullPage: name !== 'runtime' });
        shots.push({
          file,
          group: GROUP,
          title: `/admin/${name} · ${size} · ${language === 'en' ? 'English' : 'German'}`,
        });
      }
      await page.goto(`${url}/place/moderation`);
      const log = `portal/moderation-log-${size}-${language}.png`;
      await page.screenshot({ path: path.join(outDir, log), fullPage: true });
      shots.push({
        file: log,
        group: GROUP,
        title: `/place/moderation, the public log · ${size} · ${language === 'en' ? 'English' : 'German'}`,
      });
    } finally {
      await context.close();
    }
  }
  const member = await browser.newContext({ ...SIZES.phone, locale: 'en-US' });
  try {
    const page = await member.newPage();
    await signIn(page, url, deps, people.artist, 'en');
    await page.goto(`${url}/admin`);
    const file = 'portal/refused-member-phone-en.png';
    await page.screenshot({ path: path.join(outDir, file) });
    shots.push({
      file,
      group: GROUP,
      title: '/admin opened by a member: refused, and what to do · phone · English',
    });
  } finally {
    await member.close();
  }
  return shots;
}
