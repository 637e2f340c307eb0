import type { Clock } from '../../src/clock.js';
import { AppError } from '../../src/errors.js';
import type { RuntimeConfig } from '../../src/runtimeConfig/runtimeConfig.js';
import type { Scheduler } from '../../src/scheduler/scheduler.js';
import type { CookieEconomy } from '../money/cookieEconomy.js';
import type { HoldDoc, Holds, ReserveRequest } from '../money/holds/holds.js';
import type { VaultLiquidity } from '../vault/liquidity.js';
import type { FairnessInput } from './fairness.js';
import type { FairnessStore } from './fairnessStore.js';
import type { RoundDoc, RoundStore } from './roundStore.js';

/** What every step of a round works with: the game service's dependencies. */
export interface GameDeps {
  economy: CookieEconomy;
  holds: Holds;
  rounds: RoundStore;
  fairness: FairnessStore;
  runtimeConfig: RuntimeConfig;
  scheduler: Scheduler;
  clock: Clock;
  /** What the vault may pay out now (utils/vault/liquidity.ts). */
  liquidity(): Promise<VaultLiquidity>;
}

export const FINISH_TASK = 'games.round.finish';
export const ENDED_ROUND: readonly RoundDoc['status'][] = ['settled', 'refunded'];

export function reserve(deps: GameDeps, request: ReserveRequest): Promise<HoldDoc> {
  return deps.holds.reserve(request);
}

/** A round that ended no longer keeps the member's seed from being rotated. */
export async function releaseIfEnded(deps: GameDeps, round: RoundDoc): Promise<void> {
  if (ENDED_ROUND.includes(round.status)) await deps.fairness.release(round.userId, round._id);
}

export async function roundSeeds(deps: GameDeps, round: RoundDoc): Promise<FairnessInput> {
  const found = await deps.fairness.serverSeed(round.userId, round.seed.serverSeedHash);
  if (!found) throw new Error(`round ${round._id}: server seed ${round.seed.serverSeedHash} is missing`);
  return { serverSeed: found.serverSeed, memberSeed: round.seed.memberSeed, nonce: round.seed.nonce };
}

export async function loadRound(deps: GameDeps, roundId: string): Promise<RoundDoc> {
  const round = await deps.rounds.get(roundId);
  if (!round) throw new AppError('STALE_CONTROL', `round ${roundId} is gone`, { roundId });
  return round;
}
