import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { HttpError } from '../../../src/http/contract.js';
import { hasAccess } from '../../../src/interactions/authority.js';
import type { Access, BotDeps } from '../../../src/interactions/types.js';
import { portalRefusalPage } from '../signInPages.js';
import { portalPage } from '../webPage.js';
import { pageLocale, wantsHtml } from '../webText.js';
import type { WebGate } from './gate.js';

/** The portal's pages, and who may open each (the API checks again on every request). */
export const PORTAL_PAGES = {
  runtime: 'admin',
  grants: 'moderator',
  events: 'moderator',
  economy: 'admin',
  canvas: 'moderator',
  sanctions: 'moderator',
  shop: 'moderator',
  audit: 'moderator',
} as const satisfies Record<string, Access>;
type PortalPage = keyof typeof PORTAL_PAGES;

/**
 * The moderators' portal (docs/web.md, "The moderators' portal"): `/admin` opens its first page
 * the member may see, `/admin/<page>` each page. A browser that is not signed in, or whose
 * member lacks the rights, gets a page that says so in their language (401, 403); an API client
 * the contract's error. The page is one script (web/admin/) that reads the moderators' API.
 */
export function portalRoutes(app: FastifyInstance, _deps: BotDeps, gate: WebGate): void {
  const page = { config: { page: true } };
  const open = async (request: FastifyRequest, reply: FastifyReply, access: Access) => {
    const identity = await gate.identityOf(request);
    const locale = pageLocale(request, identity?.locale);
    try {
      await gate.signedIn(request, access);
    } catch (error) {
      if (!(error instanceof HttpError) || !wantsHtml(request)) throw error;
      const why = error.code === 'NOT_SIGNED_IN' ? 'signIn' : access === 'admin' ? 'admin' : 'moderator';
      return reply
        .code(error.code === 'NOT_SIGNED_IN' ? 401 : 403)
        .type('text/html; charset=utf-8')
        .send(portalRefusalPage(locale, why));
    }
    return reply
      .type('text/html; charset=utf-8')
      .header('vary', 'accept-language, cookie')
      .header('cache-control', 'no-store')
      .send((await portalPage()).html[locale]);
  };
  app.get('/admin', page, async (request, reply) => {
    const actor = await gate.signedIn(request, 'moderator').catch(() => null);
    if (!actor) return open(request, reply, 'moderator');
    const first = (Object.keys(PORTAL_PAGES) as PortalPage[]).find((p) => hasAccess(actor, PORTAL_PAGES[p]));
    return reply.redirect(`/admin/${first ?? 'grants'}`);
  });
  for (const name of Object.keys(PORTAL_PAGES) as PortalPage[]) {
    app.get(`/admin/${name}`, page, async (request, reply) => open(request, reply, PORTAL_PAGES[name]));
  }
  // Where moderators of other bots look first.
  app.get('/place/admin', page, async (_request, reply) => reply.redirect('/admin'));
  app.get('/admin/app.js', page, async (_request, reply) =>
    reply.type('text/javascript; charset=utf-8').send((await portalPage()).js),
  );
  app.get('/admin/app.css', page, async (_request, reply) =>
    reply.type('text/css; charset=utf-8').send((await portalPage()).css),
  );
}
