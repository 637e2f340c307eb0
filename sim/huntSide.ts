import type { Agent } from './agent.js';
import type { SimContext } from './simContext.js';
import { STEP_MS } from './time.js';

/** What a hunter plays against in a step: the open window and today's target. */
export interface HuntNow {
  window: { _id: string };
  target: number[];
}

/** The place/hunt side of a run: the hunt as the members see it, and the pixels they paint. */
export class HuntSide {
  readonly #ctx: SimContext;
  /** The hunt's open window (until it closes) and target (until the day ends). */
  #window: { _id: string; closesAt: Date } | null = null;
  #target: number[] | null = null;
  pixelsToday = 0;

  constructor(ctx: SimContext) {
    this.#ctx = ctx;
  }

  /** A new day's target is read when first hunted. */
  forgetTarget(): void {
    this.#target = null;
  }

  /** The operator draws a new task, as its `huntRerollEveryDays` says. */
  async reroll(): Promise<void> {
    const { hunt } = this.#ctx.deps.services;
    await this.#ctx.attempts.try('hunt reroll', async () => hunt.reroll((await hunt.task()).round));
    this.#window = null;
  }

  async now(now: number): Promise<HuntNow> {
    const { hunt } = this.#ctx.deps.services;
    if (!this.#window || this.#window.closesAt.getTime() <= now) this.#window = await hunt.currentWindow();
    this.#target ??= (await hunt.task()).target;
    return { window: this.#window, target: this.#target };
  }

  /** The member and its workers ping and tip; every few minutes it paints what its points buy. */
  async hunt(agent: Agent, hunt: HuntNow, now: number): Promise<void> {
    const { deps, attempts, rng } = this.#ctx;
    const { services } = deps;
    for (const identity of [agent.id, ...agent.workers]) {
      await attempts.try('hunt activity', () => services.hunt.activity(identity));
      if (agent.strategy === 'time_farmer' || agent.tipped.get(identity) === hunt.window._id) continue;
      // Skill pulls each guess towards the target: 1 guesses it, 0 guesses at random.
      const guess = hunt.target.map((t) => Math.round(t * agent.skill + rng.int(0, 100) * (1 - agent.skill)));
      const tipped = await attempts.try('hunt tip', () =>
        services.hunt.tip(identity, guess, rng.int(0, this.#ctx.settings.paths)),
      );
      if (tipped) agent.tipped.set(identity, hunt.window._id);
    }
    // Points are for pixels: every few minutes a hunter paints what its wallet buys.
    if ((now / STEP_MS) % 3 !== 0) return;
    const { place } = services;
    const cost = this.#ctx.settings.pixelCost;
    let wallet = (await place.wallet(agent.id)).balance;
    for (let n = 0; n < 10 && wallet >= cost; n++) {
      const placed = await attempts.try('place pixel', () =>
        place.place({
          opId: attempts.id('pixel'),
          userId: agent.id,
          x: rng.int(0, 64),
          y: rng.int(0, 64),
          color: rng.int(0, 32),
        }),
      );
      if (!placed) break;
      agent.pixels++;
      this.pixelsToday++;
      wallet -= cost;
    }
  }
}
