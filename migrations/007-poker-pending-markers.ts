import type { Db } from 'mongodb';
import type { Migration } from '../src/db/migrations.js';

const TABLES = 'poker_tables';

/**
 * A poker table's Cookie operations in flight are its pending moves; it also kept their ids as
 * markers (`appliedCookieOperations`), written and removed with the moves, so the list only
 * repeated `pending`. The moves are the markers now: `appliedCookieOperations` goes, `pending`
 * is unset when empty (never `[]`, as the markers were), and the markers' index is dropped
 * (start-up builds the in-flight index on `pending.op`). A second run finds nothing to change.
 */
export const pokerPendingMarkers: Migration = {
  id: '007-poker-pending-markers',
  summary:
    'poker_tables: the pending moves are the markers; `appliedCookieOperations` goes, no `pending: []`',
  collections: [TABLES],
  async up(db) {
    await dropMarkersIndex(db);
    const tables = db.collection(TABLES);
    await tables.updateMany(
      { appliedCookieOperations: { $exists: true } },
      { $unset: { appliedCookieOperations: '' } },
    );
    await tables.updateMany({ pending: { $size: 0 } }, { $unset: { pending: '' } });
  },
};

async function dropMarkersIndex(db: Db): Promise<void> {
  const indexes = await db
    .collection(TABLES)
    .listIndexes()
    .toArray()
    .catch((error: { codeName?: string }) => {
      // A collection never created has no index.
      if (error.codeName === 'NamespaceNotFound') return [];
      throw error;
    });
  if (indexes.some((index) => index.name === 'markers')) await db.collection(TABLES).dropIndex('markers');
}
