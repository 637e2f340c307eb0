import { REST } from 'discord.js';
import type { Db } from 'mongodb';
import { discordRoles } from '../../src/discord/discordRoles.js';
import type { BotDeps } from '../../src/interactions/types.js';
import { seededRng } from '../../src/rng.js';
import type { MemberRoles } from '../../src/roles/memberRoles.js';
import { COOKIE_KINDS } from '../../utils/money/cookieEconomy.js';
import type { LedgerEventDoc } from '../../utils/money/ledger/documents.js';
import type { IncomeTerms } from '../../utils/shop/incomeStore.js';
import type { UnitDoc } from '../../utils/shop/inventoryStore.js';
import type { ItemFields, ShopItemDoc } from '../../utils/shop/itemStore.js';
import type { PurchaseDoc } from '../../utils/shop/purchaseStore.js';
import type { TradeDoc } from '../../utils/shop/tradeStore.js';
import { FakeDiscord, GUILD_ID } from './fakeDiscord.js';

/**
 * The shop's part of the games fault suite (gamesFaultRun.ts): roles given through the fake
 * Discord's REST, which the run turns between answering, failing and hanging while members buy;
 * a shelf with a role for a while, a role for good, a padlock and a server's own item; role
 * income on the roles members bought; and what the shop must show once a restarted bot
 * recovered: every purchase at its end, each member holding on Discord exactly the roles their
 * purchases give, every unit of the stock counted, each holder paid at most once a period,
 * every trade ended with nothing left locked to it.
 */

/** The hold kinds of the shop and its trades, for the suite's count of what ended owners still hold. */
export const SHOP_HOLD_KINDS = ['shop', 'shop.sale', 'trade'] as const;

/** How long a process waits for Discord's answer to one role change before the outcome is unknown. */
export const ROLES_TIMEOUT_MS = 300;

/** The shelf of one round, as the member processes find it. */
export interface ShopRound {
  guildId: string;
  /** Discord's REST, the fake's. */
  discordApi: string;
  /** A role held for an hour: its end falls due for the timekeeper at once. */
  timedRole: string;
  /** The round's role for good, two of it in stock. */
  keptRole: string;
  padlock: string;
  /** The round's own item: three in stock, one per member. */
  ticket: string;
}

/** Members' roles through a REST client alone, as a process without a gateway gives them. */
export function restRoles(
  discordApi: string,
  timeoutMs = ROLES_TIMEOUT_MS,
): { rest: REST; roles: MemberRoles } {
  const rest = new REST({ api: discordApi }).setToken('fake-token');
  return { rest, roles: discordRoles({ rest }, { timeoutMs }) };
}

/** How many of the rounds' roles pay an income at once. */
const INCOMES_KEPT = 4;
const ITEM: ItemFields = {
  name: '',
  description: '',
  price: 100,
  stockLeft: null,
  perMember: null,
  requiredRoleId: null,
  durationH: null,
};

/** The fake Discord's server with the suite's members in it and the shop's roles, and the shelf. */
export class ShopFaults {
  readonly discord = new FakeDiscord({ refusals: 'expected' });
  /** The stock each item was put on the shelf with, by id (items without a limit are not here). */
  readonly #stock = new Map<string, number>();
  /** Role ids of the role items, by item id. */
  readonly #roles = new Map<string, string>();
  /** Roles that pay an income now, oldest first. */
  readonly #incomes: string[] = [];
  #roleCount = 0;
  #persistent: { timedRole: string; padlock: string } | null = null;
  #round: ShopRound | null = null;

  constructor(
    private readonly members: readonly string[],
    private readonly actor: string,
  ) {}

  async start(): Promise<void> {
    await this.discord.start();
    for (const [i, id] of this.members.entries()) this.discord.addMember({ id, username: `member${i}` });
  }

  stop(): Promise<void> {
    return this.discord.stop();
  }

  /** Settings that let a steal reach a padlock at once, and the shelf's lasting items. */
  async setUp(deps: BotDeps): Promise<void> {
    for (const [key, value] of Object.entries({
      'cookies.steal_protection_h': '0',
      'cookies.steal_start_delay_h': '0',
      'cookies.steal_cooldown_s': '0',
    }))
      await deps.runtimeConfig.set(key, value, 'games-faults');
    const timed = await this.#add(deps, 'role', { name: 'Baker for an hour', price: 200, durationH: 1 });
    const padlock = await this.#add(deps, 'padlock', { name: 'Padlock', price: 150 });
    this.#persistent = { timedRole: timed._id, padlock: padlock._id };
  }

  /**
   * A new role for good and a new item of the round, each with a small stock; last round's leave
   * the shelf, and a moderator (at the machine's time, so its first period falls due for the
   * timekeeper) makes last round's role pay its holders each hour, ending the oldest income.
   */
  async openRound(deps: BotDeps, moderator: BotDeps, round: number): Promise<ShopRound> {
    if (!this.#persistent) throw new Error('the shop was not set up');
    const before = this.#round;
    if (before) {
      await deps.services.shop.removeItem({ guildId: GUILD_ID, item: before.keptRole });
      await deps.services.shop.removeItem({ guildId: GUILD_ID, item: before.ticket });
      const terms: IncomeTerms =
        round % 2 === 0 ? { kind: 'fixed', amount: 25 } : { kind: 'share', pct: 1, max: 300 };
      const roleId = this.#roles.get(before.keptRole) as string;
      await moderator.services.shop.setIncome({
        guildId: GUILD_ID,
        roleId,
        actorId: this.actor,
        terms,
        everyH: 1,
      });
      // A server keeps a few incomes (MAX_INCOMES): the oldest ends as a run goes on.
      this.#incomes.push(roleId);
      if (this.#incomes.length > INCOMES_KEPT)
        await moderator.services.shop.removeIncome(GUILD_ID, this.#incomes.shift() as string);
    }
    const kept = await this.#add(deps, 'role', { name: `Founder ${round}`, price: 500, stockLeft: 2 });
    const ticket = await this.#add(deps, 'custom', {
      name: `Ticket ${round}`,
      price: 120,
      stockLeft: 3,
      perMember: 1,
    });
    this.#round = {
      guildId: GUILD_ID,
      discordApi: this.discord.apiUrl,
      ...this.#persistent,
      keptRole: kept._id,
      ticket: ticket._id,
    };
    return this.#round;
  }

  async #add(deps: BotDeps, what: 'role' | 'padlock' | 'custom', fields: Partial<ItemFields>) {
    let roleId: string | null = null;
    if (what === 'role') {
      this.#roleCount += 1;
      roleId = `93${String(this.#roleCount).padStart(16, '0')}`;
      this.discord.addRole({ id: roleId, name: fields.name ?? roleId });
    }
    const item = await deps.services.shop.addItem({
      guildId: GUILD_ID,
      actorId: this.actor,
      kind: what === 'role' ? 'role' : 'item',
      effect: what === 'role' ? null : what,
      roleId,
      fields: { ...ITEM, ...fields },
    });
    if (item.stockLeft !== null) this.#stock.set(item._id, item.stockLeft);
    if (roleId) this.#roles.set(item._id, roleId);
    return item;
  }

  /**
   * Turns Discord's answers to role changes, at random (seeded), until `stop` resolves: answered,
   * 500s (landed or not), or no answer before the bot's deadline (landed or not).
   */
  async turnDiscord(seed: string, stop: Promise<unknown>): Promise<number> {
    const rng = seededRng(seed);
    let over = false;
    let turns = 0;
    void stop.finally(() => {
      over = true;
    });
    while (!over) {
      this.discord.restoreRoleRequests();
      const mode = rng.int(0, 10);
      const applied = rng.int(0, 2) === 0;
      if (mode >= 7) this.discord.holdRoleRequests({ applied });
      else if (mode >= 5) this.discord.failRoleRequests({ status: 500, applied });
      turns++;
      // How long each of Discord's moods lasts: a loop that runs until the round's processes end.
      await Promise.race([stop, new Promise((resolve) => setTimeout(resolve, 200 + rng.int(0, 400)))]);
    }
    this.discord.restoreRoleRequests();
    return turns;
  }

  /** What the shop must show once recovered; each problem named. */
  async problems(db: Db, now: Date): Promise<string[]> {
    const purchases = await db.collection<PurchaseDoc>('shop_purchases').find().toArray();
    const units = new Map(
      (await db.collection<UnitDoc>('shop_inventory').find().toArray()).map((u) => [u._id, u]),
    );
    const items = await db.collection<ShopItemDoc>('shop_items').find().toArray();
    return [
      ...purchases
        .filter((p) => p.state !== 'done' && p.state !== 'failed')
        .map((p) => `purchase ${p._id} of ${p.item.name} was left ${p.state}`),
      ...this.#roleProblems(purchases, units, now),
      ...items.flatMap((item) => this.#stockProblems(item, purchases)),
      ...(await this.#countProblems(db, purchases)),
      ...(await this.#incomeProblems(db)),
      ...[...units.values()]
        .filter((u) => u.state === 'selling')
        .map((u) => `unit ${u._id} (${u.name}) of ${u.owner} was left selling`),
      ...(await this.#tradeProblems(db, units)),
    ];
  }

  /** Each member holds on Discord exactly the roles a done purchase still in force gives them. */
  #roleProblems(purchases: PurchaseDoc[], units: Map<string, UnitDoc>, now: Date): string[] {
    const problems: string[] = [];
    const inForce = new Set<string>();
    for (const p of purchases) {
      if (p.state !== 'done' || !p.item.roleId) continue;
      const unit = units.get(p._id);
      if (unit?.state === 'owned') inForce.add(`${p.userId}:${p.item.roleId}`);
      if (unit?.state === 'owned' && p.roleUntil && p.roleUntil <= now)
        problems.push(
          `purchase ${p._id}: ${p.item.name} ran out at ${p.roleUntil.toISOString()}, yet is in force`,
        );
    }
    for (const member of this.members) {
      const held = new Set(this.discord.memberRoles(member));
      for (const role of this.#roles.values()) {
        const should = inForce.has(`${member}:${role}`);
        if (held.has(role) === should) continue;
        const about = purchases
          .filter((p) => p.userId === member && p.item.roleId === role)
          .map(
            (p) =>
              `${p._id} ${p.state}${p.failure ? ` (${p.failure})` : ''} unit ${units.get(p._id)?.state ?? 'none'}`,
          );
        problems.push(
          should
            ? `member ${member} lacks role ${role} on Discord, yet a purchase of it is in force: ${about.join(', ')}`
            : `member ${member} holds role ${role} on Discord, yet no purchase of it is in force: ${about.join(', ')}`,
        );
      }
    }
    return problems;
  }

  /** An item's stock left and its units sold add up to the stock it was put on the shelf with. */
  #stockProblems(item: ShopItemDoc, purchases: PurchaseDoc[]): string[] {
    const stock = this.#stock.get(item._id);
    if (stock === undefined) return [];
    const done = purchases.filter((p) => p.item._id === item._id && p.state === 'done');
    const failed = new Set(purchases.filter((p) => p.state === 'failed').map((p) => p._id));
    const problems: string[] = [];
    if ((item.stockLeft ?? 0) + done.length !== stock)
      problems.push(`${item.name}: ${item.stockLeft} left and ${done.length} sold of a stock of ${stock}`);
    if (item.claims.length !== done.length)
      problems.push(
        `${item.name}: ${item.claims.length} claims on the stock for ${done.length} done purchases`,
      );
    for (const id of item.claims.filter((c) => failed.has(c)))
      problems.push(`${item.name}: purchase ${id} was called off, yet claims a unit of the stock`);
    return problems;
  }

  /** Every trade ended (hours after its time ran out), and no unit is left locked to one. */
  async #tradeProblems(db: Db, units: Map<string, UnitDoc>): Promise<string[]> {
    const trades = await db.collection<TradeDoc>('shop_trades').find().toArray();
    return [
      ...trades
        .filter((t) => t.state !== 'settled' && t.state !== 'cancelled')
        .map((t) => `trade ${t._id} between ${t.a.userId} and ${t.b.userId} was left ${t.state}`),
      ...[...units.values()]
        .filter((u) => u.tradeId !== null)
        .map((u) => `unit ${u._id} (${u.name}) of ${u.owner} is still locked to trade ${u.tradeId}`),
    ];
  }

  /** A role pays each holder once a period: one payment per member, role and period. */
  async #incomeProblems(db: Db): Promise<string[]> {
    const payments = await db
      .collection<LedgerEventDoc>('ledger_events')
      .find({ kind: COOKIE_KINDS.roleIncome, account: { $in: [...this.members] } })
      .toArray();
    const paid = new Map<string, string[]>();
    for (const p of payments) {
      // The payment's id names the role's timer for the period, then the member.
      const period = /^shop\.income:\d+:(\d+):(\d+):/.exec(p.opId);
      const key = period
        ? `${p.account} for role ${period[1]}, period ${period[2]}`
        : `${p.account}: ${p.opId}`;
      paid.set(key, [...(paid.get(key) ?? []), `${p.delta} (${p.opId})`]);
    }
    return [...paid]
      .filter(([, each]) => each.length > 1)
      .map(([key, each]) => `role income paid ${each.length} times to ${key}: ${each.join(', ')}`);
  }

  /** Each member's count of an item with a limit is their done purchases of it. */
  async #countProblems(db: Db, purchases: PurchaseDoc[]): Promise<string[]> {
    const counts = await db
      .collection<{ _id: string; count: number; claims: string[] }>('shop_member_counts')
      .find()
      .toArray();
    return counts.flatMap((c) => {
      // A role's lock (`role:<guild>:<role>:<member>`): held only by a purchase of a role for a
      // while, until its end; never by one called off or one of a role for good.
      if (c._id.startsWith('role:')) {
        const stale = c.claims.filter((id) => {
          const p = purchases.find((x) => x._id === id);
          return !p || p.state === 'failed' || (p.state === 'done' && !p.roleUntil);
        });
        return c.count === c.claims.length && c.count <= 1 && stale.length === 0
          ? []
          : [`${c._id}: role lock counted ${c.count} with claims ${c.claims.join(', ')}`];
      }
      const done = purchases.filter((p) => p.state === 'done' && `${p.item._id}:${p.userId}` === c._id);
      return c.count === done.length && c.claims.length === done.length
        ? []
        : [`${c._id}: counted ${c.count} (${c.claims.length} claims) for ${done.length} done purchases`];
    });
  }
}
