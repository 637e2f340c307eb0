import { z } from 'zod';
import { AppError } from '../../src/errors.js';
import { RECOVERY_GRACE_MS } from '../../src/recoveryGrace.js';
import { defineTask, type TaskHandler } from '../../src/scheduler/scheduler.js';
import { type InstantGameName, recompute, recordedResult } from './catalog.js';
import { finishRound } from './finishRound.js';
import { ENDED_ROUND, FINISH_TASK, type GameDeps } from './gameDeps.js';
import type { BlackjackAction } from './houseGames/blackjack/rules.js';
import { type GameName, HOUSE_GAMES } from './houseGames/index.js';
import { openRound, type RoundRequest } from './openRound.js';
import { playBlackjack, startBlackjack } from './playBlackjack.js';
import type { RoundDoc } from './roundStore.js';
import { settleInstant } from './settleRound.js';

export type { RoundRequest } from './openRound.js';

declare module '../../src/features/services.js' {
  interface FeatureServices {
    games: GameService;
  }
}

export type RoundVerification =
  | { status: 'sealed'; round: RoundDoc }
  | { status: 'verified'; round: RoundDoc; serverSeed: string; recomputed: string; matches: boolean };

/**
 * House games on the Cookie economy. A round's money path, each step with an operation id
 * derived from the round's id (ECONOMY.md, "House games: settlement protection"):
 * 1. the round is stored (`opening`) with its seeds, and its timer is scheduled;
 * 2. the house's hold goes into the round's pot — a vault that cannot cover the largest win
 *    refuses here, before the member's Cookies move;
 * 3. the member's stake goes into the pot (`playing`);
 * 4. the result is fixed by one guarded update (`settling`): a second resolve, two racing
 *    presses or the timer read the stored result instead of drawing again;
 * 5. the pot pays the member, and the rest goes back to the vault (`settled`).
 * The timer finishes any round a crash left behind: it refunds an `opening` round, stands an
 * abandoned blackjack hand, and completes a `settling` one.
 */
export class GameService {
  constructor(private readonly deps: GameDeps) {
    // A round's hold past its deadline: the round is finished first; whatever an ended round
    // still holds (a stake reserved after its round was refunded) goes back.
    deps.holds.own('game', {
      onExpiry: async (hold) => {
        const round = await this.finish(hold.owner.id);
        const after = await deps.holds.get(hold._id);
        return round && ENDED_ROUND.includes(round.status) && after?.state === 'held' ? 'void' : 'handled';
      },
    });
  }

  /**
   * The games `/vault show` quotes a largest bet for, in their order, each with its largest
   * payout as a multiple of the bet (the vault's rule turns it into a bet, utils/vault/).
   */
  vaultQuotes(): { game: GameName; maxMultiplier: number }[] {
    return HOUSE_GAMES.flatMap(({ name, vaultQuote, maxMultiplier }) =>
      vaultQuote ? [{ game: name, maxMultiplier: maxMultiplier(vaultQuote) }] : [],
    );
  }

  /** Coinflip, dice and slots: open, draw and settle in one call. */
  async playInstant(game: InstantGameName, request: RoundRequest): Promise<RoundDoc> {
    // An instant round left unfinished (its process died) is finished by its timer after the grace.
    const round = await openRound(this.deps, game, request, RECOVERY_GRACE_MS);
    if (round.status !== 'playing') return round;
    return settleInstant(this.deps, round);
  }

  startBlackjack(request: RoundRequest): Promise<RoundDoc> {
    return startBlackjack(this.deps, request);
  }

  blackjack(roundId: string, actorId: string, action: BlackjackAction, step: number): Promise<RoundDoc> {
    return playBlackjack(this.deps, roundId, actorId, action, step);
  }

  /** The member's current commitment: the hash of the secret server seed, their seed, the next nonce. */
  async fairness(userId: string): Promise<{ serverSeedHash: string; memberSeed: string; nonce: number }> {
    const { serverSeedHash, memberSeed, nonce } = await this.deps.fairness.current(
      userId,
      this.deps.clock.now(),
    );
    return { serverSeedHash, memberSeed, nonce };
  }

  async setMemberSeed(userId: string, memberSeed: string): Promise<void> {
    await this.deps.fairness.setMemberSeed(userId, memberSeed, this.deps.clock.now());
  }

  /** Reveals the server seed used so far and commits to a new one. */
  async rotateSeed(
    userId: string,
  ): Promise<{ revealedSeed: string; revealedHash: string; rounds: number; nextHash: string }> {
    // A round in play keeps its seed secret: revealing it would show the hand's next cards.
    const { revealed, next } = await this.deps.fairness.rotate(
      userId,
      this.deps.clock.now(),
      async (roundId) => {
        const round = await this.deps.rounds.get(roundId);
        if (!round) return 'missing';
        return ENDED_ROUND.includes(round.status) ? 'ended' : 'open';
      },
    );
    return {
      revealedSeed: revealed.serverSeed,
      revealedHash: revealed._id,
      rounds: revealed.rounds,
      nextHash: next.serverSeedHash,
    };
  }

  /**
   * Recomputes a past round (default: the member's latest) from its seeds. Only once its server seed is revealed (rotated):
   * before that, showing the seed would let anyone predict the member's next rounds.
   */
  async verify(roundId: string | null, userId: string): Promise<RoundVerification> {
    const round =
      roundId === null ? await this.deps.rounds.latestOf(userId) : await this.deps.rounds.get(roundId);
    if (!round && roundId === null) {
      throw new AppError('NOT_FOUND', `${userId} has played no round`, {
        messageKey: 'games:errors.noRounds',
      });
    }
    if (!round) {
      throw new AppError('NOT_FOUND', `no round ${roundId}`, { messageKey: 'games:errors.noRound', roundId });
    }
    if (!ENDED_ROUND.includes(round.status)) {
      throw new AppError('INVALID_INPUT', `round ${round._id} is still in play`, {
        messageKey: 'games:errors.roundInPlay',
        roundId: round._id,
      });
    }
    const found = await this.deps.fairness.serverSeed(round.userId, round.seed.serverSeedHash);
    if (!found?.revealed) return { status: 'sealed', round };
    const seeds = {
      serverSeed: found.serverSeed,
      memberSeed: round.seed.memberSeed,
      nonce: round.seed.nonce,
    };
    const recomputed = recompute(round, seeds);
    return {
      status: 'verified',
      round,
      serverSeed: found.serverSeed,
      recomputed,
      matches: recomputed === recordedResult(round),
    };
  }

  /** A member's settled rounds: played, won (paid more than the stake), net Cookies. */
  stats(userId: string): Promise<{ played: number; won: number; net: number }> {
    return this.deps.rounds.stats(userId);
  }

  get(roundId: string): Promise<RoundDoc | null> {
    return this.deps.rounds.get(roundId);
  }

  /** The message a round's button was pressed on: a timer that ends the round edits it. */
  async rememberMessage(round: RoundDoc, messageId: string | null): Promise<void> {
    if (messageId && round.messageId !== messageId) await this.deps.rounds.setMessage(round._id, messageId);
  }

  /**
   * Timers: finishing rounds a crash or an absent member left open. `onEnded` hears of each
   * round the timer itself brought to an end (a hand stood for its member, a round refunded).
   */
  tasks(onEnded: (round: RoundDoc) => Promise<void>): TaskHandler[] {
    return [
      defineTask(FINISH_TASK, z.object({ roundId: z.string() }), async ({ roundId }) => {
        const before = await this.deps.rounds.get(roundId);
        const after = await this.finish(roundId);
        if (before && after && !ENDED_ROUND.includes(before.status) && ENDED_ROUND.includes(after.status))
          await onEnded(after);
        // A press still in flight holds the hand (its double's stake on the way): the timer
        // comes back for it, so no stake is left in a round nobody finishes.
        if (after && !ENDED_ROUND.includes(after.status))
          throw new Error(`round ${roundId} is still ${after.status} after its timer; retried`);
      }),
    ];
  }

  finish(roundId: string): Promise<RoundDoc | null> {
    return finishRound(this.deps, roundId);
  }
}
