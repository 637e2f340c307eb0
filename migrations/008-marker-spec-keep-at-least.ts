import type { Document } from 'mongodb';
import type { Migration } from '../src/db/migrations.js';

const BOOKS = ['items_cookies', 'place_wallets'] as const;
const STUCK = 'ledger_stuck_ops';

/**
 * An operation names what the debited account must keep after it (the house vault's minimum) as
 * `keepAtLeast`; it was `reserve`, the word a hold's first step has. Markers of operations in
 * flight keep their operation as JSON text (migration 002), and stuck operations as an object:
 * both are renamed. One `$set` per marker, guarded by its attempt and its old text, so an
 * operation that finishes meanwhile is left alone and a second run finds nothing to change.
 */
export const markerSpecKeepAtLeast: Migration = {
  id: '008-marker-spec-keep-at-least',
  summary:
    'items_cookies, place_wallets, ledger_stuck_ops: an operation keeps `keepAtLeast`, no longer `reserve`',
  collections: [...BOOKS, STUCK],
  async up(db) {
    for (const book of BOOKS) {
      const accounts = db.collection<Document>(book);
      for await (const account of accounts.find({ 'pendingOps.0': { $exists: true } })) {
        for (const marker of account.pendingOps as Document[]) {
          const renamed = renamedSpec(marker.spec);
          if (renamed === null) continue;
          await accounts.updateOne(
            { _id: account._id },
            { $set: { 'pendingOps.$[m].spec': renamed } },
            { arrayFilters: [{ 'm.att': marker.att, 'm.spec': marker.spec }] },
          );
        }
      }
    }
    await db
      .collection(STUCK)
      .updateMany({ 'spec.reserve': { $exists: true } }, { $rename: { 'spec.reserve': 'spec.keepAtLeast' } });
  },
};

/** The spec's text with `reserve` renamed in its place, or null when it has none. */
function renamedSpec(text: unknown): string | null {
  if (typeof text !== 'string') return null;
  const spec = JSON.parse(text) as Record<string, unknown>;
  if (!('reserve' in spec)) return null;
  return JSON.stringify(
    Object.fromEntries(
      Object.entries(spec).map(([key, value]) => [key === 'reserve' ? 'keepAtLeast' : key, value]),
    ),
  );
}
