import { z } from 'zod';
import type { Clock } from '../../src/clock.js';
import { featureDisabled, invalidInputText } from '../../src/errors.js';
import { RECOVERY_GRACE_MS } from '../../src/recoveryGrace.js';
import type { RuntimeConfig } from '../../src/runtimeConfig/runtimeConfig.js';
import { defineTask, type Scheduler, storedYet, type TaskHandler } from '../../src/scheduler/scheduler.js';
import { COOKIE_KINDS, type CookieEconomy } from '../money/cookieEconomy.js';
import type { Holds, ReserveRequest } from '../money/holds/holds.js';
import { insufficientFunds } from '../money/ledger/errors.js';
import { shopErrors } from './errors.js';
import type { InventoryStore } from './inventoryStore.js';
import { OPEN_HOLDS, settle, sweep } from './tradeEnds.js';
import {
  pairOf,
  type TradeChange,
  type TradeDoc,
  type TradeSide,
  type TradeSideName,
  type TradeStore,
} from './tradeStore.js';

declare module '../../src/features/services.js' {
  interface FeatureServices {
    trades: Trades;
  }
}

export interface TradesDeps {
  economy: CookieEconomy;
  holds: Holds;
  units: InventoryStore;
  trades: TradeStore;
  scheduler: Scheduler;
  runtimeConfig: RuntimeConfig;
  clock: Clock;
}

export const TRADE_EXPIRE_TASK = 'trade.expire';
/** A board lists every item on it: Discord shows one select of 25, and a side's list stays short. */
export const TRADE_MAX_ITEMS = 10;

/** What a Confirm press came to. */
export type Confirmed =
  | { status: 'confirmed' | 'settled' | 'ended'; trade: TradeDoc }
  /** The trade changed after the board the member pressed on: what changed since. */
  | { status: 'changed'; trade: TradeDoc; missed: TradeChange[] };

/**
 * Trades between two members of a server (ECONOMY.md, "The shop", "Trades"), in escrow: the
 * Cookies a side puts in wait in a hold the trade owns, its items are locked to the trade
 * (`InventoryStore.lock`), so nothing is in two trades, nor gifted, used or sold while in one.
 * Every change bumps the revision and clears both confirmations; a swap starts only with one
 * guarded update `open → settling` over the revision both confirmed, then posts each side's
 * hold to the other and hands each side's items over, and ends `settled`. Cancel and expiry
 * move `open → cancelled`: holds voided, items unlocked. `finish` takes a trade to its end
 * from wherever it stands, so a run interrupted at any step is completed by the trade's timer
 * or by its holds' own: both sides posted, or both voided.
 */
export class Trades {
  constructor(private readonly deps: TradesDeps) {
    deps.holds.own('trade', {
      onExpiry: async (hold) => {
        // A trade's holds outlive its end: one still open now is past it, and is called off.
        const trade = await deps.trades.get(hold.owner.id);
        if (!trade) return 'void';
        if (trade.state === 'open') await deps.trades.cancel(trade._id, deps.clock.now());
        await this.finish(trade._id);
        const after = await deps.holds.get(hold._id);
        return after && !OPEN_HOLDS.includes(after.state) ? 'handled' : 'void';
      },
    });
  }

  get(id: string): Promise<TradeDoc | null> {
    return this.deps.trades.get(id);
  }

  /** Opens a trade between `from` and `to` in a server; a refusal names why. */
  async open(open: {
    tradeId: string;
    guildId: string | null;
    from: string;
    to: string;
    locale: string;
  }): Promise<TradeDoc> {
    const guildId = open.guildId;
    if (!guildId) throw shopErrors.serverOnly();
    if (!(await this.deps.runtimeConfig.get('shop.trade_enabled', guildId)))
      throw featureDisabled('shop:trade.disabled', 'shop.trade_enabled');
    if (open.from === open.to) throw invalidInputText('a trade with oneself', 'shop:trade.errors.self');
    const earlier = await this.deps.trades.get(open.tradeId);
    if (earlier) return earlier;
    const minutes = await this.deps.runtimeConfig.get('shop.trade_open_min', guildId);
    const now = this.deps.clock.now();
    const trade: TradeDoc = {
      _id: open.tradeId,
      guildId,
      a: side(open.from),
      b: side(open.to),
      state: 'open',
      revision: 1,
      confirmed: { a: null, b: null },
      changes: [],
      openPair: pairOf(open.from, open.to),
      expiresAt: new Date(now.getTime() + minutes * 60_000),
      createdAt: now,
      locale: open.locale,
      channelId: null,
      messageId: null,
    };
    await this.deps.scheduler.schedule({
      id: `${TRADE_EXPIRE_TASK}:${trade._id}`,
      kind: TRADE_EXPIRE_TASK,
      dueAt: trade.expiresAt,
      payload: { tradeId: trade._id },
    });
    if (!(await this.deps.trades.open(trade))) {
      await this.deps.scheduler.cancel(`${TRADE_EXPIRE_TASK}:${trade._id}`).catch(() => false);
      throw invalidInputText('these two have a trade open', 'shop:trade.errors.alreadyOpen', {
        member: open.to,
      });
    }
    return trade;
  }

  /** The member's newest open trade in this server; a refusal when they have none. */
  async mine(userId: string, guildId: string | null): Promise<TradeDoc> {
    const trade = await this.deps.trades.newestOpen(userId, guildId);
    if (!trade) throw invalidInputText('no open trade', 'shop:trade.errors.noneOpen');
    return trade;
  }

  /**
   * Sets the Cookies the member's side puts in (0 takes them out): the old hold is voided,
   * a new one reserved. Refused, with the numbers, when they do not have them.
   */
  async setCookies(set: { tradeId: string; userId: string; amount: number }): Promise<TradeDoc> {
    const trade = await this.#openTrade(set.tradeId);
    const name = sideOf(trade, set.userId);
    const mine = trade[name];
    if (mine.cookies === set.amount) return trade;
    const balance = await this.deps.economy.balance(set.userId);
    if (balance + mine.cookies < set.amount)
      throw insufficientFunds('cookies', set.userId, balance + mine.cookies, set.amount);
    const n = mine.holdN + 1;
    const change: TradeChange = {
      revision: trade.revision + 1,
      by: set.userId,
      what: 'cookies',
      value: String(set.amount),
    };
    // First the side's Cookies out of the trade (a swap from now on finds none there), then back.
    const emptied = await this.deps.trades.change(
      trade._id,
      { [`${name}.holdN`]: mine.holdN },
      { [`${name}.cookies`]: 0, [`${name}.holdId`]: null, [`${name}.holdN`]: n },
      set.amount === 0 ? change : null,
    );
    if (!emptied) return this.#moved(trade._id);
    if (mine.holdId) await this.deps.holds.void(mine.holdId);
    if (set.amount === 0) return emptied;
    const request = this.#hold(emptied, name, n, set.amount);
    const held = await this.deps.holds.reserve(request);
    if (held.state !== 'held') return this.#moved(trade._id);
    const filled = await this.deps.trades.change(
      trade._id,
      { [`${name}.holdN`]: n },
      { [`${name}.cookies`]: set.amount, [`${name}.holdId`]: request.id },
      { ...change, revision: emptied.revision + 1 },
    );
    if (filled) return filled;
    // The trade ended (or moved on) while the Cookies were on their way in: they go back.
    await this.deps.holds.void(request.id);
    return this.#moved(trade._id);
  }

  /** Puts one of the member's free items into the trade. */
  async addItem(add: { tradeId: string; userId: string; unitId: string }): Promise<TradeDoc> {
    const trade = await this.#openTrade(add.tradeId);
    const name = sideOf(trade, add.userId);
    if (trade[name].units.some((u) => u.id === add.unitId)) return trade;
    if (trade[name].units.length >= TRADE_MAX_ITEMS)
      throw invalidInputText('too many items', 'shop:trade.errors.tooManyItems', { max: TRADE_MAX_ITEMS });
    // Each server has its own shop: what was bought in one is traded there.
    const wanted = await this.deps.units.get(add.unitId);
    if (wanted && wanted.owner === add.userId && wanted.guildId !== trade.guildId)
      throw invalidInputText('an item of another server', 'shop:trade.errors.otherServer', {
        name: wanted.name,
      });
    const locked = await this.deps.units.lock(add.unitId, add.userId, trade._id, this.deps.clock.now());
    if (!locked) {
      const unit = await this.deps.units.get(add.unitId);
      if (unit?.tradeId === trade._id && unit.owner === add.userId) return this.#openTrade(trade._id);
      throw shopErrors.notFree(
        unit?.name ?? add.unitId,
        unit?.owner === add.userId && unit.tradeId
          ? 'in_trade'
          : unit?.kind === 'role'
            ? 'role'
            : 'not_yours',
      );
    }
    const changed = await this.deps.trades.change(
      trade._id,
      {
        [`${name}.units.id`]: { $ne: locked._id },
        [`${name}.units.${TRADE_MAX_ITEMS - 1}`]: { $exists: false },
      },
      {},
      { revision: trade.revision + 1, by: add.userId, what: 'add', value: locked.name },
      { $push: { [`${name}.units`]: { id: locked._id, name: locked.name } } },
    );
    if (changed) return changed;
    await this.deps.units.unlock(trade._id, [locked._id]);
    return this.#moved(trade._id);
  }

  /** Takes one of the member's items out of the trade again. */
  async removeItem(remove: { tradeId: string; userId: string; unitId: string }): Promise<TradeDoc> {
    const trade = await this.#openTrade(remove.tradeId);
    const name = sideOf(trade, remove.userId);
    const unit = trade[name].units.find((u) => u.id === remove.unitId);
    if (!unit)
      throw invalidInputText('not in the trade', 'shop:trade.errors.notInTrade', { name: remove.unitId });
    const changed = await this.deps.trades.change(
      trade._id,
      { [`${name}.units.id`]: unit.id },
      {},
      { revision: trade.revision + 1, by: remove.userId, what: 'remove', value: unit.name },
      { $pull: { [`${name}.units`]: { id: unit.id } } },
    );
    if (!changed) return this.#moved(trade._id);
    await this.deps.units.unlock(trade._id, [unit.id]);
    return changed;
  }

  /**
   * Confirms the revision the member saw. When both sides confirmed it, the swap settles,
   * once, whoever pressed last or twice.
   */
  async confirm(press: { tradeId: string; userId: string; revision: number }): Promise<Confirmed> {
    let trade = await this.#trade(press.tradeId);
    const name = sideOf(trade, press.userId);
    // Past its time, a trade is called off, whatever its timer has done yet.
    if (trade.state === 'open' && this.#expired(trade)) trade = await this.finish(trade._id);
    if (trade.state !== 'open') return { status: ended(trade), trade: await this.finish(trade._id) };
    const confirmed = await this.deps.trades.confirm(trade._id, name, press.revision);
    if (!confirmed) {
      const now = await this.#trade(trade._id);
      if (now.state !== 'open') return { status: ended(now), trade: await this.finish(now._id) };
      return {
        status: 'changed',
        trade: now,
        missed: now.changes.filter((c) => c.revision > press.revision),
      };
    }
    if (confirmed.confirmed.a !== press.revision || confirmed.confirmed.b !== press.revision)
      return { status: 'confirmed', trade: confirmed };
    await this.deps.trades.startSettling(trade._id, press.revision);
    const after = await this.finish(trade._id);
    // Changed between the two updates: confirmed, and the change shows on the board.
    return { status: after.state === 'open' ? 'confirmed' : ended(after), trade: after };
  }

  /** Calls the trade off (either side); its Cookies go back and its items are free again. */
  async cancel(cancel: { tradeId: string; userId: string }): Promise<TradeDoc> {
    const trade = await this.#trade(cancel.tradeId);
    sideOf(trade, cancel.userId);
    await this.deps.trades.cancel(trade._id, this.deps.clock.now());
    return this.finish(trade._id);
  }

  /**
   * Takes a trade to its end from wherever it stands (the trade's timer, its holds' timers, a
   * press); safe to repeat and to race. An open trade is only ended once its time is up.
   */
  async finish(tradeId: string): Promise<TradeDoc> {
    let trade = await this.#trade(tradeId);
    if (trade.state === 'open' && this.#expired(trade))
      trade =
        (await this.deps.trades.cancel(trade._id, this.deps.clock.now())) ?? (await this.#trade(tradeId));
    if (trade.state === 'settling') trade = await settle(this.deps, trade);
    if (trade.state === 'cancelled') await sweep(this.deps, trade, []);
    if (trade.state === 'settled' || trade.state === 'cancelled')
      await this.deps.scheduler.cancel(`${TRADE_EXPIRE_TASK}:${tradeId}`).catch(() => false);
    return trade;
  }

  /** The trade's timer; `onEnded` tells its board how it ended. */
  tasks(onEnded: (trade: TradeDoc) => Promise<void>): TaskHandler[] {
    return [
      defineTask(TRADE_EXPIRE_TASK, z.object({ tradeId: z.string() }), async ({ tradeId }, task) => {
        const before = await this.deps.trades.get(tradeId);
        if (!before) {
          // Planned before the trade is stored: this throws until it is, or lets go of one never
          // stored (its process died, or the pair had one open).
          storedYet(task, false, `trade ${tradeId}`);
          return;
        }
        const ended = await this.finish(tradeId);
        if (before.state !== ended.state) await onEnded(ended);
      }),
    ];
  }

  async rememberMessage(trade: TradeDoc, channelId: string | null, messageId: string | null): Promise<void> {
    if (channelId && messageId && trade.messageId !== messageId)
      await this.deps.trades.setMessage(trade._id, channelId, messageId);
  }

  /**
   * What a member has in trades not yet ended, for the privacy feature: a member is not
   * forgotten while a swap could still pay them. Trades holding their Cookies are counted by
   * their holds.
   */
  async inPlay(userId: string): Promise<Record<string, number>> {
    return { trade: await this.deps.trades.countUnheld(userId) };
  }

  prune(before: Date): Promise<number> {
    return this.deps.trades.pruneEnded(before);
  }

  #hold(trade: TradeDoc, name: TradeSideName, n: number, amount: number): ReserveRequest {
    const userId = trade[name].userId;
    return {
      id: `trade:${trade._id}:${name}:${n}`,
      currency: 'cookies',
      from: userId,
      amount,
      kind: COOKIE_KINDS.tradeEscrow,
      returnKind: COOKIE_KINDS.tradeReturn,
      source: userId,
      reason: `trade ${trade._id}`,
      owner: { kind: 'trade', id: trade._id },
      // Past the trade's own end: its timer ends the trade first, and the hold's only if it could not.
      ttlMs: trade.expiresAt.getTime() - this.deps.clock.now().getTime() + RECOVERY_GRACE_MS,
    };
  }

  /** A change that found the trade moved on: ended (refused), or changed by the other side (try again). */
  async #moved(tradeId: string): Promise<never> {
    const now = await this.#trade(tradeId);
    if (now.state !== 'open') throw invalidInputText('the trade ended', `shop:trade.errors.${now.state}`);
    throw invalidInputText('the trade changed meanwhile', 'shop:trade.errors.busy');
  }

  async #openTrade(id: string): Promise<TradeDoc> {
    const trade = await this.#trade(id);
    if (trade.state !== 'open') throw invalidInputText('the trade ended', `shop:trade.errors.${trade.state}`);
    if (this.#expired(trade)) {
      await this.finish(id);
      throw invalidInputText('the trade ended', 'shop:trade.errors.cancelled');
    }
    return trade;
  }

  #expired(trade: TradeDoc): boolean {
    return trade.expiresAt.getTime() <= this.deps.clock.now().getTime();
  }

  async #trade(id: string): Promise<TradeDoc> {
    const trade = await this.deps.trades.get(id);
    if (!trade) throw invalidInputText('no such trade', 'shop:trade.errors.noneOpen');
    return trade;
  }
}

function side(userId: string): TradeSide {
  return { userId, cookies: 0, holdId: null, holdN: 0, units: [] };
}

/** Which side a member is on; a refusal for anyone else. */
export function sideOf(trade: TradeDoc, userId: string): TradeSideName {
  if (trade.a.userId === userId) return 'a';
  if (trade.b.userId === userId) return 'b';
  throw invalidInputText('not a side of the trade', 'shop:trade.errors.notYours', {
    a: trade.a.userId,
    b: trade.b.userId,
  });
}

function ended(trade: TradeDoc): 'settled' | 'ended' {
  return trade.state === 'settled' || trade.state === 'settling' ? 'settled' : 'ended';
}
