import type { Clock } from '../../../src/clock.js';
import type { Hooks } from '../../../src/features/hooks.js';

/** Every effect a shop item may have; each is one file beside this one, listed in registry.ts. */
export type EffectName = 'padlock' | 'streak_shield' | 'custom';

/** What an effect may do with the units members own. */
export interface EffectUnits {
  /** Uses one unit of `effect` the member owns and is free, for `op`; null when they own none. */
  useOne(owner: string, effect: EffectName, op: string, now: Date, guildId: string | null): Promise<unknown>;
  /** The unit `op` already used, if any: the same operation asked again uses nothing more. */
  usedBy(owner: string, op: string): Promise<unknown>;
}

/**
 * What an item does. `by_itself`: it acts when its moment comes (a steal, a missed day), using
 * one unit up, and `/inventory use` explains that; `on_use`: the member uses it, and the bot tells
 * the server's shop channel (a server's own items for its events).
 */
export interface Effect {
  name: EffectName;
  emoji: string;
  acts: 'by_itself' | 'on_use';
  /** Hooks the effect into the flows it changes, once per process, when the shop's services are built. */
  install?(hooks: Hooks, units: EffectUnits, clock: Clock): void;
}

/** Uses one unit for `op`, or finds the one `op` already used. */
export async function useOnce(
  units: EffectUnits,
  clock: Clock,
  use: { owner: string; effect: EffectName; op: string; guildId: string | null },
): Promise<boolean> {
  if (await units.usedBy(use.owner, use.op)) return true;
  return (await units.useOne(use.owner, use.effect, use.op, clock.now(), use.guildId)) !== null;
}
