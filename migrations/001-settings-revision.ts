import type { Migration } from '../src/db/migrations.js';

/**
 * Every runtime setting counts its changes (`revision`): a channel's failure is kept per
 * revision, and setting the channel again starts a new one. Settings written before the count
 * existed had none; they start at 0, the revision the code read for them.
 */
export const settingsRevision: Migration = {
  id: '001-settings-revision',
  summary: 'runtime_config: every setting carries its revision (0 where none was kept)',
  collections: ['runtime_config'],
  async up(db) {
    await db
      .collection('runtime_config')
      .updateMany({ revision: { $exists: false } }, { $set: { revision: 0 } });
  },
};
