import type { Agent } from './agent.js';
import type { Behaviours } from './behaviours.js';
import { chance, pick } from './random.js';
import type { SimContext } from './simContext.js';

/** The one server of a run: its shop is the simulated members'. */
export const SIM_SERVER = '800000000000000001';

type ShopPlan = Behaviours['operator']['shop'];

/** The operator stocks the shelf as a server's moderators would, once, at the start. */
export async function openShop(ctx: SimContext, shop: ShopPlan): Promise<void> {
  for (const [i, item] of shop.items.entries()) {
    const roleId = `80000000000000${String(100 + i)}`;
    if (item.role && item.income)
      await ctx.deps.services.shop.setIncome({
        guildId: SIM_SERVER,
        roleId,
        actorId: 'moderator',
        terms: { kind: 'fixed', amount: item.income.amount },
        everyH: item.income.everyH,
      });
    await ctx.deps.services.shop.addItem({
      guildId: SIM_SERVER,
      actorId: 'moderator',
      kind: item.role ? 'role' : 'item',
      effect: item.role ? null : (item.effect ?? 'custom'),
      roleId: item.role ? roleId : null,
      fields: {
        name: item.name,
        description: '',
        price: item.price,
        stockLeft: item.stock ?? null,
        perMember: item.perMember ?? null,
        requiredRoleId: null,
        durationH: item.hours ?? null,
      },
    });
  }
}

/**
 * A member shopping: one item it can afford, picked at random (a role it holds is refused by the
 * shop and counted as a refusal), and now and then one of its server items sold back.
 */
export async function shop(ctx: SimContext, agent: Agent, balance: number): Promise<void> {
  const { services } = ctx.deps;
  const shelf = (await services.shop.shelf(SIM_SERVER)).filter((item) => item.price <= balance / 2);
  if (shelf.length > 0) {
    const item = pick(ctx.rng, shelf);
    await ctx.attempts.try('shop', () =>
      services.shop.buy({
        opId: ctx.attempts.id('shop'),
        guildId: SIM_SERVER,
        userId: agent.id,
        item: item._id,
        roleIds: [],
      }),
    );
  }
  if (!chance(ctx.rng, 0.3)) return;
  const owned = (await services.shop.owned(agent.id)).filter((unit) => unit.effect === 'custom');
  if (owned.length === 0) return;
  const unit = pick(ctx.rng, owned);
  await ctx.attempts.try('sell back', () =>
    services.shop.sell({
      opId: ctx.attempts.id('sell'),
      owner: agent.id,
      unitId: unit._id,
      guildId: SIM_SERVER,
    }),
  );
}

/**
 * Two members trade: the agent puts in a share of its Cookies, the other one of its items when
 * it has one; both confirm what they see, and now and then one calls it off instead.
 */
export async function trade(ctx: SimContext, agent: Agent, other: Agent, balance: number): Promise<void> {
  const { trades, shop: shopService } = ctx.deps.services;
  const tradeId = ctx.attempts.id('trade');
  const opened = await ctx.attempts.try('trade', () =>
    trades.open({ tradeId, guildId: SIM_SERVER, from: agent.id, to: other.id, locale: 'en' }),
  );
  if (!opened) return;
  await ctx.attempts.try('trade', () =>
    trades.setCookies({ tradeId, userId: agent.id, amount: Math.max(1, Math.floor(balance * 0.05)) }),
  );
  const [item] = (await shopService.owned(other.id)).filter((unit) => unit.kind === 'item' && !unit.tradeId);
  if (item)
    await ctx.attempts.try('trade', () => trades.addItem({ tradeId, userId: other.id, unitId: item._id }));
  if (chance(ctx.rng, 0.2)) {
    await ctx.attempts.try('trade', () => trades.cancel({ tradeId, userId: other.id }));
    return;
  }
  const now = await trades.get(tradeId);
  for (const who of [agent, other])
    await ctx.attempts.try('trade', () =>
      trades.confirm({ tradeId, userId: who.id, revision: now?.revision ?? 0 }),
    );
}
