import { type REST, Routes } from 'discord.js';
import type { BotDeps } from '../../src/interactions/types.js';
import type { Rng } from '../../src/rng.js';
import type { ShopRound } from './gamesFaultShop.js';

/** How a member process counts what it did: an operation (refusals fine), or presses that conflict at once. */
export interface OpRunner {
  attempt(run: () => Promise<unknown>): Promise<void>;
  race(...runs: (() => Promise<unknown>)[]): Promise<void>;
}

/**
 * What members do in the shop during a round of the games fault suite, one operation a call:
 * buy each kind of item, press Buy twice, race for the last units, sell back, give, use, steal
 * from a member a padlock guards, and trade (each side's Cookies and items in, then both
 * Confirms at once, against a second press, a cancel, a change or a gift of an item in it; the
 * timekeeper's expiry races them all). The roles a Buy names are the member's as Discord has
 * them now, as an interaction carries them.
 */
export function shopOps(deps: BotDeps, rest: REST, shelf: ShopRound, rng: Rng, run: OpRunner) {
  const s = deps.services;
  const pick = <T>(items: readonly T[]): T => items[rng.int(0, items.length)] as T;
  const items = [shelf.timedRole, shelf.keptRole, shelf.padlock, shelf.ticket];

  async function rolesOf(member: string): Promise<string[]> {
    const found = (await rest.get(Routes.guildMember(shelf.guildId, member))) as { roles?: string[] };
    return found.roles ?? [];
  }

  async function buy(opId: string, member: string, item: string) {
    return s.shop.buy({ opId, guildId: shelf.guildId, userId: member, item, roleIds: await rolesOf(member) });
  }

  /** One of the member's free units (of an item, not a role), or null. */
  async function unitOf(member: string, effect?: string) {
    const owned = (await s.shop.owned(member, shelf.guildId)).filter(
      (u) => u.kind === 'item' && (effect === undefined || u.effect === effect),
    );
    return owned.length > 0 ? pick(owned) : null;
  }

  /** Each member seen, so a steal may reach them, and a bag to steal with (the first collect fills it). */
  async function prepare(members: readonly string[]): Promise<void> {
    for (const [i, m] of members.entries()) {
      await deps.profiles.touch({ id: m, name: `member${i}` });
      await s.collect.collect(m, 'command').catch(() => undefined);
    }
  }

  /** A trade from its opening to both Confirms, raced by a second press or by what would change or end it. */
  async function trade(member: string, other: string, id: string): Promise<void> {
    const tradeId = `tr:${id}`;
    await run.attempt(() =>
      s.trades.open({ tradeId, guildId: shelf.guildId, from: member, to: other, locale: 'en' }),
    );
    const mine = await unitOf(member);
    const theirs = await unitOf(other);
    await run.attempt(() => s.trades.setCookies({ tradeId, userId: member, amount: 20 + rng.int(0, 200) }));
    if (mine) await run.attempt(() => s.trades.addItem({ tradeId, userId: member, unitId: mine._id }));
    if (theirs) await run.attempt(() => s.trades.addItem({ tradeId, userId: other, unitId: theirs._id }));
    else
      await run.attempt(() => s.trades.setCookies({ tradeId, userId: other, amount: 10 + rng.int(0, 100) }));
    const seen = await s.trades.get(tradeId);
    if (!seen) return;
    const confirm = (userId: string) => () => s.trades.confirm({ tradeId, userId, revision: seen.revision });
    const against = [
      confirm(other),
      () => s.trades.cancel({ tradeId, userId: other }),
      () => s.trades.setCookies({ tradeId, userId: member, amount: 5 }),
      () =>
        mine
          ? s.shop.gift({ opId: `gift:${id}`, from: member, to: other, unitId: mine._id })
          : s.trades.cancel({ tradeId, userId: member }),
    ];
    return run.race(confirm(member), confirm(other), pick(against));
  }

  async function shopOp(kind: number, member: string, others: readonly string[], id: string) {
    const other = pick(others.filter((m) => m !== member));
    switch (kind) {
      case 0:
        return run.attempt(() => buy(`buy:${id}`, member, pick(items)));
      case 1:
        return run.attempt(() => buy(`buy:${id}`, member, pick([shelf.timedRole, shelf.keptRole])));
      case 2: {
        // Buy pressed twice: one purchase.
        const item = pick(items);
        return run.race(
          () => buy(`twice:${id}`, member, item),
          () => buy(`twice:${id}`, member, item),
        );
      }
      case 3: {
        // Every member at once for the last units of the round's stock.
        const item = pick([shelf.ticket, shelf.keptRole]);
        return run.race(...others.map((m, i) => () => buy(`rush:${id}:${i}`, m, item)));
      }
      case 4: {
        const unit = await unitOf(member);
        if (!unit) return run.attempt(() => buy(`buy:${id}`, member, shelf.ticket));
        const sell = () =>
          s.shop.sell({ opId: `sell:${id}`, owner: member, unitId: unit._id, guildId: shelf.guildId });
        // Sell pressed twice, or a sale against a gift of the same unit.
        return rng.int(0, 2) === 0
          ? run.race(sell, sell)
          : run.race(sell, () =>
              s.shop.gift({ opId: `gift:${id}`, from: member, to: other, unitId: unit._id }),
            );
      }
      case 5: {
        const unit = await unitOf(member);
        if (!unit) return run.attempt(() => buy(`buy:${id}`, member, shelf.padlock));
        return run.attempt(() =>
          s.shop.gift({ opId: `gift:${id}`, from: member, to: other, unitId: unit._id }),
        );
      }
      case 6: {
        const unit = await unitOf(member);
        if (!unit) return run.attempt(() => buy(`buy:${id}`, member, shelf.ticket));
        return run.attempt(() => s.shop.use({ opId: `use:${id}`, owner: member, unitId: unit._id }));
      }
      default: {
        // A steal against a padlock's holder, raced by a sale of that padlock.
        let victim: string | null = null;
        for (const m of others) if (m !== member && (await unitOf(m, 'padlock'))) victim = m;
        if (!victim) return run.attempt(() => buy(`buy:${id}`, other, shelf.padlock));
        const lock = await unitOf(victim, 'padlock');
        const steal = () => s.steal.steal({ opId: `steal:${id}`, thief: member, victim: victim as string });
        if (!lock || rng.int(0, 2) === 0) return run.attempt(steal);
        return run.race(steal, () =>
          s.shop.sell({
            opId: `sell:${id}`,
            owner: victim as string,
            unitId: lock._id,
            guildId: shelf.guildId,
          }),
        );
      }
    }
  }

  return { prepare, shopOp, trade };
}
