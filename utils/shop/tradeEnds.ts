import type { Clock } from '../../src/clock.js';
import { COOKIE_KINDS } from '../money/cookieEconomy.js';
import type { HoldState, Holds } from '../money/holds/holds.js';
import type { InventoryStore } from './inventoryStore.js';
import type { TradeDoc, TradeStore } from './tradeStore.js';

export const OPEN_HOLDS: readonly HoldState[] = ['reserving', 'held', 'posting', 'voiding'];

interface EndDeps {
  holds: Holds;
  units: InventoryStore;
  trades: TradeStore;
  clock: Clock;
}

/**
 * The swap of a trade that is `settling`: each side's hold posted to the other, each side's
 * items handed over, then `settled`. Every step is safe to repeat, so a run stopped anywhere is
 * finished by the next one the same way.
 */
export async function settle(deps: EndDeps, trade: TradeDoc): Promise<TradeDoc> {
  const pairs = [
    [trade.a, trade.b],
    [trade.b, trade.a],
  ] as const;
  for (const [from, to] of pairs) {
    if (from.holdId)
      await deps.holds.post(from.holdId, [
        { to: to.userId, amount: from.cookies, kind: COOKIE_KINDS.tradeSwap },
      ]);
  }
  for (const [from, to] of pairs) {
    await deps.units.swap(
      trade._id,
      from.units.map((u) => u.id),
      from.userId,
      to.userId,
    );
  }
  await sweep(deps, trade, [trade.a.holdId, trade.b.holdId]);
  return (
    (await deps.trades.settled(trade._id, deps.clock.now())) ?? (await deps.trades.get(trade._id)) ?? trade
  );
}

/**
 * Voids every hold of a trade that ended but those its swap posted, and frees every item still
 * locked to it (a cancelled trade's, or one a change left behind when it was interrupted).
 */
export async function sweep(deps: EndDeps, trade: TradeDoc, posted: (string | null)[]): Promise<void> {
  const open = await deps.holds.ofOwner({ kind: 'trade', id: trade._id }, OPEN_HOLDS);
  for (const hold of open.filter((h) => !posted.includes(h._id))) await deps.holds.void(hold._id);
  await deps.units.unlock(trade._id);
}
