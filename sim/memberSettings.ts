import type { BotDeps } from '../src/interactions/types.js';

/** The settings the members' choices depend on. */
export interface MemberSettings {
  collectCooldownMs: number;
  stealCooldownMs: number;
  minBet: number;
  maxBet: number;
  pixelCost: number;
  paths: number;
  minBuyIn: number;
  heistMinStake: number;
  heistWindowMs: number;
}

/** Before the first hour's reading. */
export const UNREAD_SETTINGS: MemberSettings = {
  collectCooldownMs: 0,
  stealCooldownMs: 0,
  minBet: 0,
  maxBet: 0,
  pixelCost: 0,
  paths: 1,
  minBuyIn: 0,
  heistMinStake: 0,
  heistWindowMs: 0,
};

export async function readMemberSettings(deps: BotDeps): Promise<MemberSettings> {
  const c = deps.runtimeConfig;
  return {
    collectCooldownMs: (await c.get('cookies.collect_cooldown_s')) * 1000,
    stealCooldownMs: (await c.get('cookies.steal_cooldown_s')) * 1000,
    minBet: await c.get('games.min_bet'),
    maxBet: await c.get('games.max_bet'),
    pixelCost: await deps.services.place.pixelCost(),
    paths: await c.get('hunt_paths'),
    minBuyIn: (await c.get('poker.small_blind')) * 2 * (await c.get('poker.min_buy_in_bb')),
    heistMinStake: await c.get('vault.heist_min_stake'),
    heistWindowMs: (await c.get('vault.heist_window_s')) * 1000,
  };
}
