import compress from '@fastify/compress';
import cookie from '@fastify/cookie';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { parsePlacePoints } from '../../utils/amounts.js';
import { type AppError, isAppError } from '../../utils/errors.js';
import { grantPlacePoints } from '../../utils/hunt/adminGrant.js';
import { PALETTE, rgb } from '../../utils/place/palette.js';
import type { OpenedSession } from '../../utils/web/webService.js';
import type { WebIdentity } from '../../utils/web/webStore.js';
import type { HttpShared } from '../features/feature.js';
import { hasAccess, resolveActor } from '../interactions/authority.js';
import { describeAppError } from '../interactions/errorReplies.js';
import type { Access, Actor, BotDeps } from '../interactions/types.js';
import { metrics } from '../metrics.js';
import { pngPalette, renderCanvasPng } from '../render/placeImages.js';
import { SNOWFLAKE_PATTERN } from '../snowflake.js';
import { CLOSE, LiveFeed } from './liveFeed.js';
import { webPage } from './webPage.js';

export const SESSION_COOKIE = 'place_session';
const PNG_PALETTE = pngPalette(PALETTE.map((_, i) => rgb(i)));
const PUBLIC_PALETTE = PALETTE.map((c) => ({ name: c.name, hex: c.hex }));

/** Every refusal is `{ "error": { "code", "message" } }` with one of these codes (README). */
export type WebErrorCode =
  | 'BAD_REQUEST'
  | 'NOT_SIGNED_IN'
  | 'FORBIDDEN'
  | 'BAD_ORIGIN'
  | 'RATE_LIMITED'
  | 'IDEMPOTENCY_KEY_REUSED'
  | 'LINK_INVALID'
  | 'NOT_FOUND'
  | 'UPGRADE_REQUIRED'
  | AppError['code'];

const STATUS: Partial<Record<WebErrorCode, number>> = {
  BAD_REQUEST: 400,
  INVALID_INPUT: 400,
  NOT_SIGNED_IN: 401,
  INSUFFICIENT_PLACE_POINTS: 402,
  FORBIDDEN: 403,
  NOT_AUTHORIZED: 403,
  BAD_ORIGIN: 403,
  NOT_FOUND: 404,
  IDEMPOTENCY_KEY_REUSED: 409,
  LINK_INVALID: 410,
  UPGRADE_REQUIRED: 426,
  RATE_LIMITED: 429,
  FEATURE_DISABLED: 503,
};

class WebError extends Error {
  constructor(
    readonly code: WebErrorCode,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

/**
 * Security headers on every response: no inline script or style (the CSP), no framing, no
 * sniffing, no referrer to other sites (a sign-in link must not leak).
 */
const SECURITY_HEADERS = {
  'content-security-policy':
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data: blob:; connect-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'",
  'x-frame-options': 'DENY',
  'x-content-type-options': 'nosniff',
  // Not no-referrer: with it, browsers send `Origin: null` on form posts, which the origin check refuses.
  'referrer-policy': 'same-origin',
  'cross-origin-opener-policy': 'same-origin',
};

const xy = { x: z.coerce.number().int().min(0), y: z.coerce.number().int().min(0) };
const schemas = {
  changes: z.object({
    after: z.coerce.number().int().min(0),
    limit: z.coerce.number().int().min(1).max(5_000).default(1_000),
  }),
  pixelInfo: z.object(xy),
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
  idempotencyKey: z.string().regex(/^[\w-]{8,64}$/),
  earnings: z.object({
    limit: z.coerce.number().int().min(1).max(200).default(50),
    client_id: z.string().max(40).optional(),
  }),
  points: z
    .object({
      target_client_id: z.string().regex(/^(\d{17,20}|w-[0-9a-f]{16})$/),
      points: z.union([z.number().positive(), z.string()]),
      reason: z.string().max(200).default(''),
    })
    .strict(),
  ws: z.object({ after: z.coerce.number().int().min(0).optional() }),
  login: z.object({ token: z.string().regex(/^[\w-]{20,100}$/) }),
};

function parse<T>(schema: z.ZodType<T>, value: unknown): T {
  const parsed = schema.safeParse(value ?? {});
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new WebError(
      'BAD_REQUEST',
      `${issue?.path.join('.') || 'request'}: ${issue?.message ?? 'invalid'}`,
    );
  }
  return parsed.data;
}

/**
 * The canvas on the web (README, "The canvas on the web"): the public board and its changes,
 * the live WebSocket, a signed-in member's wallet and placements, the moderators' API, the
 * `/place` page, and sign-in by one-time link (or Discord OAuth2 when configured). The same
 * services as the slash commands do the work; this file only speaks HTTP.
 */
export function webRoutes(deps: BotDeps, shared: HttpShared) {
  const { config, services } = deps;
  const i18n = deps.i18n.for('en');
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
    // The sign-in form posts its token as a form field.
    app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_r, body, done) =>
      done(null, Object.fromEntries(new URLSearchParams(body as string))),
    );
    app.addHook('onSend', async (_request, reply, payload) => {
      reply.headers(SECURITY_HEADERS);
      return payload;
    });
    app.setErrorHandler(async (error, request, reply) => {
      if (error instanceof WebError) {
        return reply
          .code(STATUS[error.code] ?? 400)
          .headers(error.headers)
          .send({ error: { code: error.code, message: error.message } });
      }
      if (isAppError(error)) {
        metrics.errors.inc({ code: error.code });
        return reply.code(STATUS[error.code] ?? 409).send({
          error: { code: error.code, message: describeAppError(error, shared.errorMessages, i18n) },
        });
      }
      const status = (error as { statusCode?: number }).statusCode;
      if (status && status < 500) {
        return reply.code(status).send({ error: { code: 'BAD_REQUEST', message: (error as Error).message } });
      }
      metrics.errors.inc({ code: 'UNEXPECTED' });
      deps.log.error({ event: 'http.failed', url: request.url, err: error }, 'HTTP request failed');
      return reply.code(500).send({ error: { code: 'UNEXPECTED', message: 'Something went wrong.' } });
    });

    app.addHook('onReady', () => feed.start());
    app.addHook('onClose', () => feed.stop());

    // --- Who is asking -------------------------------------------------------------------

    const identityOf = async (request: FastifyRequest): Promise<WebIdentity | null> => {
      const token = request.cookies[SESSION_COOKIE];
      return token ? services.web.session(token) : null;
    };
    const signedIn = async (request: FastifyRequest, access: Access = 'everyone') => {
      const identity = await identityOf(request);
      if (!identity) throw new WebError('NOT_SIGNED_IN', 'Sign in first: run /place web in Discord.');
      const actor: Actor = resolveActor(
        { id: identity.userId, name: identity.name },
        identity.roleIds,
        config.authority,
      );
      if (!hasAccess(actor, access)) throw new WebError('FORBIDDEN', `This needs ${access} rights.`);
      return actor;
    };
    /** Where the page is served from: PUBLIC_URL, else the address the browser used. */
    const originOf = (request: FastifyRequest) =>
      config.http.publicUrl ? new URL(config.http.publicUrl).origin : `${request.protocol}://${request.host}`;
    /** A write: from the page's own origin (CSRF, with the SameSite cookie), within the rate limits. */
    const write = async (request: FastifyRequest, actor: Actor | null) => {
      if (request.headers.origin !== originOf(request)) {
        throw new WebError('BAD_ORIGIN', 'Writes are accepted only from the page itself.');
      }
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
          throw new WebError('RATE_LIMITED', `Too many requests; try again in ${seconds} s.`, {
            'retry-after': String(seconds),
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
        maxAge: Math.max(0, Math.floor((expiresAt.getTime() - deps.clock.now().getTime()) / 1000)),
      });
    };

    // --- Public -----------------------------------------------------------------------

    app.get('/api/public/place', async (request, reply) => {
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
      const board = await services.place.board();
      const etag = `"png-r${board.revision}-${board.width}x${board.height}"`;
      reply.header('etag', etag).header('cache-control', 'no-cache');
      if (request.headers['if-none-match'] === etag) return reply.code(304).send();
      const png = await renderCanvasPng(board, PNG_PALETTE, 1);
      return reply.type('image/png').send(png);
    });

    app.get('/api/public/place/changes', async (request) => {
      const { after, limit } = parse(schemas.changes, request.query);
      const committed = await services.place.advance();
      // Further behind than one page allows: reload the board (cheaper than replaying).
      if (committed - after > 10 * limit) return { reload: true, revision: committed, changes: [] };
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
      const { x, y } = parse(schemas.pixelInfo, request.query);
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
      throw new WebError('UPGRADE_REQUIRED', 'This is a WebSocket: connect with Upgrade: websocket.');
    });
    app.server.on('upgrade', (request, socket, head) => {
      const url = new URL(request.url ?? '/', 'http://localhost');
      if (url.pathname !== '/api/place/ws') {
        socket.destroy();
        return;
      }
      const query = schemas.ws.safeParse(Object.fromEntries(url.searchParams));
      const after = query.success ? (query.data.after ?? null) : null;
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
      const identity = await identityOf(request);
      return identity
        ? { signed_in: true, client_id: identity.userId, name: identity.name }
        : { signed_in: false };
    });

    app.get('/api/place/me', async (request) => {
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
      await write(request, actor);
      const key = parse(schemas.idempotencyKey, request.headers['idempotency-key']);
      const body = parse(schemas.pixel, request.body);
      const placed = await services.place.place({
        opId: `web.pixel:${actor.id}:${key}`,
        userId: actor.id,
        x: body.x,
        y: body.y,
        color: body.color_index,
      });
      if (
        placed.replayed &&
        (placed.x !== body.x || placed.y !== body.y || placed.color !== body.color_index)
      ) {
        throw new WebError('IDEMPOTENCY_KEY_REUSED', 'This Idempotency-Key was used for another placement.');
      }
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
      await write(request, null);
      const token = request.cookies[SESSION_COOKIE];
      if (token) await services.web.signOut(token);
      return reply.clearCookie(SESSION_COOKIE, { path: '/' }).send({ signed_out: true });
    });

    // --- Moderators (the same rights as /admin place grant and earnings) ----------------

    app.get('/api/admin/place/earnings', async (request) => {
      await signedIn(request, 'moderator');
      const { limit, client_id } = parse(schemas.earnings, request.query);
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
      await write(request, actor);
      const key = parse(schemas.idempotencyKey, request.headers['idempotency-key']);
      const body = parse(schemas.points, request.body);
      let milli: number;
      try {
        milli = parsePlacePoints(String(body.points));
      } catch {
        throw new WebError('BAD_REQUEST', 'points: a positive amount with up to 3 decimals, e.g. 12.345');
      }
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

    app.get('/', async (_request, reply) => reply.redirect('/place'));
    app.get('/place', async (_request, reply) =>
      reply.type('text/html; charset=utf-8').send((await webPage()).html),
    );
    app.get('/place/app.js', async (_request, reply) =>
      reply.type('text/javascript; charset=utf-8').send((await webPage()).js),
    );
    app.get('/place/app.css', async (_request, reply) =>
      reply.type('text/css; charset=utf-8').send((await webPage()).css),
    );

    // Opening the link shows a button; only pressing it uses the link. Discord and other
    // link previewers fetch URLs they see, and a GET that signed in would burn the link.
    app.get('/place/login', async (request, reply) => {
      const { token } = parse(schemas.login, request.query);
      return reply.type('text/html; charset=utf-8').send(signInPage(token));
    });
    app.post('/place/login', async (request, reply) => {
      await write(request, null);
      const { token } = parse(schemas.login, request.body);
      const session = await services.web.signIn(token);
      if (!session) {
        throw new WebError(
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
  app.get('/auth/discord', async (_request, reply) => {
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
  app.get('/auth/discord/callback', async (request, reply) => {
    const { code, state } = parse(
      z.object({ code: z.string().min(1), state: z.string().min(1) }),
      request.query,
    );
    if (state !== request.cookies.oauth_state) throw new WebError('BAD_REQUEST', 'state: does not match');
    const token = await fetch(`${api}/oauth2/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        client_id: config.discord.applicationId as string,
        client_secret: config.http.discordClientSecret as string,
        grant_type: 'authorization_code',
        code,
        redirect_uri: redirectUri,
      }),
    }).then((r) => r.json() as Promise<{ access_token?: string }>);
    if (!token.access_token) throw new WebError('LINK_INVALID', 'Discord did not confirm the sign-in.');
    const user = await fetch(`${api}/users/@me`, {
      headers: { authorization: `Bearer ${token.access_token}` },
    }).then((r) => r.json() as Promise<{ id: string; username: string; global_name?: string }>);
    const session = await deps.services.web.openSession({
      userId: user.id,
      name: user.global_name ?? user.username,
      roleIds: [],
    });
    await startSession(reply, session);
    return reply.redirect('/place');
  });
}
