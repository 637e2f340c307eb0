import { z } from 'zod';
import type { Clock } from '../../src/clock.js';
import { invalidInputText, isAppError } from '../../src/errors.js';
import { RECOVERY_GRACE_MS } from '../../src/recoveryGrace.js';
import { defineTask, type Scheduler, storedYet, type TaskHandler } from '../../src/scheduler/scheduler.js';
import { COOKIE_KINDS, type CookieEconomy } from '../money/cookieEconomy.js';
import type { Holds, ReserveRequest } from '../money/holds/holds.js';
import { EFFECTS } from './effects/registry.js';
import { shopErrors } from './errors.js';
import type { InventoryStore, UnitDoc } from './inventoryStore.js';

export interface InventoryDeps {
  economy: CookieEconomy;
  holds: Holds;
  units: InventoryStore;
  scheduler: Scheduler;
  clock: Clock;
}

export const SALE_TASK = 'shop.sale';

/**
 * What members do with what they bought (ECONOMY.md, "The shop"): use it, give it to another
 * member, or sell it back to the vault at the server's share of what they paid.
 *
 * A sale is decided on the unit first (`owned → selling`, with the sale's operation), then paid
 * through a hold out of the vault that a refusal (the vault at its reserve) ends for good, so the
 * seller's run, the sale's timer and the hold's own timer reach the same end: `sold` and paid,
 * or `owned` again and nothing moved.
 */
export class Inventory {
  constructor(private readonly deps: InventoryDeps) {
    // A sale's hold past its deadline: a sale decided on its unit is finished (paid, and the
    // unit sold); one never decided is returned to the vault.
    deps.holds.own('shop.sale', {
      onExpiry: async (hold) => {
        const unit = await deps.units.get(hold.owner.id);
        if (unit?.state !== 'selling' || hold._id !== saleHoldId(unit._id, unit.lastOp ?? '')) return 'void';
        await this.finishSale(unit._id);
        return 'handled';
      },
    });
  }

  owned(owner: string, guildId?: string | null): Promise<UnitDoc[]> {
    return this.deps.units.owned(owner, this.deps.clock.now(), guildId);
  }

  /**
   * Uses an item the member owns; one that acts by itself (a padlock) is refused with how it
   * acts. `fresh` is false for a repeat of the same use (a double press): it was used once.
   */
  async use(use: {
    opId: string;
    owner: string;
    unitId: string;
  }): Promise<{ unit: UnitDoc; fresh: boolean }> {
    const unit = await this.#mine(use.unitId, use.owner, use.opId);
    if (unit.state === 'used' && unit.lastOp === use.opId) return { unit, fresh: false };
    const effect = unit.effect ? EFFECTS[unit.effect] : null;
    if (!effect) throw shopErrors.notFree(unit.name, 'role');
    if (effect.acts === 'by_itself') throw shopErrors.actsByItself(unit.name, effect.name);
    const used = await this.deps.units.use(unit._id, use.owner, use.opId, this.deps.clock.now());
    if (used) return { unit: used, fresh: true };
    const now = await this.deps.units.get(unit._id);
    if (now?.state === 'used' && now.lastOp === use.opId) return { unit: now, fresh: false };
    return this.#refusedMove(unit._id, use.owner);
  }

  /** Gives a free item to another member. */
  async gift(gift: { opId: string; from: string; to: string; unitId: string }): Promise<UnitDoc> {
    if (gift.from === gift.to) throw invalidInputText('a gift to oneself', 'shop:errors.giftToSelf');
    const unit = await this.#mine(gift.unitId, gift.from, gift.opId);
    if (unit.owner === gift.to && unit.lastOp === gift.opId) return unit;
    if (unit.kind === 'role') throw shopErrors.notFree(unit.name, 'role');
    const moved = await this.deps.units.hand(unit._id, gift.from, gift.to, gift.opId, this.deps.clock.now());
    if (moved) return moved;
    const now = await this.deps.units.get(unit._id);
    if (now?.owner === gift.to && now.lastOp === gift.opId) return now;
    return this.#refusedMove(unit._id, gift.from);
  }

  /** Sells a free item back to the vault for `pct` % of what was paid (rounded down). */
  async sell(sale: {
    opId: string;
    owner: string;
    unitId: string;
    pct: number;
  }): Promise<{ unit: UnitDoc; amount: number }> {
    if (sale.pct <= 0) throw shopErrors.sellBackClosed();
    const unit = await this.#mine(sale.unitId, sale.owner, sale.opId);
    if (unit.lastOp !== sale.opId) {
      if (unit.kind === 'role') throw shopErrors.notFree(unit.name, 'role');
      const amount = Math.floor((unit.paid * sale.pct) / 100);
      await this.deps.scheduler.schedule({
        id: `${SALE_TASK}:${unit._id}:${sale.opId}`,
        kind: SALE_TASK,
        dueAt: new Date(this.deps.clock.now().getTime() + RECOVERY_GRACE_MS),
        payload: { unitId: unit._id, op: sale.opId },
      });
      const started = await this.deps.units.startSale(
        unit._id,
        sale.owner,
        amount,
        sale.opId,
        this.deps.clock.now(),
      );
      // A second press of the same sale found the first one under way: it finishes that one.
      if (!started && (await this.deps.units.get(unit._id))?.lastOp !== sale.opId)
        return { unit: await this.#refusedMove(unit._id, sale.owner), amount: 0 };
    }
    const ended = await this.finishSale(unit._id);
    if (!ended) throw shopErrors.notFree(unit.name, 'not_yours');
    if (ended.state !== 'sold')
      throw (await this.#vaultRefusal(ended)) ?? shopErrors.notFree(unit.name, 'not_yours');
    return { unit: ended, amount: ended.saleAmount ?? 0 };
  }

  /** Takes a sale to its end from wherever it stands (the seller, the sale's timer); safe to repeat. */
  async finishSale(unitId: string): Promise<UnitDoc | null> {
    const unit = await this.deps.units.get(unitId);
    if (unit?.state !== 'selling') return unit;
    const request = this.#saleHold(unit);
    try {
      const hold = await this.deps.holds.reserve(request);
      if (hold.state === 'held' || hold.state === 'posting' || hold.state === 'posted') {
        const posted = await this.deps.holds.post(request.id, [
          { to: unit.owner, amount: request.amount, kind: COOKIE_KINDS.shopSellBack },
        ]);
        if (posted.state === 'posted') await this.deps.units.endSale(unitId, 'sold', this.deps.clock.now());
        else await this.deps.units.endSale(unitId, 'owned', this.deps.clock.now());
      } else {
        await this.deps.units.endSale(unitId, 'owned', this.deps.clock.now());
      }
    } catch (error) {
      if (!isAppError(error, 'HOUSE_VAULT_INSUFFICIENT') && !isAppError(error, 'INSUFFICIENT_COOKIES'))
        throw error;
      await this.deps.units.endSale(unitId, 'owned', this.deps.clock.now());
    }
    return this.deps.units.get(unitId);
  }

  tasks(): TaskHandler[] {
    return [
      defineTask(
        SALE_TASK,
        z.object({ unitId: z.string(), op: z.string().optional() }),
        async ({ unitId, op }, task) => {
          // Planned before the sale is decided on its unit (a timer from before `op` was kept
          // has none: it finishes what it finds).
          const unit = await this.deps.units.get(unitId);
          if (op && !storedYet(task, unit?.lastOp === op, `sale ${op} of ${unitId}`)) return;
          await this.finishSale(unitId);
        },
      ),
    ];
  }

  #saleHold(unit: UnitDoc): ReserveRequest {
    return {
      id: saleHoldId(unit._id, unit.lastOp ?? ''),
      currency: 'cookies',
      from: this.deps.economy.house,
      amount: unit.saleAmount ?? 0,
      kind: COOKIE_KINDS.shopSellBack,
      source: unit.owner,
      reason: unit.name,
      owner: { kind: 'shop.sale', id: unit._id },
      ttlMs: RECOVERY_GRACE_MS,
    };
  }

  /** The vault's refusal of a sale that went back to `owned`, read from its hold. */
  async #vaultRefusal(unit: UnitDoc) {
    const hold = await this.deps.holds.get(saleHoldId(unit._id, unit.lastOp ?? ''));
    if (hold?.state !== 'refused') return null;
    const balance = await this.deps.economy.balance(this.deps.economy.house);
    return invalidInputText('the vault cannot buy it back now', 'shop:errors.vaultCannotBuyBack', {
      amount: hold.amount,
      balance,
    });
  }

  async #mine(unitId: string, owner: string, opId: string): Promise<UnitDoc> {
    const unit = await this.deps.units.get(unitId);
    if (!unit || (unit.owner !== owner && unit.lastOp !== opId))
      throw shopErrors.notFree(unit?.name ?? unitId, 'not_yours');
    return unit;
  }

  /** Why a guarded move found the unit not free: in a trade, someone else's, used up. */
  async #refusedMove(unitId: string, owner: string): Promise<never> {
    const now = await this.deps.units.get(unitId);
    if (now?.tradeId && now.owner === owner) throw shopErrors.notFree(now.name, 'in_trade');
    throw shopErrors.notFree(now?.name ?? unitId, now?.kind === 'role' ? 'role' : 'not_yours');
  }
}

/** One hold per attempt at a sale (a sale refused, then tried again, is a new hold). */
function saleHoldId(unitId: string, opId: string): string {
  return `shop:sale:${unitId}:${opId}`;
}
