import type { Feature } from '../../src/features/feature.js';
import { localized } from '../../src/i18n/definitions.js';
import { defineCommand } from '../../src/interactions/defineCommand.js';
import { SanctionStore } from '../../utils/moderation/sanctionStore.js';
import { Sanctions } from '../../utils/moderation/sanctions.js';
import { PlaceEconomy } from '../../utils/money/placeEconomy.js';
import { AreaStore } from '../../utils/place/areaStore.js';
import { AREA_ERROR_MESSAGES } from '../../utils/place/areas.js';
import { placeInvariantProblems } from '../../utils/place/canvasChecks.js';
import { PLACE_MESSAGES } from '../../utils/place/messages.js';
import { PlaceService } from '../../utils/place/placeService.js';
import { PlaceStore } from '../../utils/place/placeStore.js';
import { PLACE_SETTINGS, placeSettingDefaults } from '../../utils/place/settings.js';
import { TemplateStore } from '../../utils/place/templateStore.js';
import { info, leaderboard, me, pixel, sameColorHandler } from './pixel.js';
import {
  placeChannel,
  placeDisable,
  placeEarnings,
  placeEnable,
  placeGrant,
  placeResize,
} from './placeAdmin.js';
import { placeProtect, placeProtected, placeUnprotect } from './placeAreas.js';
import { placeClawback } from './placeClawback.js';
import { placeRollback, rollbackButtonHandler } from './placeRollback.js';
import { placePostTasks } from './posts.js';
import { templateAlertTasks } from './templateAlerts.js';
import { fixHandler } from './templateFix.js';
import { TEMPLATE_SUBCOMMANDS } from './templates.js';
import { palette, timelapse, view } from './view.js';
import { heatmapView, virginView } from './views.js';
import { web } from './web.js';

export const placeCommand = defineCommand({
  ...localized(PLACE_MESSAGES, 'commands.place'),
  access: 'everyone',
  category: 'place:category',
  subcommands: [pixel, view, heatmapView, virginView, info, me, palette, leaderboard, timelapse, web],
  groups: [{ ...localized(PLACE_MESSAGES, 'commands.template'), subcommands: TEMPLATE_SUBCOMMANDS }],
  components: [sameColorHandler, fixHandler],
});

export const placeFeature: Feature = {
  name: 'place',
  personalData: {
    collections: {
      place_pixels: { what: 'place:privacy.place_pixels' },
      place_pixel_events: { what: 'place:privacy.place_pixel_events' },
      place_placements: { what: 'place:privacy.place_placements' },
      place_rollbacks: { what: 'place:privacy.place_rollbacks' },
      place_areas: { what: 'place:privacy.place_areas' },
      place_templates: { what: 'place:privacy.place_templates' },
    },
    // A placement paid for and not written yet.
    inPlay: async (services, member) => ({ placement: await services.place.unfinishedOf(member) }),
  },
  commands: [placeCommand],
  adminGroups: [
    {
      ...localized(PLACE_MESSAGES, 'admin.commands.place'),
      subcommands: [
        placeGrant,
        placeClawback,
        placeEarnings,
        placeResize,
        placeRollback,
        placeProtect,
        placeUnprotect,
        placeProtected,
        placeEnable,
        placeDisable,
        placeChannel,
      ],
      components: [rollbackButtonHandler],
    },
  ],
  messages: PLACE_MESSAGES,
  errors: AREA_ERROR_MESSAGES,
  settings: PLACE_SETTINGS,
  settingDefaults: placeSettingDefaults,
  ensureIndexes: async (db) => {
    await Promise.all([
      PlaceStore.ensureIndexes(db),
      AreaStore.ensureIndexes(db),
      TemplateStore.ensureIndexes(db),
    ]);
  },
  createServices: (infra) => ({
    place: new PlaceService({
      ...infra,
      store: new PlaceStore(infra.db),
      areaStore: new AreaStore(infra.db),
      templateStore: new TemplateStore(infra.db),
      economy: infra.placeEconomy,
      sanctions: new Sanctions({ store: new SanctionStore(infra.db), clock: infra.clock }),
    }),
  }),
  tasks: (deps) => [...deps.services.place.tasks(), ...placePostTasks(deps), ...templateAlertTasks(deps)],
  // Wallets agree with the canvas's events, and every pixel with its newest event.
  checkInvariants: (db, _config, ledger, now, since) =>
    placeInvariantProblems(new PlaceStore(db), new PlaceEconomy(ledger), now, since),
};
