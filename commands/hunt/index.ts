import type { Feature } from '../../src/features/feature.js';
import { localized } from '../../src/i18n/definitions.js';
import { defineCommand } from '../../src/interactions/defineCommand.js';
import { huntRoutes } from '../../utils/hunt/httpRoutes.js';
import { HuntService } from '../../utils/hunt/huntService.js';
import { HuntStore } from '../../utils/hunt/huntStore.js';
import { HUNT_MESSAGES } from '../../utils/hunt/messages.js';
import { HUNT_SETTINGS } from '../../utils/hunt/settings.js';
import { WorkerService } from '../../utils/hunt/workerService.js';
import { WorkerStore } from '../../utils/hunt/workerStore.js';
import { PlaceEconomy } from '../../utils/placeEconomy.js';
import { history, join, leaderboard, status, tip } from './hunt.js';

export const huntCommand = defineCommand({
  ...localized(HUNT_MESSAGES, 'commands.hunt'),
  access: 'everyone',
  category: 'hunt:category',
  subcommands: [join, tip, status, leaderboard, history],
});

/** The hunt (work in progress: workers, the HTTP server and the admin views follow). */
export const huntFeature: Feature = {
  name: 'hunt',
  commands: [huntCommand],
  messages: HUNT_MESSAGES,
  settings: HUNT_SETTINGS,
  async ensureIndexes(db) {
    await Promise.all([HuntStore.ensureIndexes(db), WorkerStore.ensureIndexes(db)]);
  },
  createServices(infra) {
    const workers = new WorkerService({ ...infra, store: new WorkerStore(infra.db) });
    return {
      workers,
      hunt: new HuntService({
        ...infra,
        store: new HuntStore(infra.db),
        economy: new PlaceEconomy(infra.ledger),
        // Rewards of a worker go to its owner, resolved at the moment of the reward.
        ownerOf: (identity) => workers.ownerOf(identity),
      }),
    };
  },
  tasks: (deps) => deps.services.hunt.tasks(),
  httpRoutes: (deps) => huntRoutes(deps.services),
};
