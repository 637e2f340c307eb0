import { legalActions, type PokerAction } from '../utils/poker/engine.js';
import { isPaused } from '../utils/poker/handEnd.js';
import { seatOf } from '../utils/poker/pokerService.js';
import type { TableDoc } from '../utils/poker/tableStore.js';
import type { Agent } from './agent.js';
import type { SimContext } from './simContext.js';

/** The run's one poker table: members sit down, play, get up, and an empty table closes. */
export class PokerTable {
  readonly #ctx: SimContext;
  #table: string | null = null;

  constructor(ctx: SimContext) {
    this.#ctx = ctx;
  }

  async sitDown(agent: Agent, balance: number): Promise<void> {
    const { deps, attempts } = this.#ctx;
    const { poker } = deps.services;
    if (!this.#table) {
      // Only a member who can afford a seat opens a table.
      if (balance * 0.2 < this.#ctx.settings.minBuyIn) return;
      const tableId = attempts.id('table');
      const created = await attempts.try('poker table', () =>
        poker.create({ tableId, hostId: agent.id, channelId: null, locale: 'en' }),
      );
      if (!created) return;
      this.#table = tableId;
    }
    const table = await poker.get(this.#table);
    if (!table || table.status === 'closed') {
      this.#table = null;
      return;
    }
    if (seatOf(table, agent.id) !== null) return;
    const buyIn = Math.min(table.maxBuyIn, Math.floor(balance * 0.2));
    if (buyIn < table.minBuyIn) return;
    const id = this.#table;
    await attempts.try('poker buy-in', () => poker.join(id, agent.id, buyIn));
  }

  /** The members to act at the table act (a simple, sound player); absent ones time out. */
  async play(active: Agent[]): Promise<void> {
    if (!this.#table) return;
    const { deps, attempts, rng } = this.#ctx;
    const { poker } = deps.services;
    const here = new Set(active.map((a) => a.id));
    // Each move answers the table as it is after it; it is read again only after a refusal.
    let table = await poker.get(this.#table);
    for (let moves = 0; moves < 60; moves++) {
      if (!table || table.status === 'closed') {
        this.#table = null;
        return;
      }
      const seated = table.game.seats.filter((s) => s && s.stack > 0).length;
      const hand = table.game.hand;
      let next: TableDoc | null;
      if (!hand || hand.street === 'done') {
        // The host deals the first hand; a member at a paused table deals the next.
        const present = table.game.seats.find((s) => s && here.has(s.userId))?.userId;
        const dealer = table.game.handsPlayed === 0 ? table.hostId : isPaused(table) ? present : undefined;
        if (seated < 2 || !dealer) return;
        const { _id } = table;
        next = await attempts.try('poker start', () => poker.start(_id, dealer));
      } else {
        if (hand.toAct === null) return;
        const seat = table.game.seats[hand.toAct];
        if (!seat || !here.has(seat.userId)) return;
        const legal = legalActions(table.game, hand.toAct);
        const roll = rng.int(0, 100);
        let action: PokerAction;
        if (legal.canCheck) {
          action = legal.canRaise && roll < 15 ? { type: 'raise', to: legal.minRaiseTo } : { type: 'check' };
        } else if (legal.toCall <= seat.stack * 0.25 || roll < 30) {
          action = { type: 'call' };
        } else {
          action = { type: 'fold' };
        }
        const { _id, step } = table;
        next = await attempts.try(`poker ${action.type}`, () => poker.act(_id, seat.userId, action, step));
      }
      table = next ?? (await poker.get(this.#table));
    }
  }

  /** Members whose session ended get up (cashing out); an empty table closes. */
  async leaveIfGone(active: Agent[]): Promise<void> {
    if (!this.#table) return;
    const { poker } = this.#ctx.deps.services;
    const table = await poker.get(this.#table);
    if (!table || table.status === 'closed') {
      this.#table = null;
      return;
    }
    const here = new Set(active.map((a) => a.id));
    for (const seat of table.game.seats) {
      if (seat && !here.has(seat.userId)) {
        const id = this.#table;
        await this.#ctx.attempts.try('poker leave', () => poker.leave(id, seat.userId));
      }
    }
    const after = await poker.get(this.#table);
    if (after && after.game.seats.filter((s) => s).length === 0) await this.close();
  }

  async close(): Promise<void> {
    if (!this.#table) return;
    const id = this.#table;
    this.#table = null;
    await this.#ctx.attempts.try('poker close', () => this.#ctx.deps.services.poker.close(id, null));
  }
}
