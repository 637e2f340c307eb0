/**
 * What members see in Discord itself, for `npm run shots`: the shop's replies (the shelf and its
 * menu, an item picked, the purchase, the inventory, an item of it picked, a refusal) and
 * Discord's idioms (a member's context menu, forms, a Link button: discordIdioms.ts), made by
 * the real commands on an in-memory database (never MONGODB_URI) and drawn as Discord's dark
 * theme draws them (shots/discordHtml.ts), in English and, for a member whose client speaks
 * German, in a German server. One browser, one page, a 520 px column as on a phone.
 */
import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { type Browser, chromium } from 'playwright-core';
import { prepareBotDeps } from '../app/botDeps.js';
import { type App, openApp } from '../app/openApp.js';
import { ASSEMBLY } from '../commands/index.js';
import { ManualClock } from '../src/clock.js';
import { loadConfig } from '../src/config.js';
import { createConsoleOutput } from '../src/console/consoleResponder.js';
import { ConsoleRoles } from '../src/console/consoleRoles.js';
import type { Locale } from '../src/i18n/i18n.js';
import type { BotDeps } from '../src/interactions/types.js';
import { createLogger } from '../src/logger.js';
import type { PostTransport } from '../src/posting/channelPoster.js';
import { seededRng } from '../src/rng.js';
import { replyPageHtml } from './discordHtml.js';
import { idiomScenes } from './discordIdioms.js';
import type { PlainText } from './discordMarkup.js';
import { CASTS, type Cast, openServers, type Scene, shopScenes, tradeScenes } from './discordStage.js';
import { AT } from './sceneKit.js';
import type { Shot } from './shot.js';

const GROUP = 'Discord replies';
const CHROMIUM = ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find((p) => existsSync(p));
const LANGUAGE: Record<Locale, string> = { en: 'English', de: 'German' };
const NO_POSTS: PostTransport = { send: async () => {}, edit: async () => {} };

/** `/shop browse` as the member's client writes it: in German, `/laden stöbern` and so on. */
function commandText([name, sub]: [string, string], locale: Locale): string {
  const data = ASSEMBLY.commands.find((c) => c.data.name === name)?.data;
  const option = data?.options?.find((o) => o.name === sub);
  const say = (thing: { name: string; name_localizations?: Partial<Record<string, string | null>> | null }) =>
    (locale === 'en' ? null : thing.name_localizations?.[locale]) ?? thing.name;
  // An entry of a member's menu (Apps › Give Cookies) is named as the menu shows it, without a slash.
  if (!data) return name;
  return `/${say(data)} ${option ? say(option) : sub}`;
}

/** Mentions and timestamps in the words a member's client shows (the console's). */
function plainFor(cast: Cast, deps: BotDeps): PlainText {
  const people = new Map([cast.moderator, cast.buyer, cast.short].map((p) => [p.id, p.name]));
  return createConsoleOutput({
    outDir: 'out',
    clock: deps.clock,
    write: () => {},
    nameOf: (id) => people.get(id),
    channelNameOf: () => 'shop',
    roleNameOf: (id) => (id === cast.vipRoleId ? 'VIP' : undefined),
    locale: () => cast.locale,
    onMessage: () => {},
  }).plain;
}

function clockText(at: Date, locale: Locale): string {
  return new Intl.DateTimeFormat(locale === 'de' ? 'de-DE' : 'en-US', {
    hour: 'numeric',
    minute: '2-digit',
    timeZone: 'Europe/Berlin',
  }).format(at);
}

/** Every scene of each server, one page after another in one browser tab. */
async function screenshot(
  browser: Browser,
  outDir: string,
  deps: BotDeps,
  staged: readonly { cast: Cast; scenes: Scene[] }[],
): Promise<Shot[]> {
  const context = await browser.newContext({ viewport: { width: 520, height: 400 } });
  const page = await context.newPage();
  const shots: Shot[] = [];
  for (const { cast, scenes } of staged) {
    const { locale } = cast;
    const plain = plainFor(cast, deps);
    for (const scene of scenes) {
      const { exchange } = scene;
      const command = commandText(exchange.command, locale);
      const html = replyPageHtml({
        replies: exchange.replies,
        locale,
        member: exchange.member.name,
        command,
        time: clockText(deps.clock.now(), locale),
        menuOpen: scene.menuOpen ?? false,
        plain,
      });
      await page.setContent(html, { waitUntil: 'load' });
      const file = `discord/${scene.name}-${locale}.png`;
      await page.locator('body').screenshot({ path: path.join(outDir, file) });
      shots.push({ file, group: GROUP, title: `${command} · ${LANGUAGE[locale]} · ${scene.title}` });
    }
  }
  return shots;
}

/** Stages the shop in two servers, then screenshots every reply into `<outDir>/discord/`. */
export async function renderDiscordReplyShots(outDir: string): Promise<Shot[]> {
  if (!CHROMIUM) throw new Error('chromium is missing: run node scripts/ensure-setup.mjs');
  await mkdir(path.join(outDir, 'discord'), { recursive: true });
  const { MONGODB_URI: _notHere, ...env } = process.env;
  const config = loadConfig({
    ...env,
    LOG_LEVEL: 'error',
    MODERATOR_USER_IDS: `${CASTS.en.moderator.id},${CASTS.de.moderator.id}`,
  });
  let app: App | null = null;
  let browser: Browser | null = null;
  try {
    const launching = chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
    app = await openApp(config, createLogger('error'), {
      persistent: false,
      clock: new ManualClock(AT),
      rng: seededRng('shots'),
    });
    const roles = new ConsoleRoles();
    const deps = await prepareBotDeps(app, ASSEMBLY, { transport: NO_POSTS, roles });
    // The two servers share nothing but the vault: staged side by side, they take half the time.
    const staged = await Promise.all(
      Object.values(openServers(deps, roles)).map(async (server) => ({
        cast: server.cast,
        scenes: [
          ...(await shopScenes(deps, server)),
          ...(await tradeScenes(deps, server)),
          ...(await idiomScenes(deps, server)),
        ],
      })),
    );
    browser = await launching;
    return await screenshot(browser, outDir, deps, staged);
  } finally {
    await browser?.close();
    await app?.close();
  }
}
