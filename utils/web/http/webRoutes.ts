import compress from '@fastify/compress';
import cookie from '@fastify/cookie';
import type { FastifyInstance } from 'fastify';
import type { HttpRoutes } from '../../../src/http/server.js';
import type { BotDeps } from '../../../src/interactions/types.js';
import { LiveFeed } from '../liveFeed.js';
import { adminRoutes } from './adminRoutes.js';
import { auditRoutes } from './auditRoutes.js';
import { canvasModerationRoutes } from './canvasModerationRoutes.js';
import { datasetRoutes } from './datasetRoutes.js';
import { economyRoutes } from './economyRoutes.js';
import { webGate } from './gate.js';
import { grantRoutes } from './grantRoutes.js';
import { liveSocket } from './liveSocket.js';
import { memberRoutes } from './memberRoutes.js';
import { portalRoutes } from './portalRoutes.js';
import { publicRoutes } from './publicRoutes.js';
import { runtimeRoutes } from './runtimeRoutes.js';
import { sanctionRoutes } from './sanctionRoutes.js';
import { shopRoutes } from './shopRoutes.js';
import { signInRoutes } from './signInRoutes.js';

/**
 * The canvas on the web (docs/web.md, "The API"), by audience: what anyone may read,
 * the live WebSocket, a signed-in member's wallet and placements, the moderators' API, and the
 * `/place` page with signing in. The same services as the slash commands do the work; these
 * files only speak HTTP, by the server's contract (`src/http/contract.ts`).
 */
export function webRoutes(deps: BotDeps): HttpRoutes {
  const feed = new LiveFeed({
    place: deps.services.place,
    names: (ids) => deps.profiles.names(ids),
    log: deps.log,
    maxClients: deps.config.http.wsMaxConnections,
  });
  return (root: FastifyInstance) => {
    root.register(cookie);
    root.register(compress, { threshold: 1_024 });
    // Routes go in a scope registered after the plugins, so compression and cookies apply to them.
    root.register(async (app) => {
      app.addHook('onReady', () => feed.start());
      app.addHook('onClose', () => feed.stop());
      const gate = webGate(deps);
      publicRoutes(app, deps);
      liveSocket(app, deps, feed);
      memberRoutes(app, deps, gate);
      adminRoutes(app, deps, gate);
      grantRoutes(app, deps, gate);
      sanctionRoutes(app, deps, gate);
      shopRoutes(app, deps, gate);
      economyRoutes(app, deps, gate);
      runtimeRoutes(app, deps, gate);
      auditRoutes(app, deps, gate);
      canvasModerationRoutes(app, deps, gate);
      datasetRoutes(app, deps, gate);
      portalRoutes(app, deps, gate);
      signInRoutes(app, deps, gate);
    });
  };
}
