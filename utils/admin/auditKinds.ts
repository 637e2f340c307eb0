/**
 * What a moderator or an admin did, as the audit trail names it: short, stable tokens that the
 * portal filters by and a CSV export keeps, so a token is never renamed once used. A new audited
 * action adds its token here; `AuditLog.record` accepts no other.
 */
export const AUDIT_KINDS = [
  'cookies.grant',
  'cookies.clawback',
  'bakery.post',
  'place.grant',
  'place.clawback',
  'place.rollback',
  'place.protect',
  'place.unprotect',
  'place.enable',
  'place.disable',
  'place.resize',
  'runtime.set',
  'sanction.ban',
  'sanction.lift',
  'hunt.reroll',
  'vault.fund',
  'cleanup.inactive',
  'privacy.forget',
  'shop.add',
  'shop.edit',
  'shop.remove',
  'shop.income',
] as const;

export type AuditKind = (typeof AUDIT_KINDS)[number];
