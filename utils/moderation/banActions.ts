import type { FeatureServices } from '../../src/features/services.js';
import type { Translator } from '../../src/i18n/i18n.js';
import type { SanctionScope } from '../../src/interactions/types.js';
import { endText } from './errors.js';
import type { SanctionDoc } from './sanctionStore.js';
import type { BanOutcome, BanRequest } from './sanctions.js';

type Services = Pick<FeatureServices, 'moderation' | 'admin'>;

/** A ban's words for a text: who, which scope, until when, why, by whom. */
export function describedBan(ban: SanctionDoc, i18n: Translator) {
  return {
    member: ban.member,
    scope: i18n.t(`moderation:scopes.${ban.scope}`),
    end: endText(ban.until, i18n),
    reason: ban.reason,
    actor: ban.by,
  };
}

/**
 * A moderator's ban (`/admin sanction ban`, the portal's Sanctions page), recorded for the audit
 * channel in the server's language when it changed anything (a longer ban that stands is kept,
 * and says so, without a line).
 */
export async function banMember(
  services: Services,
  serverI18n: Translator,
  request: BanRequest & { actionId: string },
): Promise<BanOutcome> {
  const { actionId, ...ban } = request;
  const outcome = await services.moderation.ban(ban);
  if (outcome.outcome !== 'kept') {
    await services.admin.record({
      id: `moderation.ban:${actionId}`,
      kind: 'sanction.ban',
      actorId: ban.by,
      subjectId: ban.member,
      text: serverI18n.t(`moderation:audit.${outcome.outcome}`, describedBan(outcome.sanction, serverI18n)),
    });
  }
  return outcome;
}

/** Ends a ban at once (`/admin sanction lift`, the portal); false when there was none. */
export async function liftBan(
  services: Services,
  serverI18n: Translator,
  request: { actionId: string; member: string; scope: SanctionScope; by: string },
): Promise<boolean> {
  const lifted = await services.moderation.lift(request.member, request.scope);
  if (!lifted) return false;
  await services.admin.record({
    id: `moderation.lift:${request.actionId}`,
    kind: 'sanction.lift',
    actorId: request.by,
    subjectId: request.member,
    text: serverI18n.t('moderation:audit.lifted', {
      member: request.member,
      scope: serverI18n.t(`moderation:scopes.${request.scope}`),
      actor: request.by,
    }),
  });
  return true;
}
