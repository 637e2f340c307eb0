import { beforeEach, describe, expect, it } from 'vitest';
import { COLLECTION_NAMES } from '../../src/db/collections.js';
import type { BotDeps } from '../../src/interactions/types.js';
import { silentLogger } from '../../src/logger.js';
import type { BakeryShareDoc } from '../../utils/cookies/bakeryShareStore.js';
import { type CollectDoc, CollectStore } from '../../utils/cookies/collectStore.js';
import { COOKIE_KINDS, CookieEconomy } from '../../utils/money/cookieEconomy.js';
import { recoverLedger } from '../../utils/money/ledger/recovery.js';
import { makeBotDeps } from '../support/botHarness.js';
import { makeConsole } from '../support/consoleHarness.js';
import { clearDatabase, useTestDatabase } from '../support/database.js';
import { booksProblems } from '../support/ledgerHarness.js';

const t = useTestDatabase('supply_rule_attacks');
const MEMBERS = ['870000000000000001', '870000000000000002', '870000000000000003'];
const ENV = { HOUSE_MIN_RESERVE_COOKIES: '1000' };
const MINUTE = 60_000;
/** The harness's clocks start at noon of this day; its decision is due at 00:10 the next day. */
const DAY = '2026-03-01';
const NEXT_MIDNIGHT = new Date('2026-03-02T00:00:00Z').getTime();
const at = (minutesAfterMidnight: number) => new Date(NEXT_MIDNIGHT + minutesAfterMidnight * MINUTE);

const decisions = () => t.db.collection<BakeryShareDoc>('bakery_shares');

/** A night decided earlier, as the store keeps it (`rule` left out: a decision from before the rule). */
async function decided(
  day: string,
  rule?: { supply: number; growthPct: number | null; collectRatePct: number },
): Promise<void> {
  await decisions().insertOne({
    _id: day,
    houseTake: 0,
    vault: 0,
    target: 3_000,
    pool: 0,
    share: 0,
    recipients: [],
    decidedAt: new Date(`${day}T00:10:00Z`),
    paidAt: new Date(`${day}T00:10:00Z`),
    paid: 0,
    ...rule,
  });
}

let topUps = 0;
/** Grants the members what they lack to hold `total` Cookies together. */
async function membersHold(deps: BotDeps, total: number): Promise<void> {
  const economy = new CookieEconomy(deps.ledger);
  const missing = total - (await economy.supply());
  expect(missing).toBeGreaterThan(0);
  topUps++;
  await economy.mint(MEMBERS[0] as string, {
    opId: `top-up:${topUps}`,
    amount: missing,
    kind: COOKIE_KINDS.grant,
    source: 'admin',
  });
}

/** What a member's loot bag holds (what others may steal of their collects). */
const bagOf = async (member: string) =>
  (await t.db.collection<CollectDoc>(COLLECTION_NAMES.cooldowns).findOne({ _id: CollectStore.id(member) }))
    ?.stealAllowance ?? 0;

/**
 * A week behind the day: 100,000 Cookies seven days before, the rate cut to 80 % the night
 * before. The members collect, and hold 100,000 × 1.05⁷ at the night's decision: 5 % a day,
 * 3.75 points over the target, so the night takes the rate from 80 to 65.
 */
const WEEK_AGO = 100_000;
const FIVE_PCT_WEEK = Math.round(WEEK_AGO * 1.05 ** 7);
const DECIDED_RATE = 65;

async function weekBehind(): Promise<void> {
  await decided('2026-02-22', { supply: WEEK_AGO, growthPct: 3, collectRatePct: 84 });
  await decided('2026-02-28', { supply: 130_000, growthPct: 3.2, collectRatePct: 80 });
}

describe('two processes deciding the same night', () => {
  beforeEach(() => clearDatabase(t.db));

  it("GIVEN both processes deciding at once THEN one decision holds and, once the 10 minutes' cache passed, both processes' collects pay its rate", async () => {
    const first = makeBotDeps(t, { env: ENV });
    const second = makeBotDeps(t, { env: ENV });
    await weekBehind();
    for (const member of MEMBERS) await first.deps.services.collect.collect(member, 'command');
    await membersHold(first.deps, FIVE_PCT_WEEK);
    first.clock.advanceTo(at(5));
    second.clock.advanceTo(at(5));
    // Both processes read the rate before the night (80 %).
    expect(await first.deps.services.bakery.collectRatePct()).toBe(80);
    expect(await second.deps.services.bakery.collectRatePct()).toBe(80);

    first.clock.advanceTo(at(10));
    second.clock.advanceTo(at(10));
    const [a, b] = await Promise.all([
      first.deps.services.bakery.share(DAY),
      second.deps.services.bakery.share(DAY),
      first.deps.scheduler.runDue(),
      second.deps.scheduler.runDue(),
    ]);
    expect(await decisions().countDocuments({ _id: DAY })).toBe(1);
    expect(a.collectRatePct).toBe(DECIDED_RATE);
    expect(b.collectRatePct).toBe(DECIDED_RATE);
    expect(a.growthPct).toBeCloseTo(5, 3);

    first.clock.advanceTo(at(15));
    second.clock.advanceTo(at(15));
    const [one, two] = await Promise.all([
      first.deps.services.collect.collect(MEMBERS[0] as string, 'command'),
      second.deps.services.collect.collect(MEMBERS[1] as string, 'command'),
    ]);
    expect(one.ratePct).toBe(DECIDED_RATE);
    expect(two.ratePct).toBe(DECIDED_RATE);
    // Drawn from 40–60 with a streak day 2 bonus of 10 %, all at 65 %.
    for (const c of [one, two]) expect(c.amount).toBeLessThanOrEqual(Math.floor((66 * DECIDED_RATE) / 100));
    expect(await booksProblems(t.cols)).toEqual([]);
  });
});

describe('a process dying between the decision and the payments', () => {
  beforeEach(() => clearDatabase(t.db));

  it('GIVEN the process dies before the first payment, and the supply and the minimum change before the rerun THEN the rerun pays the recorded share and collects keep the recorded rate', async () => {
    let died = false;
    const dying = makeBotDeps(t, {
      env: ENV,
      hooks: {
        step: (_step, spec) => {
          if (spec.kind === COOKIE_KINDS.bakeryShare && !died) {
            died = true;
            throw new Error('the process died here');
          }
        },
      },
    });
    // A quiet week (0.5 % a day): the rate climbs from 60 to 63 and the bakery shares.
    await decided('2026-02-22', { supply: WEEK_AGO, growthPct: 0.4, collectRatePct: 56 });
    await decided('2026-02-28', { supply: 103_000, growthPct: 0.4, collectRatePct: 60 });
    await dying.deps.services.vault.fund({ opId: 'fund', adminId: 'admin', amount: 50_000, reason: '' });
    for (const member of MEMBERS) await dying.deps.services.collect.collect(member, 'command');
    // The vault wins 1,000 of them at the tables.
    await membersHold(dying.deps, Math.round(WEEK_AGO * 1.005 ** 7) + 1_000);
    await new CookieEconomy(dying.deps.ledger).toHouse(MEMBERS[0] as string, {
      opId: 'lost-at-the-tables',
      amount: 1_000,
      kind: COOKIE_KINDS.gameStake,
      source: MEMBERS[0] as string,
    });
    dying.clock.advanceTo(at(10));
    await dying.deps.scheduler.runDue();
    expect(died).toBe(true);
    const recorded = await decisions().findOne({ _id: DAY });
    expect(recorded?.collectRatePct).toBe(63);
    expect(recorded?.share).toBe(266);

    // Before the rerun: the members' Cookies double and a moderator raises the minimum.
    await membersHold(dying.deps, 2 * WEEK_AGO);
    const next = makeBotDeps(t, { env: ENV });
    await next.deps.runtimeConfig.set('cookies.collect_rate_min_pct', '30', 'admin');
    next.clock.advanceTo(at(20));
    // The dead process's half-applied payment is the recovery pass's to undo, as in production.
    await recoverLedger({ cols: t.cols, clock: next.clock, log: silentLogger }, { graceMs: 0 });
    await next.deps.scheduler.runDue();
    const after = await decisions().findOne({ _id: DAY });
    expect(after?.collectRatePct).toBe(63);
    expect(after?.growthPct).toBe(recorded?.growthPct);
    expect(after?.paid).toBe(3);
    const economy = new CookieEconomy(next.deps.ledger);
    for (const member of MEMBERS) {
      expect((await economy.totalsByKind(member)).get(COOKIE_KINDS.bakeryShare)?.in).toBe(266);
    }
    expect(await next.deps.services.bakery.collectRatePct()).toBe(63);
    expect(await booksProblems(t.cols)).toEqual([]);
  });
});

describe('a moderator changing the settings mid-week', () => {
  beforeEach(() => clearDatabase(t.db));

  it('GIVEN a minimum raised above the decided rate THEN collects pay the minimum at once, and the next night never decides under it', async () => {
    const { deps, clock } = makeBotDeps(t, { env: ENV });
    await weekBehind();
    expect(await deps.services.bakery.collectRatePct()).toBe(80);
    await deps.runtimeConfig.set('cookies.collect_rate_min_pct', '90', 'admin');
    const collected = await deps.services.collect.collect(MEMBERS[0] as string, 'command');
    expect(collected.ratePct).toBe(90);
    expect(collected.base).toBeGreaterThanOrEqual(Math.floor((40 * 90) / 100));
    await deps.services.collect.collect(MEMBERS[1] as string, 'command');
    await deps.services.collect.collect(MEMBERS[2] as string, 'command');
    await membersHold(deps, FIVE_PCT_WEEK);
    clock.advanceTo(at(10));
    await deps.scheduler.runDue();
    expect((await decisions().findOne({ _id: DAY }))?.collectRatePct).toBe(90);

    // The minimum at 100: collects pay in full, never above.
    await deps.runtimeConfig.set('cookies.collect_rate_min_pct', '100', 'admin');
    clock.advanceTo(at(30));
    const full = await deps.services.collect.collect(MEMBERS[0] as string, 'command');
    expect(full.ratePct).toBe(100);
    expect(full.base).toBeLessThanOrEqual(60);
  });

  it('GIVEN the rule turned off over a night and back on THEN collects keep paying in full and the next night moves a few points from there', async () => {
    const { deps, clock } = makeBotDeps(t, { env: ENV });
    await weekBehind();
    await deps.runtimeConfig.set('cookies.supply_growth_target_bp', '0', 'admin');
    for (const member of MEMBERS) {
      expect((await deps.services.collect.collect(member, 'command')).ratePct).toBe(100);
    }
    await membersHold(deps, FIVE_PCT_WEEK);
    clock.advanceTo(at(10));
    await deps.scheduler.runDue();
    const off = await decisions().findOne({ _id: DAY });
    expect(off).toMatchObject({ growthPct: null, collectRatePct: 100 });

    await deps.runtimeConfig.set('cookies.supply_growth_target_bp', '125', 'admin');
    clock.advanceTo(at(30));
    for (const member of MEMBERS) {
      expect((await deps.services.collect.collect(member, 'command')).ratePct).toBe(100);
    }
    // The next night: 5 % a day since the decision 8 days before, 3.75 points over: 100 → 85.
    await membersHold(deps, Math.round(WEEK_AGO * 1.05 ** 8));
    clock.advanceTo(at(24 * 60 + 10));
    await deps.scheduler.runDue();
    const on = await decisions().findOne({ _id: '2026-03-02' });
    expect(on?.growthPct).toBeCloseTo(5, 3);
    expect(on?.collectRatePct).toBe(85);
  });
});

describe('nights without a decision', () => {
  beforeEach(() => clearDatabase(t.db));

  it('GIVEN the last decision 10 days back THEN the night measures the growth over those 10 days and steps once from its rate', async () => {
    const { deps, clock } = makeBotDeps(t, { env: ENV });
    await decided('2026-02-19', { supply: WEEK_AGO, growthPct: 2, collectRatePct: 70 });
    for (const member of MEMBERS) await deps.services.collect.collect(member, 'command');
    // 3 % a day over 10 days: 1.75 points over the target, 70 → 63.
    await membersHold(deps, Math.round(WEEK_AGO * 1.03 ** 10));
    clock.advanceTo(at(10));
    await deps.scheduler.runDue();
    const night = await decisions().findOne({ _id: DAY });
    expect(night?.growthPct).toBeCloseTo(3, 3);
    expect(night?.collectRatePct).toBe(63);
  });

  it('GIVEN the only week-old decision 15 days back THEN nothing is measured and the rate stays where it was', async () => {
    const { deps, clock } = makeBotDeps(t, { env: ENV });
    await decided('2026-02-14', { supply: WEEK_AGO, growthPct: 2, collectRatePct: 70 });
    await decided('2026-02-26', { supply: 120_000, growthPct: null, collectRatePct: 70 });
    for (const member of MEMBERS) await deps.services.collect.collect(member, 'command');
    await membersHold(deps, 4 * WEEK_AGO);
    clock.advanceTo(at(10));
    await deps.scheduler.runDue();
    const night = await decisions().findOne({ _id: DAY });
    expect(night?.growthPct).toBeNull();
    expect(night?.collectRatePct).toBe(70);
  });
});

describe('decisions recorded before the rule', () => {
  beforeEach(() => clearDatabase(t.db));

  it('GIVEN only decisions without supply, growth or rate THEN collects pay in full, the night decides without a measure, and health says not measured', async () => {
    const c = makeConsole(t);
    for (const day of ['2026-02-20', '2026-02-22', '2026-02-27', '2026-02-28']) await decided(day);
    const members = ['ann', 'ben'].map((name) => c.identities.get(name).id);
    const collected = await c.deps.services.collect.collect(members[0] as string, 'command');
    expect(collected.ratePct).toBe(100);
    await c.deps.services.collect.collect(members[1] as string, 'command');
    c.take();
    await c.session.run('as admin /admin economy health');
    expect(c.take()).toContain('Following the supply: not measured yet');
    c.clock.advanceTo(at(10));
    await c.deps.scheduler.runDue();
    const night = await decisions().findOne({ _id: DAY });
    expect(night).toMatchObject({ growthPct: null, collectRatePct: 100 });
    expect(night?.supply).toBeGreaterThan(0);
  });
});

describe('collects at the edges', () => {
  beforeEach(() => clearDatabase(t.db));

  it('GIVEN a collect racing the night that cuts the rate THEN it pays the rate it names, and every collect after the cache pays the new one', async () => {
    const { deps, clock } = makeBotDeps(t, { env: ENV });
    await weekBehind();
    await deps.runtimeConfig.set('cookies.collect_cooldown_s', '60', 'admin');
    for (const member of MEMBERS) await deps.services.collect.collect(member, 'command');
    await membersHold(deps, FIVE_PCT_WEEK);
    clock.advanceTo(at(10));
    const economy = new CookieEconomy(deps.ledger);
    const before = await economy.balance(MEMBERS[2] as string);
    const [racing] = await Promise.all([
      deps.services.collect.collect(MEMBERS[2] as string, 'command'),
      deps.scheduler.runDue(),
    ]);
    expect([80, DECIDED_RATE]).toContain(racing.ratePct);
    expect(racing.amount).toBeLessThanOrEqual(Math.floor((66 * racing.ratePct) / 100));
    expect((await economy.balance(MEMBERS[2] as string)) - before).toBe(racing.amount);
    clock.advanceTo(at(21));
    for (const member of MEMBERS) {
      expect((await deps.services.collect.collect(member, 'command')).ratePct).toBe(DECIDED_RATE);
    }
  });

  it('GIVEN the rate at its floor and a base of 1 Cookie THEN a collect still pays 1, says 25 %, and the loot bag fills from the 1', async () => {
    const { deps } = makeBotDeps(t, { env: ENV });
    await decided('2026-02-28', { supply: 130_000, growthPct: 9, collectRatePct: 25 });
    await deps.runtimeConfig.set('cookies.collect_min', '1', 'admin');
    await deps.runtimeConfig.set('cookies.collect_max', '1', 'admin');
    await deps.runtimeConfig.set('cookies.steal_allowance_pct', '100', 'admin');
    const collected = await deps.services.collect.collect(MEMBERS[0] as string, 'command');
    expect(collected).toMatchObject({ amount: 1, base: 1, ratePct: 25 });
    expect(await new CookieEconomy(deps.ledger).balance(MEMBERS[0] as string)).toBe(1);
    expect(await bagOf(MEMBERS[0] as string)).toBe(1);
  });

  it('GIVEN a cut rate and the usual 40–60 THEN the loot bag fills from what was paid, not from the usual amount', async () => {
    const { deps } = makeBotDeps(t, { env: ENV });
    await decided('2026-02-28', { supply: 130_000, growthPct: 9, collectRatePct: 25 });
    await deps.runtimeConfig.set('cookies.steal_allowance_pct', '100', 'admin');
    const collected = await deps.services.collect.collect(MEMBERS[0] as string, 'command');
    expect(collected.amount).toBeLessThanOrEqual(15);
    expect(await bagOf(MEMBERS[0] as string)).toBe(collected.amount);
  });
});

describe('/admin economy health, where the rule stands', () => {
  beforeEach(() => clearDatabase(t.db));

  it('GIVEN each state (not measured, sharing, pausing, minimum above the rate, off) THEN the moderator reads it in English and German', async () => {
    const c = makeConsole(t);
    const health = async () => {
      c.take();
      await c.session.run('!locale en');
      await c.session.run('as admin /admin economy health');
      const en = c.take();
      await c.session.run('!locale de');
      await c.session.run('as admin /admin wirtschaft lage');
      const de = c.take();
      // A new decision is read within the 10 minutes' cache.
      c.clock.advance(10 * MINUTE);
      return { en, de };
    };
    let said = await health();
    expect(said.en).toContain('Following the supply: not measured yet');
    expect(said.en).toContain('Collects pay 100 %.');
    expect(said.de).toContain('Mengensteuerung: noch nicht gemessen');
    expect(said.de).toContain('Sammeln bringt 100 %.');

    await decided('2026-02-25', { supply: 100_000, growthPct: 0.5, collectRatePct: 64 });
    said = await health();
    expect(said.en).toContain(
      "grew 0.5 % a day over the week (target 1.25 %): collects pay 64 % and the bakery shares the vault's winnings",
    );
    expect(said.de).toContain(
      'um 0,5 % pro Tag gewachsen (Ziel 1,25 %): Sammeln bringt 64 %, und die Bäckerei schüttet',
    );

    await decided('2026-02-26', { supply: 120_000, growthPct: 3.25, collectRatePct: 56 });
    said = await health();
    expect(said.en).toContain(
      "grew 3.25 % a day over the week (target 1.25 %): collects pay 56 % and the bakery keeps the vault's winnings",
    );
    expect(said.de).toContain(
      'um 3,25 % pro Tag gewachsen (Ziel 1,25 %): Sammeln bringt 56 %, und die Bäckerei behält',
    );

    // A falling supply (the table's "falling" row): it shrank, the rate recovers, the bakery shares.
    await decided('2026-02-27', { supply: 118_000, growthPct: -0.8, collectRatePct: 64 });
    said = await health();
    expect(said.en).toContain(
      "The members' Cookies shrank 0.8 % a day over the week (target: growing 1.25 %)",
    );
    expect(said.en).toContain("collects pay 64 % and the bakery shares the vault's winnings");
    expect(said.en).not.toContain('grew -');
    expect(said.de).toContain('in der letzten Woche um 0,8 % pro Tag geschrumpft (Ziel: 1,25 % Wachstum)');
    expect(said.de).toContain('Sammeln bringt 64 %, und die Bäckerei schüttet');
    // Barely falling: no "-0 %".
    await decided('2026-02-28', { supply: 117_999, growthPct: -0.001, collectRatePct: 68 });
    said = await health();
    expect(said.en).toContain("The members' Cookies grew 0 % a day over the week (target 1.25 %)");
    expect(said.de).toContain('um 0 % pro Tag gewachsen (Ziel 1,25 %)');

    await c.deps.runtimeConfig.set('cookies.collect_rate_min_pct', '70', 'admin');
    said = await health();
    expect(said.en).toContain('collects pay 70 %');
    expect(said.de).toContain('Sammeln bringt 70 %');

    await c.deps.runtimeConfig.set('cookies.supply_growth_target_bp', '0', 'admin');
    said = await health();
    expect(said.en).toContain('Following the supply is off');
    expect(said.de).toContain('Die Mengensteuerung ist aus');
  });
});
