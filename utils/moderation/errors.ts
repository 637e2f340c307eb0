import { AppError, type ErrorMessages } from '../../src/errors.js';
import type { Translator } from '../../src/i18n/i18n.js';
import type { SanctionScope } from '../../src/interactions/types.js';
import type { SanctionDoc } from './sanctionStore.js';
import { MODERATOR_MAX_MS } from './scopes.js';

declare module '../../src/errors.js' {
  interface ErrorCodeRegistry {
    SANCTIONED: true;
    SANCTION_NEEDS_ADMIN: true;
  }
}

/** A banned member's action: the scope, the end (ISO, or empty for a permanent ban) and the reason. */
export function sanctioned(ban: SanctionDoc): AppError {
  return new AppError('SANCTIONED', `${ban.member} is banned from ${ban.scope}`, {
    scope: ban.scope,
    until: ban.until?.toISOString() ?? '',
    reason: ban.reason,
  });
}

/** A moderator's ban longer than a moderator may give, or permanent. */
export function needsAdmin(): AppError {
  return new AppError('SANCTION_NEEDS_ADMIN', 'a ban this long needs an admin', {
    maxDays: MODERATOR_MAX_MS / 86_400_000,
  });
}

/** A ban's end as members read it: a Discord timestamp and how far off it is, or "for good". */
export function endText(until: Date | null, i18n: Translator): string {
  if (until === null) return i18n.t('moderation:permanent');
  const seconds = Math.floor(until.getTime() / 1000);
  return i18n.t('moderation:until', { seconds });
}

export const MODERATION_ERROR_MESSAGES: ErrorMessages<'SANCTIONED' | 'SANCTION_NEEDS_ADMIN'> = {
  SANCTIONED: (c, _, i18n) =>
    i18n.t('moderation:errors.SANCTIONED', {
      scope: i18n.t(`moderation:scopes.${c.scope as SanctionScope}`),
      end: endText(c.until ? new Date(String(c.until)) : null, i18n),
      reason: String(c.reason),
    }),
  SANCTION_NEEDS_ADMIN: (c, _, i18n) =>
    i18n.t('moderation:errors.SANCTION_NEEDS_ADMIN', { maxDays: Number(c.maxDays) }),
};
