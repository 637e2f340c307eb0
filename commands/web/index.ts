import type { Feature } from '../../src/features/feature.js';
import { webRoutes } from '../../utils/web/http/webRoutes.js';
import { WebService } from '../../utils/web/webService.js';
import { RATE_LIMITS_COLLECTION, WebStore } from '../../utils/web/webStore.js';

/**
 * The canvas on the web: sign-in links and sessions (its services) and the page, API and live
 * WebSocket (its routes, in `src/http/`). Its command is `/place web`, in the Place feature.
 */
export const webFeature: Feature = {
  name: 'web',
  ensureIndexes: WebStore.ensureIndexes,
  // Rate-limit windows live minutes and hold network addresses: no backup keeps them.
  transient: [RATE_LIMITS_COLLECTION],
  createServices: (infra) => ({
    web: new WebService({ store: new WebStore(infra.db), wallClock: infra.wallClock }),
  }),
  httpRoutes: (deps) => webRoutes(deps),
  // Sign-out generations of members with nothing left to sign out.
  prune: async (deps) => ({ signOuts: await deps.services.web.pruneSignOuts() }),
};
