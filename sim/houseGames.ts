import { HOUSE_GAMES } from '../utils/games/houseGames/index.js';
import type { Agent } from './agent.js';
import type { Action } from './behaviours.js';
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
  for (const game of HOUSE_GAMES) {
    if (!does.has(game.name)) continue;
    if (game.kind === 'instant') {
      const params = game.simParams(rng);
      await attempts.try(game.name, () =>
        services.games.playInstant(game.name, {
          roundId: attempts.id(game.name),
          userId: agent.id,
          bet,
          params,
        }),
      );
      continue;
    }
    // A hand with turns: the simulated member stands at once.
    const roundId = attempts.id(game.name);
    const hand = await attempts.try(game.name, () =>
      services.games.startBlackjack({ roundId, userId: agent.id, bet }),
    );
    if (hand?.status === 'playing') {
      await attempts.try(`${game.name} stand`, () =>
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
