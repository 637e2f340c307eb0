import type { Migration } from '../src/db/migrations.js';
import { settingsRevision } from './001-settings-revision.js';
import { markerSpecText } from './002-marker-spec-text.js';
import { unlinkedWorkersForgetSecret } from './003-unlinked-workers-forget-secret.js';
import { placeRollbackUndoes } from './004-place-rollback-undoes.js';
import { huntRounds } from './005-hunt-rounds.js';
import { huntBonusPath } from './006-hunt-bonus-path.js';
import { pokerPendingMarkers } from './007-poker-pending-markers.js';
import { markerSpecKeepAtLeast } from './008-marker-spec-keep-at-least.js';

/**
 * Every step of the stored documents' shapes, in order (docs/operating.md, "Upgrades"). A new step
 * is a file `NNN-name.ts` here and one line at the end of this list; a released step is never
 * changed or reordered (databases record it by its id), and its test builds a database in the
 * shape before it (test/db/migrations.test.ts).
 */
export const MIGRATIONS: readonly Migration[] = [
  settingsRevision,
  markerSpecText,
  unlinkedWorkersForgetSecret,
  placeRollbackUndoes,
  huntRounds,
  huntBonusPath,
  pokerPendingMarkers,
  markerSpecKeepAtLeast,
];
