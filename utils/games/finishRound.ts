import type { GameDeps } from './gameDeps.js';
import { applyDouble, standForAbsent, startBlackjack } from './playBlackjack.js';
import { refundRound } from './refundRound.js';
import { roundHold } from './roundHolds.js';
import type { RoundDoc } from './roundStore.js';
import { settleInstant, settleRound } from './settleRound.js';

/** Brings a round to an end whatever state it was left in (the timer; also safe to call twice). */
export async function finishRound(deps: GameDeps, roundId: string): Promise<RoundDoc | null> {
  const round = await deps.rounds.get(roundId);
  if (!round) return null;
  switch (round.status) {
    case 'opening':
      return refundRound(deps, round);
    case 'playing':
      if (round.game !== 'blackjack') return settleInstant(deps, round);
      return finishHand(deps, round);
    case 'settling':
      return settleRound(deps, round);
    default:
      return round;
  }
}

/** The timer on a hand: a double left half-done is completed if its stake was paid, else the hand stands. */
async function finishHand(deps: GameDeps, round: RoundDoc): Promise<RoundDoc> {
  if (!round.hand) {
    return startBlackjack(deps, {
      roundId: round._id,
      userId: round.userId,
      bet: round.bet,
      params: round.params,
    }).then((r) => (r.status === 'playing' ? finishHand(deps, r) : r));
  }
  if (round.doubling) {
    // The double's second stake arrived (then the double stands), or never can.
    const double = await deps.holds.decide(roundHold(round, 'double', deps.economy.house));
    if (double.state === 'held' || double.state === 'posted') return applyDouble(deps, round);
    const undone = await deps.rounds.advance(
      round._id,
      { status: 'playing', step: round.step },
      { step: round.step + 1 },
      ['doubling'],
    );
    // A press moved the hand on meanwhile: carry on from where it is now.
    return undone ? finishHand(deps, undone) : finishRound(deps, round._id).then((r) => r ?? round);
  }
  const stood = await standForAbsent(deps, round);
  // A press landed first (a Hit or a Double at the last moment): time has still run out on the
  // hand, and this timer is the last to come, so it carries on from the hand as it is now.
  return stood.status === 'playing' ? finishHand(deps, stood) : stood;
}
