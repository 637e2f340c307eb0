import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { HttpError } from '../../../src/http/contract.js';
import { parseQuery, parseWith } from '../../../src/http/params.js';
import type { BotDeps } from '../../../src/interactions/types.js';
import { SNOWFLAKE_PATTERN } from '../../../src/snowflake.js';
import { linkUsedPage, signInPage } from '../signInPages.js';
import { webPage } from '../webPage.js';
import type { OpenedSession } from '../webService.js';
import { pageLocale, wantsHtml } from '../webText.js';
import type { WebGate } from './gate.js';

const login = { token: z.string().regex(/^[\w-]{20,100}$/, { error: 'the token of a sign-in link' }) };
// Discord answers with `code` and `state`, or with `error` when the member cancels.
const oauthQuery = {
  code: z.string().min(1).max(512).optional(),
  state: z.string().min(1).max(128).optional(),
  error: z.string().max(100).optional(),
  error_description: z.string().max(500).optional(),
};

/** The `/place` page and its assets, signing in by one-time link, and Discord OAuth2 when configured. */
export function signInRoutes(app: FastifyInstance, deps: BotDeps, gate: WebGate): void {
  const { config, services } = deps;
  const { identityOf, fromThePage, withinLimits, startSession } = gate;
  // Pages read no query: links to them pick up parameters (a chat app's, a tracker's).
  const page = { config: { page: true } };
  app.get('/', page, async (_request, reply) => reply.redirect('/place'));
  // The page speaks the signed-in member's Discord language, else the browser's.
  app.get('/place', page, async (request, reply) => {
    const locale = pageLocale(request, (await identityOf(request))?.locale);
    return reply
      .type('text/html; charset=utf-8')
      .header('vary', 'accept-language, cookie')
      .send((await webPage()).html[locale]);
  });
  app.get('/place/app.js', page, async (_request, reply) =>
    reply.type('text/javascript; charset=utf-8').send((await webPage()).js),
  );
  app.get('/place/app.css', page, async (_request, reply) =>
    reply.type('text/css; charset=utf-8').send((await webPage()).css),
  );

  /**
   * A link that no longer signs in: a browser gets a page in the member's language saying so
   * and what to do; an API client the contract's LINK_INVALID.
   */
  const linkUsed = async (request: FastifyRequest, reply: FastifyReply, token: string) => {
    if (!wantsHtml(request)) {
      throw new HttpError('LINK_INVALID', 'This sign-in link was used or has expired: run /place web again.');
    }
    const locale = pageLocale(request, (await services.web.peekLink(token))?.locale);
    return reply.code(410).type('text/html; charset=utf-8').send(linkUsedPage(locale));
  };
  // Opening the link shows a button; only pressing it uses the link (see signInPage).
  app.get('/place/login', async (request, reply) => {
    const { token } = parseQuery(login, request.query);
    const link = await services.web.peekLink(token);
    if (!link?.usable) return linkUsed(request, reply, token);
    return reply.type('text/html; charset=utf-8').send(signInPage(token, pageLocale(request, link.locale)));
  });
  app.post('/place/login', async (request, reply) => {
    fromThePage(request);
    parseQuery({}, request.query);
    const { token } = parseWith(z.object(login).strict(), request.body);
    await withinLimits(request, null);
    const session = await services.web.signIn(token);
    if (!session) return linkUsed(request, reply, token);
    await startSession(reply, session);
    return reply.redirect('/place', 303);
  });
  // Discord OAuth2 (optional): only when DISCORD_CLIENT_SECRET and PUBLIC_URL are set.
  const oauth = config.http.discordClientSecret && config.http.publicUrl && config.discord.applicationId;
  if (oauth) registerDiscordOAuth(app, deps, startSession);
}

/**
 * `GET /auth/discord` → Discord's consent page → `/auth/discord/callback`: the code is
 * exchanged for the member's id and name, and a session opens. Roles are not known this way,
 * so role-based admins sign in with `/place web`.
 */
function registerDiscordOAuth(
  app: FastifyInstance,
  deps: BotDeps,
  startSession: (reply: FastifyReply, session: OpenedSession) => Promise<void>,
) {
  const { config } = deps;
  const redirectUri = `${config.http.publicUrl}/auth/discord/callback`;
  const api = config.discord.apiUrl ?? 'https://discord.com/api';
  app.get('/auth/discord', async (request, reply) => {
    parseQuery({}, request.query);
    const state = deps.rng.uuid();
    reply.setCookie('oauth_state', state, { path: '/auth', httpOnly: true, sameSite: 'lax', maxAge: 600 });
    const url = new URL('https://discord.com/oauth2/authorize');
    url.search = new URLSearchParams({
      client_id: config.discord.applicationId as string,
      response_type: 'code',
      scope: 'identify',
      redirect_uri: redirectUri,
      state,
    }).toString();
    return reply.redirect(url.toString());
  });
  const discord = <T>(schema: z.ZodType<T>, path: string, init: RequestInit) =>
    askDiscord(api, schema, path, init);
  app.get('/auth/discord/callback', async (request, reply) => {
    const query = parseQuery(oauthQuery, request.query);
    if (query.error) {
      if (wantsHtml(request)) {
        return reply
          .code(410)
          .type('text/html; charset=utf-8')
          .send(linkUsedPage(pageLocale(request), 'denied'));
      }
      throw new HttpError(
        'LINK_INVALID',
        `Discord did not confirm the sign-in (${query.error}): try again, or run /place web.`,
      );
    }
    const expected = request.cookies.oauth_state;
    if (!query.code || !query.state || !expected || query.state !== expected) {
      throw new HttpError(
        'BAD_REQUEST',
        'state: does not match this browser’s sign-in; start again at /auth/discord',
      );
    }
    const token = await discord(z.object({ access_token: z.string().min(1) }), '/oauth2/token', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        client_id: config.discord.applicationId as string,
        client_secret: config.http.discordClientSecret as string,
        grant_type: 'authorization_code',
        code: query.code,
        redirect_uri: redirectUri,
      }),
    });
    if (!token) throw new HttpError('LINK_INVALID', 'Discord did not confirm the sign-in: start again.');
    const user = await discord(
      z.object({
        id: z.string().regex(SNOWFLAKE_PATTERN),
        username: z.string(),
        global_name: z.string().nullish(),
        locale: z.string().max(16).nullish(),
      }),
      '/users/@me',
      { headers: { authorization: `Bearer ${token.access_token}` } },
    );
    if (!user) throw new HttpError('UPSTREAM_UNAVAILABLE', 'Discord did not say who you are: try again.');
    const session = await deps.services.web.openSession({
      userId: user.id,
      name: user.global_name ?? user.username,
      roleIds: [],
      ...(user.locale ? { locale: user.locale } : {}),
    });
    await startSession(reply, session);
    return reply.redirect('/place');
  });
}

/** One call to Discord's API, its answer checked; Discord unreachable or odd is a 502, not a crash. */
async function askDiscord<T>(
  api: string,
  schema: z.ZodType<T>,
  path: string,
  init: RequestInit,
): Promise<T | null> {
  let body: unknown;
  try {
    const response = await fetch(`${api}${path}`, { ...init, signal: AbortSignal.timeout(10_000) });
    body = await response.json();
  } catch {
    throw new HttpError('UPSTREAM_UNAVAILABLE', 'Discord did not answer: try again in a moment.');
  }
  const parsed = schema.safeParse(body);
  return parsed.success ? parsed.data : null;
}
