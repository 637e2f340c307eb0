import type { FeatureServices } from '../../src/features/services.js';
import type { Translator } from '../../src/i18n/i18n.js';

/**
 * A moderator's clawback of Place points (`/admin place clawback`, the portal's Grants page):
 * at most the free balance is taken and burned, never below zero; what was taken is reported
 * and recorded for the audit channel in the server's language.
 */
export async function clawBackPoints(
  services: Pick<FeatureServices, 'place' | 'admin'>,
  serverI18n: Translator,
  action: { opId: string; moderatorId: string; member: string; milli: number; reason: string },
): Promise<{ taken: number; balance: number }> {
  const { opId, moderatorId, member, milli, reason } = action;
  const result = await services.place.clawback({ opId, moderatorId, from: member, amount: milli, reason });
  await services.admin.record({
    id: opId,
    kind: 'place.clawback',
    actorId: moderatorId,
    subjectId: member,
    text: serverI18n.t(
      reason ? 'place:admin.audit.placeClawedBackWithReason' : 'place:admin.audit.placeClawedBack',
      {
        actor: moderatorId,
        taken: serverI18n.points(result.taken),
        asked: serverI18n.points(milli),
        from: member,
        reason,
      },
    ),
  });
  return result;
}
