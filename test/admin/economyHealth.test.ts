import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadImage } from 'canvas';
import { beforeEach, describe, expect, it } from 'vitest';
import { renderEconomyImage } from '../../src/render/economyImage.js';
import { gini, growthPctPerDay } from '../../utils/admin/economyHealth.js';
import { economyPicture, flowTotal } from '../../utils/admin/economyPicture.js';
import { COOKIE_KINDS, CookieEconomy } from '../../utils/money/cookieEconomy.js';
import { makeBotDeps } from '../support/botHarness.js';
import { makeConsole } from '../support/consoleHarness.js';
import { clearDatabase, useTestDatabase } from '../support/database.js';

const t = useTestDatabase('economy_health');
const DAY = 86_400_000;
const ADA = '860000000000000001';
const BO = '860000000000000002';
const GUILD = '860000000000000900';
const ADMIN = '860000000000000003';
const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

describe('the economy health figures', () => {
  it('GIVEN balances THEN Gini is 0 when all hold the same and near 1 when one holds all', () => {
    expect(gini([100, 100, 100])).toBe(0);
    expect(gini([0, 0, 0, 1_000])).toBeCloseTo(0.75, 6);
    expect(gini([1, 2, 3, 4])).toBeCloseTo(0.25, 6);
    expect(gini([])).toBe(0);
  });

  it('GIVEN a supply from 1,000 to 1,210 over two days THEN it grew 10 % a day', () => {
    expect(growthPctPerDay(1_000, 1_210, 2)).toBeCloseTo(10, 6);
    expect(growthPctPerDay(0, 100, 2)).toBeNull();
  });
});

/** Ten days: the vault funded, Ada collects 100 a day and loses 30 to the vault, Bo gets a grant on day 4. */
async function tenDays(
  deps: ReturnType<typeof makeBotDeps>['deps'],
  clock: ReturnType<typeof makeBotDeps>['clock'],
) {
  const economy = new CookieEconomy(deps.ledger);
  await deps.services.vault.fund({ opId: 'fund', adminId: 'admin', amount: 10_000, reason: '' });
  for (let day = 0; day < 10; day++) {
    await economy.mint(ADA, { opId: `c${day}`, amount: 100, kind: COOKIE_KINDS.collect, source: ADA });
    await economy.toHouse(ADA, { opId: `s${day}`, amount: 30, kind: COOKIE_KINDS.gameStake, source: ADA });
    if (day === 3)
      await economy.mint(BO, { opId: 'g', amount: 500, kind: COOKIE_KINDS.grant, source: 'admin' });
    if (day < 9) clock.advance(DAY);
  }
  await deps.ledger.flush();
}

describe('/admin economy health', () => {
  beforeEach(() => clearDatabase(t.db));

  it('GIVEN ten days of play THEN the month walks back from today: supply per day, the vault, flows by kind, and each closed day summed once', async () => {
    const { deps, clock } = makeBotDeps(t, { env: { HOUSE_MIN_RESERVE_COOKIES: '2000' } });
    await tenDays(deps, clock);
    const report = await deps.services.economy.report(30);
    expect(report.days).toHaveLength(30);
    const last = report.days.at(-1);
    expect(last?.supply).toBe(10 * 70 + 500);
    expect(last?.vault).toBe(10_000 + 300);
    // The day before the first collect: nothing yet.
    expect(report.days.at(-11)?.supply).toBe(0);
    expect(report.days.at(-11)?.vault).toBe(0);
    expect(report.days.at(-7)?.supply).toBe(4 * 70 + 500);
    expect(last?.flows.get(COOKIE_KINDS.collect)).toMatchObject({ in: 100, out: 0 });
    expect(report.reserve).toBe(2_000);
    expect(report.gini).toBeCloseTo(gini([700, 500]), 6);
    // A second report reads the kept days: asked again after a change to an old day's events
    // (which the ledger never does), it still shows the kept sums.
    await t.db.collection('ledger_events').deleteMany({ opId: 'c0' });
    const again = await deps.services.economy.report(30);
    expect(again.days.at(-10)?.flows.get(COOKIE_KINDS.collect)?.in).toBe(100);
  });

  it('GIVEN role income paid and a shop purchase THEN the income counts among the faucets and the purchase among the sinks, in the image and the web figures', async () => {
    const { deps } = makeBotDeps(t);
    const economy = new CookieEconomy(deps.ledger);
    await deps.services.vault.fund({ opId: 'fund', adminId: 'admin', amount: 10_000, reason: '' });
    await economy.mint(ADA, { opId: 'inc', amount: 120, kind: COOKIE_KINDS.roleIncome, source: 'system' });
    await deps.services.shop.addItem({
      guildId: GUILD,
      actorId: ADMIN,
      kind: 'item',
      effect: 'custom',
      roleId: null,
      fields: {
        name: 'Ticket',
        description: '',
        price: 45,
        stockLeft: null,
        perMember: null,
        requiredRoleId: null,
        durationH: null,
      },
    });
    await deps.services.shop.buy({ opId: 'buy', guildId: GUILD, userId: ADA, item: 'Ticket', roleIds: [] });
    await deps.ledger.flush();
    const report = await deps.services.economy.report(30);
    const today = report.days.at(-1);
    expect(today?.flows.get(COOKIE_KINDS.roleIncome)).toMatchObject({ in: 120, out: 0 });
    expect(today?.flows.get(COOKIE_KINDS.shopPurchase)).toMatchObject({ in: 0, out: 45 });
    // The web page's figures and the image's table read the same sums.
    expect(flowTotal(report.days, 'in')).toBe(120);
    expect(flowTotal(report.days, 'out')).toBe(45);
    const picture = economyPicture(report, deps.i18n.for('en'));
    const rows = new Map(picture.table.rows.map(([label, week]) => [label, week]));
    expect(rows.get('Cookies members received')).toBe('120');
    expect(rows.get('Cookies members paid')).toBe('45');
    expect(picture.flows.kinds).toEqual(expect.arrayContaining(['role income', 'shop purchase']));
    expect(picture.flows.week[picture.flows.kinds.indexOf('role income')]).toBe(120);
    expect(picture.flows.week[picture.flows.kinds.indexOf('shop purchase')]).toBe(-45);
  });

  it('GIVEN the report THEN the image is a real PNG in both languages, with the figures in each language', async () => {
    const { deps, clock } = makeBotDeps(t, { env: { HOUSE_MIN_RESERVE_COOKIES: '2000' } });
    await tenDays(deps, clock);
    const report = await deps.services.economy.report(30);
    for (const locale of ['en', 'de'] as const) {
      const i18n = deps.i18n.for(locale);
      const picture = economyPicture(report, i18n);
      const texts: string[] = [];
      const png = await renderEconomyImage(picture, (drawn) => texts.push(drawn.drawn));
      expect(png.subarray(0, 8)).toEqual(PNG);
      const image = await loadImage(png);
      expect([image.width, image.height]).toEqual([1200, 1180]);
      const flat = texts.join(' | ');
      if (locale === 'en') {
        expect(flat).toContain('Economy health');
        expect(flat).toContain('Last 7 days');
        expect(flat).toContain('1,200');
        expect(picture.flows.kinds).toContain('collect');
      } else {
        expect(flat).toContain('Wirtschaftslage');
        expect(flat).toContain('Letzte 30 Tage');
        expect(flat).toContain('1.200');
        expect(flat).toContain('% pro Tag');
      }
    }
  });

  it('GIVEN an admin in the console THEN /admin economy health answers with the picture, and a member is refused', async () => {
    const c = makeConsole(t);
    expect(await c.session.run('as admin /admin economy health')).toBe('ok');
    const files = readdirSync(c.outDir).filter((f) => f.endsWith('.png'));
    expect(files.length).toBe(1);
    expect(readFileSync(join(c.outDir, files[0] as string)).subarray(0, 8)).toEqual(PNG);
    const english = c.take();
    expect(english).toContain('The economy over the last 30 days');
    // A fresh server: the supply rule has no week behind it yet.
    expect(english).toContain('Following the supply: not measured yet');
    await c.session.run('!locale de');
    await c.session.run('as admin /admin wirtschaft lage');
    const german = c.take();
    expect(german).toContain('Die Wirtschaft der letzten 30 Tage');
    expect(german).toContain('Mengensteuerung: noch nicht gemessen');
    await c.session.run('/admin economy health');
    expect(readdirSync(c.outDir).filter((f) => f.endsWith('.png')).length).toBe(2);
  });
});
