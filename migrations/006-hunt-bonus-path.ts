import type { Migration } from '../src/db/migrations.js';

/**
 * A window's boosted path is the bonus path, as members and admins read it; the windows kept it
 * as `beaconPath`, a second word for the same thing. It becomes `bonusPath`; windows already
 * renamed are left as they are, so a second run changes nothing.
 */
export const huntBonusPath: Migration = {
  id: '006-hunt-bonus-path',
  summary: 'hunt_windows: a window keeps its bonus path as `bonusPath`, no longer `beaconPath`',
  collections: ['hunt_windows'],
  async up(db) {
    await db
      .collection('hunt_windows')
      .updateMany({ beaconPath: { $exists: true } }, { $rename: { beaconPath: 'bonusPath' } });
  },
};
