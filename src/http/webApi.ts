import type { IncomingMessage } from 'node:http';
import compress from '@fastify/compress';
import cookie from '@fastify/cookie';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { parsePlacePoints } from '../../utils/amounts.js';
import { grantPlacePoints } from '../../utils/hunt/adminGrant.js';
import { PALETTE, rgb } from '../../utils/place/palette.js';
import type { OpenedSession } from '../../utils/web/webService.js';
import type { WebIdentity } from '../../utils/web/webStore.js';
import { hasAccess, resolveActor } from '../interactions/authority.js';
import type { Access, Actor, BotDeps } from '../interactions/types.js';
import { metrics } from '../metrics.js';
import { pngPalette, renderCanvasPng } from '../render/placeImages.js';
import { SNOWFLAKE_PATTERN } from '../snowflake.js';
import { answerOnSocket, HttpError } from './contract.js';
import { CLOSE, LiveFeed } from './liveFeed.js';
import { parseQuery, parseWith, searchParamsObject, wholeNumber } from './params.js';
import { webPage } from './webPage.js';

export const SESSION_COOKIE = 'place_session';
const PNG_PALETTE = pngPalette(PALETTE.map((_, i) => rgb(i)));
const PUBLIC_PALETTE = PALETTE.map((c) => ({ name: c.name, hex: c.hex }));
/** Loopback names a browser may use for a server without PUBLIC_URL. */
const LOOPBACK = ['localhost', '127.0.0.1', '[::1]'];

/** A member (a Discord id) or a worker (`w-` and 16 hex digits). */
const clientId = z.string().regex(/^(\d{17,20}|w-[0-9a-f]{16})$/, {
  error: 'a member id (17 to 20 digits) or a worker id (w- and 16 hex digits)',
});
const schemas = {
  changes: { after: wholeNumber(0), limit: wholeNumber(1, 5_000).default(1_000) },
  // A JSON body: numbers must be numbers ("1" is refused, unlike in a query string).
  pixel: z
    .object({
      x: z.number().int().min(0),
      y: z.number().int().min(0),
      color_index: z
        .number()
        .int()
        .min(0)
        .max(PALETTE.length - 1),
    })
    .strict(),
  idempotencyKey: z
    .string({ error: 'required: 8 to 64 letters, digits, _ or -' })
    .regex(/^[\w-]{8,64}$/, { error: '8 to 64 letters, digits, _ or -' }),
  earnings: { limit: wholeNumber(1, 200).default(50), client_id: clientId.optional() },
  points: z
    .object({
      target_client_id: clientId,
      points: z.union([z.number().positive(), z.string()]),
      reason: z.string().max(200).default(''),
    })
    .strict(),
  ws: { after: wholeNumber(0).optional() },
  login: { token: z.string().regex(/^[\w-]{20,100}$/, { error: 'the token of a sign-in link' }) },
  // Discord answers with `code` and `state`, or with `error` when the member cancels.
  oauth: {
    code: z.string().min(1).max(512).optional(),
    state: z.string().min(1).max(128).optional(),
    error: z.string().max(100).optional(),
    error_description: z.string().max(500).optional(),
  },
};

/**
 * The canvas on the web (README, "The canvas on the web"): the public board and its changes,
 * the live WebSocket, a signed-in member's wallet and placements, the moderators' API, the
 * `/place` page, and sign-in by one-time link (or Discord OAuth2 when configured). The same
 * services as the slash commands do the work; this file only speaks HTTP.
 */
export function webRoutes(deps: BotDeps) {
  const { config, services } = deps;
  const feed = new LiveFeed({
    place: services.place,
    names: (ids) => deps.profiles.names(ids),
    log: deps.log,
    maxClients: config.http.wsMaxConnections,
  });

  return (root: FastifyInstance) => {
    root.register(cookie);
    root.register(compress, { threshold: 1_024 });
    // Routes go in a scope registered after the plugins, so compression and cookies apply to them.
    root.register(async (app) => routes(app));
  };

  function routes(app: FastifyInstance) {
    app.addHook('onReady', () => feed.start());
    app.addHook('onClose', () => feed.stop());

    // --- Who is asking -------------------------------------------------------------------

    const identityOf = async (request: FastifyRequest): Promise<WebIdentity | null> => {
      const token = request.cookies[SESSION_COOKIE];
      return token ? services.web.session(token) : null;
    };
    const signedIn = async (request: FastifyRequest, access: Access = 'everyone') => {
      const identity = await identityOf(request);
      if (!identity) throw new HttpError('NOT_SIGNED_IN', 'Sign in first: run /place web in Discord.');
      const actor: Actor = resolveActor(
        { id: identity.userId, name: identity.name },
        identity.roleIds,
        config.authority,
      );
      if (!hasAccess(actor, access)) throw new HttpError('FORBIDDEN', `This needs ${access} rights.`);
      return actor;
    };
    /**
     * Where the page is served from, as the server knows it, never as the request claims it:
     * PUBLIC_URL when set; else only the loopback names on the port the connection came in on.
     * (A Host header is the client's to write, so an origin built from it proves nothing.)
     */
    const pageOrigins = (request: FastifyRequest): string[] =>
      config.http.publicUrl
        ? [new URL(config.http.publicUrl).origin]
        : LOOPBACK.map((name) => `http://${name}:${request.socket.localPort}`);
    /** A write comes from the page itself (CSRF, with the SameSite cookie). */
    const fromThePage = (request: FastifyRequest) => {
      const origin = request.headers.origin;
      if (origin && pageOrigins(request).includes(origin)) return;
      throw new HttpError(
        'BAD_ORIGIN',
        config.http.publicUrl
          ? `Writes are accepted only from the page itself (${pageOrigins(request)[0]}).`
          : 'Writes are accepted only from the page itself: on this server (no PUBLIC_URL set) that is http://localhost or http://127.0.0.1 on its port. Behind a proxy or on another address, set PUBLIC_URL.',
      );
    };
    /** Within the rate limits: per address, and per member when signed in. */
    const withinLimits = async (request: FastifyRequest, actor: Actor | null) => {
      const checks = [
        services.web.allow(`write:ip:${request.ip}`, {
          limit: config.http.writesPerIpPerMin,
          windowMs: 60_000,
        }),
        ...(actor
          ? [
              services.web.allow(`write:member:${actor.id}`, {
                limit: config.http.writesPerMemberPerMin,
                windowMs: 60_000,
              }),
            ]
          : []),
      ];
      for (const verdict of await Promise.all(checks)) {
        if (!verdict.allowed) {
          const seconds = Math.ceil(verdict.retryAfterMs / 1000);
          throw new HttpError('RATE_LIMITED', `Too many requests; try again in ${seconds} s.`, {
            headers: { 'retry-after': String(seconds) },
          });
        }
      }
    };
    /** A new session's cookie; the member counts as seen (the live feed shows their name). */
    const startSession = async (reply: FastifyReply, session: OpenedSession) => {
      await deps.profiles.touch({ id: session.identity.userId, name: session.identity.name });
      const { token, expiresAt } = session;
      reply.setCookie(SESSION_COOKIE, token, {
        path: '/',
        httpOnly: true,
        sameSite: 'strict',
        secure: (config.http.publicUrl ?? '').startsWith('https:'),
        // Relative, so a browser whose clock differs from the server's keeps it as long.
        maxAge: Math.max(0, Math.floor((expiresAt.getTime() - deps.wallClock.now().getTime()) / 1000)),
      });
    };

    // --- Public -----------------------------------------------------------------------

    app.get('/api/public/place', async (request, reply) => {
      parseQuery({}, request.query);
      const board = await services.place.board();
      const etag = `"r${board.revision}-${board.width}x${board.height}"`;
      reply.header('etag', etag).header('cache-control', 'no-cache');
      if (request.headers['if-none-match'] === etag) return reply.code(304).send();
      return {
        revision: board.revision,
        width: board.width,
        height: board.height,
        palette: PUBLIC_PALETTE,
        encoding: 'base64, one byte (palette index) per pixel, row by row',
        pixels: Buffer.from(board.pixels.buffer, board.pixels.byteOffset, board.pixels.byteLength).toString(
          'base64',
        ),
      };
    });

    app.get('/api/public/place.png', async (request, reply) => {
      parseQuery({}, request.query);
      const board = await services.place.board();
      const etag = `"png-r${board.revision}-${board.width}x${board.height}"`;
      reply.header('etag', etag).header('cache-control', 'no-cache');
      if (request.headers['if-none-match'] === etag) return reply.code(304).send();
      const png = await renderCanvasPng(board, PNG_PALETTE, 1);
      return reply.type('image/png').send(png);
    });

    app.get('/api/public/place/changes', async (request) => {
      const { after, limit } = parseQuery(schemas.changes, request.query);
      const committed = await services.place.advance();
      // Further behind than one page allows: reload the board (cheaper than replaying). Ahead of
      // the canvas (a revision it never reached, or a board from before a restore): reload too.
      if (committed - after > 10 * limit || after > committed) {
        return { reload: true, revision: committed, changes: [] };
      }
      const feed = await services.place.changesAfter(after, limit);
      return {
        reload: false,
        revision: feed.revision,
        more: feed.revision < committed,
        changes: feed.changes.map((e) => ({
          revision: e._id,
          x: e.x,
          y: e.y,
          color_index: e.color,
          owner: e.owner,
          at: e.at.toISOString(),
        })),
      };
    });

    app.get('/api/public/place/pixel', async (request) => {
      const size = await services.place.size();
      const { x, y } = parseQuery(
        { x: wholeNumber(0, size.width - 1), y: wholeNumber(0, size.height - 1) },
        request.query,
      );
      const info = await services.place.pixelInfo(x, y);
      if (!info) return { x, y, painted: 0, color_index: null, owner: null, revision: null, at: null };
      return {
        x,
        y,
        painted: info.painted,
        color_index: info.pixel.color,
        owner: info.pixel.owner,
        owner_name: info.pixel.owner
          ? ((await deps.profiles.names([info.pixel.owner])).get(info.pixel.owner) ?? null)
          : null,
        revision: info.pixel.revision,
        at: info.pixel.at.toISOString(),
      };
    });

    // --- The live WebSocket -----------------------------------------------------------

    app.get('/api/place/ws', async () => {
      throw new HttpError('UPGRADE_REQUIRED', 'This is a WebSocket: connect with Upgrade: websocket.');
    });
    app.server.on('upgrade', (request, socket, head) => {
      // A client may reset before the handshake is answered; that must not bring the process down.
      socket.on('error', () => socket.destroy());
      let after: number | null;
      try {
        after = readHandshake(request);
      } catch (error) {
        if (error instanceof HttpError) answerOnSocket(socket, error.code, error.message);
        else socket.destroy();
        return;
      }
      const ip = request.socket.remoteAddress ?? 'unknown';
      services.web
        .allow(`ws:ip:${ip}`, { limit: config.http.wsHandshakesPerIpPerMin, windowMs: 60_000 })
        .then(
          (verdict) =>
            verdict.allowed
              ? feed.accept(request, socket, head, after)
              : feed.refuse(
                  request,
                  socket,
                  head,
                  CLOSE.rateLimited,
                  'too many connections from your address',
                ),
          () => socket.destroy(),
        );
    });

    // --- A signed-in member -----------------------------------------------------------

    // Whether this browser is signed in, without an error when not (the page asks first).
    app.get('/api/place/session', async (request) => {
      parseQuery({}, request.query);
      const identity = await identityOf(request);
      return identity
        ? { signed_in: true, client_id: identity.userId, name: identity.name }
        : { signed_in: false };
    });

    app.get('/api/place/me', async (request) => {
      parseQuery({}, request.query);
      const actor = await signedIn(request);
      const [wallet, cost, earnings, workers] = await Promise.all([
        services.place.wallet(actor.id),
        services.place.pixelCost(),
        services.hunt.recentEarnings(actor.id, 10),
        services.workers.list(actor.id),
      ]);
      return {
        client_id: actor.id,
        name: actor.name,
        is_moderator: actor.isModerator,
        points: wallet.balance / 1000,
        earned: wallet.earned / 1000,
        spent: wallet.spent / 1000,
        placements: wallet.placements,
        pixel_cost: cost / 1000,
        affordable_pixels: Math.floor(wallet.balance / cost),
        workers: workers.map((w) => ({ id: w._id, label: w.label, since: w.createdAt.toISOString() })),
        recent_earnings: earnings.map((e) => ({
          kind: e.kind,
          points: e.milli / 1000,
          source: e.source,
          at: e.at.toISOString(),
        })),
      };
    });

    app.post('/api/place/pixel', async (request) => {
      const actor = await signedIn(request);
      fromThePage(request);
      parseQuery({}, request.query);
      const key = parseWith(schemas.idempotencyKey, request.headers['idempotency-key'], 'Idempotency-Key');
      const body = parseWith(schemas.pixel, request.body);
      await withinLimits(request, actor);
      // The key is the member's (the service keys placements by member): a key reused for
      // another pixel is refused before the balance is looked at, and a refused key stays refused.
      const placed = await services.place.place({
        opId: `web.pixel:${key}`,
        userId: actor.id,
        x: body.x,
        y: body.y,
        color: body.color_index,
      });
      if (!placed.replayed) metrics.placements.inc({ channel: 'web' });
      return {
        revision: placed.revision,
        x: placed.x,
        y: placed.y,
        color_index: placed.color,
        cost: placed.cost / 1000,
        points_left: placed.balance === null ? null : placed.balance / 1000,
        replayed: placed.replayed,
      };
    });

    app.post('/api/place/logout', async (request, reply) => {
      fromThePage(request);
      parseQuery({}, request.query);
      parseWith(z.object({}).strict(), request.body);
      await withinLimits(request, null);
      const token = request.cookies[SESSION_COOKIE];
      if (token) await services.web.signOut(token);
      return reply.clearCookie(SESSION_COOKIE, { path: '/' }).send({ signed_out: true });
    });

    // --- Moderators (the same rights as /admin place grant and earnings) ----------------

    app.get('/api/admin/place/earnings', async (request) => {
      await signedIn(request, 'moderator');
      const { limit, client_id } = parseQuery(schemas.earnings, request.query);
      const events = await services.hunt.earnings(limit, client_id);
      return {
        events: events.map((e) => ({
          kind: e.kind,
          points: e.milli / 1000,
          owner: e.owner,
          source: e.source,
          multiplier: e.multiplier,
          units: e.units,
          detail: e.detail,
          at: e.at.toISOString(),
        })),
      };
    });

    app.post('/api/admin/place/points', async (request) => {
      const actor = await signedIn(request, 'moderator');
      fromThePage(request);
      parseQuery({}, request.query);
      const key = parseWith(schemas.idempotencyKey, request.headers['idempotency-key'], 'Idempotency-Key');
      const body = parseWith(schemas.points, request.body);
      let milli: number;
      try {
        milli = parsePlacePoints(String(body.points));
      } catch {
        throw new HttpError('BAD_REQUEST', 'points: a positive amount with up to 3 decimals, e.g. 12.345');
      }
      await withinLimits(request, actor);
      const target = body.target_client_id;
      const { owner, balance } = await grantPlacePoints(services, deps.i18n.for('en'), {
        opId: `web.grant:${actor.id}:${key}`,
        moderatorId: actor.id,
        ...(SNOWFLAKE_PATTERN.test(target) ? { member: target } : { worker: target }),
        milli,
        reason: body.reason,
      });
      return { owner, points: milli / 1000, balance: balance / 1000 };
    });

    // --- The page and signing in ------------------------------------------------------

    // Pages read no query: links to them pick up parameters (a chat app's, a tracker's).
    const page = { config: { page: true } };
    app.get('/', page, async (_request, reply) => reply.redirect('/place'));
    app.get('/place', page, async (_request, reply) =>
      reply.type('text/html; charset=utf-8').send((await webPage()).html),
    );
    app.get('/place/app.js', page, async (_request, reply) =>
      reply.type('text/javascript; charset=utf-8').send((await webPage()).js),
    );
    app.get('/place/app.css', page, async (_request, reply) =>
      reply.type('text/css; charset=utf-8').send((await webPage()).css),
    );

    // Opening the link shows a button; only pressing it uses the link. Discord and other
    // link previewers fetch URLs they see, and a GET that signed in would burn the link.
    app.get('/place/login', async (request, reply) => {
      const { token } = parseQuery(schemas.login, request.query);
      return reply.type('text/html; charset=utf-8').send(signInPage(token));
    });
    app.post('/place/login', async (request, reply) => {
      fromThePage(request);
      parseQuery({}, request.query);
      const { token } = parseWith(z.object(schemas.login).strict(), request.body);
      await withinLimits(request, null);
      const session = await services.web.signIn(token);
      if (!session) {
        throw new HttpError(
          'LINK_INVALID',
          'This sign-in link was used or has expired: run /place web again.',
        );
      }
      await startSession(reply, session);
      return reply.redirect('/place', 303);
    });

    // Discord OAuth2 (optional): only when DISCORD_CLIENT_SECRET and PUBLIC_URL are set.
    const oauth = config.http.discordClientSecret && config.http.publicUrl && config.discord.applicationId;
    if (oauth) registerDiscordOAuth(app, deps, startSession);
  }
}

/**
 * A WebSocket handshake checked before it is handed to the WebSocket server, so every refusal
 * is an HTTP answer in the contract's shape (the library's own are plain text): the path, the
 * method, the headers RFC 6455 requires, and `after`. Returns `after` (null: from now on).
 */
function readHandshake(request: IncomingMessage): number | null {
  let url: URL;
  try {
    url = new URL(request.url ?? '/', 'http://localhost');
  } catch {
    throw new HttpError('BAD_REQUEST', 'The request target is not a URL.');
  }
  if (url.pathname !== '/api/place/ws') {
    throw new HttpError('NOT_FOUND', `There is no WebSocket at ${url.pathname.slice(0, 200)}.`);
  }
  if (request.method !== 'GET') throw new HttpError('BAD_REQUEST', 'A WebSocket handshake is a GET.');
  if (request.headers.upgrade?.toLowerCase() !== 'websocket') {
    throw new HttpError('BAD_REQUEST', 'Upgrade: websocket is the only upgrade served here.');
  }
  if (!/^[+/0-9A-Za-z]{22}==$/.test(request.headers['sec-websocket-key'] ?? '')) {
    throw new HttpError('BAD_REQUEST', 'Sec-WebSocket-Key: 16 random bytes in base64.');
  }
  if (request.headers['sec-websocket-version'] !== '13') {
    throw new HttpError('BAD_REQUEST', 'Sec-WebSocket-Version: this server speaks version 13.');
  }
  return parseQuery(schemas.ws, searchParamsObject(url.searchParams)).after ?? null;
}

function signInPage(token: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Sign in · Neural Place</title><link rel="icon" href="data:,"><link rel="stylesheet" href="/place/app.css"></head>
<body class="signin"><main><h1>Neural Place</h1>
<form method="post" action="/place/login"><input type="hidden" name="token" value="${token}">
<button type="submit">Sign in and open the canvas</button></form>
<p>This link works once, for 10 minutes.</p></main></body></html>`;
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
  /** One call to Discord's API, its answer checked; Discord unreachable or odd is a 502, not a crash. */
  const discord = async <T>(schema: z.ZodType<T>, path: string, init: RequestInit): Promise<T | null> => {
    let body: unknown;
    try {
      const response = await fetch(`${api}${path}`, { ...init, signal: AbortSignal.timeout(10_000) });
      body = await response.json();
    } catch {
      throw new HttpError('UPSTREAM_UNAVAILABLE', 'Discord did not answer: try again in a moment.');
    }
    const parsed = schema.safeParse(body);
    return parsed.success ? parsed.data : null;
  };
  app.get('/auth/discord/callback', async (request, reply) => {
    const query = parseQuery(schemas.oauth, request.query);
    if (query.error) {
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
      }),
      '/users/@me',
      { headers: { authorization: `Bearer ${token.access_token}` } },
    );
    if (!user) throw new HttpError('UPSTREAM_UNAVAILABLE', 'Discord did not say who you are: try again.');
    const session = await deps.services.web.openSession({
      userId: user.id,
      name: user.global_name ?? user.username,
      roleIds: [],
    });
    await startSession(reply, session);
    return reply.redirect('/place');
  });
}
