import { beforeEach, describe, expect, it } from 'vitest';
import { ASSEMBLY } from '../../commands/index.js';
import { isAppError } from '../../src/errors.js';
import type { BotDeps } from '../../src/interactions/types.js';
import { inServer } from '../../src/runtimeConfig/serverContext.js';
import { checkInvariants } from '../../utils/money/ledger/invariants.js';
import { type ItemFields, ItemStore } from '../../utils/shop/itemStore.js';
import { fundVaultAndMembers, makeBotDeps } from '../support/botHarness.js';
import { clearDatabase, useTestDatabase } from '../support/database.js';
import { stockShelf } from '../support/shopShelf.js';
import { TestRoles } from '../support/testRoles.js';

const t = useTestDatabase('shop_purchases');
const GUILD = '850000000000000001';
const VIP = '850000000000000900';
const MOD = '850000000000000002';
const MEMBERS = Array.from({ length: 50 }, (_, i) => `8500000000000001${String(i).padStart(2, '0')}`);
const HOUR = 3_600_000;

async function setUp(members = MEMBERS.slice(0, 3)) {
  const roles = new TestRoles();
  const made = makeBotDeps(t, { roles });
  await fundVaultAndMembers(made.deps, 1_000_000, members, 1_000);
  return { ...made, roles };
}

function item(
  deps: BotDeps,
  add: Partial<ItemFields> & { role?: string; effect?: 'padlock' | 'streak_shield' | 'custom' },
) {
  return stockShelf(deps, { guildId: GUILD, actorId: MOD }, { name: 'Thing', price: 100, ...add });
}

function buy(deps: BotDeps, opId: string, userId: string, name: string, roleIds: string[] = []) {
  return deps.services.shop.buy({ opId, guildId: GUILD, userId, item: name, roleIds });
}

/** The ledger's books and every feature's (the shop's included) hold. */
async function booksProblems(deps: BotDeps): Promise<string[]> {
  await deps.ledger.flush();
  const ledger = await checkInvariants(t.cols);
  return [
    ...ledger.problems,
    ...(await ASSEMBLY.checkInvariants(t.db, deps.config, deps.ledger, deps.clock.now())),
  ];
}

describe('buying from a server shop', () => {
  beforeEach(() => clearDatabase(t.db));

  it('GIVEN 50 members buying the last 5 of an item at once THEN 5 are sold, 45 refused as sold out, and the books balance', async () => {
    const { deps } = await setUp(MEMBERS);
    await item(deps, { name: 'Golden ticket', price: 300, stockLeft: 5, effect: 'custom' });
    const vaultBefore = await deps.cookieEconomy.balance(deps.cookieEconomy.house);
    const results = await Promise.all(
      MEMBERS.map((m, i) => buy(deps, `race-${i}`, m, 'golden ticket').catch((error: unknown) => error)),
    );
    const sold = results.filter((r) => !isAppError(r));
    const refused = results.filter((r) => isAppError(r));
    expect(sold).toHaveLength(5);
    expect(refused.map((r) => (isAppError(r) ? r.code : ''))).toEqual(Array(45).fill('SHOP_SOLD_OUT'));
    const balances = await Promise.all(MEMBERS.map((m) => deps.cookieEconomy.balance(m)));
    expect(balances.filter((b) => b === 700)).toHaveLength(5);
    expect(balances.filter((b) => b === 1_000)).toHaveLength(45);
    expect(await deps.cookieEconomy.balance(deps.cookieEconomy.house)).toBe(vaultBefore + 1_500);
    const owners = (await Promise.all(MEMBERS.map((m) => deps.services.shop.owned(m)))).flat();
    expect(owners).toHaveLength(5);
    expect((await deps.services.shop.find(GUILD, 'Golden ticket')).stockLeft).toBe(0);
    expect(await booksProblems(deps)).toEqual([]);
  });

  it('GIVEN a Buy pressed twice THEN the item is bought and paid once', async () => {
    const { deps } = await setUp();
    const [m] = MEMBERS as [string];
    await item(deps, { name: 'Padlock', price: 250, effect: 'padlock' });
    const both = await Promise.all([buy(deps, 'press', m, 'Padlock'), buy(deps, 'press', m, 'Padlock')]);
    expect(both.map((b) => b.status)).toEqual(['done', 'done']);
    expect(await buy(deps, 'press', m, 'Padlock')).toMatchObject({ status: 'done' });
    expect(await deps.cookieEconomy.balance(m)).toBe(750);
    expect(await deps.services.shop.owned(m)).toHaveLength(1);
    // The profile reads what the member owns through the cookies feature's hook.
    const [belongings] = deps.featureHooks.of('cookies.belongings');
    expect(await belongings?.of(m)).toEqual([{ name: 'Padlock', count: 1 }]);
    expect(await booksProblems(deps)).toEqual([]);
  });

  it('GIVEN a limit of one per member THEN the second purchase is refused with the limit, and the first stands', async () => {
    const { deps } = await setUp();
    const [m] = MEMBERS as [string];
    await item(deps, { name: 'Badge', price: 10, perMember: 1, effect: 'custom' });
    await buy(deps, 'b1', m, 'Badge');
    await expect(buy(deps, 'b2', m, 'Badge')).rejects.toMatchObject({
      code: 'SHOP_LIMIT_REACHED',
      context: { limit: 1 },
    });
    expect(await deps.cookieEconomy.balance(m)).toBe(990);
  });

  it('GIVEN not enough Cookies THEN the purchase is refused with the balance and the price, and nothing moves', async () => {
    const { deps } = await setUp();
    const [m] = MEMBERS as [string];
    await item(deps, { name: 'Crown', price: 5_000, effect: 'custom', stockLeft: 1 });
    await expect(buy(deps, 'c1', m, 'Crown')).rejects.toMatchObject({
      code: 'INSUFFICIENT_COOKIES',
      context: { balance: 1_000, needed: 5_000 },
    });
    expect((await deps.services.shop.find(GUILD, 'Crown')).stockLeft).toBe(1);
  });

  it('GIVEN a role Discord gives THEN the member holds it, and a role bought for 24 h is taken back by its timer, also after a restart', async () => {
    const { deps, roles, clock } = await setUp();
    const [m] = MEMBERS as [string];
    await item(deps, { name: 'VIP', price: 400, role: VIP, durationH: 24 });
    const bought = await buy(deps, 'vip1', m, 'VIP');
    expect(bought.status).toBe('done');
    expect(bought.purchase.roleUntil?.getTime()).toBe(clock.now().getTime() + 24 * HOUR);
    expect(roles.has(GUILD, m, VIP)).toBe(true);
    await expect(buy(deps, 'vip2', m, 'VIP', [VIP])).rejects.toMatchObject({ code: 'SHOP_ROLE_HELD' });
    // A new process over the same database runs the timer.
    const restarted = makeBotDeps(t, { roles });
    restarted.clock.advanceTo(new Date(clock.now().getTime() + 24 * HOUR + 1_000));
    await restarted.deps.scheduler.runDue();
    expect(roles.has(GUILD, m, VIP)).toBe(false);
    expect(await restarted.deps.services.shop.owned(m)).toEqual([]);
  });

  it('GIVEN two Buys of one role pressed at once (two interactions) THEN one buys it and the other is refused as held, paid once; after the role ends it can be bought again', async () => {
    const { deps, roles, clock } = await setUp();
    const [m] = MEMBERS as [string];
    await item(deps, { name: 'VIP', price: 300, role: VIP, durationH: 1 });
    const both = await Promise.all([
      buy(deps, 'a', m, 'VIP').catch((error: unknown) => error),
      buy(deps, 'b', m, 'VIP').catch((error: unknown) => error),
    ]);
    expect(both.filter((r) => isAppError(r)).map((r) => (isAppError(r) ? r.code : ''))).toEqual([
      'SHOP_ROLE_HELD',
    ]);
    expect(await deps.cookieEconomy.balance(m)).toBe(700);
    expect(roles.has(GUILD, m, VIP)).toBe(true);
    clock.advance(HOUR + 1_000);
    await deps.scheduler.runDue();
    expect(roles.has(GUILD, m, VIP)).toBe(false);
    expect((await buy(deps, 'c', m, 'VIP')).status).toBe('done');
    expect(await deps.cookieEconomy.balance(m)).toBe(400);
    expect(await booksProblems(deps)).toEqual([]);
  });

  it("GIVEN a slower run of a purchase another run called off, killed after claiming the role's lock and the member's count again THEN the purchase's timer returns both, and a Buy before the timer is not refused either", async () => {
    const { deps, roles, clock } = await setUp();
    const [m, n] = MEMBERS as [string, string];
    await item(deps, { name: 'VIP', price: 300, role: VIP, perMember: 1 });
    const vip = await deps.services.shop.find(GUILD, 'VIP');
    const items = new ItemStore(t.db);
    const lock = `role:${GUILD}:${VIP}`;
    // What the killed run leaves: claims naming a purchase that was called off.
    const killedAfterClaiming = async (purchase: string, member: string) => {
      await items.claimForMember(vip._id, member, 1, purchase);
      await items.claimForMember(lock, member, 1, purchase);
    };
    roles.refuse = 'missing_permission';
    await expect(buy(deps, 'a', m, 'VIP')).rejects.toMatchObject({ code: 'SHOP_ROLE_REFUSED' });
    await expect(buy(deps, 'b', n, 'VIP')).rejects.toMatchObject({ code: 'SHOP_ROLE_REFUSED' });
    await killedAfterClaiming('a', m);
    await killedAfterClaiming('b', n);
    roles.refuse = null;

    expect((await buy(deps, 'a2', m, 'VIP')).status).toBe('done');
    expect(roles.has(GUILD, m, VIP)).toBe(true);
    expect(await deps.cookieEconomy.balance(m)).toBe(700);

    clock.advance(2 * 60_000);
    await deps.scheduler.runDue();
    expect(await items.memberClaims(lock, n)).toEqual([]);
    expect(await items.memberClaims(vip._id, n)).toEqual([]);
    expect(await items.boughtBy(vip._id, n)).toBe(0);
    expect((await buy(deps, 'b2', n, 'VIP')).status).toBe('done');
    // The limit of one still holds for the purchase that was made.
    await expect(buy(deps, 'a3', m, 'VIP')).rejects.toMatchObject({ code: 'SHOP_LIMIT_REACHED' });
    expect(await booksProblems(deps)).toEqual([]);
  });

  it('GIVEN Discord refusing the role (no Manage Roles) THEN the price comes back and the member hears why', async () => {
    const { deps, roles } = await setUp();
    const [m] = MEMBERS as [string];
    await item(deps, { name: 'VIP', price: 400, role: VIP, stockLeft: 3 });
    roles.refuse = 'missing_permission';
    await expect(buy(deps, 'vip1', m, 'VIP')).rejects.toMatchObject({
      code: 'SHOP_ROLE_REFUSED',
      context: { reason: 'missing_permission', roleId: VIP },
    });
    expect(await deps.cookieEconomy.balance(m)).toBe(1_000);
    expect((await deps.services.shop.find(GUILD, 'VIP')).stockLeft).toBe(3);
    expect(await booksProblems(deps)).toEqual([]);
  });

  it('GIVEN Discord timing out on the role THEN the purchase waits, and its timer finishes it: given when Discord answers', async () => {
    const { deps, roles, clock } = await setUp();
    const [m] = MEMBERS as [string];
    await item(deps, { name: 'VIP', price: 400, role: VIP });
    roles.fail = { applied: false };
    const bought = await buy(deps, 'vip1', m, 'VIP');
    expect(bought.status).toBe('pending');
    expect(await deps.cookieEconomy.balance(m)).toBe(600);
    roles.fail = null;
    clock.advance(2 * 60_000);
    await deps.scheduler.runDue();
    expect(roles.has(GUILD, m, VIP)).toBe(true);
    expect((await deps.services.shop.purchases.finish('vip1')).state).toBe('done');
    expect(await booksProblems(deps)).toEqual([]);
  });

  it("GIVEN the buyer's role request failing after the purchase's timer gave the role THEN the buyer hears it was bought, and paid once", async () => {
    const { deps, roles } = await setUp();
    const [m] = MEMBERS as [string];
    await item(deps, { name: 'VIP', price: 400, role: VIP });
    const add = roles.add.bind(roles);
    let first = true;
    // The buyer's request to Discord fails; before its answer, the purchase's timer finishes the purchase.
    roles.add = async (guildId, userId, roleId) => {
      if (!first) return add(guildId, userId, roleId);
      first = false;
      expect((await deps.services.shop.purchases.finish('vip1')).state).toBe('done');
      throw new Error('The request to Discord failed with 500');
    };
    expect(await buy(deps, 'vip1', m, 'VIP')).toMatchObject({ status: 'done' });
    expect(roles.has(GUILD, m, VIP)).toBe(true);
    expect(await deps.cookieEconomy.balance(m)).toBe(600);
    expect(await booksProblems(deps)).toEqual([]);
  });
});

describe('what an item does', () => {
  beforeEach(() => clearDatabase(t.db));

  it('GIVEN a padlock THEN the next steal against its owner fails before the roll and the thief pays the fine; the one after rolls again', async () => {
    const { deps, clock } = await setUp();
    const [victim, thief] = MEMBERS as [string, string];
    await deps.runtimeConfig.set('cookies.steal_protection_h', '0', 'admin');
    await deps.runtimeConfig.set('cookies.steal_start_delay_h', '0', 'admin');
    await item(deps, { name: 'Padlock', price: 100, effect: 'padlock' });
    await buy(deps, 'lock', victim, 'Padlock');
    await deps.profiles.touch({ id: victim, name: 'victim' });
    await deps.services.collect.collect(thief, 'command');
    clock.advance(HOUR);
    const thiefBefore = await deps.cookieEconomy.balance(thief);
    const first = await deps.services.steal.steal({ opId: 's1', thief, victim });
    expect(first.status).toBe('locked');
    expect(first.status === 'locked' && first.fine).toBeGreaterThan(0);
    expect(await deps.cookieEconomy.balance(thief)).toBe(
      thiefBefore - (first.status === 'locked' ? first.fine : 0),
    );
    expect(await deps.services.shop.owned(victim)).toEqual([]);
    clock.advance(HOUR);
    const second = await deps.services.steal.steal({ opId: 's2', thief, victim });
    expect(second.status).not.toBe('locked');
  });

  it('GIVEN a streak shield THEN one missed day keeps the collect streak, using the shield; without one the streak starts again', async () => {
    const { deps, clock } = await setUp();
    const [withShield, without] = MEMBERS as [string, string];
    await item(deps, { name: 'Shield', price: 100, effect: 'streak_shield' });
    await buy(deps, 'shield', withShield, 'Shield');
    // Noon (UTC) of the next day: each collect below falls on a day of its own.
    clock.advanceTo(new Date(Math.ceil(clock.now().getTime() / (24 * HOUR)) * 24 * HOUR + 12 * HOUR));
    for (const m of [withShield, without]) await deps.services.collect.collect(m, 'command');
    clock.advance(24 * HOUR);
    for (const m of [withShield, without]) await deps.services.collect.collect(m, 'command');
    clock.advance(48 * HOUR);
    const kept = await inServer(GUILD, () => deps.services.collect.collect(withShield, 'command'));
    const lost = await deps.services.collect.collect(without, 'command');
    expect(kept.streak).toBe(3);
    expect(lost.streak).toBe(1);
    expect(await deps.services.shop.owned(withShield)).toEqual([]);
  });

  it('GIVEN an item sold back THEN the vault pays the set share of its price, once; a gift moves it to another member', async () => {
    const { deps } = await setUp();
    const [a, b] = MEMBERS as [string, string];
    await item(deps, { name: 'Ticket', price: 300, effect: 'custom' });
    await buy(deps, 't1', a, 'Ticket');
    await buy(deps, 't2', a, 'Ticket');
    const [first, second] = (await deps.services.shop.owned(a)).map((u) => ({ _id: u._id })) as [
      { _id: string },
      { _id: string },
    ];
    const sold = await Promise.all([
      deps.services.shop.sell({ opId: 'sell', owner: a, unitId: first._id, guildId: GUILD }),
      deps.services.shop.sell({ opId: 'sell', owner: a, unitId: first._id, guildId: GUILD }),
    ]);
    expect(sold.map((s) => s.amount)).toEqual([150, 150]);
    expect(await deps.cookieEconomy.balance(a)).toBe(1_000 - 600 + 150);
    await deps.services.shop.gift({ opId: 'gift', from: a, to: b, unitId: second._id });
    expect((await deps.services.shop.owned(b)).map((u) => u._id)).toEqual([second._id]);
    await expect(
      deps.services.shop.gift({ opId: 'again', from: a, to: b, unitId: second._id }),
    ).rejects.toMatchObject({
      code: 'ITEM_NOT_FREE',
    });
    expect(await booksProblems(deps)).toEqual([]);
  });
});
