import type { Db } from 'mongodb';
import { COOKIE_KINDS } from '../money/cookieEconomy.js';
import { openOnes, postedTo, withHolds } from '../money/holds/invariants.js';
import { InventoryStore } from './inventoryStore.js';
import { TradeStore } from './tradeStore.js';

/**
 * The trades' books (`npm run check:invariants`): a trade that ended holds nothing; a settled
 * one posted exactly each side's offer to the other, a cancelled one posted nothing; and no
 * item is still locked to a trade that ended.
 */
export async function tradeProblems(db: Db, since?: Date): Promise<string[]> {
  const units = new InventoryStore(db);
  const problems: string[] = [];
  async function* ended() {
    yield* await new TradeStore(db).endedBetween(since);
  }
  for await (const [trade, holds] of withHolds(db, 'trade', ended())) {
    const name = `trade ${trade._id}: ${trade.state}`;
    const open = openOnes(holds);
    if (open.length > 0) problems.push(`${name}, yet holds are open: ${open.join(', ')}`);
    for (const [from, to] of [
      [trade.a, trade.b],
      [trade.b, trade.a],
    ] as const) {
      const owed = trade.state === 'settled' ? from.cookies : 0;
      const paid = postedTo(holds, to.userId, COOKIE_KINDS.tradeSwap);
      if (paid !== owed) problems.push(`${name}: owed ${to.userId} ${owed}, but its holds paid ${paid}`);
    }
    const locked = await units.inTrade(trade._id);
    if (locked.length > 0)
      problems.push(`${name}, yet items are still locked to it: ${locked.map((u) => u._id).join(', ')}`);
  }
  return problems;
}
