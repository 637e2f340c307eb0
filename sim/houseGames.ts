import type { Agent } from './agent.js';
import type { Action } from './behaviours.js';
import { chance } from './random.js';
import type { SimContext } from './simContext.js';

/** A bet of the member's usual share of its balance, within the games' limits; null if too poor. */
export function betFor(ctx: SimContext, agent: Agent, balance: number): number | null {
  const { minBet: min, maxBet: max } = ctx.settings;
  const bet = Math.min(max, Math.max(min, Math.floor((balance * agent.archetype.betPct) / 100)));
  return balance >= bet && balance >= min ? bet : null;
}

/** The house games the member rolled for this step, each for `bet`. */
export async function playHouseGames(
  ctx: SimContext,
  agent: Agent,
  does: Set<Action>,
  bet: number,
): Promise<void> {
  const { deps, attempts, rng } = ctx;
  const { services } = deps;
  if (does.has('coinflip')) {
    await attempts.try('coinflip', () =>
      services.games.playInstant('coinflip', {
        roundId: attempts.id('coinflip'),
        userId: agent.id,
        bet,
        params: { side: chance(rng, 0.5) ? 'heads' : 'tails' },
      }),
    );
  }
  if (does.has('dice')) {
    await attempts.try('dice', () =>
      services.games.playInstant('dice', {
        roundId: attempts.id('dice'),
        userId: agent.id,
        bet,
        params: { target: 10 + rng.int(0, 81) },
      }),
    );
  }
  if (does.has('slots')) {
    await attempts.try('slots', () =>
      services.games.playInstant('slots', { roundId: attempts.id('slots'), userId: agent.id, bet }),
    );
  }
  if (does.has('blackjack')) {
    const roundId = attempts.id('blackjack');
    const hand = await attempts.try('blackjack', () =>
      services.games.startBlackjack({ roundId, userId: agent.id, bet }),
    );
    if (hand?.status === 'playing') {
      await attempts.try('blackjack stand', () =>
        services.games.blackjack(roundId, agent.id, 'stand', hand.step),
      );
    }
  }
}

/** Doubles the coin-flip bet after every loss, back to its usual bet after a win. */
export async function martingale(ctx: SimContext, agent: Agent, balance: number): Promise<void> {
  const base = betFor(ctx, agent, balance);
  if (base === null) return;
  if (agent.martingaleBet === 0 || agent.martingaleBet > balance) agent.martingaleBet = base;
  const bet = agent.martingaleBet;
  const round = await ctx.attempts.try('coinflip', () =>
    ctx.deps.services.games.playInstant('coinflip', {
      roundId: ctx.attempts.id('coinflip'),
      userId: agent.id,
      bet,
      params: { side: 'heads' },
    }),
  );
  if (!round) {
    agent.martingaleBet = 0;
    return;
  }
  agent.martingaleBet = (round.payout ?? 0) > bet ? base : bet * 2;
}
