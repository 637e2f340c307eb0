import type { Feature } from '../../src/features/feature.js';
import { localized } from '../../src/i18n/definitions.js';
import { MODERATION_ERROR_MESSAGES } from '../../utils/moderation/errors.js';
import { MODERATION_MESSAGES } from '../../utils/moderation/messages.js';
import { SANCTIONS, SanctionStore } from '../../utils/moderation/sanctionStore.js';
import { Sanctions } from '../../utils/moderation/sanctions.js';
import { sanctionBan, sanctionLift, sanctionList } from './sanction.js';

/**
 * Moderators' bans (docs/operating.md, "Moderation"): `/admin sanction ban|lift|list`, and the
 * refusal of a banned member's commands and buttons in the banned scope, which each command
 * names (`sanctionScope`); the place service and the workers' API ask the same bans.
 */
export const moderationFeature: Feature = {
  name: 'moderation',
  adminGroups: [
    {
      ...localized(MODERATION_MESSAGES, 'admin.commands.sanction'),
      subcommands: [sanctionBan, sanctionLift, sanctionList],
    },
  ],
  messages: MODERATION_MESSAGES,
  errors: MODERATION_ERROR_MESSAGES,
  ensureIndexes: SanctionStore.ensureIndexes,
  createServices: (infra) => ({
    moderation: new Sanctions({ store: new SanctionStore(infra.db), clock: infra.clock }),
  }),
  refuseActor: async (deps, actorId, scope) => {
    if (scope) await deps.services.moderation.refuse(actorId, scope);
  },
  personalData: {
    collections: { [SANCTIONS]: { what: 'moderation:privacy.moderation_sanctions' } },
  },
  prune: async (deps) => ({ sanctions: await deps.services.moderation.prune() }),
};
