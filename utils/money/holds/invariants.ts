import type { Db } from 'mongodb';
import { inBatches } from '../../../src/db/inChunks.js';
import type { Ledger } from '../ledger/ledger.js';
import { type HoldDoc, HoldStore, OPEN_HOLD_STATES } from './holdStore.js';
import { ENDED } from './holds.js';

/**
 * Every hold of one owner kind (ended ones too), by owner id: what a feature's checker holds
 * against its books. `owners`: only theirs (the owners a checkpointed check looks at).
 */
export async function holdsByOwner(db: Db, kind: string, owners?: string[]): Promise<Map<string, HoldDoc[]>> {
  const byOwner = new Map<string, HoldDoc[]>();
  for await (const hold of new HoldStore(db).ofKind(kind, owners)) {
    byOwner.set(hold.owner.id, [...(byOwner.get(hold.owner.id) ?? []), hold]);
  }
  return byOwner;
}

/**
 * Each owner `source` yields with its holds of `kind` (undefined: it has none, an owner from
 * before holds), read part by part: a checker holds a year of rounds or heists against their
 * holds without reading either whole.
 */
export async function* withHolds<T extends { _id: string }>(
  db: Db,
  kind: string,
  source: AsyncIterable<T>,
): AsyncIterable<[T, HoldDoc[] | undefined]> {
  for await (const owners of inBatches(source)) {
    const holds = await holdsByOwner(
      db,
      kind,
      owners.map((o) => o._id),
    );
    for (const owner of owners) yield [owner, holds.get(owner._id)];
  }
}

/** The holds of an owner that are still open, as "id (state)" for a problem's text. */
export function openOnes(holds: HoldDoc[] | undefined): string[] {
  return (holds ?? []).filter((h) => !ENDED.includes(h.state)).map((h) => `${h._id} (${h.state})`);
}

/** What an owner's holds posted to `account` (and of which kind, when given). */
export function postedTo(holds: HoldDoc[] | undefined, account: string, kind?: string): number {
  return (holds ?? [])
    .filter((h) => h.state === 'posted')
    .flatMap((h) => h.postings ?? [])
    .filter((p) => p.to === account && (kind === undefined || p.kind === kind))
    .reduce((sum, p) => sum + p.amount, 0);
}

/** What an owner that ended (a round, a heist) recorded paying, held against its holds. */
export interface EndedBooks {
  /** How a problem names the owner: "game round r1: settled". */
  name: string;
  /** The word for what it paid: "payout", "loot". */
  paidAs: string;
  /** The ledger kind of those payments. */
  kind: string;
  /** Who it paid. */
  paidTo: readonly string[];
  /** What it recorded paying them, in all. */
  owed: number;
}

/**
 * The books of owners that ended (`npm run check:invariants`): none still has a hold open, and
 * their holds paid exactly what each recorded. An owner from before holds has none to check.
 */
export async function endedOwnerProblems<T extends { _id: string }>(
  db: Db,
  kind: string,
  ended: AsyncIterable<T>,
  booksOf: (owner: T) => EndedBooks,
): Promise<string[]> {
  const problems: string[] = [];
  for await (const [owner, own] of withHolds(db, kind, ended)) {
    if (!own) continue;
    const books = booksOf(owner);
    const open = openOnes(own);
    if (open.length > 0) problems.push(`${books.name}, yet holds are open: ${open.join(', ')}`);
    const paid = books.paidTo.reduce((sum, account) => sum + postedTo(own, account, books.kind), 0);
    if (paid !== books.owed)
      problems.push(`${books.name} with ${books.paidAs} ${books.owed}, but its holds paid ${paid}`);
  }
  return problems;
}

/**
 * The holds' own books (`npm run check:invariants`): each hold's account holds what its state
 * says (its amount while held, nothing once ended), and no hold stays open past its deadline
 * plus `graceMs` (its timer should have ended it). Each problem names the hold and its owner.
 */
export async function holdProblems(
  db: Db,
  ledger: Ledger,
  now: Date,
  graceMs: number,
  since?: Date,
): Promise<string[]> {
  const problems: string[] = [];
  // Part by part, each part's accounts in one read: a year of holds is never held at once.
  for await (const holds of inBatches(new HoldStore(db).all(since))) {
    problems.push(...(await partProblems(ledger, holds, now, graceMs)));
  }
  return problems;
}

async function partProblems(ledger: Ledger, holds: HoldDoc[], now: Date, graceMs: number): Promise<string[]> {
  const problems: string[] = [];
  const balances = new Map<string, number>();
  for (const currency of ['cookies', 'place'] as const) {
    const accounts = holds.filter((h) => h.currency === currency && h.from !== null).map((h) => h.account);
    for (const [account, balance] of await ledger.balancesOf(currency, accounts)) {
      balances.set(`${currency}/${account}`, balance);
    }
  }
  for (const hold of holds) {
    const who = `hold ${hold._id} (${hold.owner.kind} ${hold.owner.id})`;
    if (hold.from === null) {
      if (!ENDED.includes(hold.state) && late(hold, now, graceMs))
        problems.push(`${who}: still ${hold.state} past its deadline`);
      continue;
    }
    const balance = balances.get(`${hold.currency}/${hold.account}`) ?? 0;
    if (ENDED.includes(hold.state) && balance !== 0) {
      problems.push(`${who}: ${hold.state}, but its account still holds ${balance}`);
    }
    if (hold.state === 'held' && balance !== hold.amount) {
      problems.push(`${who}: holds ${hold.amount}, but its account has ${balance}`);
    }
    if (OPEN_HOLD_STATES.includes(hold.state) && late(hold, now, graceMs)) {
      problems.push(
        `${who}: still ${hold.state} at ${balance} past its deadline ${hold.deadline.toISOString()}`,
      );
    }
  }
  return problems;
}

function late(hold: HoldDoc, now: Date, graceMs: number): boolean {
  return now.getTime() - hold.deadline.getTime() > graceMs;
}
