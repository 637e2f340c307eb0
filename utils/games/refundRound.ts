import { type GameDeps, loadRound, releaseIfEnded } from './gameDeps.js';
import { roundHolds } from './roundHolds.js';
import type { RoundDoc } from './roundStore.js';

/**
 * A round that cannot go on: it becomes `refunded` (one guarded update, so a refund and the
 * round going on cannot both happen), and only then is each of its holds called off (a
 * reserve still in flight can then never land) or returned. A round that went on meanwhile
 * is left to go on.
 */
export async function refundRound(deps: GameDeps, round: RoundDoc): Promise<RoundDoc> {
  const refunded =
    (await deps.rounds.advance(
      round._id,
      { status: 'opening' },
      { status: 'refunded', settledAt: deps.clock.now() },
    )) ?? (await loadRound(deps, round._id));
  if (refunded.status !== 'refunded') return refunded;
  for (const hold of roundHolds(refunded, deps.economy.house)) await deps.holds.cancel(hold);
  await releaseIfEnded(deps, refunded);
  return refunded;
}
