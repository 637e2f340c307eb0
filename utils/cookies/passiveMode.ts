import type { Clock } from '../../src/clock.js';
import type { RuntimeConfig } from '../../src/runtimeConfig/runtimeConfig.js';
import { passiveLocked } from './errors.js';
import type { PassiveStore } from './passiveStore.js';

const HOUR_MS = 3_600_000;

/** A member's passive mode: on since when, and from when it may be switched off. */
export interface PassiveStatus {
  since: Date;
  offFrom: Date;
}

/**
 * `/cookies passive`: a passive member neither steals nor is robbed, in every server (the
 * steal checks it for both sides). It goes off only `cookies.passive_min_h` after it went on,
 * so nobody robs and then hides from the answer.
 */
export class PassiveMode {
  constructor(private readonly deps: { store: PassiveStore; runtimeConfig: RuntimeConfig; clock: Clock }) {}

  /** The member's passive mode, or null when it is off. */
  async status(member: string): Promise<PassiveStatus | null> {
    const since = await this.deps.store.since(member);
    return since ? { since, offFrom: await this.#offFrom(since) } : null;
  }

  /** Of `members`, those in passive mode. */
  among(members: readonly string[]): Promise<Set<string>> {
    return this.deps.store.among(members);
  }

  /** Switches it on; `already` when it was on (its first time stands). */
  async on(member: string): Promise<PassiveStatus & { already: boolean }> {
    const now = this.deps.clock.now();
    const since = await this.deps.store.switchOn(member, now);
    return { since, offFrom: await this.#offFrom(since), already: since.getTime() !== now.getTime() };
  }

  /** Switches it off: false when it was off; PASSIVE_LOCKED, with the time it may, before the cooldown. */
  async off(member: string): Promise<boolean> {
    const hours = await this.deps.runtimeConfig.get('cookies.passive_min_h');
    const onBy = new Date(this.deps.clock.now().getTime() - hours * HOUR_MS);
    if (await this.deps.store.switchOff(member, onBy)) return true;
    const since = await this.deps.store.since(member);
    if (!since) return false;
    throw passiveLocked(since.getTime(), (await this.#offFrom(since)).getTime(), hours);
  }

  async #offFrom(since: Date): Promise<Date> {
    const hours = await this.deps.runtimeConfig.get('cookies.passive_min_h');
    return new Date(since.getTime() + hours * HOUR_MS);
  }
}
