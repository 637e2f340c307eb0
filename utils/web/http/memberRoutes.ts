import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { parseQuery, parseWith } from '../../../src/http/params.js';
import type { BotDeps } from '../../../src/interactions/types.js';
import { metrics } from '../../../src/metrics.js';
import { PALETTE } from '../../place/palette.js';
import { IDEMPOTENCY_KEY, SESSION_COOKIE, type WebGate } from './gate.js';

// A JSON body: numbers must be numbers ("1" is refused, unlike in a query string).
const pixelBody = z
  .object({
    x: z.number().int().min(0),
    y: z.number().int().min(0),
    color_index: z
      .number()
      .int()
      .min(0)
      .max(PALETTE.length - 1),
  })
  .strict();

/** A signed-in member: whether signed in, the wallet, painting a pixel, signing out. */
export function memberRoutes(app: FastifyInstance, deps: BotDeps, gate: WebGate): void {
  const { services } = deps;
  const { identityOf, signedIn, fromThePage, withinLimits } = gate;
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
    // As members see it on Discord: rolled-back pixels and refunds left out (standings.ts).
    const [wallet, cost, earnings, workers] = await Promise.all([
      services.place.standing(actor.id),
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

  pixelRoute(app, deps, gate);

  app.post('/api/place/logout', async (request, reply) => {
    fromThePage(request);
    parseQuery({}, request.query);
    parseWith(z.object({}).strict(), request.body);
    await withinLimits(request, null);
    const token = request.cookies[SESSION_COOKIE];
    if (token) await services.web.signOut(token);
    return reply.clearCookie(SESSION_COOKIE, { path: '/' }).send({ signed_out: true });
  });
}

/** Painting a pixel: the same placement as `/place pixel`, charged once per Idempotency-Key. */
function pixelRoute(app: FastifyInstance, { services }: BotDeps, gate: WebGate): void {
  const { signedIn, fromThePage, withinLimits } = gate;
  app.post('/api/place/pixel', async (request) => {
    const actor = await signedIn(request);
    fromThePage(request);
    parseQuery({}, request.query);
    const key = parseWith(IDEMPOTENCY_KEY, request.headers['idempotency-key'], 'Idempotency-Key');
    const body = parseWith(pixelBody, request.body);
    await withinLimits(request, actor);
    // The key is the member's (the service keys placements by member): a key reused for
    // another pixel is refused before the balance is looked at, and a refused key stays refused.
    const placed = await services.place.place({
      opId: `web.pixel:${key}`,
      userId: actor.id,
      x: body.x,
      y: body.y,
      color: body.color_index,
      painter: actor,
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
}
