import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { HttpError } from '../../../src/http/contract.js';
import { requestLocale } from '../../../src/i18n/i18n.js';
import { serverTranslator } from '../../../src/i18n/serverLanguage.js';
import type { BotDeps } from '../../../src/interactions/types.js';
import { clawBackCookies, grantCookies } from '../../cookies/moderatorActions.js';
import { AMOUNT_MAX, parsePlacePoints } from '../../money/amounts.js';
import { clawBackPoints } from '../../place/clawback.js';
import { adminWrite, refuseReusedKey, refuseUnknownClient } from './adminWrite.js';
import type { WebGate } from './gate.js';

const memberId = z.string().regex(/^\d{17,20}$/, { error: 'a member id (17 to 20 digits)' });
const cookiesBody = z
  .object({
    member: memberId,
    amount: z.number().int().min(1).max(AMOUNT_MAX),
    reason: z.string().max(200).default(''),
  })
  .strict();
const pointsBody = z
  .object({ member: memberId, points: z.string().max(30), reason: z.string().max(200).default('') })
  .strict();

/**
 * Cookies granted (admins) and taken back (moderators), and Place points taken back: the same
 * actions as `/admin cookies grant|clawback` and `/admin place clawback`, audited in the
 * server's language, once per Idempotency-Key. A clawback never takes more than the free
 * balance and says what it took.
 */
export function grantRoutes(app: FastifyInstance, deps: BotDeps, gate: WebGate): void {
  const { services } = deps;
  app.post('/api/admin/cookies/grant', async (request) => {
    const { actor, key, body } = await adminWrite(gate, request, 'admin', cookiesBody);
    await refuseUnknownClient(deps, body.member, 'member', { workers: false });
    await gate.withinLimits(request, actor);
    await refuseReusedKey(deps, request, { actor, key, body });
    const { balance } = await grantCookies(services, await serverTranslator(deps), {
      opId: `web.cookies.grant:${actor.id}:${key}`,
      moderatorId: actor.id,
      member: body.member,
      amount: body.amount,
      reason: body.reason,
    });
    return { member: body.member, granted: body.amount, balance };
  });

  app.post('/api/admin/cookies/clawback', async (request) => {
    const { actor, key, body } = await adminWrite(gate, request, 'moderator', cookiesBody);
    await refuseUnknownClient(deps, body.member, 'member', { workers: false });
    await gate.withinLimits(request, actor);
    await refuseReusedKey(deps, request, { actor, key, body });
    const { taken, balance } = await clawBackCookies(services, await serverTranslator(deps), {
      opId: `web.cookies.clawback:${actor.id}:${key}`,
      moderatorId: actor.id,
      member: body.member,
      amount: body.amount,
      reason: body.reason,
    });
    return { member: body.member, asked: body.amount, taken, balance };
  });

  app.post('/api/admin/place/clawback', async (request) => {
    const { actor, key, body } = await adminWrite(gate, request, 'moderator', pointsBody);
    let milli = 0;
    try {
      milli = parsePlacePoints(body.points, requestLocale(request.headers['accept-language']));
    } catch {}
    if (milli <= 0)
      throw new HttpError('BAD_REQUEST', 'points: a positive amount with up to 3 decimals, e.g. 12.345');
    await refuseUnknownClient(deps, body.member, 'member', { workers: false });
    await gate.withinLimits(request, actor);
    await refuseReusedKey(deps, request, { actor, key, body });
    const { taken, balance } = await clawBackPoints(services, await serverTranslator(deps), {
      opId: `web.place.clawback:${actor.id}:${key}`,
      moderatorId: actor.id,
      member: body.member,
      milli,
      reason: body.reason,
    });
    return { member: body.member, asked: milli / 1000, taken: taken / 1000, balance: balance / 1000 };
  });
}
