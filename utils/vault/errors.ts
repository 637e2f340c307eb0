import { AppError, type ErrorMessages } from '../../src/errors.js';

declare module '../../src/errors.js' {
  interface ErrorCodeRegistry {
    HEIST_STAKE_TOO_SMALL: true;
    HEIST_NOT_YET: true;
  }
}

export function heistStakeTooSmall(stake: number, min: number): AppError {
  return new AppError('HEIST_STAKE_TOO_SMALL', `stake ${stake} below ${min}`, { stake, min });
}

/**
 * The server shares one heist cooldown: a heist is being planned, or the vault was hit less
 * than `vault.heist_cooldown_s` ago. `retryAt` (ms) is when the next one may start.
 */
export function heistNotYet(retryAt: number): AppError {
  return new AppError('HEIST_NOT_YET', `next heist at ${new Date(retryAt).toISOString()}`, { retryAt });
}

export const VAULT_ERROR_MESSAGES: ErrorMessages<'HEIST_STAKE_TOO_SMALL' | 'HEIST_NOT_YET'> = {
  HEIST_NOT_YET: (c, _, i18n) =>
    i18n.t('vault:errors.HEIST_NOT_YET', { atSeconds: Math.ceil(Number(c.retryAt) / 1000) }),
  HEIST_STAKE_TOO_SMALL: (c, _, i18n) =>
    i18n.t('vault:errors.HEIST_STAKE_TOO_SMALL', {
      min: i18n.cookies(Number(c.min)),
      stake: i18n.cookies(Number(c.stake)),
    }),
};
