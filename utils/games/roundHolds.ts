import { COOKIE_KINDS } from '../money/cookieEconomy.js';
import type { Posting, ReserveRequest } from '../money/holds/holds.js';
import type { RoundDoc } from './roundStore.js';

/**
 * The money of one round, as holds (ECONOMY.md, "House games: settlement protection"): the
 * member's stake, a double's second stake (one hold per attempt) and the house's share of the
 * largest win. Pure: the service reserves, posts and cancels what these describe.
 */
export type RoundHold = 'stake' | 'double' | 'house';

/** A round's holds outlive its own timer: the timer finishes the round, the holds' timers are the backstop. */
export const HOLD_TTL_AFTER_ROUND_MS = 300_000;

export function roundHoldId(round: Pick<RoundDoc, '_id' | 'doubleHold'>, part: RoundHold): string {
  return part === 'double' ? (round.doubleHold as string) : `game:${round._id}:${part}`;
}

/** The hold a double claimed at `step` reserves (a refused double may be tried again). */
export function doubleHoldId(round: Pick<RoundDoc, '_id'>, step: number): string {
  return `game:${round._id}:double:${step}`;
}

export function roundHold(
  round: RoundDoc,
  part: RoundHold,
  house: string,
  ttlMs = HOLD_TTL_AFTER_ROUND_MS,
): ReserveRequest {
  const common = {
    id: roundHoldId(round, part),
    currency: 'cookies' as const,
    source: round.userId,
    owner: { kind: 'game', id: round._id },
    ttlMs,
  };
  return part === 'house'
    ? {
        ...common,
        from: house,
        amount: round.hold,
        kind: COOKIE_KINDS.gameHold,
        returnKind: COOKIE_KINDS.gameReturn,
      }
    : {
        ...common,
        from: round.userId,
        amount: round.bet,
        kind: COOKIE_KINDS.gameStake,
        returnKind: COOKIE_KINDS.gameRefund,
      };
}

/** Every hold a round may have reserved, for a refund to call off. */
export function roundHolds(round: RoundDoc, house: string): ReserveRequest[] {
  const parts: RoundHold[] = ['stake'];
  if (round.doubleHold) parts.push('double');
  if (round.hold > 0) parts.push('house');
  return parts.map((part) => roundHold(round, part, house));
}

/**
 * Where a settled round's holds go: the payout comes out of the stakes first, then out of the
 * house's share; what is left of the stakes goes to the vault, what is left of the house's
 * share back to it (`rest: 'return'`).
 */
export function settlement(
  round: RoundDoc,
  house: string,
): { id: string; postings: Posting[]; rest?: 'return' }[] {
  let owed = round.payout ?? 0;
  const stakes: RoundHold[] = round.hand?.doubled ? ['stake', 'double'] : ['stake'];
  const posts: { id: string; postings: Posting[]; rest?: 'return' }[] = stakes.map((part) => {
    const paid = Math.min(owed, round.bet);
    owed -= paid;
    return {
      id: roundHoldId(round, part),
      postings: [
        { to: round.userId, amount: paid, kind: COOKIE_KINDS.gamePayout },
        { to: house, amount: round.bet - paid, kind: COOKIE_KINDS.gameReturn },
      ],
    };
  });
  if (round.hold > 0) {
    posts.push({
      id: roundHoldId(round, 'house'),
      postings: [{ to: round.userId, amount: owed, kind: COOKIE_KINDS.gamePayout }],
      rest: 'return',
    });
  }
  return posts;
}
