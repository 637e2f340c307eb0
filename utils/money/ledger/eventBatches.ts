import type { LedgerEventDoc } from './documents.js';
import { TurnBatcher } from './turnBatcher.js';

const fulfilled = <R>(value: R): PromiseFulfilledResult<R> => ({ status: 'fulfilled', value });

/**
 * Reads the audit events of operations, many in one request: one `find` by `_id`
 * (`opId:debit`, `opId:credit`) per turn of the event loop. Under load this saves a round
 * trip per transfer (`npm run bench:ledger`).
 */
export function eventReader(find: (ids: string[]) => Promise<LedgerEventDoc[]>) {
  const batcher = new TurnBatcher<string, LedgerEventDoc[]>(async (opIds) => {
    const found = await find([...new Set(opIds)].flatMap((op) => [`${op}:debit`, `${op}:credit`]));
    return opIds.map((op) => fulfilled(found.filter((e) => e.opId === op)));
  });
  return (opId: string) => batcher.call(opId);
}

/**
 * Writes the audit events of operations, many in one request: one unordered `insertMany` per
 * turn of the event loop. Unordered is safe here: while an attempt holds its markers, no
 * other attempt of its id can apply a leg, so none can write its events (ECONOMY.md,
 * "The marker pattern"); the only possible collision is recovery writing this same attempt's events.
 * Only a request that fully succeeded confirms a caller's events: a network failure comes
 * back as a bulk error that lists no failed document. So when a shared request fails, each
 * caller's events are sent again on their own, and each caller gets its own answer (a
 * duplicate is then read back by the ledger's `#finish`).
 */
export function eventWriter(insert: (docs: LedgerEventDoc[]) => Promise<unknown>) {
  const batcher = new TurnBatcher<LedgerEventDoc[], void>(async (lists) => {
    try {
      await insert(lists.flat());
      return lists.map(() => fulfilled(undefined));
    } catch (error) {
      if (lists.length === 1) throw error;
      return Promise.allSettled(lists.map(async (list) => void (await insert(list))));
    }
  });
  return (events: LedgerEventDoc[]) => batcher.call(events);
}
