import type { Agent } from './agent.js';
import type { SimContext } from './simContext.js';

/** The vault heists of a run: a member joins the open one, or starts one when none is open. */
export class Heists {
  readonly #ctx: SimContext;
  #open: { id: string; closesAt: number } | null = null;

  constructor(ctx: SimContext) {
    this.#ctx = ctx;
  }

  async take(agent: Agent, now: number, balance: number): Promise<void> {
    const { deps, attempts } = this.#ctx;
    const { vault } = deps.services;
    if (this.#open && now < this.#open.closesAt) {
      const id = this.#open.id;
      await attempts.try('heist join', () => vault.joinHeist(id, agent.id));
      return;
    }
    const stake = Math.max(this.#ctx.settings.heistMinStake, Math.floor(balance * 0.02));
    if (balance < stake) return;
    const heistId = attempts.id('heist');
    const started = await attempts.try('heist start', () =>
      vault.startHeist({ heistId, leader: agent.id, stake, locale: 'en' }),
    );
    if (started) this.#open = { id: heistId, closesAt: now + this.#ctx.settings.heistWindowMs };
  }
}
