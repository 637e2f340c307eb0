import type { Document } from 'mongodb';
import type { Migration } from '../src/db/migrations.js';

const BOOKS = ['items_cookies', 'place_wallets'] as const;

/**
 * An operation's marker keeps the whole operation for recovery (`pendingOps[].spec`). It is one
 * JSON string since markers on a hot account were found to be rewritten three times faster so
 * (ECONOMY.md, "A hot account"); markers written before held the object. A database upgraded
 * while an operation was in flight may hold such a marker: it is rewritten as the string the
 * ledger reads. One `$set` per marker, guarded by the marker's attempt, so an operation that
 * finishes meanwhile is left alone.
 */
export const markerSpecText: Migration = {
  id: '002-marker-spec-text',
  summary: 'items_cookies, place_wallets: an operation marker keeps its operation as JSON text',
  collections: [...BOOKS],
  async up(db) {
    for (const book of BOOKS) {
      const accounts = db.collection<Document>(book);
      const holding = accounts.find({ pendingOps: { $elemMatch: { spec: { $type: 'object' } } } });
      for await (const account of holding) {
        for (const marker of account.pendingOps as Document[]) {
          if (typeof marker.spec !== 'object' || marker.spec === null) continue;
          await accounts.updateOne(
            { _id: account._id },
            { $set: { 'pendingOps.$[m].spec': JSON.stringify(marker.spec) } },
            { arrayFilters: [{ 'm.att': marker.att, 'm.spec': { $type: 'object' } }] },
          );
        }
      }
    }
  },
};
