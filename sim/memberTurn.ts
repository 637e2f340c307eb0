import type { Agent } from './agent.js';
import { ACTIONS, type Action } from './behaviours.js';
import type { Heists } from './heists.js';
import { betFor, martingale, playHouseGames } from './houseGames.js';
import type { HuntNow, HuntSide } from './huntSide.js';
import type { PokerTable } from './pokerTable.js';
import { chance, pick } from './random.js';
import { shop, trade } from './shopSide.js';
import type { SimContext } from './simContext.js';
import { STEP_MS, STEPS_PER_HOUR } from './time.js';

/** What a member's turn may reach: the run's context, the other members and the shared games. */
export interface MemberWorld {
  readonly ctx: SimContext;
  readonly members: ReadonlyMap<string, Agent>;
  readonly hunting: HuntSide;
  readonly heists: Heists;
  readonly table: PokerTable;
}

/** One member's step: it collects when due, hunts on its hunting days, and does what it rolled. */
export async function memberTurn(
  world: MemberWorld,
  agent: Agent,
  active: Agent[],
  now: number,
  hunt: HuntNow | null,
): Promise<void> {
  const { ctx } = world;
  const { services, ledger } = ctx.deps;
  if (now >= agent.nextCollectAt) {
    const collected = await ctx.attempts.try('collect', () => services.collect.collect(agent.id, 'command'));
    agent.nextCollectAt = now + (collected ? ctx.settings.collectCooldownMs : 10 * 60_000);
  }
  if (hunt && agent.huntsToday) {
    agent.huntMs += STEP_MS;
    await world.hunting.hunt(agent, hunt, now);
  }
  // What the member does this step is decided first: only one about to act reads its balance.
  const does = new Set(ACTIONS.filter((action) => rolls(ctx, agent, action)));
  if (agent.strategy === 'richest_thief') return stealFromTheRichest(world, agent, now, does);
  if (does.size === 0) return;
  const balance = await ledger.balanceOf('cookies', agent.id);
  if (agent.strategy === 'martingale') return martingale(ctx, agent, balance);
  const others = active.filter((a) => a !== agent);

  const bet = betFor(ctx, agent, balance);
  if (bet !== null) await playHouseGames(ctx, agent, does, bet);
  if (others.length > 0 && balance > 20 && does.has('give')) {
    const promptId = ctx.attempts.id('give');
    const to = pick(ctx.rng, others).id;
    await ctx.attempts.try('give', async () => {
      await services.cookies.openGive({ promptId, from: agent.id, to, amount: Math.ceil(balance * 0.05) });
      return services.cookies.confirmGive(promptId, agent.id);
    });
  }
  if (others.length > 0 && does.has('steal')) {
    const victim = pick(ctx.rng, others).id;
    await ctx.attempts.try('steal', () =>
      services.steal.steal({ opId: ctx.attempts.id('steal'), thief: agent.id, victim }),
    );
  }
  if (does.has('heist')) await world.heists.take(agent, now, balance);
  if (does.has('poker')) await world.table.sitDown(agent, balance);
  if (does.has('shop')) await shop(ctx, agent, balance);
  if (others.length > 0 && does.has('trade')) await trade(ctx, agent, pick(ctx.rng, others), balance);
}

function rolls(ctx: SimContext, agent: Agent, action: Action): boolean {
  return chance(ctx.rng, (agent.archetype.rates[action] ?? 0) / STEPS_PER_HOUR);
}

async function stealFromTheRichest(
  world: MemberWorld,
  agent: Agent,
  now: number,
  does: Set<Action>,
): Promise<void> {
  const { deps, attempts } = world.ctx;
  if (now < agent.nextStealAt || !does.has('steal')) return;
  const richest = (await deps.ledger.queries.topBalances('cookies', 12)).filter(
    (row) => row.account !== agent.id && world.members.has(row.account),
  );
  // The richest it may rob: a protected or exhausted victim refuses, and it tries the next.
  for (const { account } of richest.slice(0, 4)) {
    const done = await attempts.try('steal', () =>
      deps.services.steal.steal({ opId: attempts.id('steal'), thief: agent.id, victim: account }),
    );
    if (done) break;
  }
  agent.nextStealAt = now + world.ctx.settings.stealCooldownMs;
}
