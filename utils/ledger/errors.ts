import type { Currency } from '../../src/db/collections.js';
import { formatAmount, formatCookies } from '../amounts.js';
import { AppError, type ErrorMessages } from '../errors.js';

declare module '../errors.js' {
  interface ErrorCodeRegistry {
    INSUFFICIENT_COOKIES: true;
    INSUFFICIENT_PLACE_POINTS: true;
    HOUSE_VAULT_INSUFFICIENT: true;
    OPERATION_ID_REUSED: true;
    OPERATION_IN_PROGRESS: true;
    LEDGER_UNAVAILABLE: true;
    BALANCE_LIMIT: true;
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

function amountIn(context: Record<string, unknown>, value: unknown): string {
  return formatAmount(context.currency === 'place' ? 'place' : 'cookies', Number(value ?? 0));
}

const notEnough: ErrorMessages<'INSUFFICIENT_COOKIES'>['INSUFFICIENT_COOKIES'] = (c) =>
  `Not enough: you have ${amountIn(c, c.balance)} but this needs ${amountIn(c, c.needed)}.`;

export const LEDGER_ERROR_MESSAGES: ErrorMessages<
  | 'INSUFFICIENT_COOKIES'
  | 'INSUFFICIENT_PLACE_POINTS'
  | 'HOUSE_VAULT_INSUFFICIENT'
  | 'OPERATION_ID_REUSED'
  | 'OPERATION_IN_PROGRESS'
  | 'LEDGER_UNAVAILABLE'
  | 'BALANCE_LIMIT'
> = {
  INSUFFICIENT_COOKIES: notEnough,
  INSUFFICIENT_PLACE_POINTS: notEnough,
  HOUSE_VAULT_INSUFFICIENT: (c) =>
    `The house vault cannot pay ${formatCookies(Number(c.needed))} right now: it can pay out at most ${formatCookies(Number(c.available))}.`,
  OPERATION_ID_REUSED: () => 'This button or action was already used for something else.',
  OPERATION_IN_PROGRESS: () => 'This action is still being processed. Try again in a few seconds.',
  LEDGER_UNAVAILABLE: () => 'The bank did not answer in time, so nothing was moved. Try again in a moment.',
  BALANCE_LIMIT: (c) =>
    `That would take a balance past the limit of ${amountIn(c, c.max)}: it holds ${amountIn(c, c.balance)}, so at most ${amountIn(c, Number(c.max) - Number(c.balance))} more fits.`,
};
