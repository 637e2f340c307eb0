import type { FeatureServices } from '../../src/features/services.js';
import type { Translator } from '../../src/i18n/i18n.js';
import { balanceAfter } from '../money/ledger/ledger.js';

/** A moderator's change of a member's Cookies, as Discord and the web portal ask it. */
export interface CookieAction {
  opId: string;
  moderatorId: string;
  member: string;
  amount: number;
  reason: string;
}

/**
 * An admin's grant of Cookies (`/admin cookies grant`, the portal's Grants page): minted through
 * the ledger once per operation id, and recorded for the audit channel in the server's language.
 * Returns the member's balance after it (now, when the grant's own answer was lost).
 */
export async function grantCookies(
  services: Pick<FeatureServices, 'cookies' | 'admin'>,
  serverI18n: Translator,
  action: CookieAction,
): Promise<{ balance: number }> {
  const { opId, moderatorId, member, amount, reason } = action;
  const outcome = await services.cookies.grant({ opId, adminId: moderatorId, to: member, amount, reason });
  await services.admin.record({
    id: opId,
    kind: 'cookies.grant',
    actorId: moderatorId,
    subjectId: member,
    text: serverI18n.t(reason ? 'cookies:admin.audit.grantedWithReason' : 'cookies:admin.audit.granted', {
      actor: moderatorId,
      amount: serverI18n.cookies(amount),
      to: member,
      reason,
    }),
  });
  return { balance: balanceAfter(outcome, member) ?? (await services.cookies.balance(member)) };
}

/**
 * A moderator's clawback of Cookies (`/admin cookies clawback`, the portal): at most the free
 * balance is taken and burned, never below zero; what was taken is reported and audited.
 */
export async function clawBackCookies(
  services: Pick<FeatureServices, 'cookies' | 'admin'>,
  serverI18n: Translator,
  action: CookieAction,
): Promise<{ taken: number; balance: number }> {
  const { opId, moderatorId, member, amount, reason } = action;
  const result = await services.cookies.clawback({ opId, moderatorId, from: member, amount, reason });
  await services.admin.record({
    id: opId,
    kind: 'cookies.clawback',
    actorId: moderatorId,
    subjectId: member,
    text: serverI18n.t(
      reason ? 'cookies:admin.audit.clawedBackWithReason' : 'cookies:admin.audit.clawedBack',
      {
        actor: moderatorId,
        taken: serverI18n.cookies(result.taken),
        asked: serverI18n.cookies(amount),
        from: member,
        reason,
      },
    ),
  });
  return result;
}
