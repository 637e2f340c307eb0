import type { Db } from 'mongodb';
import { COOKIE_KINDS } from '../money/cookieEconomy.js';
import { endedOwnerProblems } from '../money/holds/invariants.js';
import { InventoryStore } from './inventoryStore.js';
import { ItemStore } from './itemStore.js';
import { PurchaseStore } from './purchaseStore.js';

/**
 * The shop's books (`npm run check:invariants`): a purchase that ended holds nothing; a done one
 * paid its price to the vault (or burned it) and left a unit with its buyer; one called off paid
 * nothing, gave nothing, and holds no unit of the stock.
 */
export async function shopProblems(db: Db, house: string, since?: Date): Promise<string[]> {
  const ended = await new PurchaseStore(db).endedBetween(since);
  const items = new ItemStore(db);
  const units = new InventoryStore(db);
  async function* source() {
    yield* ended;
  }
  const problems = await endedOwnerProblems(db, 'shop', source(), (purchase) => ({
    name: `purchase ${purchase._id}: ${purchase.state}`,
    paidAs: 'price',
    kind: COOKIE_KINDS.shopPurchase,
    paidTo: [house],
    owed: purchase.state === 'done' && purchase.toVault ? purchase.item.price : 0,
  }));
  for (const purchase of ended) {
    const unit = await units.get(purchase._id);
    const item = await items.get(purchase.item._id);
    if (purchase.state === 'failed') {
      if (unit) problems.push(`purchase ${purchase._id}: called off, yet its buyer holds ${unit.name}`);
      if (item?.claims.includes(purchase._id))
        problems.push(`purchase ${purchase._id}: called off, yet it holds a unit of ${item.name}'s stock`);
    } else if (!unit && purchase.endedAt && (!since || purchase.endedAt >= since)) {
      problems.push(`purchase ${purchase._id}: done, yet no unit of ${purchase.item.name} was given`);
    }
  }
  return problems;
}
