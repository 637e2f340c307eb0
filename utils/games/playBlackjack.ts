import { isAppError, notYourButton } from '../../src/errors.js';
import { blackjackDeck } from './catalog.js';
import { type GameDeps, loadRound, reserve, roundSeeds } from './gameDeps.js';
import { act, type BlackjackAction, canDouble, deal } from './houseGames/blackjack/rules.js';
import { openRound, type RoundRequest } from './openRound.js';
import { doubleHoldId, roundHold } from './roundHolds.js';
import type { RoundDoc } from './roundStore.js';
import { settleRound } from './settleRound.js';

/** Deals a blackjack hand; a natural on either side settles at once. */
export async function startBlackjack(deps: GameDeps, request: RoundRequest): Promise<RoundDoc> {
  const timeoutS = await deps.runtimeConfig.get('games.blackjack_timeout_s');
  const round = await openRound(deps, 'blackjack', request, timeoutS * 1000);
  if (round.status !== 'playing') return round;
  if (round.hand) return round.hand.phase === 'done' ? settleRound(deps, round) : round;
  const hand = deal(blackjackDeck(await roundSeeds(deps, round)));
  const dealt = await deps.rounds.advance(
    round._id,
    { status: 'playing', step: 0, hand: { $exists: false } },
    { hand },
  );
  const now = dealt ?? (await loadRound(deps, round._id));
  return now.status === 'playing' && now.hand?.phase === 'done' ? settleRound(deps, now) : now;
}

/**
 * A press on a blackjack hand. `step` is the press count the member's message showed: a
 * press on an older message (or a second, racing press) changes nothing and returns the
 * hand as it is now.
 */
export async function playBlackjack(
  deps: GameDeps,
  roundId: string,
  actorId: string,
  action: BlackjackAction,
  step: number,
): Promise<RoundDoc> {
  const round = await loadRound(deps, roundId);
  if (round.userId !== actorId) throw notYourButton(round.userId);
  if (round.status === 'settling') return settleRound(deps, round);
  if (round.status !== 'playing' || !round.hand) return round;
  if (round.step !== step || round.doubling) return round;
  if (action === 'double') return double(deps, round);
  const hand = act(round.hand, action);
  const moved = await deps.rounds.advance(
    roundId,
    { status: 'playing', step, doubling: { $ne: true } },
    { hand, step: step + 1 },
  );
  if (!moved) return loadRound(deps, roundId);
  return hand.phase === 'done' ? settleRound(deps, moved) : moved;
}

/** The timer on a hand nobody finished: it stands, and the round remembers that time ran out. */
export async function standForAbsent(deps: GameDeps, round: RoundDoc): Promise<RoundDoc> {
  if (round.status !== 'playing' || !round.hand || round.doubling) return round;
  // A hand that ended before a crash only needs settling: time did not run out on it.
  if (round.hand.phase === 'done') return settleRound(deps, round);
  const moved = await deps.rounds.advance(
    round._id,
    { status: 'playing', step: round.step, doubling: { $ne: true } },
    { hand: act(round.hand, 'stand'), step: round.step + 1, timedOut: true },
  );
  if (!moved) return loadRound(deps, round._id);
  return settleRound(deps, moved);
}

/** A double: the second stake is paid first, then the hand moves on (`doubling` blocks other presses meanwhile). */
async function double(deps: GameDeps, round: RoundDoc): Promise<RoundDoc> {
  const hand = round.hand;
  if (!hand || !canDouble(hand)) return round;
  const claimed = await deps.rounds.advance(
    round._id,
    { status: 'playing', step: round.step, doubling: { $ne: true } },
    { doubling: true, step: round.step + 1, doubleHold: doubleHoldId(round, round.step + 1) },
  );
  if (!claimed) return loadRound(deps, round._id);
  const undo = () =>
    deps.rounds.advance(round._id, { status: 'playing', step: claimed.step }, { step: claimed.step + 1 }, [
      'doubling',
    ]);
  // Refused (too few Cookies), or closed by the timer that decided the double first: the
  // double is undone either way, so the hand is not left marked as doubling.
  const held = await reserve(deps, roundHold(claimed, 'double', deps.economy.house)).catch(
    async (error: unknown) => {
      if (isAppError(error, 'INSUFFICIENT_COOKIES') || isAppError(error, 'ACCOUNT_CLOSED')) await undo();
      throw error;
    },
  );
  if (held.state !== 'held') {
    await undo();
    return loadRound(deps, round._id);
  }
  return applyDouble(deps, claimed);
}

export async function applyDouble(deps: GameDeps, round: RoundDoc): Promise<RoundDoc> {
  const doubled = await deps.rounds.advance(
    round._id,
    { status: 'playing', step: round.step, doubling: true },
    { hand: act(round.hand as NonNullable<RoundDoc['hand']>, 'double'), step: round.step + 1 },
    ['doubling'],
  );
  return settleRound(deps, doubled ?? (await loadRound(deps, round._id)));
}
