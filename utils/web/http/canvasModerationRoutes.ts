import { createHash } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { HttpError } from '../../../src/http/contract.js';
import { parseQuery, parseWith, wholeNumber } from '../../../src/http/params.js';
import { serverTranslator } from '../../../src/i18n/serverLanguage.js';
import type { BotDeps } from '../../../src/interactions/types.js';
import type { HistoryPage } from '../../place/history.js';
import { roleOf } from '../../place/moderationLogStore.js';
import type { HistoryArea } from '../../place/pixelHistoryStore.js';
import { pixelBounds } from '../../place/rollbackPlan.js';
import { pressRollback } from '../../place/rollbackPress.js';
import { renderRollbackPreview } from '../../place/rollbackPreview.js';
import type { RollbackDoc } from '../../place/rollbackStore.js';
import { IDEMPOTENCY_KEY, type WebGate } from './gate.js';
import { moderationLogRoutes } from './moderationLogRoutes.js';

const member = z.string().regex(/^\d{17,20}$/, { error: 'a member id (17 to 20 digits)' });
const coordinate = z.number({ error: 'a whole number, 0 or more' }).int().min(0);
/** A web plan's id: the admin's Idempotency-Key, hashed with their id (a double click previews once). */
const planId = z.string().regex(/^[\w-]{1,40}$/, { error: 'a rollback id' });
const rollbackBody = z
  .object({
    member,
    x1: coordinate.optional(),
    y1: coordinate.optional(),
    x2: coordinate.optional(),
    y2: coordinate.optional(),
    since_minutes: z.number().int().min(1).max(5_256_000).optional(),
    reason: z.string().trim().max(200).optional(),
  })
  .strict();
const pressBody = z.object({ action: z.enum(['apply', 'refund', 'cancel']) }).strict();

interface MaybeArea {
  x1?: number | undefined;
  y1?: number | undefined;
  x2?: number | undefined;
  y2?: number | undefined;
}

/** `x1,y1,x2,y2`: all four or none, on the canvas, corners in either order. */
function areaOf(given: MaybeArea, size: { width: number; height: number }): HistoryArea | undefined {
  const { x1, y1, x2, y2 } = given;
  if (x1 === undefined && y1 === undefined && x2 === undefined && y2 === undefined) return undefined;
  if (x1 === undefined || y1 === undefined || x2 === undefined || y2 === undefined) {
    throw new HttpError('BAD_REQUEST', 'x1, y1, x2, y2: an area needs all four corners, or none');
  }
  for (const [name, value, max] of [
    ['x1', x1, size.width - 1],
    ['y1', y1, size.height - 1],
    ['x2', x2, size.width - 1],
    ['y2', y2, size.height - 1],
  ] as const) {
    if (value > max) throw new HttpError('BAD_REQUEST', `${name}: a whole number from 0 to ${max}`);
  }
  return { x1: Math.min(x1, x2), y1: Math.min(y1, y2), x2: Math.max(x1, x2), y2: Math.max(y1, y2) };
}

/** The canvas's moderation for moderators (history) and admins (rollbacks), and the public log. */
export function canvasModerationRoutes(app: FastifyInstance, deps: BotDeps, gate: WebGate): void {
  historyRoute(app, deps, gate);
  rollbackRoutes(app, deps, gate);
  previewRoute(app, deps, gate);
  moderationLogRoutes(app, deps);
}

/** `GET /api/admin/place/history`: a member's or an area's placements and rollback steps, newest first. */
function historyRoute(app: FastifyInstance, deps: BotDeps, { signedIn }: WebGate): void {
  const { services } = deps;
  app.get('/api/admin/place/history', async (request) => {
    await signedIn(request, 'moderator');
    const size = await services.place.size();
    const [maxX, maxY] = [size.width - 1, size.height - 1];
    const query = parseQuery(
      {
        x1: wholeNumber(0, maxX).optional(),
        y1: wholeNumber(0, maxY).optional(),
        x2: wholeNumber(0, maxX).optional(),
        y2: wholeNumber(0, maxY).optional(),
        member: member.optional(),
        before: wholeNumber(1).optional(),
        limit: wholeNumber(1, 200).default(50),
      },
      request.query,
    );
    const area = areaOf(query, size);
    const { before, limit } = query;
    const page = query.member
      ? await services.place.history({ member: query.member, limit, before, ...(area ? { area } : {}) })
      : area
        ? await services.place.history({ area, limit, before })
        : null;
    if (!page) throw new HttpError('BAD_REQUEST', 'member, x1, y1, x2, y2: give a member, an area, or both');
    return historyJson(deps, page);
  });
}

async function historyJson(deps: BotDeps, page: HistoryPage) {
  const owners = [...new Set(page.entries.flatMap((e) => (e.event.owner ? [e.event.owner] : [])))];
  const names = await deps.profiles.names(owners);
  return {
    entries: page.entries.map(({ event, beforeColor, rolledBack }) => ({
      revision: event.revision,
      kind: event.kind === 'rollback' ? 'rollback' : 'placement',
      x: event.x,
      y: event.y,
      color_index: event.color,
      before_color_index: beforeColor,
      owner: event.owner,
      owner_name: event.owner ? (names.get(event.owner) ?? null) : null,
      at: event.at.toISOString(),
      rolled_back: rolledBack,
    })),
    next: page.next,
  };
}

/** A plan as the web shows it: what would change, and what a refund would pay (points). */
async function planJson(deps: BotDeps, plan: RollbackDoc) {
  const names = await deps.profiles.names([plan.target]);
  return {
    id: plan._id,
    member: plan.target,
    member_name: names.get(plan.target) ?? null,
    pixels: plan.pixels.length,
    placements: plan.placements,
    refund: plan.refund / 1000,
    painted: plan.painted,
    bounds: plan.pixels.length > 0 ? pixelBounds(plan.pixels) : null,
    reason: plan.reason ?? null,
    status: plan.status,
  };
}

/** `POST /api/admin/place/rollbacks` (preview) and `POST …/:id` (apply, refund, cancel): as the Discord command. */
function rollbackRoutes(app: FastifyInstance, deps: BotDeps, gate: WebGate): void {
  const { services } = deps;
  const { signedIn, fromThePage, withinLimits } = gate;
  app.post('/api/admin/place/rollbacks', async (request) => {
    const actor = await signedIn(request, 'admin');
    fromThePage(request);
    parseQuery({}, request.query);
    const key = parseWith(IDEMPOTENCY_KEY, request.headers['idempotency-key'], 'Idempotency-Key');
    const body = parseWith(rollbackBody, request.body);
    const area = areaOf(body, await services.place.size());
    await withinLimits(request, actor);
    const asked = JSON.stringify([body.member, area ?? null, body.since_minutes ?? null, body.reason ?? '']);
    const id = `web-${createHash('sha256').update(`${actor.id}:${key}`).digest('base64url').slice(0, 32)}`;
    const since = body.since_minutes
      ? new Date(deps.clock.now().getTime() - body.since_minutes * 60_000)
      : undefined;
    const plan = await services.place.rollbacks.plan({
      id,
      adminId: actor.id,
      target: body.member,
      ...(area ? { area: { x0: area.x1, y0: area.y1, x1: area.x2, y1: area.y2 } } : {}),
      ...(since ? { since } : {}),
      ...(body.reason ? { reason: body.reason } : {}),
      role: roleOf(actor),
      request: asked,
    });
    if (plan.request !== asked) {
      throw new HttpError('IDEMPOTENCY_KEY_REUSED', 'This Idempotency-Key previewed another rollback.');
    }
    return planJson(deps, plan);
  });

  app.post('/api/admin/place/rollbacks/:id', async (request) => {
    const actor = await signedIn(request, 'admin');
    fromThePage(request);
    parseQuery({}, request.query);
    const { id } = parseWith(z.object({ id: planId }), request.params);
    const { action } = parseWith(pressBody, request.body);
    if (!(await services.place.rollbacks.get(id))) throw new HttpError('NOT_FOUND', `No rollback ${id}.`);
    await withinLimits(request, actor);
    const pressed = await pressRollback(services, await serverTranslator(deps), {
      id,
      action,
      actorId: actor.id,
    });
    const { restored, skipped, refunded, status } = pressed;
    return { restored, skipped, refunded: refunded / 1000, status };
  });
}

/** `GET /api/admin/place/rollbacks/:id/preview.png?side=before|after`: Discord's preview picture. */
function previewRoute(app: FastifyInstance, deps: BotDeps, { signedIn }: WebGate): void {
  const { services } = deps;
  app.get('/api/admin/place/rollbacks/:id/preview.png', async (request, reply) => {
    await signedIn(request, 'admin');
    const { side } = parseQuery({ side: z.enum(['before', 'after']).default('after') }, request.query);
    const { id } = parseWith(z.object({ id: planId }), request.params);
    const plan = await services.place.rollbacks.get(id);
    if (!plan) throw new HttpError('NOT_FOUND', `No rollback ${id}.`);
    if (plan.pixels.length === 0) throw new HttpError('NOT_FOUND', `Rollback ${id} changes no pixel.`);
    const png = await renderRollbackPreview(await services.place.board(), plan.pixels, side);
    return reply.type('image/png').header('cache-control', 'no-store').send(png);
  });
}
