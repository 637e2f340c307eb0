import type { Db } from 'mongodb';
import { inBatches } from '../../src/db/inChunks.js';
import { CookieEconomy } from '../money/cookieEconomy.js';
import type { HoldDoc } from '../money/holds/holdStore.js';
import { holdsByOwner, openOnes } from '../money/holds/invariants.js';
import type { Ledger } from '../money/ledger/ledger.js';
import { chipProblems } from './tableBooks.js';
import { type TableDoc, TableStore } from './tableStore.js';

/**
 * Every table's books: chips conserved, no Cookie operation stuck past `graceMs`, the pot
 * holding exactly what the table recorded in − out − rake, and a closed table holding nothing.
 * From a checkpoint `since`: the tables still open, those closed since and those with Cookie
 * operations in flight (TableStore.all). Read part by part, each part's pots and holds in one
 * read each: a year of tables is never held at once.
 */
export async function tableProblems(
  db: Db,
  ledger: Ledger,
  now: Date,
  graceMs: number,
  since?: Date,
): Promise<string[]> {
  const economy = new CookieEconomy(ledger);
  const problems: string[] = [];
  // A table closed within the grace before `since` is read once more: its moves count as late only after it.
  const tables = new TableStore(db).all(since && new Date(since.getTime() - graceMs));
  for await (const part of inBatches(tables)) {
    const ids = part.map((t) => t._id);
    const holds = await holdsByOwner(db, 'poker', ids);
    const pots = await ledger.balancesOf(
      'cookies',
      ids.map((id) => economy.pot('poker', id)),
    );
    for (const t of part) {
      const pot = pots.get(economy.pot('poker', t._id)) ?? 0;
      problems.push(...oneTable(t, pot, holds.get(t._id), now, graceMs));
    }
  }
  return problems;
}

function oneTable(
  t: TableDoc,
  pot: number,
  holds: HoldDoc[] | undefined,
  now: Date,
  graceMs: number,
): string[] {
  const found = [
    ...chipProblems(t),
    ...t.pending
      .filter((m) => now.getTime() - m.at.getTime() > graceMs)
      .map((m) => `poker table ${t._id}: ${m.op} (${m.state}) has been pending since ${m.at.toISOString()}`),
  ];
  // A move in flight has moved Cookies the table has not counted yet: its pot is compared once it has.
  if (t.pending.length > 0) return found;
  const books = t.chips.in - t.chips.out - t.chips.rake;
  if (pot !== books)
    found.push(
      `poker table ${t._id}: its pot holds ${pot}, its books say in ${t.chips.in} − out ${t.chips.out} − rake ${t.chips.rake} = ${books}`,
    );
  const open = openOnes(holds);
  if (open.length > 0)
    found.push(`poker table ${t._id}: no move pending, yet holds are open: ${open.join(', ')}`);
  if (t.status === 'closed' && t.game.seats.some((s) => s !== null))
    found.push(`poker table ${t._id}: closed, yet seats hold chips`);
  return found;
}
