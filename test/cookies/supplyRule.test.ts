import { beforeEach, describe, expect, it } from 'vitest';
import { DAY_MS, utcDay } from '../../src/clock.js';
import type { BotDeps } from '../../src/interactions/types.js';
import { RATE_STEP_PER_POINT, supplyRule } from '../../utils/cookies/bakeryShare.js';
import { COOKIE_KINDS, CookieEconomy } from '../../utils/money/cookieEconomy.js';
import { makeBotDeps } from '../support/botHarness.js';
import { makeConsole } from '../support/consoleHarness.js';
import { clearDatabase, useTestDatabase } from '../support/database.js';
import { booksProblems } from '../support/ledgerHarness.js';

const t = useTestDatabase('supply_rule');
const MEMBERS = ['860000000000000001', '860000000000000002', '860000000000000003'];
const ENV = { HOUSE_MIN_RESERVE_COOKIES: '1000' };
const RULE = { previousRatePct: 100, collectors: 3, targetBp: 125, minPct: 25 };

describe('following the supply (COOKIE_LOGIC.md worked examples)', () => {
  it('GIVEN the members grew 3.25 % a day over the week THEN collects pay 8 points less and the bakery pauses its share', () => {
    const weekAgo = 100_000;
    const rule = supplyRule({
      ...RULE,
      supply: weekAgo * 1.0325 ** 7,
      reference: { supply: weekAgo, daysBefore: 7 },
    });
    expect(rule.growthPct).toBeCloseTo(3.25, 6);
    expect(rule.collectRatePct).toBe(100 - 2 * RATE_STEP_PER_POINT);
    expect(rule.share).toBe(false);
  });

  it('GIVEN a rate cut to 60 % and a week growing 0.25 % a day THEN the rate climbs 4 points and the bakery shares again', () => {
    const rule = supplyRule({
      ...RULE,
      previousRatePct: 60,
      supply: 100_000 * 1.0025 ** 7,
      reference: { supply: 100_000, daysBefore: 7 },
    });
    expect(rule.collectRatePct).toBe(64);
    expect(rule.share).toBe(true);
  });

  it('GIVEN a supply that doubles THEN the rate stops at its minimum, and at 100 % from the other side', () => {
    const doubling = { supply: 200_000, reference: { supply: 100_000, daysBefore: 7 } };
    expect(supplyRule({ ...RULE, ...doubling, previousRatePct: 30 }).collectRatePct).toBe(25);
    const shrinking = { supply: 50_000, reference: { supply: 100_000, daysBefore: 7 } };
    expect(supplyRule({ ...RULE, ...shrinking, previousRatePct: 98 }).collectRatePct).toBe(100);
  });

  it('GIVEN a young server (no week behind it, or under 1,000 Cookies a collector) THEN nothing is measured and nothing changes', () => {
    expect(supplyRule({ ...RULE, supply: 5_000, reference: null })).toEqual({
      growthPct: null,
      collectRatePct: 100,
      share: true,
    });
    const young = supplyRule({ ...RULE, supply: 9_000, reference: { supply: 2_999, daysBefore: 7 } });
    expect(young).toEqual({ growthPct: null, collectRatePct: 100, share: true });
  });

  it('GIVEN the rule turned off (target 0) THEN collects pay in full and the bakery shares, whatever the growth', () => {
    const rule = supplyRule({
      ...RULE,
      previousRatePct: 40,
      targetBp: 0,
      supply: 200_000,
      reference: { supply: 100_000, daysBefore: 7 },
    });
    expect(rule).toEqual({ growthPct: null, collectRatePct: 100, share: true });
  });
});

/**
 * Eight days of a server whose members collect daily and get 5 % of its Cookies as prizes each
 * day, while one of them loses 2,000 a day at the tables: each night the bakery decides.
 */
async function growingWeek(
  deps: BotDeps,
  clock: { now(): Date; advanceTo(at: Date): void },
  members: readonly string[] = MEMBERS,
) {
  const economy = new CookieEconomy(deps.ledger);
  await deps.services.vault.fund({ opId: 'fund', adminId: 'admin', amount: 500_000, reason: '' });
  for (const member of members) {
    await economy.mint(member, {
      opId: `savings:${member}`,
      amount: 20_000,
      kind: COOKIE_KINDS.grant,
      source: 'admin',
    });
  }
  const days: string[] = [];
  for (let d = 0; d < 8; d++) {
    for (const member of members) await deps.services.collect.collect(member, 'command');
    const supply = await economy.supply();
    await economy.mint(members[1] as string, {
      opId: `prize:${d}`,
      amount: Math.round(supply * 0.05),
      kind: COOKIE_KINDS.grant,
      source: 'admin',
    });
    await economy.toHouse(members[0] as string, {
      opId: `tables:${d}`,
      amount: 2_000,
      kind: COOKIE_KINDS.gameStake,
      source: members[0] as string,
    });
    days.push(utcDay(clock.now()));
    // 00:15 the next day: the day's decision (due at 00:10) runs.
    const next = Math.floor(clock.now().getTime() / DAY_MS + 1) * DAY_MS + 15 * 60_000;
    clock.advanceTo(new Date(next));
    await deps.scheduler.runDue();
  }
  return days;
}

describe('a server whose Cookies grow too fast', () => {
  beforeEach(() => clearDatabase(t.db));

  it("GIVEN a week growing about 5 % a day THEN the eighth night cuts the rate, the bakery keeps the tables' winnings, and the next collect pays less and says why", async () => {
    const { deps, clock } = makeBotDeps(t, { env: ENV });
    const days = await growingWeek(deps, clock);
    const first = await deps.services.bakery.share(days[0] as string);
    // No week behind the first night: nothing measured, the bakery shares the tables' 2,000.
    expect(first.growthPct).toBeNull();
    expect(first.collectRatePct).toBe(100);
    expect(first.pool).toBeGreaterThan(0);
    const last = await deps.services.bakery.share(days[7] as string);
    expect(last.growthPct).toBeGreaterThan(4);
    expect(last.growthPct).toBeLessThan(6);
    expect(last.collectRatePct).toBeLessThan(100 - 3 * RATE_STEP_PER_POINT);
    expect(last.pool).toBe(0);

    const collected = await deps.services.collect.collect(MEMBERS[2] as string, 'command');
    expect(collected.ratePct).toBe(last.collectRatePct);
    // The base is drawn from 40–60 and the streak adds 70 % at most: all of it at the rate.
    expect(collected.amount).toBeLessThanOrEqual(Math.floor((60 * 1.7 * (last.collectRatePct ?? 100)) / 100));
    expect(await booksProblems(t.cols)).toEqual([]);
  });

  it('GIVEN the cut rate THEN the collect reply says so in English and German; with the rule turned off collects pay in full at once', async () => {
    const c = makeConsole(t);
    const members = ['ann', 'ben', 'cleo'].map((name) => c.identities.get(name).id);
    await growingWeek(c.deps, c.clock, members);
    c.take();
    await c.session.run('as ann /cookies collect');
    expect(c.take()).toMatch(/collects pay \d+ % of their usual amount until the growth slows/);
    await c.session.run('!locale de');
    await c.session.run('as ben /kekse sammeln');
    expect(c.take()).toMatch(/Sammeln bringt \d+ % des üblichen Betrags, bis das Wachstum nachlässt/);

    // Moderators see where the rule stands under the economy's picture.
    await c.session.run('as admin /admin wirtschaft lage');
    expect(c.take()).toMatch(
      /um \d+,\d+ % pro Tag gewachsen \(Ziel 1,25 %\): Sammeln bringt \d+ %, und die Bäckerei behält/,
    );

    await c.deps.runtimeConfig.set('cookies.supply_growth_target_bp', '0', 'admin');
    expect(await c.deps.services.bakery.collectRatePct()).toBe(100);
    const full = await c.deps.services.collect.collect(members[2] as string, 'command');
    expect(full.ratePct).toBe(100);
    expect(full.base).toBeGreaterThanOrEqual(40);
  });
});
