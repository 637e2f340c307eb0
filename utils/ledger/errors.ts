import type { Currency } from '../../src/db/collections.js';
import { AppError, type ErrorMessage, type ErrorMessages } from '../../src/errors.js';
import type { Translator } from '../../src/i18n/i18n.js';

declare module '../../src/errors.js' {
  interface ErrorCodeRegistry {
    INSUFFICIENT_COOKIES: true;
    INSUFFICIENT_PLACE_POINTS: true;
    HOUSE_VAULT_INSUFFICIENT: true;
    OPERATION_ID_REUSED: true;
    OPERATION_IN_PROGRESS: true;
    LEDGER_UNAVAILABLE: true;
    BALANCE_LIMIT: true;
    ACCOUNT_CLOSED: true;
  }
}

/** Not enough of `currency` on `account`: the one shape of this refusal, wherever it is found. */
export function insufficientFunds(
  currency: Currency,
  account: string,
  balance: number,
  needed: number,
): AppError {
  const code = currency === 'place' ? 'INSUFFICIENT_PLACE_POINTS' : 'INSUFFICIENT_COOKIES';
  return new AppError(code, `${account} has ${balance}, needs ${needed}`, {
    account,
    balance,
    needed,
    currency,
  });
}

function amountIn(c: Record<string, unknown>, value: unknown, i18n: Translator): string {
  const amount = Number(value ?? 0);
  return c.currency === 'place' ? i18n.points(amount) : i18n.cookies(amount);
}

const notEnough: ErrorMessage = (c, _, i18n) =>
  i18n.t(c.affordable === undefined ? 'ledger:errors.INSUFFICIENT' : 'ledger:errors.INSUFFICIENT_PIXELS', {
    balance: amountIn(c, c.balance, i18n),
    needed: amountIn(c, c.needed, i18n),
    affordable: Number(c.affordable ?? 0),
  });

export const LEDGER_ERROR_MESSAGES: ErrorMessages<
  | 'INSUFFICIENT_COOKIES'
  | 'INSUFFICIENT_PLACE_POINTS'
  | 'HOUSE_VAULT_INSUFFICIENT'
  | 'OPERATION_ID_REUSED'
  | 'OPERATION_IN_PROGRESS'
  | 'LEDGER_UNAVAILABLE'
  | 'BALANCE_LIMIT'
  | 'ACCOUNT_CLOSED'
> = {
  INSUFFICIENT_COOKIES: notEnough,
  INSUFFICIENT_PLACE_POINTS: notEnough,
  HOUSE_VAULT_INSUFFICIENT: (c, _, i18n) =>
    i18n.t('ledger:errors.HOUSE_VAULT_INSUFFICIENT', {
      needed: i18n.cookies(Number(c.needed)),
      available: i18n.cookies(Number(c.available)),
    }),
  OPERATION_ID_REUSED: (_, __, i18n) => i18n.t('ledger:errors.OPERATION_ID_REUSED'),
  OPERATION_IN_PROGRESS: (_, __, i18n) => i18n.t('ledger:errors.OPERATION_IN_PROGRESS'),
  LEDGER_UNAVAILABLE: (_, __, i18n) => i18n.t('ledger:errors.LEDGER_UNAVAILABLE'),
  // A hold's account closed under a reserve that came too late: the action timed out, nothing moved.
  ACCOUNT_CLOSED: (_, __, i18n) => i18n.t('ledger:errors.ACCOUNT_CLOSED'),
  BALANCE_LIMIT: (c, _, i18n) =>
    i18n.t('ledger:errors.BALANCE_LIMIT', {
      max: amountIn(c, c.max, i18n),
      balance: amountIn(c, c.balance, i18n),
      room: amountIn(c, Number(c.max) - Number(c.balance), i18n),
    }),
};
