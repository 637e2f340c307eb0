import { z } from 'zod';
import type { Clock } from '../../src/clock.js';
import { AppError, featureDisabled, isAppError, notYourButton } from '../../src/errors.js';
import type { RuntimeConfig } from '../../src/runtimeConfig/runtimeConfig.js';
import { defineTask, type Scheduler, type TaskHandler } from '../../src/scheduler/scheduler.js';
import type { CookieEconomy } from '../cookieEconomy.js';
import type { HoldDoc, Holds, ReserveRequest } from '../holds/holds.js';
import { insufficientFunds } from '../ledger/errors.js';
import { houseHold, maxBet, type VaultLiquidity } from '../vault/liquidity.js';
import {
  blackjackDeck,
  type InstantGameName,
  maxMultiplier,
  playInstant,
  recompute,
  recordedResult,
} from './catalog.js';
import { betOutOfRange, vaultLimit } from './errors.js';
import type { FairnessInput } from './fairness.js';
import type { FairnessStore } from './fairnessStore.js';
import { doubleHoldId, HOLD_TTL_AFTER_ROUND_MS, roundHold, roundHolds, settlement } from './roundHolds.js';
import type { GameName, RoundDoc, RoundStore } from './roundStore.js';
import { act, type BlackjackAction, blackjackPayout, canDouble, deal } from './rules/blackjack.js';

declare module '../../src/features/feature.js' {
  interface FeatureServices {
    games: GameService;
  }
}

interface GameDeps {
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

export interface RoundRequest {
  /** The interaction's id: the round's id and the root of its operation ids. */
  roundId: string;
  userId: string;
  bet: number;
  params?: Record<string, string | number>;
}

export type RoundVerification =
  | { status: 'sealed'; round: RoundDoc }
  | { status: 'verified'; round: RoundDoc; serverSeed: string; recomputed: string; matches: boolean };

const FINISH_TASK = 'games.round.finish';
const ENDED_ROUND: readonly RoundDoc['status'][] = ['settled', 'refunded'];
/** An instant round left unfinished (its process died) is finished by its timer this much later. */
const INSTANT_FINISH_MS = 60_000;

/**
 * House games on the Cookie economy. A round's money path, each step with an operation id
 * derived from the round's id (ECONOMY.md, "Settlement protection"):
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

  /** Coinflip, dice and slots: open, draw and settle in one call. */
  async playInstant(game: InstantGameName, request: RoundRequest): Promise<RoundDoc> {
    const round = await this.#open(game, request, INSTANT_FINISH_MS);
    if (round.status !== 'playing') return round;
    return this.#settleInstant(round);
  }

  /** Deals a blackjack hand; a natural on either side settles at once. */
  async startBlackjack(request: RoundRequest): Promise<RoundDoc> {
    const timeoutS = await this.deps.runtimeConfig.get('games.blackjack_timeout_s');
    const round = await this.#open('blackjack', request, timeoutS * 1000);
    if (round.status !== 'playing') return round;
    if (round.hand) return round.hand.phase === 'done' ? this.#settle(round) : round;
    const hand = deal(blackjackDeck(await this.#seeds(round)));
    const dealt = await this.deps.rounds.advance(
      round._id,
      { status: 'playing', step: 0, hand: { $exists: false } },
      { hand },
    );
    const now = dealt ?? (await this.#round(round._id));
    return now.status === 'playing' && now.hand?.phase === 'done' ? this.#settle(now) : now;
  }

  /**
   * A press on a blackjack hand. `step` is the press count the member's message showed: a
   * press on an older message (or a second, racing press) changes nothing and returns the
   * hand as it is now.
   */
  async blackjack(
    roundId: string,
    actorId: string,
    action: BlackjackAction,
    step: number,
  ): Promise<RoundDoc> {
    const round = await this.#round(roundId);
    if (round.userId !== actorId) throw notYourButton(round.userId);
    if (round.status === 'settling') return this.#settle(round);
    if (round.status !== 'playing' || !round.hand) return round;
    if (round.step !== step || round.doubling) return round;
    if (action === 'double') return this.#double(round);
    const hand = act(round.hand, action);
    const moved = await this.deps.rounds.advance(
      roundId,
      { status: 'playing', step, doubling: { $ne: true } },
      { hand, step: step + 1 },
    );
    if (!moved) return this.#round(roundId);
    return hand.phase === 'done' ? this.#settle(moved) : moved;
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
    const found = await this.deps.fairness.serverSeed(round.seed.serverSeedHash);
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

  /** Timers: finishing rounds a crash or an absent member left open. */
  tasks(): TaskHandler[] {
    return [
      defineTask(FINISH_TASK, z.object({ roundId: z.string() }), async ({ roundId }) => {
        await this.finish(roundId);
      }),
    ];
  }

  /** Brings a round to an end whatever state it was left in (the timer; also safe to call twice). */
  async finish(roundId: string): Promise<RoundDoc | null> {
    const round = await this.deps.rounds.get(roundId);
    if (!round) return null;
    switch (round.status) {
      case 'opening':
        return this.#refund(round);
      case 'playing':
        if (round.game !== 'blackjack') return this.#settleInstant(round);
        return this.#finishHand(round);
      case 'settling':
        return this.#settle(round);
      default:
        return round;
    }
  }

  async #open(game: GameName, request: RoundRequest, finishAfterMs: number): Promise<RoundDoc> {
    const existing = await this.deps.rounds.get(request.roundId);
    if (existing) return this.#retried(existing, request.userId);
    const params = request.params ?? {};
    const multiplier = maxMultiplier(game, params);
    await this.#checkBet(request.userId, request.bet, multiplier);
    const now = this.deps.clock.now();
    const { serverSeed: _secret, ...seed } = await this.deps.fairness.claimRound(
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
      createdAt: now,
    };
    if (!(await this.deps.rounds.create(round)))
      return this.#retried(await this.#round(round._id), request.userId);
    await this.deps.scheduler.schedule({
      id: `${FINISH_TASK}:${round._id}`,
      kind: FINISH_TASK,
      dueAt: new Date(now.getTime() + finishAfterMs),
      payload: { roundId: round._id },
    });
    return this.#fillPot(round, finishAfterMs + HOLD_TTL_AFTER_ROUND_MS);
  }

  /** The same interaction again (Discord retried, or a double submit): the round as it is. */
  async #retried(round: RoundDoc, userId: string): Promise<RoundDoc> {
    if (round.userId !== userId) throw notYourButton(round.userId);
    if (round.status === 'opening') return this.#fillPot(round, HOLD_TTL_AFTER_ROUND_MS);
    if (round.status === 'settling') return this.#settle(round);
    return round;
  }

  async #checkBet(userId: string, bet: number, multiplier: number): Promise<void> {
    const c = this.deps.runtimeConfig;
    if (!(await c.get('games.enabled'))) throw featureDisabled('games:errors.gamesDisabled', 'games.enabled');
    const [min, max] = await Promise.all([c.get('games.min_bet'), c.get('games.max_bet')]);
    if (bet < min || bet > max) throw betOutOfRange(bet, min, max);
    const largest = maxBet(await this.deps.liquidity(), multiplier);
    if (bet > largest) throw vaultLimit(bet, largest);
    const balance = await this.deps.economy.balance(userId);
    if (balance < bet) throw insufficientFunds('cookies', userId, balance, bet);
  }

  /**
   * Steps 2 and 3: the house's share of the largest win, then the member's stake, each into a
   * hold of the round (utils/holds/); any refusal returns what was reserved and moves nothing.
   */
  async #fillPot(round: RoundDoc, ttlMs: number): Promise<RoundDoc> {
    if (round.hold > 0) {
      const house = await this.#reserve(roundHold(round, 'house', this.deps.economy.house, ttlMs)).catch(
        async (error: unknown) => {
          if (!isAppError(error, 'HOUSE_VAULT_INSUFFICIENT')) throw error;
          await this.#refund(round);
          throw vaultLimit(
            round.bet,
            maxBet(await this.deps.liquidity(), maxMultiplier(round.game, round.params)),
          );
        },
      );
      if (house.state !== 'held') return this.#calledOff(round);
    }
    const stake = await this.#reserve(roundHold(round, 'stake', this.deps.economy.house, ttlMs)).catch(
      async (error: unknown) => {
        if (isAppError(error, 'INSUFFICIENT_COOKIES')) await this.#refund(round);
        throw error;
      },
    );
    if (stake.state !== 'held') return this.#calledOff(round);
    const playing = await this.deps.rounds.advance(round._id, { status: 'opening' }, { status: 'playing' });
    if (playing) return playing;
    const now = await this.#round(round._id);
    // Refunded meanwhile (its timer ran while this process was slow): what was reserved goes back.
    if (now.status === 'refunded') return this.#refund(now);
    return now;
  }

  /** A reserve of the round whose hold a timer had already decided (this process was too slow). */
  async #calledOff(round: RoundDoc): Promise<never> {
    await this.#refund(round);
    throw new AppError('ACCOUNT_CLOSED', `round ${round._id} was called off before its Cookies arrived`, {
      roundId: round._id,
    });
  }

  #reserve(request: ReserveRequest): Promise<HoldDoc> {
    return this.deps.holds.reserve(request);
  }

  /**
   * A round that cannot go on: it becomes `refunded` (one guarded update, so a refund and the
   * round going on cannot both happen), and only then is each of its holds called off (a
   * reserve still in flight can then never land) or returned. A round that went on meanwhile
   * is left to go on.
   */
  async #refund(round: RoundDoc): Promise<RoundDoc> {
    const refunded =
      (await this.deps.rounds.advance(
        round._id,
        { status: 'opening' },
        { status: 'refunded', settledAt: this.deps.clock.now() },
      )) ?? (await this.#round(round._id));
    if (refunded.status !== 'refunded') return refunded;
    for (const hold of roundHolds(refunded, this.deps.economy.house)) await this.deps.holds.cancel(hold);
    await this.#ended(refunded);
    return refunded;
  }

  async #settleInstant(round: RoundDoc): Promise<RoundDoc> {
    const played = playInstant(
      round.game as InstantGameName,
      await this.#seeds(round),
      round.bet,
      round.params,
    );
    const fixed = await this.deps.rounds.advance(
      round._id,
      { status: 'playing' },
      { status: 'settling', stake: round.bet, payout: played.payout, outcome: played.outcome },
    );
    return this.#settle(fixed ?? (await this.#round(round._id)));
  }

  /** A double: the second stake is paid first, then the hand moves on (`doubling` blocks other presses meanwhile). */
  async #double(round: RoundDoc): Promise<RoundDoc> {
    const hand = round.hand;
    if (!hand || !canDouble(hand)) return round;
    const claimed = await this.deps.rounds.advance(
      round._id,
      { status: 'playing', step: round.step, doubling: { $ne: true } },
      { doubling: true, step: round.step + 1, doubleHold: doubleHoldId(round, round.step + 1) },
    );
    if (!claimed) return this.#round(round._id);
    const undo = () =>
      this.deps.rounds.advance(
        round._id,
        { status: 'playing', step: claimed.step },
        { step: claimed.step + 1 },
        ['doubling'],
      );
    const held = await this.#reserve(roundHold(claimed, 'double', this.deps.economy.house)).catch(
      async (error: unknown) => {
        if (isAppError(error, 'INSUFFICIENT_COOKIES')) await undo();
        throw error;
      },
    );
    if (held.state !== 'held') {
      await undo();
      return this.#round(round._id);
    }
    return this.#applyDouble(claimed);
  }

  async #applyDouble(round: RoundDoc): Promise<RoundDoc> {
    const doubled = await this.deps.rounds.advance(
      round._id,
      { status: 'playing', step: round.step, doubling: true },
      { hand: act(round.hand as NonNullable<RoundDoc['hand']>, 'double'), step: round.step + 1 },
      ['doubling'],
    );
    return this.#settle(doubled ?? (await this.#round(round._id)));
  }

  /** The timer on a hand: a double left half-done is completed if its stake was paid, else the hand stands. */
  async #finishHand(round: RoundDoc): Promise<RoundDoc> {
    if (!round.hand) {
      return this.startBlackjack({
        roundId: round._id,
        userId: round.userId,
        bet: round.bet,
        params: round.params,
      }).then((r) => (r.status === 'playing' ? this.#finishHand(r) : r));
    }
    if (round.doubling) {
      // The double's second stake arrived (then the double stands), or never can.
      const double = await this.deps.holds.decide(roundHold(round, 'double', this.deps.economy.house));
      if (double.state === 'held' || double.state === 'posted') return this.#applyDouble(round);
      const undone = await this.deps.rounds.advance(
        round._id,
        { status: 'playing', step: round.step },
        { step: round.step + 1 },
        ['doubling'],
      );
      return undone ? this.#finishHand(undone) : this.#round(round._id);
    }
    return this.blackjack(round._id, round.userId, 'stand', round.step);
  }

  /** Steps 4 and 5. The result is fixed once; every later call finishes the same payouts. */
  async #settle(round: RoundDoc): Promise<RoundDoc> {
    let settling = round;
    if (round.status === 'playing' && round.hand?.phase === 'done') {
      const stake = round.hand.doubled ? round.bet * 2 : round.bet;
      const payout = blackjackPayout(round.hand, round.bet);
      settling =
        (await this.deps.rounds.advance(
          round._id,
          { status: 'playing', step: round.step },
          { status: 'settling', stake, payout },
        )) ?? (await this.#round(round._id));
    }
    if (settling.status !== 'settling') return settling;
    for (const post of settlement(settling, this.deps.economy.house)) {
      await this.deps.holds.post(post.id, post.postings, post.rest ? { rest: post.rest } : {});
    }
    const settled =
      (await this.deps.rounds.advance(
        settling._id,
        { status: 'settling' },
        { status: 'settled', settledAt: this.deps.clock.now() },
      )) ?? (await this.#round(settling._id));
    await this.#ended(settled);
    return settled;
  }

  /** A round that ended no longer keeps the member's seed from being rotated. */
  async #ended(round: RoundDoc): Promise<void> {
    if (ENDED_ROUND.includes(round.status)) await this.deps.fairness.release(round.userId, round._id);
  }

  async #seeds(round: RoundDoc): Promise<FairnessInput> {
    const found = await this.deps.fairness.serverSeed(round.seed.serverSeedHash);
    if (!found) throw new Error(`round ${round._id}: server seed ${round.seed.serverSeedHash} is missing`);
    return { serverSeed: found.serverSeed, memberSeed: round.seed.memberSeed, nonce: round.seed.nonce };
  }

  async #round(roundId: string): Promise<RoundDoc> {
    const round = await this.deps.rounds.get(roundId);
    if (!round) throw new AppError('STALE_CONTROL', `round ${roundId} is gone`, { roundId });
    return round;
  }
}
