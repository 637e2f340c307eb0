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
  // Sign-in links, sessions, sign-outs, rate limits and a moderator's keys are the member's alone; a link's or a
  // session's id is its token's hash, which stands for the token.
  personalData: {
    collections: {
      web_sessions: { what: 'web:privacy.web_sessions', forget: 'delete', hidden: { _id: 'token' } },
      web_links: { what: 'web:privacy.web_links', forget: 'delete', hidden: { _id: 'token' } },
      web_sign_outs: { what: 'web:privacy.web_sign_outs', forget: 'delete' },
      web_rate_limits: { what: 'web:privacy.web_rate_limits', forget: 'delete' },
      web_admin_keys: { what: 'web:privacy.web_admin_keys', forget: 'delete' },
    },
  },
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
