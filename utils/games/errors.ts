import { AppError, type ErrorMessages } from '../../src/errors.js';

declare module '../../src/errors.js' {
  interface ErrorCodeRegistry {
    BET_OUT_OF_RANGE: true;
    VAULT_LIMIT: true;
  }
}

export function betOutOfRange(bet: number, min: number, max: number): AppError {
  return new AppError('BET_OUT_OF_RANGE', `bet ${bet} outside ${min}..${max}`, { bet, min, max });
}

/** The vault cannot cover the bet's largest win now; `maxBet` is the largest bet it can. */
export function vaultLimit(bet: number, maxBet: number): AppError {
  return new AppError('VAULT_LIMIT', `the vault covers bets up to ${maxBet}, not ${bet}`, { bet, maxBet });
}

export const GAMES_ERROR_MESSAGES: ErrorMessages<'BET_OUT_OF_RANGE' | 'VAULT_LIMIT'> = {
  BET_OUT_OF_RANGE: (c, _, i18n) =>
    i18n.t('games:errors.BET_OUT_OF_RANGE', {
      bet: i18n.cookies(Number(c.bet)),
      min: i18n.cookies(Number(c.min)),
      max: i18n.cookies(Number(c.max)),
    }),
  VAULT_LIMIT: (c, _, i18n) =>
    Number(c.maxBet) > 0
      ? i18n.t('games:errors.VAULT_LIMIT', {
          bet: i18n.cookies(Number(c.bet)),
          maxBet: i18n.cookies(Number(c.maxBet)),
        })
      : i18n.t('games:errors.VAULT_EMPTY', { bet: i18n.cookies(Number(c.bet)) }),
};
