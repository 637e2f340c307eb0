import { AppError, type ErrorMessages } from '../../src/errors.js';

declare module '../../src/errors.js' {
  interface ErrorCodeRegistry {
    HEIST_STAKE_TOO_SMALL: true;
  }
}

export function heistStakeTooSmall(stake: number, min: number): AppError {
  return new AppError('HEIST_STAKE_TOO_SMALL', `stake ${stake} below ${min}`, { stake, min });
}

export const VAULT_ERROR_MESSAGES: ErrorMessages<'HEIST_STAKE_TOO_SMALL'> = {
  HEIST_STAKE_TOO_SMALL: (c, _, i18n) =>
    i18n.t('vault:errors.HEIST_STAKE_TOO_SMALL', {
      min: i18n.cookies(Number(c.min)),
      stake: i18n.cookies(Number(c.stake)),
    }),
};
