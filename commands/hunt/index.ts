import type { Feature } from '../../src/features/feature.js';
import { HuntService } from '../../utils/hunt/huntService.js';
import { HuntStore } from '../../utils/hunt/huntStore.js';
import { HUNT_MESSAGES } from '../../utils/hunt/messages.js';
import { HUNT_SETTINGS } from '../../utils/hunt/settings.js';
import { PlaceEconomy } from '../../utils/placeEconomy.js';

/** The hunt (work in progress: the service and its timers; commands, workers and HTTP follow). */
export const huntFeature: Feature = {
  name: 'hunt',
  messages: HUNT_MESSAGES,
  settings: HUNT_SETTINGS,
  ensureIndexes: HuntStore.ensureIndexes,
  createServices: (infra) => ({
    hunt: new HuntService({
      ...infra,
      store: new HuntStore(infra.db),
      economy: new PlaceEconomy(infra.ledger),
    }),
  }),
  tasks: (deps) => deps.services.hunt.tasks(),
};
