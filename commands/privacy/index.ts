import type { Feature } from '../../src/features/feature.js';
import { localized } from '../../src/i18n/definitions.js';
import { defineCommand } from '../../src/interactions/defineCommand.js';
import { Erasures } from '../../utils/privacy/erasure.js';
import { ErasureStore } from '../../utils/privacy/erasureStore.js';
import { PRIVACY_ERROR_MESSAGES } from '../../utils/privacy/errors.js';
import { Freeze } from '../../utils/privacy/freeze.js';
import { PRIVACY_MESSAGES } from '../../utils/privacy/messages.js';
import { PersonalDataStore } from '../../utils/privacy/personalDataStore.js';
import { PrivacyService } from '../../utils/privacy/privacyService.js';
import { Retention } from '../../utils/privacy/retention.js';
import { SESSION_TTL_MS } from '../../utils/web/webService.js';
import { adminForget, adminForgetButtonHandler } from './adminForget.js';
import { privacyExport } from './export.js';
import { forgetButtonHandler, keepButtonHandler, privacyForget } from './forget.js';
import { privacyInfo } from './info.js';

export const privacyCommand = defineCommand({
  ...localized(PRIVACY_MESSAGES, 'commands.privacy'),
  access: 'everyone',
  category: 'privacy:category',
  subcommands: [privacyInfo, privacyExport, privacyForget],
  components: [forgetButtonHandler, keepButtonHandler],
});

/**
 * A member's rights over their data (docs/operating.md, "Privacy"): `/privacy info`, `/privacy
 * export`, `/privacy forget`, `/admin privacy forget`, and the timer that removes expired records.
 */
export const privacyFeature: Feature = {
  name: 'privacy',
  commands: [privacyCommand],
  adminGroups: [
    {
      ...localized(PRIVACY_MESSAGES, 'admin.commands.privacy'),
      subcommands: [adminForget],
      components: [adminForgetButtonHandler],
    },
  ],
  messages: PRIVACY_MESSAGES,
  errors: PRIVACY_ERROR_MESSAGES,
  ensureIndexes: ErasureStore.ensureIndexes,
  createServices(infra) {
    const cookies = infra.cookieEconomy;
    const place = infra.placeEconomy;
    const data = new PersonalDataStore(infra.db);
    const erasures = new ErasureStore(infra.db);
    const freeze = new Freeze({ erasures });
    const { backup } = infra.config;
    return {
      privacy: new PrivacyService({
        erasures: new Erasures({ ...infra, erasures, freeze, data, cookies, place }),
        freeze,
        retention: new Retention(infra),
        data,
        cookies,
        place,
        clock: infra.clock,
        personalData: infra.personalData,
        facts: {
          sessionDays: SESSION_TTL_MS / 86_400_000,
          backups: backup.keep,
          backupDays: Math.ceil((backup.keep * backup.intervalHours) / 24),
          logDays: infra.config.logRetentionDays,
        },
      }),
    };
  },
  tasks: (deps) => deps.services.privacy.tasks(deps.services),
  refuseActor: (deps, actorId) => deps.services.privacy.refuseErasing(actorId),
  start: (deps) => deps.services.privacy.planPrune(),
};
