import { type InstantGameName, playInstant } from './catalog.js';
import { type GameDeps, loadRound, releaseIfEnded, roundSeeds } from './gameDeps.js';
import { blackjackPayout } from './houseGames/blackjack/rules.js';
import { settlement } from './roundHolds.js';
import type { RoundDoc } from './roundStore.js';

export async function settleInstant(deps: GameDeps, round: RoundDoc): Promise<RoundDoc> {
  const played = playInstant(
    round.game as InstantGameName,
    await roundSeeds(deps, round),
    round.bet,
    round.params,
  );
  const fixed = await deps.rounds.advance(
    round._id,
    { status: 'playing' },
    { status: 'settling', stake: round.bet, payout: played.payout, outcome: played.outcome },
  );
  return settleRound(deps, fixed ?? (await loadRound(deps, round._id)));
}

/** Steps 4 and 5. The result is fixed once; every later call finishes the same payouts. */
export async function settleRound(deps: GameDeps, round: RoundDoc): Promise<RoundDoc> {
  let settling = round;
  if (round.status === 'playing' && round.hand?.phase === 'done') {
    const stake = round.hand.doubled ? round.bet * 2 : round.bet;
    const payout = blackjackPayout(round.hand, round.bet);
    settling =
      (await deps.rounds.advance(
        round._id,
        { status: 'playing', step: round.step },
        { status: 'settling', stake, payout },
      )) ?? (await loadRound(deps, round._id));
  }
  if (settling.status !== 'settling') return settling;
  for (const post of settlement(settling, deps.economy.house)) {
    await deps.holds.post(post.id, post.postings, post.rest ? { rest: post.rest } : {});
  }
  const settled =
    (await deps.rounds.advance(
      settling._id,
      { status: 'settling' },
      { status: 'settled', settledAt: deps.clock.now() },
    )) ?? (await loadRound(deps, settling._id));
  await releaseIfEnded(deps, settled);
  return settled;
}
