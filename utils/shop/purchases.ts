import type { Clock } from '../../src/clock.js';
import { isAppError } from '../../src/errors.js';
import type { Logger } from '../../src/logger.js';
import { RECOVERY_GRACE_MS } from '../../src/recoveryGrace.js';
import { isRoleRefused, type MemberRoles } from '../../src/roles/memberRoles.js';
import type { Scheduler } from '../../src/scheduler/scheduler.js';
import { COOKIE_KINDS, type CookieEconomy } from '../money/cookieEconomy.js';
import type { HoldDoc, Holds, ReserveRequest } from '../money/holds/holds.js';
import type { InventoryStore, UnitDoc } from './inventoryStore.js';
import type { Claim, ItemStore } from './itemStore.js';
import type { PurchaseDoc, PurchaseFailure, PurchaseStore } from './purchaseStore.js';

export interface PurchasesDeps {
  economy: CookieEconomy;
  holds: Holds;
  items: ItemStore;
  units: InventoryStore;
  purchases: PurchaseStore;
  roles: MemberRoles;
  scheduler: Scheduler;
  clock: Clock;
  log: Logger;
}

export const PURCHASE_TASK = 'shop.purchase';
export const ROLE_END_TASK = 'shop.role_end';
/** A purchase's hold lives a day: Discord may be down for hours, and the role is asked for again until it answers. */
const HOLD_TTL_MS = 86_400_000;

/**
 * Buying one thing from a server's shop (ECONOMY.md, "The shop"): the price is reserved in a
 * hold, then the stock and the member's count are claimed and the role or item given, then the
 * hold is posted to the vault (or burned). A step that is refused voids the hold and returns
 * every claim; nothing is half-bought. `finish` runs the whole path from wherever the purchase
 * stands, so the buyer, the purchase's timer (due a minute later) and the hold's own timer all
 * finish it the same way; a role Discord did not answer for is asked for again, since giving
 * a role twice holds it once.
 */
export class Purchases {
  constructor(private readonly deps: PurchasesDeps) {
    deps.holds.own('shop', {
      onExpiry: async (hold) => {
        await this.finish(hold.owner.id);
        return 'handled';
      },
    });
  }

  /** Records the purchase and plans its timer, then finishes it. */
  async buy(purchase: PurchaseDoc): Promise<PurchaseDoc> {
    await this.deps.scheduler.schedule({
      id: `${PURCHASE_TASK}:${purchase._id}`,
      kind: PURCHASE_TASK,
      dueAt: new Date(this.deps.clock.now().getTime() + RECOVERY_GRACE_MS),
      payload: { purchaseId: purchase._id },
    });
    const opened = await this.deps.purchases.open(purchase);
    return this.finish(opened._id);
  }

  /** Whether the purchase is stored (its timer may run before it is). */
  async exists(id: string): Promise<boolean> {
    return (await this.deps.purchases.get(id)) !== null;
  }

  /** Takes the purchase to its end (`done` or `failed`) from wherever it stands; safe to repeat and to race. */
  async finish(id: string): Promise<PurchaseDoc> {
    let purchase = await this.#purchase(id);
    if (purchase.state === 'open') purchase = await this.#grant(purchase);
    if (purchase.state === 'granted') purchase = await this.#collect(purchase);
    if (purchase.state === 'failed') await this.#callOff(purchase);
    // A slower run of a purchase another run finished may have claimed the role's lock again:
    // it is returned here, unless the role is still in force. The purchase's timer runs even
    // once the purchase ended, for a slower run killed before it got here.
    if (purchase.state === 'done' && lockOver(purchase, this.deps.clock.now()))
      await this.#unlockRole(purchase);
    return purchase;
  }

  /** Takes back a role bought for a while, at its end (the role-end timer). */
  async endRole(purchaseId: string): Promise<void> {
    const purchase = await this.deps.purchases.get(purchaseId);
    if (!purchase?.item.roleId || purchase.state !== 'done') return;
    try {
      await this.deps.roles.remove(
        purchase.guildId,
        purchase.userId,
        purchase.item.roleId,
        purchase.reasons?.ended ?? `shop: ${purchase.item.name} ran out`,
      );
    } catch (error) {
      // Gone already (the member left, the role was deleted): nothing to take back.
      if (!isRoleRefused(error) || !['unknown_member', 'unknown_role'].includes(error.reason)) throw error;
    }
    await this.deps.units.expire(purchaseId, this.deps.clock.now());
    await this.#unlockRole(purchase);
  }

  hold(purchase: PurchaseDoc): ReserveRequest {
    return {
      id: `shop:${purchase._id}`,
      currency: 'cookies',
      from: purchase.userId,
      amount: purchase.item.price,
      kind: COOKIE_KINDS.shopPurchase,
      returnKind: COOKIE_KINDS.shopRefund,
      source: purchase.userId,
      reason: purchase.item.name,
      owner: { kind: 'shop', id: purchase._id },
      ttlMs: HOLD_TTL_MS,
    };
  }

  async #grant(purchase: PurchaseDoc): Promise<PurchaseDoc> {
    let hold: HoldDoc;
    try {
      hold = await this.deps.holds.reserve(this.hold(purchase));
    } catch (error) {
      if (!isAppError(error, 'INSUFFICIENT_COOKIES')) throw error;
      return this.#fail(purchase, 'not_enough');
    }
    // Refused on an earlier run (its answer told the member), or voided by its timer: called off.
    if (hold.state === 'refused') return this.#fail(purchase, 'not_enough');
    if (hold.state === 'voided' || hold.state === 'voiding') return this.#fail(purchase, 'late');
    const claimed = await this.#claim(purchase);
    if (claimed !== null) return this.#fail(purchase, claimed);
    try {
      await this.#give(purchase);
    } catch (error) {
      if (!isRoleRefused(error)) throw error;
      const failed = await this.#fail(purchase, error.reason);
      // An earlier request Discord did not answer may have given the role after all.
      if (failed.state === 'failed') await this.#undoGive(purchase);
      return failed;
    }
    const now = this.deps.clock.now();
    const roleUntil =
      purchase.item.kind === 'role' && purchase.item.durationH !== null
        ? new Date(now.getTime() + purchase.item.durationH * 3_600_000)
        : null;
    const moved = await this.deps.purchases.move(purchase._id, 'open', { state: 'granted', roleUntil });
    // Another run called it off meanwhile (Discord refused it the role): what this run gave goes back.
    if (moved?.state === 'failed') await this.#undoGive(purchase);
    return moved ?? purchase;
  }

  /** The stock and the member's count, each claimed once for this purchase; the refusal, or null. */
  async #claim(purchase: PurchaseDoc): Promise<PurchaseFailure | null> {
    const item = await this.deps.items.get(purchase.item._id);
    if (!item) return 'gone';
    const stock = await this.deps.items.claimStock(item, purchase._id);
    if (stock !== 'claimed') return stock;
    const limit = purchase.item.perMember;
    if (limit !== null) {
      const mine = await this.#claimForMember(item._id, purchase, limit, calledOff);
      if (mine !== 'claimed') return mine;
    }
    // One purchase of a role per member at a time: two Buys pressed at once, before either gave
    // the role, would both pass the check of the member's roles and both be paid for.
    const lock = roleLock(purchase);
    if (lock === null) return null;
    const now = this.deps.clock.now();
    const held = await this.#claimForMember(lock, purchase, 1, (p) => lockOver(p, now));
    return held === 'claimed' ? null : 'role_held';
  }

  /**
   * Claims the member's count of `itemId` within `limit`. Refused, it first returns the claims
   * of purchases `over` and tries once more: a run of a purchase another run had already ended
   * may have claimed again, then stopped (its process killed) before returning it.
   */
  async #claimForMember(
    itemId: string,
    purchase: PurchaseDoc,
    limit: number,
    over: (claimant: PurchaseDoc | undefined) => boolean,
  ): Promise<Claim> {
    const { userId } = purchase;
    const claimed = await this.deps.items.claimForMember(itemId, userId, limit, purchase._id);
    if (claimed !== 'limit_reached' || (await this.#returnEnded(itemId, userId, over)) === 0) return claimed;
    return this.deps.items.claimForMember(itemId, userId, limit, purchase._id);
  }

  /**
   * Whether the member has bought `limit` of the item, purchases in flight included; at the
   * limit, claims of purchases called off are returned first and the count read again.
   */
  async reachedLimit(itemId: string, member: string, limit: number): Promise<boolean> {
    if ((await this.deps.items.boughtBy(itemId, member)) < limit) return false;
    if ((await this.#returnEnded(itemId, member, calledOff)) === 0) return true;
    return (await this.deps.items.boughtBy(itemId, member)) >= limit;
  }

  /** Returns the member's claims of `itemId` held by purchases `over`; how many went. */
  async #returnEnded(
    itemId: string,
    member: string,
    over: (claimant: PurchaseDoc | undefined) => boolean,
  ): Promise<number> {
    const claims = await this.deps.items.memberClaims(itemId, member);
    if (claims.length === 0) return 0;
    const stored = new Map((await this.deps.purchases.among(claims)).map((p) => [p._id, p]));
    const ended = claims.filter((id) => over(stored.get(id)));
    for (const id of ended) await this.deps.items.releaseForMember(itemId, member, id);
    return ended.length;
  }

  async #give(purchase: PurchaseDoc): Promise<void> {
    const { item } = purchase;
    if (item.kind === 'role' && item.roleId) {
      await this.deps.roles.add(
        purchase.guildId,
        purchase.userId,
        item.roleId,
        purchase.reasons?.given ?? `shop: bought ${item.name}`,
      );
    }
    await this.deps.units.give(this.#unit(purchase));
  }

  async #undoGive(purchase: PurchaseDoc): Promise<void> {
    const { item } = purchase;
    await this.deps.units.takeBack(purchase._id);
    if (item.kind === 'role' && item.roleId)
      await this.deps.roles
        .remove(
          purchase.guildId,
          purchase.userId,
          item.roleId,
          purchase.reasons?.calledOff ?? `shop: ${item.name} called off`,
        )
        .catch((error: unknown) =>
          this.deps.log.warn(
            { event: 'shop.role_undo_failed', purchase: purchase._id, err: error },
            'a role given by a purchase that was called off could not be taken back',
          ),
        );
  }

  #unit(purchase: PurchaseDoc): UnitDoc {
    const { item } = purchase;
    const now = this.deps.clock.now();
    const expiresAt =
      item.kind === 'item' && item.durationH !== null
        ? new Date(now.getTime() + item.durationH * 3_600_000)
        : null;
    return {
      _id: purchase._id,
      guildId: purchase.guildId,
      owner: purchase.userId,
      itemId: item._id,
      name: item.name,
      kind: item.kind,
      effect: item.effect,
      roleId: item.roleId,
      paid: item.price,
      state: 'owned',
      tradeId: null,
      lastOp: null,
      acquiredAt: now,
      expiresAt,
    };
  }

  /** Given: the price goes to the vault (or is burned), the role's end is planned. */
  async #collect(purchase: PurchaseDoc): Promise<PurchaseDoc> {
    const holdId = `shop:${purchase._id}`;
    await this.deps.holds.post(holdId, [
      {
        to: purchase.toVault ? this.deps.economy.house : null,
        amount: purchase.item.price,
        kind: COOKIE_KINDS.shopPurchase,
      },
    ]);
    // A role for good is the member's once given: its lock goes now. One for a while keeps it
    // until its end, so it is not bought again while it is held.
    if (!purchase.roleUntil) await this.#unlockRole(purchase);
    if (purchase.roleUntil)
      await this.deps.scheduler.schedule({
        id: `${ROLE_END_TASK}:${purchase._id}`,
        kind: ROLE_END_TASK,
        dueAt: purchase.roleUntil,
        payload: { purchaseId: purchase._id },
      });
    return (
      (await this.deps.purchases.move(purchase._id, 'granted', {
        state: 'done',
        endedAt: this.deps.clock.now(),
      })) ?? purchase
    );
  }

  async #fail(purchase: PurchaseDoc, failure: PurchaseFailure): Promise<PurchaseDoc> {
    return (
      (await this.deps.purchases.move(purchase._id, 'open', {
        state: 'failed',
        failure,
        endedAt: this.deps.clock.now(),
      })) ?? purchase
    );
  }

  /**
   * A purchase called off: the price back, every claim returned (each once). Run by every run
   * that ends on a called-off purchase, after its own claims: a claim a slower run made after
   * another run returned them is returned by the slower run itself.
   */
  async #callOff(purchase: PurchaseDoc): Promise<void> {
    const hold = await this.deps.holds.get(`shop:${purchase._id}`);
    if (hold && hold.state !== 'refused') await this.deps.holds.void(hold._id);
    else if (!hold) await this.deps.holds.cancel(this.hold(purchase));
    await this.deps.items.releaseStock(purchase.item._id, purchase._id);
    await this.deps.items.releaseForMember(purchase.item._id, purchase.userId, purchase._id);
    await this.#unlockRole(purchase);
  }

  /** The role's lock goes once the purchase is over: called off, or its role's time is up. */
  async #unlockRole(purchase: PurchaseDoc): Promise<void> {
    const lock = roleLock(purchase);
    if (lock !== null) await this.deps.items.releaseForMember(lock, purchase.userId, purchase._id);
  }

  async #purchase(id: string): Promise<PurchaseDoc> {
    const purchase = await this.deps.purchases.get(id);
    if (!purchase) throw new Error(`no purchase ${id}`);
    return purchase;
  }
}

/** Whether a purchase was called off (its claims are then returned). */
function calledOff(purchase: PurchaseDoc | undefined): boolean {
  return purchase?.state === 'failed';
}

/**
 * Whether a purchase no longer holds its role's lock: called off, or done with its role given
 * for good or its time up (or removed by retention, long after it ended).
 */
function lockOver(purchase: PurchaseDoc | undefined, now: Date): boolean {
  if (!purchase || calledOff(purchase)) return true;
  return purchase.state === 'done' && (!purchase.roleUntil || purchase.roleUntil <= now);
}

/** The claim that keeps one purchase of a role per member at a time (null: not a role). */
function roleLock(purchase: PurchaseDoc): string | null {
  const { item } = purchase;
  return item.kind === 'role' && item.roleId ? `role:${purchase.guildId}:${item.roleId}` : null;
}
