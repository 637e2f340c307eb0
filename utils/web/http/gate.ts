import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { HttpError } from '../../../src/http/contract.js';
import { hasAccess, resolveActor } from '../../../src/interactions/authority.js';
import type { Access, Actor, BotDeps } from '../../../src/interactions/types.js';
import type { OpenedSession } from '../webService.js';
import type { WebIdentity } from '../webStore.js';

export const SESSION_COOKIE = 'place_session';
/** The `Idempotency-Key` of a write: the client's own id for it (a retry sends the same). */
export const IDEMPOTENCY_KEY = z
  .string({ error: 'required: 8 to 64 letters, digits, _ or -' })
  .regex(/^[\w-]{8,64}$/, { error: '8 to 64 letters, digits, _ or -' });
/** Loopback names a browser may use for a server without PUBLIC_URL. */
const LOOPBACK = ['localhost', '127.0.0.1', '[::1]'];

/** A member on the web: their authority, and their roles as their session recorded them (protected areas). */
export type WebActor = Actor & { roleIds: readonly string[] };

/** Who is asking, and whether they may: what every route of the canvas on the web checks. */
export interface WebGate {
  /** The member this browser's session speaks for, or null. */
  identityOf(request: FastifyRequest): Promise<WebIdentity | null>;
  /** The signed-in member with `access` and the roles their session recorded, else NOT_SIGNED_IN or FORBIDDEN. */
  signedIn(request: FastifyRequest, access?: Access): Promise<WebActor>;
  /** A write comes from the page itself, else BAD_ORIGIN. */
  fromThePage(request: FastifyRequest): void;
  /** Within the rate limits (per address, and per member when signed in), else RATE_LIMITED. */
  withinLimits(request: FastifyRequest, actor: Actor | null): Promise<void>;
  /** Sets a new session's cookie. */
  startSession(reply: FastifyReply, session: OpenedSession): Promise<void>;
}

export function webGate(deps: BotDeps): WebGate {
  const { config, services } = deps;
  const identityOf = async (request: FastifyRequest): Promise<WebIdentity | null> => {
    const token = request.cookies[SESSION_COOKIE];
    return token ? services.web.session(token) : null;
  };
  const signedIn = async (request: FastifyRequest, access: Access = 'everyone') => {
    const identity = await identityOf(request);
    if (!identity) throw new HttpError('NOT_SIGNED_IN', 'Sign in first: run /place web in Discord.');
    await services.privacy.refuseErasing(identity.userId);
    const actor: WebActor = {
      ...resolveActor({ id: identity.userId, name: identity.name }, identity.roleIds, config.authority),
      roleIds: identity.roleIds,
    };
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
    await services.privacy.refuseErasing(session.identity.userId);
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
  return { identityOf, signedIn, fromThePage, withinLimits, startSession };
}
