import type { Clock } from '../../src/clock.js';
import type { RuntimeConfig } from '../../src/runtimeConfig/runtimeConfig.js';
import { giveReceiveCap } from './errors.js';
import type { GiveCapStore } from './giveCapStore.js';

const DAY_MS = 86_400_000;

/** A give counted against its receiver's day: undone with `release` when its Cookies do not move. */
export interface CountedGive {
  release(): Promise<void>;
}

/**
 * The daily cap on what one member receives through gives (`cookies.give_receive_daily_max`,
 * 0: none), per UTC day. `check` refuses early when the prompt opens; `count` is the atomic
 * check-and-add right before the Cookies move.
 */
export class GiveCap {
  constructor(private readonly deps: { store: GiveCapStore; runtimeConfig: RuntimeConfig; clock: Clock }) {}

  /** Refuses (GIVE_RECEIVE_CAP, with the numbers) a give the receiver's day cannot take now. */
  async check(to: string, amount: number): Promise<void> {
    const cap = await this.deps.runtimeConfig.get('cookies.give_receive_daily_max');
    if (cap === 0) return;
    const { day, resetsAt } = this.#today();
    const received = await this.deps.store.received(to, day);
    if (received + amount > cap) throw giveReceiveCap(to, { received, cap, amount, resetsAt });
  }

  /** Counts the give against the receiver's day, or refuses it: two gives at once never both pass. */
  async count(give: { id: string; to: string; amount: number }): Promise<CountedGive> {
    const cap = await this.deps.runtimeConfig.get('cookies.give_receive_daily_max');
    if (cap === 0) return { release: async () => undefined };
    const { day, resetsAt } = this.#today();
    const { counted, before } = await this.deps.store.add(give.to, day, give, cap);
    if (!counted) throw giveReceiveCap(give.to, { received: before, cap, amount: give.amount, resetsAt });
    return { release: () => this.deps.store.remove(give.to, day, give) };
  }

  #today(): { day: string; resetsAt: number } {
    const now = this.deps.clock.now().getTime();
    const start = now - (now % DAY_MS);
    return { day: new Date(start).toISOString().slice(0, 10), resetsAt: start + DAY_MS };
  }
}
