import type { Migration } from '../src/db/migrations.js';

/**
 * A worker's secret signs its requests; once its owner unlinks it, nothing may be signed with
 * it again, so it is not kept: unlinking removes it (utils/hunt/workerStore.ts), and workers
 * unlinked before lose theirs here. The worker's id and owner stay, so a tip it made before
 * the unlink still pays its owner.
 */
export const unlinkedWorkersForgetSecret: Migration = {
  id: '003-unlinked-workers-forget-secret',
  summary: 'identity_delegations: an unlinked worker keeps no secret',
  collections: ['identity_delegations'],
  async up(db) {
    await db
      .collection('identity_delegations')
      .updateMany({ unlinkedAt: { $ne: null }, secret: { $exists: true } }, { $unset: { secret: '' } });
  },
};
