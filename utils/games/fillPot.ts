import { AppError, isAppError } from '../../src/errors.js';
import { maxBet } from '../vault/liquidity.js';
import { maxMultiplier } from './catalog.js';
import { vaultLimit } from './errors.js';
import { type GameDeps, loadRound, reserve } from './gameDeps.js';
import { refundRound } from './refundRound.js';
import { roundHold } from './roundHolds.js';
import type { RoundDoc } from './roundStore.js';

/**
 * Steps 2 and 3: the house's share of the largest win, then the member's stake, each into a
 * hold of the round (utils/money/holds/); any refusal returns what was reserved and moves nothing.
 */
export async function fillPot(deps: GameDeps, round: RoundDoc, ttlMs: number): Promise<RoundDoc> {
  if (round.hold > 0) {
    const house = await reserve(deps, roundHold(round, 'house', deps.economy.house, ttlMs)).catch(
      async (error: unknown) => {
        if (!isAppError(error, 'HOUSE_VAULT_INSUFFICIENT')) throw error;
        await refundRound(deps, round);
        throw vaultLimit(round.bet, maxBet(await deps.liquidity(), maxMultiplier(round.game, round.params)));
      },
    );
    if (house.state !== 'held') return calledOff(deps, round);
  }
  const stake = await reserve(deps, roundHold(round, 'stake', deps.economy.house, ttlMs)).catch(
    async (error: unknown) => {
      if (isAppError(error, 'INSUFFICIENT_COOKIES')) await refundRound(deps, round);
      throw error;
    },
  );
  if (stake.state !== 'held') return calledOff(deps, round);
  const playing = await deps.rounds.advance(round._id, { status: 'opening' }, { status: 'playing' });
  if (playing) return playing;
  const now = await loadRound(deps, round._id);
  // Refunded meanwhile (its timer ran while this process was slow): what was reserved goes back.
  if (now.status === 'refunded') return refundRound(deps, now);
  return now;
}

/**
 * A reserve of the round whose hold was already decided: a timer called the round off (this
 * process was too slow), or another delivery of the same interaction played it on and its holds
 * ended, in which case the round is answered as it is.
 */
async function calledOff(deps: GameDeps, round: RoundDoc): Promise<RoundDoc> {
  const now = await refundRound(deps, round);
  if (now.status !== 'refunded') return now;
  throw new AppError('ACCOUNT_CLOSED', `round ${round._id} was called off before its Cookies arrived`, {
    roundId: round._id,
  });
}
