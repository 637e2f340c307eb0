import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { HttpError } from '../../../src/http/contract.js';
import { parseQuery, wholeNumber } from '../../../src/http/params.js';
import { requestLocale } from '../../../src/i18n/i18n.js';
import { serverTranslator } from '../../../src/i18n/serverLanguage.js';
import type { BotDeps } from '../../../src/interactions/types.js';
import { SNOWFLAKE_PATTERN } from '../../../src/snowflake.js';
import { grantPlacePoints } from '../../hunt/adminGrant.js';
import { EARNING_KINDS, type Earning, type EarningsCursor } from '../../hunt/earningsStore.js';
import { parsePlacePoints } from '../../money/amounts.js';
import { adminWrite, refuseReusedKey, refuseUnknownClient } from './adminWrite.js';
import type { WebGate } from './gate.js';

/** A member (a Discord id) or a worker (`w-` and 16 hex digits). */
export const clientId = z.string().regex(/^(\d{17,20}|w-[0-9a-f]{16})$/, {
  error: 'a member id (17 to 20 digits) or a worker id (w- and 16 hex digits)',
});
/** Where the previous page ended: `<epoch ms>.<event id>`, as its `next` said. */
const cursor = z
  .string()
  .regex(/^\d{1,15}\.[\w:.-]{1,200}$/, { error: 'the `next` of the previous page' })
  .transform((text): EarningsCursor => {
    const dot = text.indexOf('.');
    return { at: new Date(Number(text.slice(0, dot))), id: text.slice(dot + 1) };
  });
const earningsQuery = {
  limit: wholeNumber(1, 200).default(50),
  client_id: clientId.optional(),
  kind: z.enum(EARNING_KINDS).optional(),
  before: cursor.optional(),
};
const searchQuery = { q: z.string().trim().min(1).max(40) };
const pointsBody = z
  .object({
    target_client_id: clientId,
    points: z.union([z.number().positive(), z.string().max(30)]),
    reason: z.string().max(200).default(''),
  })
  .strict();

/**
 * The moderators' API (docs/web.md, "The moderators' portal"): who is signed in, the member
 * picker, the earnings of every kind, and grants of Place points. The same rights as on
 * Discord, read from the session's roles and the configured lists on every request.
 */
export function adminRoutes(app: FastifyInstance, deps: BotDeps, gate: WebGate): void {
  const { services } = deps;
  app.get('/api/admin/me', async (request) => {
    const actor = await gate.signedIn(request, 'moderator');
    parseQuery({}, request.query);
    return { id: actor.id, name: actor.name, role: actor.isAdmin ? 'admin' : 'moderator' };
  });

  // The picker: members by name or id, and linked workers by id or label, with their owners.
  app.get('/api/admin/members', async (request) => {
    await gate.signedIn(request, 'moderator');
    const { q } = parseQuery(searchQuery, request.query);
    const [members, workers] = await Promise.all([
      deps.profiles.search(q, 10),
      services.workers.search(q, 10),
    ]);
    const owners = await deps.profiles.names(workers.map((w) => w.ownerId));
    return {
      results: [
        ...members.map((m) => ({ id: m._id, kind: 'member', name: m.name })),
        ...workers.map((w) => ({
          id: w._id,
          kind: 'worker',
          name: w.label,
          owner_id: w.ownerId,
          owner_name: owners.get(w.ownerId) ?? null,
        })),
      ],
    };
  });

  app.get('/api/admin/place/earnings', async (request) => {
    await gate.signedIn(request, 'moderator');
    const { limit, client_id, kind, before } = parseQuery(earningsQuery, request.query);
    const page = await services.hunt.earningsPage({
      kinds: kind ? [kind] : EARNING_KINDS,
      ...(client_id ? { owner: client_id } : {}),
      ...(before ? { before } : {}),
      limit,
    });
    const events = page.earnings;
    const ids = [
      ...new Set(events.flatMap((e) => [e.owner, e.source, e.bonus?.grant?.moderatorId ?? e.owner])),
    ];
    // Members by their names, workers by their labels.
    const [members, workers] = await Promise.all([
      deps.profiles.names(ids.filter((id) => SNOWFLAKE_PATTERN.test(id))),
      services.workers.labels(ids.filter((id) => id.startsWith('w-'))),
    ]);
    const names = new Map([...members, ...workers]);
    return {
      events: events.map((e) => earningJson(e, names)),
      next: page.next ? `${page.next.at.getTime()}.${page.next.id}` : null,
    };
  });

  app.post('/api/admin/place/points', async (request) => {
    const { actor, key, body } = await adminWrite(gate, request, 'moderator', pointsBody);
    let milli = 0;
    try {
      milli = parsePlacePoints(String(body.points), requestLocale(request.headers['accept-language']));
    } catch {}
    if (milli <= 0)
      throw new HttpError('BAD_REQUEST', 'points: a positive amount with up to 3 decimals, e.g. 12.345');
    const target = body.target_client_id;
    await refuseUnknownClient(deps, target, 'target_client_id', { workers: true });
    await gate.withinLimits(request, actor);
    await refuseReusedKey(deps, request, { actor, key, body });
    const { owner, balance } = await grantPlacePoints(services, await serverTranslator(deps), {
      opId: `web.grant:${actor.id}:${key}`,
      moderatorId: actor.id,
      ...(SNOWFLAKE_PATTERN.test(target) ? { member: target } : { worker: target }),
      milli,
      reason: body.reason,
    });
    const names = await deps.profiles.names([owner]);
    return { owner, owner_name: names.get(owner) ?? null, points: milli / 1000, balance: balance / 1000 };
  });
}

/** An earning as the API shows it: names beside ids, and what a moderator's grant said. */
function earningJson(e: Earning, names: Map<string, string>) {
  const grant = e.bonus?.grant;
  return {
    id: e.id,
    kind: e.kind,
    points: e.milli / 1000,
    owner: e.owner,
    owner_name: names.get(e.owner) ?? null,
    source: e.source,
    source_name: names.get(e.source) ?? null,
    multiplier: e.bonus?.multiplier ?? null,
    units: e.bonus?.units ?? null,
    detail: e.bonus?.detail ?? null,
    round: e.progress?.round ?? e.bonus?.tip?.round ?? null,
    moderator: grant ? { id: grant.moderatorId, name: names.get(grant.moderatorId) ?? null } : null,
    reason: grant?.reason ?? null,
    at: e.at.toISOString(),
  };
}
