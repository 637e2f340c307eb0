import { featureDisabled, notYourButton } from '../../src/errors.js';
import { insufficientFunds } from '../money/ledger/errors.js';
import { houseHold, maxBet } from '../vault/liquidity.js';
import { maxMultiplier } from './catalog.js';
import { betOutOfRange, vaultLimit } from './errors.js';
import { fillPot } from './fillPot.js';
import { FINISH_TASK, type GameDeps, loadRound } from './gameDeps.js';
import { HOLD_TTL_AFTER_ROUND_MS } from './roundHolds.js';
import type { GameName, RoundDoc } from './roundStore.js';
import { settleRound } from './settleRound.js';

export interface RoundRequest {
  /** The interaction's id: the round's id and the root of its operation ids. */
  roundId: string;
  userId: string;
  bet: number;
  params?: Record<string, string | number>;
  /** Where it is played and in which language, for a timer that ends it. */
  channelId?: string | null;
  locale?: string;
}

export async function openRound(
  deps: GameDeps,
  game: GameName,
  request: RoundRequest,
  finishAfterMs: number,
): Promise<RoundDoc> {
  const existing = await deps.rounds.get(request.roundId);
  if (existing) return retried(deps, existing, request.userId);
  const params = request.params ?? {};
  const multiplier = maxMultiplier(game, params);
  await checkBet(deps, request.userId, request.bet, multiplier);
  const now = deps.clock.now();
  const { serverSeed: _secret, ...seed } = await deps.fairness.claimRound(
    request.userId,
    now,
    request.roundId,
  );
  const round: RoundDoc = {
    _id: request.roundId,
    game,
    userId: request.userId,
    bet: request.bet,
    params,
    seed,
    hold: houseHold(request.bet, multiplier),
    status: 'opening',
    step: 0,
    ...(request.channelId ? { channelId: request.channelId } : {}),
    ...(request.locale ? { locale: request.locale } : {}),
    createdAt: now,
  };
  if (!(await deps.rounds.create(round)))
    return retried(deps, await loadRound(deps, round._id), request.userId);
  await deps.scheduler.schedule({
    id: `${FINISH_TASK}:${round._id}`,
    kind: FINISH_TASK,
    dueAt: new Date(now.getTime() + finishAfterMs),
    payload: { roundId: round._id },
  });
  return fillPot(deps, round, finishAfterMs + HOLD_TTL_AFTER_ROUND_MS);
}

/** The same interaction again (Discord retried, or a double submit): the round as it is. */
async function retried(deps: GameDeps, round: RoundDoc, userId: string): Promise<RoundDoc> {
  if (round.userId !== userId) throw notYourButton(round.userId);
  if (round.status === 'opening') return fillPot(deps, round, HOLD_TTL_AFTER_ROUND_MS);
  if (round.status === 'settling') return settleRound(deps, round);
  return round;
}

async function checkBet(deps: GameDeps, userId: string, bet: number, multiplier: number): Promise<void> {
  const c = deps.runtimeConfig;
  if (!(await c.get('games.enabled'))) throw featureDisabled('games:errors.gamesDisabled', 'games.enabled');
  const [min, max] = await Promise.all([c.get('games.min_bet'), c.get('games.max_bet')]);
  if (bet < min || bet > max) throw betOutOfRange(bet, min, max);
  const largest = maxBet(await deps.liquidity(), multiplier);
  if (bet > largest) throw vaultLimit(bet, largest);
  const balance = await deps.economy.balance(userId);
  if (balance < bet) throw insufficientFunds('cookies', userId, balance, bet);
}
