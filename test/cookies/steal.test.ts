import { beforeEach, describe, expect, it } from 'vitest';
import type { BotDeps } from '../../src/interactions/types.js';
import { cryptoRng, type Rng } from '../../src/rng.js';
import { type StealRules, stealChancePct, stealFine, stealLoot } from '../../utils/cookies/stealRules.js';
import { checkInvariants } from '../../utils/ledger/invariants.js';
import { makeBotDeps } from '../support/botHarness.js';
import { clearDatabase, useTestDatabase } from '../support/database.js';

const t = useTestDatabase('steal');
const VICTIM = '840000000000000001';
const THIEVES = Array.from({ length: 20 }, (_, i) => `8400000000000001${String(i).padStart(2, '0')}`);
const HOUR = 3_600_000;

/** The defaults of `cookies.steal_*` (COOKIE_LOGIC.md). */
const RULES: StealRules = {
  baseChancePct: 40,
  minChancePct: 10,
  maxChancePct: 70,
  wealthWeightPct: 50,
  heatPenaltyPct: 25,
  heatWindowMs: HOUR,
  lootPct: 8,
  maxLoot: 2_000,
  hourlyBudget: 5_000,
  finePct: 5,
  fineMin: 20,
  fineMax: 1_000,
  minVictimBalance: 100,
  protectionMs: 24 * HOUR,
};

describe('steal balancing (COOKIE_LOGIC.md worked examples)', () => {
  it('makes richer victims easier and more rewarding, poorer ones harder and less', () => {
    expect(stealChancePct(RULES, 1_000, 1_000, 0)).toBeCloseTo(40);
    expect(stealChancePct(RULES, 1_000, 4_000, 0)).toBeCloseTo(70); // 40 × 2 = 80, capped at 70
    expect(stealChancePct(RULES, 4_000, 1_000, 0)).toBeCloseTo(20, 1); // 40 × (1,001 / 4,001)^0.5
    expect(stealLoot(RULES, 1_000, 1_000)).toBe(80); // 8 % of 1,000
    expect(stealLoot(RULES, 1_000, 4_000)).toBe(480); // 8 % × 1.5
    expect(stealLoot(RULES, 4_000, 1_000)).toBe(40); // 8 % × 0.5
    expect(stealLoot(RULES, 10, 1_000_000)).toBe(2_000); // the per-hit cap
  });

  it('cools a victim down with each recent robbery, never below the floor', () => {
    expect(stealChancePct(RULES, 1_000, 1_000, 1)).toBeCloseTo(30);
    expect(stealChancePct(RULES, 1_000, 1_000, 2)).toBeCloseTo(22.5);
    expect(stealChancePct(RULES, 1_000, 1_000, 10)).toBeCloseTo(10);
  });

  it('fines a caught thief 5 % within 20–1,000, never more than they have', () => {
    expect(stealFine(RULES, 10_000)).toBe(500);
    expect(stealFine(RULES, 100)).toBe(20);
    expect(stealFine(RULES, 100_000)).toBe(1_000);
    expect(stealFine(RULES, 12)).toBe(12);
  });
});

/** Always succeeds: the roll is the lowest possible. */
const luckyRng: Rng = { ...cryptoRng, int: (min) => min };
/** Always fails: the roll is the highest possible. */
const unluckyRng: Rng = { ...cryptoRng, int: (_min, max) => max - 1 };

async function setUp(rng: Rng, victimCookies: number) {
  const made = makeBotDeps(t, { rng });
  const { deps, clock } = made;
  await deps.profiles.touch({ id: VICTIM, name: 'victim' });
  await deps.services.cookies.grant({
    opId: 'seed-victim',
    adminId: 'admin',
    to: VICTIM,
    amount: victimCookies,
    reason: '',
  });
  clock.advance(25 * HOUR); // past the new-member protection
  return made;
}

async function lost(deps: BotDeps, start: number): Promise<number> {
  await deps.ledger.flush();
  return start - (await deps.ledger.balanceOf('cookies', VICTIM));
}

describe('/cookies steal', () => {
  beforeEach(() => clearDatabase(t.db));

  it('GIVEN 20 thieves making 200 attempts at once on one victim THEN the victim loses exactly the hourly budget, and more only as the hour rolls on', async () => {
    const { deps, clock } = await setUp(luckyRng, 100_000);
    await deps.runtimeConfig.set('cookies.steal_max_loot', '700', 'admin');
    let attempt = 0;
    const wave = () =>
      Promise.all(
        Array.from({ length: 200 }, (_, i) =>
          deps.services.steal.steal({
            opId: `s${attempt++}`,
            thief: THIEVES[i % 20] as string,
            victim: VICTIM,
          }),
        ),
      );
    const first = await wave();
    expect(await lost(deps, 100_000)).toBe(5_000);
    const stolen = first.filter((r) => r.status === 'stolen');
    expect(stolen.reduce((sum, r) => sum + (r.status === 'stolen' ? r.amount : 0), 0)).toBe(5_000);
    expect(first.filter((r) => r.status === 'shielded').length).toBe(200 - stolen.length);
    expect(Math.max(...stolen.map((r) => (r.status === 'stolen' ? r.amount : 0)))).toBeLessThanOrEqual(700);

    clock.advance(59 * 60_000);
    await wave();
    expect(await lost(deps, 100_000)).toBe(5_000);
    clock.advance(2 * 60_000);
    await wave();
    expect(await lost(deps, 100_000)).toBe(10_000);
    expect((await checkInvariants(t.cols)).problems).toEqual([]);
  });

  it('GIVEN a failed attempt THEN the thief pays the fine into the vault', async () => {
    const { deps } = await setUp(unluckyRng, 5_000);
    const thief = THIEVES[0] as string;
    await deps.services.cookies.grant({
      opId: 'seed-thief',
      adminId: 'admin',
      to: thief,
      amount: 2_000,
      reason: '',
    });
    const result = await deps.services.steal.steal({ opId: 'caught', thief, victim: VICTIM });
    expect(result).toMatchObject({ status: 'caught', fine: 100 });
    await deps.ledger.flush();
    expect(await deps.ledger.balanceOf('cookies', thief)).toBe(1_900);
    expect(await deps.ledger.balanceOf('cookies', deps.ledger.houseAccountId)).toBe(100);
    expect(await lost(deps, 5_000)).toBe(0);
  });

  it('GIVEN a new member, a poor one, oneself or the vault THEN the attempt is refused with the numbers and nothing moves', async () => {
    const { deps, clock } = await setUp(luckyRng, 50);
    const thief = THIEVES[0] as string;
    const attempt = (victim: string) =>
      deps.services.steal.steal({ opId: `a-${victim}`, thief, victim }).catch((e: unknown) => e);
    expect(await attempt(VICTIM)).toMatchObject({
      code: 'STEAL_TARGET_TOO_POOR',
      context: { balance: 50, min: 100 },
    });
    expect(await attempt(thief)).toMatchObject({
      code: 'INVALID_INPUT',
      context: { messageKey: 'cookies:errors.stealFromSelf' },
    });
    expect(await attempt(deps.ledger.houseAccountId)).toMatchObject({
      context: { messageKey: 'cookies:errors.stealFromHouse' },
    });
    const newcomer = '840000000000000999';
    await deps.profiles.touch({ id: newcomer, name: 'newcomer' });
    expect(await attempt(newcomer)).toMatchObject({
      code: 'STEAL_PROTECTED',
      context: { until: clock.now().getTime() + 24 * HOUR },
    });
    expect(await attempt('840000000000000998')).toMatchObject({
      code: 'STEAL_PROTECTED',
      context: { until: null },
    });
    expect(await lost(deps, 50)).toBe(0);
    expect(await deps.ledger.balanceOf('cookies', thief)).toBe(0);
  });
});
