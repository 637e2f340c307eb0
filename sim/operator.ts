import type { Agent } from './agent.js';
import type { Behaviours } from './behaviours.js';
import { chance, pick, uniform } from './random.js';
import type { SimContext } from './simContext.js';

type Operator = Behaviours['operator'];

/** What members hold when the run starts (a mature server), granted as a moderator would. */
export async function openingBalances(ctx: SimContext, agents: Agent[]): Promise<void> {
  for (const agent of agents) {
    const amount = Math.round(uniform(ctx.rng, agent.archetype.startingCookies));
    if (amount === 0) continue;
    await ctx.deps.profiles.touch({ id: agent.id, name: agent.archetype.name });
    await ctx.deps.services.cookies.grant({
      opId: `sim.opening:${agent.id}`,
      adminId: 'operator',
      to: agent.id,
      amount,
      reason: 'savings of a mature server',
    });
  }
}

export async function fundVault(ctx: SimContext, operator: Operator): Promise<void> {
  await ctx.deps.services.vault.fund({
    opId: 'sim.vault.fund',
    adminId: 'operator',
    amount: operator.vaultFund,
    reason: 'the operator funds the vault',
  });
}

/** How many prizes today: `count`, or `count` per `perMembers` members (a fraction is a chance of one more). */
function prizesToday(
  ctx: SimContext,
  grants: { count: number; perMembers?: number | undefined },
  members: number,
): number {
  if (grants.perMembers === undefined) return grants.count;
  const expected = (grants.count * members) / grants.perMembers;
  return Math.floor(expected) + (chance(ctx.rng, expected - Math.floor(expected)) ? 1 : 0);
}

/** Moderators' prizes at noon, to members who play today. */
export async function noonPrizes(
  ctx: SimContext,
  operator: Operator,
  agents: Agent[],
  now: number,
): Promise<void> {
  const { deps, attempts } = ctx;
  const today = agents.filter((a) => a.session);
  if (today.length === 0) return;
  const { cookieGrantsPerDay: cookies, placeGrantsPerDay: place } = operator;
  for (let i = 0; i < prizesToday(ctx, cookies, agents.length); i++) {
    await attempts.try('grant cookies', () =>
      deps.services.cookies.grant({
        opId: `sim.grant.cookies:${now}:${i}`,
        adminId: 'moderator',
        to: pick(ctx.rng, today).id,
        amount: cookies.amount,
        reason: 'event prize',
      }),
    );
  }
  for (let i = 0; i < prizesToday(ctx, place, agents.length); i++) {
    await attempts.try('grant points', () =>
      deps.services.place.grant({
        opId: `sim.grant.place:${now}:${i}`,
        moderatorId: 'moderator',
        to: pick(ctx.rng, today).id,
        amount: place.points * 1000,
        reason: 'event prize',
      }),
    );
  }
}
