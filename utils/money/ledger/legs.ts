import type { Filter } from 'mongodb';
import { isDuplicateKey } from '../../../src/db/duplicateKey.js';
import { CONFLICT, CONFLICT_RETRY_LIMIT, retryOnConflict } from '../../../src/db/retryOnConflict.js';
import {
  asUpdate,
  type BalanceDoc,
  type Book,
  CHANGES_FIELD,
  negate,
  readBalance,
  UNDONE_FIELD,
} from './books.js';
import type { LegSide, OperationSpec, PendingOp } from './documents.js';

/**
 * The single-document writes of one leg (one balance change of one operation attempt).
 * Every write here is one atomic, filter-guarded update, so its effect is decided by the
 * server alone, whatever the process that sent it does or suffers afterwards.
 */

/** The guard every apply carries: no marker of this operation, no fence of this attempt. */
function applyGuard(account: string, marker: PendingOp): Record<string, unknown> {
  return { _id: account, 'pendingOps.op': { $ne: marker.op }, 'fences.att': { $ne: marker.att } };
}

/**
 * Applies a leg with its marker. Returns the document after the change, or null when the
 * filter did not match (short balance, balance limit, another attempt's marker, a fence):
 * a null is definitive, the leg did not and will not apply through this request.
 */
export async function applyLeg(
  book: Book,
  account: string,
  side: LegSide,
  spec: OperationSpec,
  marker: PendingOp,
): Promise<BalanceDoc | null> {
  const projection = { [book.balanceField]: 1, [CHANGES_FIELD]: 1 };
  if (side === 'debit') {
    return book.collection.findOneAndUpdate(
      {
        ...applyGuard(account, marker),
        [book.balanceField]: { $gte: spec.amount + spec.keepAtLeast },
      } as Filter<BalanceDoc>,
      asUpdate({ $inc: { ...book.debitInc(spec), [CHANGES_FIELD]: 1 }, $push: { pendingOps: marker } }),
      { returnDocument: 'after', projection },
    );
  }
  const setOnInsert = Object.keys(book.creditSetOnInsert).length > 0 ? book.creditSetOnInsert : null;
  try {
    return await book.collection.findOneAndUpdate(
      {
        ...applyGuard(account, marker),
        [book.balanceField]: { $lte: book.maxBalance - spec.amount },
        // A closed account (a hold decided "nothing arrived", utils/money/holds/) takes no credit, ever.
        closed: { $ne: true },
      } as Filter<BalanceDoc>,
      asUpdate({
        $inc: { ...book.creditInc(spec), [CHANGES_FIELD]: 1 },
        $push: { pendingOps: marker },
        ...(setOnInsert ? { $setOnInsert: setOnInsert } : {}),
      }),
      { upsert: true, returnDocument: 'after', projection },
    );
  } catch (error) {
    // The document exists and the filter missed, so the upsert tried to insert it again.
    if (isDuplicateKey(error)) return null;
    throw error;
  }
}

/**
 * Applies the debits of several attempts on one document in one update: all of them, or
 * none (then each is applied on its own, as if this had never been tried). The guard is
 * every single guard at once: the balance covers the sum, no marker of any of the
 * operations, no fence of any of the attempts. Returns the document after all of them.
 */
export async function applyDebits(
  book: Book,
  account: string,
  debits: readonly { spec: OperationSpec; marker: PendingOp }[],
): Promise<BalanceDoc | null> {
  const inc: Record<string, number> = { [CHANGES_FIELD]: debits.length };
  for (const { spec } of debits) {
    for (const [field, value] of Object.entries(book.debitInc(spec))) inc[field] = (inc[field] ?? 0) + value;
  }
  const total = debits.reduce((sum, d) => sum + d.spec.amount, 0);
  const keepAtLeast = Math.max(...debits.map((d) => d.spec.keepAtLeast));
  return book.collection.findOneAndUpdate(
    {
      _id: account,
      'pendingOps.op': { $nin: debits.map((d) => d.marker.op) },
      'fences.att': { $nin: debits.map((d) => d.marker.att) },
      [book.balanceField]: { $gte: total + keepAtLeast },
    } as Filter<BalanceDoc>,
    asUpdate({ $inc: inc, $push: { pendingOps: { $each: debits.map((d) => d.marker) } } }),
    { returnDocument: 'after', projection: { [book.balanceField]: 1, [CHANGES_FIELD]: 1 } },
  );
}

export type LegDecision = 'applied' | 'fenced';

/**
 * Decides a leg whose outcome is unknown (a lost reply, a timeout, a crashed process): one
 * atomic update that matches only while the attempt's marker is absent and pushes a fence
 * for the attempt. Either the leg had applied before it (the marker is there: 'applied'),
 * or the fence is in place first and the leg's apply filter can never match again
 * ('fenced'), however late its request arrives. Safe to repeat: a second call finds the
 * marker or the fence. See "Ambiguous failures" in ECONOMY.md.
 */
export async function decideLeg(
  book: Book,
  account: string,
  opId: string,
  att: string,
  at: Date,
): Promise<LegDecision> {
  return retryOnConflict(
    CONFLICT_RETRY_LIMIT,
    async () => {
      try {
        await book.collection.updateOne(
          { _id: account, 'pendingOps.att': { $ne: att }, 'fences.att': { $ne: att } } as Filter<BalanceDoc>,
          asUpdate({ $push: { fences: { op: opId, att, at } }, $setOnInsert: book.empty }),
          { upsert: true },
        );
        return 'fenced';
      } catch (error) {
        if (!isDuplicateKey(error)) throw error;
      }
      const doc = await book.collection.findOne(
        { _id: account },
        { projection: { 'pendingOps.att': 1, 'fences.att': 1 } },
      );
      if (doc?.pendingOps?.some((p) => p.att === att)) return 'applied';
      if (doc?.fences?.some((f) => f.att === att)) return 'fenced';
      // Created concurrently between the upsert and the read: decide again.
      return CONFLICT;
    },
    `settling attempt ${att} of ${opId} on ${account}`,
  );
}

/**
 * Reverses one leg an attempt applied, guarded by that attempt's marker (so it happens at
 * most once) and, for a credit, by the balance (never below zero). Returns false when the
 * balance no longer allows it; true when reversed or when the marker was already gone.
 * Safe to repeat after a lost reply.
 */
export async function reverseLeg(
  book: Book,
  account: string,
  side: LegSide,
  spec: OperationSpec,
  att: string,
): Promise<boolean> {
  const inc = side === 'debit' ? negate(book.debitInc(spec)) : negate(book.creditInc(spec));
  const filter: Record<string, unknown> = {
    _id: account,
    pendingOps: { $elemMatch: { op: spec.opId, att } },
  };
  if (side === 'credit') filter[book.balanceField] = { $gte: spec.amount };
  const result = await book.collection.updateOne(
    filter as Filter<BalanceDoc>,
    asUpdate({ $inc: { ...inc, [UNDONE_FIELD]: 1 }, $pull: { pendingOps: { op: spec.opId, att } } }),
  );
  if (result.modifiedCount === 1) {
    await unsetEmptiedMarkers(book, account);
    return true;
  }
  const stillMarked = await book.collection.findOne(
    { _id: account, pendingOps: { $elemMatch: { op: spec.opId, att } } } as Filter<BalanceDoc>,
    { projection: { _id: 1 } },
  );
  return stillMarked === null;
}

/** Removes an attempt's marker after its audit events are durable (recovery's roll forward). */
export async function dropMarker(book: Book, account: string, opId: string, att: string): Promise<void> {
  await book.collection.updateOne({ _id: account }, asUpdate({ $pull: { pendingOps: { op: opId, att } } }));
  await unsetEmptiedMarkers(book, account);
}

/** Unsets an account's marker list once its last marker went (the checker reports an empty one). */
async function unsetEmptiedMarkers(book: Book, account: string): Promise<void> {
  await book.collection.updateOne(
    { _id: account, pendingOps: { $size: 0 } } as Filter<BalanceDoc>,
    asUpdate({ $unset: { pendingOps: '' } }),
  );
}

export type Closing = { closed: true } | { closed: false; balance: number; busy: boolean };

/**
 * Closes an account for good if it is empty and no operation is in flight on it: one atomic
 * upsert, so it either happens before a credit (which then can never match: `closed` is in
 * every credit's filter) or after one (and then finds the balance, and does not close).
 * Debits still apply to a closed account; it is empty, so none can. Safe to repeat.
 */
export async function closeAccount(book: Book, account: string): Promise<Closing> {
  const { [book.balanceField]: _balance, ...others } = book.empty;
  return retryOnConflict(
    CONFLICT_RETRY_LIMIT,
    async (): Promise<Closing | typeof CONFLICT> => {
      try {
        await book.collection.updateOne(
          { _id: account, [book.balanceField]: 0, 'pendingOps.0': { $exists: false } } as Filter<BalanceDoc>,
          asUpdate({
            $set: { closed: true },
            ...(Object.keys(others).length > 0 ? { $setOnInsert: others } : {}),
          }),
          { upsert: true },
        );
        return { closed: true };
      } catch (error) {
        if (!isDuplicateKey(error)) throw error;
      }
      const doc = await book.collection.findOne({ _id: account });
      if (!doc) return CONFLICT; // removed between the two requests: try again
      const balance = readBalance(book, doc);
      return { closed: false, balance, busy: (doc.pendingOps?.length ?? 0) > 0 };
    },
    `closing account ${account}`,
  );
}

/** The account each leg of an operation changes. */
export function legAccounts(spec: OperationSpec): { side: LegSide; account: string }[] {
  const legs: { side: LegSide; account: string }[] = [];
  if (spec.from !== null) legs.push({ side: 'debit', account: spec.from });
  if (spec.to !== null) legs.push({ side: 'credit', account: spec.to });
  return legs;
}
