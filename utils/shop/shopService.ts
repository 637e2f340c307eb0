import { z } from 'zod';
import type { Clock } from '../../src/clock.js';
import { featureDisabled, invalidInputText } from '../../src/errors.js';
import type { Hooks } from '../../src/features/hooks.js';
import type { Rng } from '../../src/rng.js';
import type { RuntimeConfig } from '../../src/runtimeConfig/runtimeConfig.js';
import { defineTask, storedYet, type TaskHandler } from '../../src/scheduler/scheduler.js';
import '../cookies/protections.js';
import { insufficientFunds } from '../money/ledger/errors.js';
import { EFFECTS, type EffectName } from './effects/registry.js';
import { shopErrors } from './errors.js';
import { Inventory, type InventoryDeps } from './inventory.js';
import type { InventoryStore } from './inventoryStore.js';
import {
  type ItemFields,
  type ItemKind,
  type ItemStore,
  MAX_PER_MEMBER,
  MAX_STOCK,
  type ShopItemDoc,
} from './itemStore.js';
import type { PurchaseDoc, PurchaseStore } from './purchaseStore.js';
import { PURCHASE_TASK, Purchases, type PurchasesDeps, ROLE_END_TASK } from './purchases.js';
import { type Barred, RoleIncome, type RoleIncomeDeps } from './roleIncome.js';

declare module '../../src/features/services.js' {
  interface FeatureServices {
    shop: ShopService;
  }
}

export interface ShopDeps extends PurchasesDeps, InventoryDeps, RoleIncomeDeps {
  items: ItemStore;
  units: InventoryStore;
  purchases: PurchaseStore;
  runtimeConfig: RuntimeConfig;
  featureHooks: Hooks;
  clock: Clock;
  rng: Rng;
}

/** What a moderator may set on an item, each within its bounds (a refusal names the field and its bounds). */
const FIELD_BOUNDS = {
  price: [1, 1_000_000_000_000],
  stockLeft: [0, MAX_STOCK],
  perMember: [1, MAX_PER_MEMBER],
  durationH: [1, 24 * 365],
} as const;
const NAME_MAX = 40;
const DESCRIPTION_MAX = 200;

/** The outcome of a purchase as the buyer hears it. */
export type Bought =
  | { status: 'done'; purchase: PurchaseDoc }
  /** Discord did not answer for the role yet: the purchase's timer finishes it (given, or refunded). */
  | { status: 'pending'; purchase: PurchaseDoc };

/**
 * Each server's shop (ECONOMY.md, "The shop"): the shelf moderators keep, purchases on holds
 * (purchases.ts), and what members do with what they own (inventory.ts). The effects an item
 * may have are a registry (effects/registry.ts); each hooks itself into the flow it changes.
 */
export class ShopService {
  readonly purchases: Purchases;
  readonly inventory: Inventory;
  readonly income: RoleIncome;

  constructor(private readonly deps: ShopDeps) {
    this.purchases = new Purchases(deps);
    this.inventory = new Inventory(deps);
    this.income = new RoleIncome(deps);
    for (const effect of Object.values(EFFECTS)) effect.install?.(deps.featureHooks, deps.units, deps.clock);
    deps.featureHooks.add('cookies.belongings', { of: (member) => this.#belongings(member) });
  }

  /** What a member owns from the shops, by name, most first (their profile shows it). */
  async #belongings(member: string): Promise<{ name: string; count: number }[]> {
    const counts = new Map<string, number>();
    for (const unit of await this.owned(member)) counts.set(unit.name, (counts.get(unit.name) ?? 0) + 1);
    return [...counts].map(([name, count]) => ({ name, count })).sort((a, b) => b.count - a.count);
  }

  async #open(guildId: string | null): Promise<string> {
    if (!guildId) throw shopErrors.serverOnly();
    if (!(await this.deps.runtimeConfig.get('shop.enabled', guildId)))
      throw featureDisabled('shop:errors.shopDisabled', 'shop.enabled');
    return guildId;
  }

  async shelf(guildId: string | null): Promise<ShopItemDoc[]> {
    return this.deps.items.shelf(await this.#open(guildId));
  }

  /** An item on the server's shelf by its id or its name. */
  async find(guildId: string | null, idOrName: string): Promise<ShopItemDoc> {
    const server = await this.#open(guildId);
    const byId = await this.deps.items.get(idOrName);
    const item =
      byId?.guildId === server && byId.active ? byId : await this.deps.items.byName(server, idOrName);
    if (!item) throw shopErrors.unknownItem(idOrName);
    return item;
  }

  /**
   * A moderator puts a new item on the shelf. An `id` the caller derives from its request (the
   * portal's Idempotency-Key) makes a retry answer the item it already added, not a second one.
   */
  async addItem(add: {
    id?: string;
    guildId: string | null;
    actorId: string;
    kind: ItemKind;
    effect: EffectName | null;
    roleId: string | null;
    fields: ItemFields;
  }): Promise<ShopItemDoc> {
    const guildId = await this.#open(add.guildId);
    const earlier = await this.#added(add.id, guildId, add.actorId);
    if (earlier) return earlier;
    const fields = checkFields(add.fields);
    if (add.kind === 'role' && !add.roleId)
      throw invalidInputText('a role item names its role', 'shop:errors.roleMissing');
    const max = await this.deps.runtimeConfig.get('shop.max_items', guildId);
    if ((await this.deps.items.countOnShelf(guildId)) >= max) throw shopErrors.full(max);
    const now = this.deps.clock.now();
    const item: ShopItemDoc = {
      _id: add.id ?? `it${this.deps.rng.uuid().replaceAll('-', '').slice(0, 10)}`,
      guildId,
      ...fields,
      nameKey: fields.name.toLowerCase(),
      kind: add.kind,
      effect: add.kind === 'item' ? (add.effect ?? 'custom') : null,
      roleId: add.kind === 'role' ? add.roleId : null,
      claims: [],
      active: true,
      createdBy: add.actorId,
      createdAt: now,
      updatedAt: now,
    };
    if (await this.deps.items.add(item)) return item;
    // The same request, sent twice at once, added it on the other path.
    const raced = await this.#added(add.id, guildId, add.actorId);
    if (raced) return raced;
    throw shopErrors.nameTaken(fields.name);
  }

  /** The item an earlier attempt of the same request added, if any. */
  async #added(id: string | undefined, guildId: string, actorId: string): Promise<ShopItemDoc | null> {
    const item = id ? await this.deps.items.get(id) : null;
    return item?.guildId === guildId && item.createdBy === actorId ? item : null;
  }

  /** A moderator changes an item: what is not given stays. */
  async editItem(edit: {
    guildId: string | null;
    item: string;
    fields: Partial<ItemFields>;
  }): Promise<ShopItemDoc> {
    const item = await this.find(edit.guildId, edit.item);
    const fields = checkFields({ ...pickFields(item), ...edit.fields });
    if (fields.name.toLowerCase() !== item.nameKey) {
      const other = await this.deps.items.byName(item.guildId, fields.name);
      if (other && other._id !== item._id) throw shopErrors.nameTaken(fields.name);
    }
    const changed = await this.deps.items.edit(item._id, pickChanged(item, fields), this.deps.clock.now());
    if (!changed) throw shopErrors.unknownItem(edit.item);
    return changed;
  }

  /** A moderator takes an item off the shelf; what members bought stays theirs. */
  async removeItem(remove: { guildId: string | null; item: string }): Promise<ShopItemDoc> {
    const item = await this.find(remove.guildId, remove.item);
    if (!(await this.deps.items.remove(item._id, this.deps.clock.now())))
      throw shopErrors.unknownItem(remove.item);
    return item;
  }

  /**
   * Buys one of an item. `opId` is the interaction's: a double press buys once. `roleIds` are
   * the buyer's roles as Discord sent them (the item's required role; a role already held).
   * A refusal throws, with the numbers that matter; nothing moved.
   */
  async buy(buy: {
    opId: string;
    guildId: string | null;
    userId: string;
    item: string;
    roleIds: readonly string[];
    /** What Discord's audit log says of the role's changes, in the server's language. */
    reasons?: PurchaseDoc['reasons'];
  }): Promise<Bought> {
    // A second press of the same Buy finishes (or tells) the first purchase: nothing is bought twice.
    const earlier = await this.deps.purchases.get(buy.opId);
    if (earlier) return this.#outcome(await this.purchases.finish(earlier._id).catch(() => earlier));
    const item = await this.find(buy.guildId, buy.item);
    if (item.requiredRoleId && !buy.roleIds.includes(item.requiredRoleId))
      throw shopErrors.roleRequired(item.name, item.requiredRoleId);
    if (item.kind === 'role' && item.roleId && buy.roleIds.includes(item.roleId))
      throw shopErrors.roleHeld(item.name, item.roleId);
    if (item.stockLeft === 0) throw shopErrors.soldOut(item.name);
    if (item.perMember !== null && (await this.purchases.reachedLimit(item._id, buy.userId, item.perMember)))
      throw shopErrors.limitReached(item.name, item.perMember);
    const balance = await this.deps.economy.balance(buy.userId);
    if (balance < item.price) throw insufficientFunds('cookies', buy.userId, balance, item.price);
    const purchase = await this.purchases
      .buy({
        _id: `${buy.opId}`,
        guildId: item.guildId,
        userId: buy.userId,
        item: {
          _id: item._id,
          name: item.name,
          kind: item.kind,
          effect: item.effect,
          roleId: item.roleId,
          durationH: item.durationH,
          price: item.price,
          perMember: item.perMember,
        },
        state: 'open',
        toVault: await this.deps.runtimeConfig.get('shop.sales_to_vault', item.guildId),
        createdAt: this.deps.clock.now(),
        ...(buy.reasons ? { reasons: buy.reasons } : {}),
      })
      .catch(async (error: unknown) => {
        // Discord did not answer for the role: the purchase's timer asks again. Another run (the
        // timer, a second press) may have ended it meanwhile: the buyer hears how it ended.
        const now = await this.deps.purchases.get(buy.opId);
        if (now) return now;
        throw error;
      });
    return this.#outcome(purchase);
  }

  async #outcome(purchase: PurchaseDoc): Promise<Bought> {
    if (purchase.state === 'failed') throw await this.#refusal(purchase);
    return purchase.state === 'done' ? { status: 'done', purchase } : { status: 'pending', purchase };
  }

  /** What a member owns (in one server when named). */
  owned(owner: string, guildId?: string | null) {
    return this.inventory.owned(owner, guildId);
  }

  use(use: { opId: string; owner: string; unitId: string }) {
    return this.inventory.use(use);
  }

  gift(gift: { opId: string; from: string; to: string; unitId: string }) {
    return this.inventory.gift(gift);
  }

  async sell(sale: { opId: string; owner: string; unitId: string; guildId: string | null }) {
    const pct = await this.deps.runtimeConfig.get('shop.sell_back_pct', sale.guildId ?? undefined);
    return this.inventory.sell({ ...sale, pct });
  }

  /** A moderator sets what a role pays in their server (roleIncome.ts). */
  async setIncome(set: Omit<Parameters<RoleIncome['set']>[0], 'guildId'> & { guildId: string | null }) {
    return this.income.set({ ...set, guildId: await this.#open(set.guildId) });
  }

  async removeIncome(guildId: string | null, roleId: string) {
    return this.income.remove(await this.#open(guildId), roleId);
  }

  async incomes(guildId: string | null) {
    return this.income.list(await this.#open(guildId));
  }

  /** `barred`: the members role income does not pay (the moderation and privacy features' word). */
  tasks(barred: Barred): TaskHandler[] {
    return [
      this.income.task(barred),
      defineTask(PURCHASE_TASK, z.object({ purchaseId: z.string() }), async ({ purchaseId }, task) => {
        // Planned before the purchase is stored; one whose process died first was never made.
        if (!storedYet(task, await this.purchases.exists(purchaseId), `purchase ${purchaseId}`)) return;
        await this.purchases.finish(purchaseId);
      }),
      defineTask(ROLE_END_TASK, z.object({ purchaseId: z.string() }), async ({ purchaseId }) => {
        await this.purchases.endRole(purchaseId);
      }),
      ...this.inventory.tasks(),
    ];
  }

  /** Ended purchases and used, sold or expired items older than `before` (the ledger keeps what was paid). */
  async prune(before: Date): Promise<{ purchases: number; items: number }> {
    return {
      purchases: await this.deps.purchases.pruneEnded(before),
      items: await this.deps.units.pruneEnded(before),
    };
  }

  async #refusal(purchase: PurchaseDoc) {
    const { item } = purchase;
    switch (purchase.failure) {
      case 'not_enough':
      case undefined: {
        const balance = await this.deps.economy.balance(purchase.userId);
        return insufficientFunds('cookies', purchase.userId, balance, item.price);
      }
      case 'none_left':
        return shopErrors.soldOut(item.name);
      case 'role_held':
        return shopErrors.roleHeld(item.name, item.roleId ?? '');
      case 'limit_reached':
        return shopErrors.limitReached(item.name, item.perMember ?? 0);
      case 'gone':
      case 'late':
        return shopErrors.unknownItem(item.name);
      default:
        return shopErrors.roleRefused(purchase.failure, item.roleId ?? '');
    }
  }
}

function pickFields(item: ShopItemDoc): ItemFields {
  const { name, description, price, stockLeft, perMember, requiredRoleId, durationH } = item;
  return { name, description, price, stockLeft, perMember, requiredRoleId, durationH };
}

function pickChanged(item: ShopItemDoc, fields: ItemFields): Partial<ItemFields> {
  const before = pickFields(item);
  return Object.fromEntries(
    Object.entries(fields).filter(([key, value]) => before[key as keyof ItemFields] !== value),
  ) as Partial<ItemFields>;
}

/** The fields as stored, or a refusal naming the first out of bounds. */
function checkFields(fields: ItemFields): ItemFields {
  const name = fields.name.trim();
  if (name.length < 1 || name.length > NAME_MAX)
    throw invalidInputText('item name length', 'shop:errors.nameLength', {
      max: NAME_MAX,
      length: name.length,
    });
  const description = fields.description.trim();
  if (description.length > DESCRIPTION_MAX)
    throw invalidInputText('description length', 'shop:errors.descriptionLength', {
      max: DESCRIPTION_MAX,
      length: description.length,
    });
  for (const [field, [min, max]] of Object.entries(FIELD_BOUNDS)) {
    const value = fields[field as keyof typeof FIELD_BOUNDS];
    if (value !== null && (!Number.isSafeInteger(value) || value < min || value > max))
      throw invalidInputText(`${field} out of bounds`, `shop:errors.outOfBounds.${field}`, {
        value: String(value),
        min,
        max,
      });
  }
  return { ...fields, name, description };
}
