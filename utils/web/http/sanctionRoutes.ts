import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { HttpError } from '../../../src/http/contract.js';
import { parseQuery } from '../../../src/http/params.js';
import { serverTranslator } from '../../../src/i18n/serverLanguage.js';
import type { BotDeps } from '../../../src/interactions/types.js';
import { banMember, liftBan } from '../../moderation/banActions.js';
import type { SanctionDoc } from '../../moderation/sanctionStore.js';
import { parseBanLength, SCOPES } from '../../moderation/scopes.js';
import { adminWrite, refuseReusedKey, refuseUnknownClient } from './adminWrite.js';
import type { WebGate } from './gate.js';

const memberId = z.string().regex(/^\d{17,20}$/, { error: 'a member id (17 to 20 digits)' });
const banBody = z
  .object({
    member: memberId,
    scope: z.enum(SCOPES),
    reason: z.string().trim().min(1).max(200),
    /** `30m`, `6h`, `7d`, `2w`, or `permanent`. */
    duration: z.string().max(10),
  })
  .strict();
const liftBody = z.object({ member: memberId, scope: z.enum(SCOPES) }).strict();

/**
 * Bans from painting, games or the whole economy, as `/admin sanction ban|lift|list`: up to a
 * week for moderators, longer or for good for admins; the member is told the end and the
 * reason wherever they act next.
 */
export function sanctionRoutes(app: FastifyInstance, deps: BotDeps, gate: WebGate): void {
  const { services } = deps;
  app.get('/api/admin/sanctions', async (request) => {
    await gate.signedIn(request, 'moderator');
    const { member } = parseQuery({ member: memberId.optional() }, request.query);
    const bans = await services.moderation.list(member);
    const names = await deps.profiles.names([...new Set(bans.flatMap((b) => [b.member, b.by]))]);
    return { sanctions: bans.map((b) => sanctionJson(b, names)) };
  });

  app.post('/api/admin/sanctions', async (request) => {
    const { actor, key, body } = await adminWrite(gate, request, 'moderator', banBody);
    const lengthMs = body.duration === 'permanent' ? null : parseBanLength(body.duration);
    if (body.duration !== 'permanent' && lengthMs === null)
      throw new HttpError('BAD_REQUEST', 'duration: 30m, 6h, 7d or 2w (up to 5 digits), or permanent');
    await refuseUnknownClient(deps, body.member, 'member', { workers: false });
    await gate.withinLimits(request, actor);
    await refuseReusedKey(deps, request, { actor, key, body });
    const { outcome, sanction } = await banMember(services, await serverTranslator(deps), {
      actionId: `web:${actor.id}:${key}`,
      member: body.member,
      scope: body.scope,
      lengthMs,
      reason: body.reason,
      by: actor.id,
      byAdmin: actor.isAdmin,
    });
    const names = await deps.profiles.names([sanction.member, sanction.by]);
    return { outcome, sanction: sanctionJson(sanction, names) };
  });

  app.post('/api/admin/sanctions/lift', async (request) => {
    const { actor, key, body } = await adminWrite(gate, request, 'moderator', liftBody);
    await gate.withinLimits(request, actor);
    await refuseReusedKey(deps, request, { actor, key, body });
    const lifted = await liftBan(services, await serverTranslator(deps), {
      actionId: `web:${actor.id}:${key}`,
      member: body.member,
      scope: body.scope,
      by: actor.id,
    });
    return { lifted };
  });
}

function sanctionJson(ban: SanctionDoc, names: Map<string, string>) {
  return {
    member: ban.member,
    member_name: names.get(ban.member) ?? null,
    scope: ban.scope,
    until: ban.until?.toISOString() ?? null,
    reason: ban.reason,
    by: { id: ban.by, name: names.get(ban.by) ?? null },
    at: ban.at.toISOString(),
  };
}
