import { beforeEach, describe, expect, it } from 'vitest';
import { ASSEMBLY } from '../../commands/index.js';
import type { BotDeps } from '../../src/interactions/types.js';
import { COOKIE_KINDS } from '../../utils/money/cookieEconomy.js';
import { checkInvariants } from '../../utils/money/ledger/invariants.js';
import type { LedgerStep } from '../../utils/money/ledger/ledger.js';
import type { IncomeTerms, RoleIncomeDoc } from '../../utils/shop/incomeStore.js';
import { incomeOf, periodEnd, periodOf } from '../../utils/shop/roleIncome.js';
import { fundVaultAndMembers, makeBotDeps } from '../support/botHarness.js';
import { makeConsole } from '../support/consoleHarness.js';
import { clearDatabase, useTestDatabase } from '../support/database.js';
import { TestRoles } from '../support/testRoles.js';

const t = useTestDatabase('shop_role_income');
const GUILD = '851000000000000001';
const BOOSTER = '851000000000000900';
const OTHER_ROLE = '851000000000000901';
const MOD = '851000000000000002';
const MEMBERS = Array.from({ length: 150 }, (_, i) => `8510000000000010${String(i).padStart(2, '0')}`);
const DAY = 24;

type Made = ReturnType<typeof makeBotDeps>;

/** The member's interaction in the server, showing these roles (what the runtime records). */
function seen(deps: BotDeps, member: string, roleIds: string[]) {
  return deps.serverMembers.seenIn({
    guildId: GUILD,
    user: { id: member, name: member },
    users: {},
    roleIds,
  });
}

function setIncome(deps: BotDeps, terms: IncomeTerms, everyH = DAY, roleId = BOOSTER) {
  return deps.services.shop.setIncome({ guildId: GUILD, roleId, actorId: MOD, terms, everyH });
}

/** Every process's clock to just after the end of the period now running. */
function toPeriodEnd(processes: Made[], everyH = DAY) {
  const [first] = processes as [Made];
  const end = periodEnd(periodOf(first.clock.now(), everyH), everyH);
  for (const p of processes) p.clock.advanceTo(new Date(end.getTime() + 1_000));
}

async function theIncome(deps: BotDeps): Promise<RoleIncomeDoc> {
  const [listed] = await deps.services.shop.incomes(GUILD);
  if (!listed) throw new Error('no role income set');
  return listed.income;
}

function balances(deps: BotDeps, members: readonly string[]) {
  return Promise.all(members.map((m) => deps.cookieEconomy.balance(m)));
}

async function incomePaid(): Promise<number> {
  return t.cols.ledgerEvents.countDocuments({ kind: COOKIE_KINDS.roleIncome });
}

async function booksProblems(deps: BotDeps): Promise<string[]> {
  await deps.ledger.flush();
  const ledger = await checkInvariants(t.cols);
  return [
    ...ledger.problems,
    ...(await ASSEMBLY.checkInvariants(t.db, deps.config, deps.ledger, deps.clock.now())),
  ];
}

/** Ledger hooks that fail the `n`th role income payment's credit, once, as a crash at that point would. */
function failingIncomeAt(n: number) {
  let seenCredits = 0;
  return {
    step(step: LedgerStep, spec: { opId: string }) {
      if (step !== 'credit.before' || !spec.opId.startsWith('shop.income:')) return;
      seenCredits += 1;
      if (seenCredits === n) throw new Error('the process died here');
    },
  };
}

describe('role income', () => {
  beforeEach(() => clearDatabase(t.db));

  it('GIVEN two processes running the due timer at once THEN each holder is paid once per period, and not a member without the role', async () => {
    const a = makeBotDeps(t);
    const b = makeBotDeps(t);
    const holders = MEMBERS.slice(0, 30);
    for (const m of holders) await seen(a.deps, m, [BOOSTER]);
    await seen(a.deps, MEMBERS[40] as string, [OTHER_ROLE]);
    await setIncome(a.deps, { kind: 'fixed', amount: 100 });

    toPeriodEnd([a, b]);
    await Promise.all([a.deps.scheduler.runDue(), b.deps.scheduler.runDue()]);
    expect(await balances(a.deps, holders)).toEqual(Array(30).fill(100));
    expect(await a.deps.cookieEconomy.balance(MEMBERS[40] as string)).toBe(0);

    // The same period's timer run again (a lease that ran out): the ledger replays every payment.
    const period = periodOf(a.clock.now(), DAY) - 1;
    await b.deps.services.shop.income.pay(await theIncome(b.deps), period, async () => false);
    expect(await balances(a.deps, holders)).toEqual(Array(30).fill(100));

    toPeriodEnd([a, b]);
    await Promise.all([a.deps.scheduler.runDue(), b.deps.scheduler.runDue()]);
    expect(await balances(a.deps, holders)).toEqual(Array(30).fill(200));
    expect(await incomePaid()).toBe(60);
    expect(await booksProblems(a.deps)).toEqual([]);
  });

  it('GIVEN a payment failing mid-batch on the second page THEN the next run pays the rest, and nobody twice', async () => {
    const a = makeBotDeps(t, { hooks: failingIncomeAt(120) });
    const b = makeBotDeps(t);
    for (const m of MEMBERS) await seen(b.deps, m, [BOOSTER]);
    await setIncome(b.deps, { kind: 'fixed', amount: 7 });

    toPeriodEnd([a, b]);
    await a.deps.scheduler.runDue();
    const paidFirst = (await balances(b.deps, MEMBERS)).filter((x) => x === 7).length;
    expect(paidFirst).toBeGreaterThanOrEqual(110);
    expect(paidFirst).toBeLessThan(MEMBERS.length);
    expect(await balances(b.deps, MEMBERS)).not.toContain(14);

    // The failed run's timer is tried again after its wait, here by the other process.
    for (const p of [a, b]) p.clock.advance(60_000);
    await b.deps.scheduler.runDue();
    expect(await balances(b.deps, MEMBERS)).toEqual(Array(MEMBERS.length).fill(7));
    expect(await incomePaid()).toBe(MEMBERS.length);
    expect(await booksProblems(b.deps)).toEqual([]);
  });

  it('GIVEN a member who lost the role, one banned from the economy and one who bought it in the shop THEN only the holders are paid next period', async () => {
    const roles = new TestRoles();
    const made = makeBotDeps(t, { roles });
    const { deps } = made;
    const [keeps, loses, banned, buyer] = MEMBERS as [string, string, string, string];
    await fundVaultAndMembers(deps, 10_000, [buyer], 1_000);
    await deps.services.shop.addItem({
      guildId: GUILD,
      actorId: MOD,
      kind: 'role',
      effect: null,
      roleId: BOOSTER,
      fields: {
        name: 'Booster',
        description: '',
        price: 300,
        stockLeft: null,
        perMember: null,
        requiredRoleId: null,
        durationH: null,
      },
    });
    for (const m of [keeps, loses, banned]) await seen(deps, m, [BOOSTER]);
    await deps.services.shop.buy({
      opId: 'buy-1',
      guildId: GUILD,
      userId: buyer,
      item: 'Booster',
      roleIds: [],
    });
    await deps.services.moderation.ban({
      member: banned,
      scope: 'economy',
      lengthMs: null,
      reason: '',
      by: MOD,
      byAdmin: true,
    });
    await setIncome(deps, { kind: 'fixed', amount: 50 });

    toPeriodEnd([made]);
    await deps.scheduler.runDue();
    expect(await balances(deps, [keeps, loses, banned, buyer])).toEqual([50, 50, 0, 750]);

    // Moments later (within the ten minutes a row is not rewritten), Discord shows the role gone.
    await seen(deps, loses, [OTHER_ROLE]);
    toPeriodEnd([made]);
    await deps.scheduler.runDue();
    expect(await balances(deps, [keeps, loses, banned, buyer])).toEqual([100, 50, 0, 800]);
    expect(await booksProblems(deps)).toEqual([]);
  });

  it('GIVEN a role income removed THEN its timer is gone and no later period pays', async () => {
    const made = makeBotDeps(t);
    const { deps } = made;
    const [m] = MEMBERS as [string];
    await seen(deps, m, [BOOSTER]);
    await setIncome(deps, { kind: 'fixed', amount: 10 }, 6);
    toPeriodEnd([made], 6);
    await deps.scheduler.runDue();
    expect(await deps.cookieEconomy.balance(m)).toBe(10);

    const removed = await deps.services.shop.removeIncome(GUILD, BOOSTER);
    expect(removed.terms).toEqual({ kind: 'fixed', amount: 10 });
    expect(await deps.services.shop.incomes(GUILD)).toEqual([]);
    for (let i = 0; i < 4; i++) {
      toPeriodEnd([made], 6);
      await deps.scheduler.runDue();
    }
    expect(await deps.cookieEconomy.balance(m)).toBe(10);
    expect(await t.db.collection('due_tasks').countDocuments({ kind: 'shop.income', status: 'due' })).toBe(0);
    await expect(deps.services.shop.removeIncome(GUILD, BOOSTER)).rejects.toMatchObject({
      code: 'INVALID_INPUT',
      context: { messageKey: 'shop:income.errors.unknown' },
    });
    expect(await booksProblems(deps)).toEqual([]);
  });

  it('GIVEN a share of the balance with a cap THEN each holder gets the share up to the cap, once per period', async () => {
    const made = makeBotDeps(t);
    const { deps } = made;
    const [rich, poor] = MEMBERS as [string, string];
    await fundVaultAndMembers(deps, 10_000, [rich], 5_000);
    await fundVaultAndMembers(deps, 10_000, [poor], 200);
    for (const m of [rich, poor]) await seen(deps, m, [BOOSTER]);
    await setIncome(deps, { kind: 'share', pct: 2, max: 50 });
    toPeriodEnd([made]);
    await deps.scheduler.runDue();
    expect(await balances(deps, [rich, poor])).toEqual([5_050, 204]);

    // Run again for the same period: the balances grew by the payment, and nothing is paid twice.
    const period = periodOf(made.clock.now(), DAY) - 1;
    expect(await deps.services.shop.income.pay(await theIncome(deps), period, async () => false)).toBe(0);
    expect(await balances(deps, [rich, poor])).toEqual([5_050, 204]);
    expect(await booksProblems(deps)).toEqual([]);
  });

  it('GIVEN terms out of bounds or both kinds THEN the refusal names the field and its bounds, and nothing is set', async () => {
    const { deps } = makeBotDeps(t);
    await expect(setIncome(deps, { kind: 'fixed', amount: 0 })).rejects.toMatchObject({
      context: { messageKey: 'shop:income.errors.outOfBounds.amount', min: 1, max: 1_000_000, value: '0' },
    });
    await expect(setIncome(deps, { kind: 'share', pct: 150, max: 10 })).rejects.toMatchObject({
      context: { messageKey: 'shop:income.errors.outOfBounds.pct', min: 1, max: 100, value: '150' },
    });
    await expect(setIncome(deps, { kind: 'fixed', amount: 5 }, 0)).rejects.toMatchObject({
      context: { messageKey: 'shop:income.errors.outOfBounds.everyH', min: 1, max: 8_760 },
    });
    expect(await deps.services.shop.incomes(GUILD)).toEqual([]);
  });

  it('GIVEN the share rule THEN it is the floor of the share, at most the cap, never below nothing', () => {
    expect(incomeOf({ kind: 'share', pct: 3, max: 1_000 }, 999)).toBe(29);
    expect(incomeOf({ kind: 'share', pct: 50, max: 100 }, 1_000)).toBe(100);
    expect(incomeOf({ kind: 'share', pct: 10, max: 100 }, -5)).toBe(0);
    expect(incomeOf({ kind: 'fixed', amount: 42 }, 0)).toBe(42);
  });
});

describe('/shop income in the console', () => {
  beforeEach(() => clearDatabase(t.db));

  it('GIVEN a moderator sets a role income THEN a member holding the role is paid at the period end, and bad terms are refused with the numbers', async () => {
    const c = makeConsole(t);
    expect(await c.session.run('as admin /shop income set role:@Booster amount:100 every:24')).toBe('ok');
    const set = c.take();
    expect(set).toContain('@Booster now pays 100 🍪 every 24 h. Next payment in 12 hours.');
    expect(set).toContain('first interaction with the bot');
    await c.session.run('!role bob @Booster');
    await c.session.run('as bob /cookies balance');
    c.take();
    await c.session.run('!wait 24h');
    expect(await c.deps.cookieEconomy.balance(c.identities.get('bob').id)).toBe(100);

    expect(
      await c.session.run('as admin /shop income set role:@Booster amount:100 share_pct:5 every:24'),
    ).toBe('refused');
    expect(c.take()).toContain('[ephemeral] ❌ Give either amount (a fixed number of Cookies)');
    expect(await c.session.run('as admin /shop income set role:@Booster share_pct:5 every:24')).toBe(
      'refused',
    );
    expect(c.take()).toContain('A share needs max');
    expect(await c.session.run('as admin /shop income set role:@Booster amount:10 max:5 every:24')).toBe(
      'refused',
    );
    expect(c.take()).toContain('max caps a share');
    expect(await c.session.run('as bob /shop income list')).toBe('refused');
    c.take();
    expect(await c.session.run('as admin /shop income list')).toBe('ok');
    expect(c.take()).toContain('@Booster: 100 🍪 every 24 h');

    await c.session.run('!locale de');
    expect(await c.session.run('as admin /laden einkommen liste')).toBe('ok');
    expect(c.take()).toContain('Rolleneinkommen');
    expect(await c.session.run('as admin /laden einkommen entfernen rolle:@Booster')).toBe('ok');
    expect(c.take()).toContain('zahlt kein Einkommen mehr');
    await c.session.run('!wait 48h');
    expect(await c.deps.cookieEconomy.balance(c.identities.get('bob').id)).toBe(100);
  });
});
