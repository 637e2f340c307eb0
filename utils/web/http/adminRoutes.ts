import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { HttpError } from '../../../src/http/contract.js';
import { parseQuery, parseWith, wholeNumber } from '../../../src/http/params.js';
import { serverTranslator } from '../../../src/i18n/serverLanguage.js';
import type { BotDeps } from '../../../src/interactions/types.js';
import { SNOWFLAKE_PATTERN } from '../../../src/snowflake.js';
import { grantPlacePoints } from '../../hunt/adminGrant.js';
import { parsePlacePoints } from '../../money/amounts.js';
import { IDEMPOTENCY_KEY, type WebGate } from './gate.js';

/** A member (a Discord id) or a worker (`w-` and 16 hex digits). */
const clientId = z.string().regex(/^(\d{17,20}|w-[0-9a-f]{16})$/, {
  error: 'a member id (17 to 20 digits) or a worker id (w- and 16 hex digits)',
});
const earningsQuery = { limit: wholeNumber(1, 200).default(50), client_id: clientId.optional() };
const pointsBody = z
  .object({
    target_client_id: clientId,
    points: z.union([z.number().positive(), z.string()]),
    reason: z.string().max(200).default(''),
  })
  .strict();

/** Moderators: the same rights as `/admin place grant` and `/admin place earnings`. */
export function adminRoutes(app: FastifyInstance, deps: BotDeps, gate: WebGate): void {
  const { services } = deps;
  const { signedIn, fromThePage, withinLimits } = gate;
  app.get('/api/admin/place/earnings', async (request) => {
    await signedIn(request, 'moderator');
    const { limit, client_id } = parseQuery(earningsQuery, request.query);
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
    const key = parseWith(IDEMPOTENCY_KEY, request.headers['idempotency-key'], 'Idempotency-Key');
    const body = parseWith(pointsBody, request.body);
    let milli: number;
    try {
      milli = parsePlacePoints(String(body.points));
    } catch {
      throw new HttpError('BAD_REQUEST', 'points: a positive amount with up to 3 decimals, e.g. 12.345');
    }
    const target = body.target_client_id;
    // An id nobody uses would get a wallet and show in the rankings: only a member the bot has
    // seen, or a linked worker, receives points.
    const known = SNOWFLAKE_PATTERN.test(target)
      ? (await deps.profiles.firstSeenAt(target)) !== null
      : (await services.workers.linkedOwner(target)) !== null;
    if (!known)
      throw new HttpError(
        'UNKNOWN_CLIENT',
        `target_client_id: ${target} is neither a known member nor a linked worker`,
      );
    await withinLimits(request, actor);
    const { owner, balance } = await grantPlacePoints(services, await serverTranslator(deps), {
      opId: `web.grant:${actor.id}:${key}`,
      moderatorId: actor.id,
      ...(SNOWFLAKE_PATTERN.test(target) ? { member: target } : { worker: target }),
      milli,
      reason: body.reason,
    });
    return { owner, points: milli / 1000, balance: balance / 1000 };
  });
}
