import { AppError, type ErrorMessage, type ErrorMessages } from '../../../src/errors.js';
import type { Translator } from '../../../src/i18n/i18n.js';
import type { Book } from './books.js';
import type { Currency, OperationSpec } from './documents.js';
import type { Recorded } from './events.js';
import { fingerprint } from './operationSpec.js';

declare module '../../../src/errors.js' {
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

/** A short balance for `spec`: the house vault's reserve, or a member's INSUFFICIENT_*. */
export function insufficient(book: Book, spec: OperationSpec, account: string, balance: number): AppError {
  if (spec.keepAtLeast > 0) {
    return new AppError(
      'HOUSE_VAULT_INSUFFICIENT',
      `the house vault holds ${balance} and must keep ${spec.keepAtLeast}; it cannot pay ${spec.amount}`,
      {
        balance,
        reserve: spec.keepAtLeast,
        needed: spec.amount,
        available: Math.max(0, balance - spec.keepAtLeast),
      },
    );
  }
  return insufficientFunds(book.currency, account, balance, spec.amount);
}

/** The recorded outcome of `spec`'s id, when it was recorded for this same operation. */
export function sameOperation(spec: OperationSpec, recorded: Recorded): Recorded {
  if (recorded.fingerprint !== fingerprint(spec)) throw reused(spec);
  return recorded;
}

export function reused(spec: OperationSpec): AppError {
  return new AppError(
    'OPERATION_ID_REUSED',
    `operation id ${spec.opId} was already used for a different operation`,
    {
      opId: spec.opId,
    },
  );
}

export function inProgress(spec: OperationSpec): AppError {
  return new AppError(
    'OPERATION_IN_PROGRESS',
    `operation ${spec.opId} is still being applied; try again shortly`,
    {
      opId: spec.opId,
    },
  );
}

/** Nothing of the operation was applied, because the database could not be reached in time. */
export function unavailable(spec: OperationSpec, cause: unknown): AppError {
  const why = cause instanceof Error ? cause.message : String(cause);
  return new AppError('LEDGER_UNAVAILABLE', `operation ${spec.opId} was not applied: ${why}`, {
    opId: spec.opId,
  });
}

/** A credit to an account a hold closed for good (utils/money/holds/): nothing moved. */
export function accountClosed(spec: OperationSpec, account: string): AppError {
  return new AppError('ACCOUNT_CLOSED', `${account} is closed; ${spec.opId} cannot credit it`, {
    account,
    opId: spec.opId,
  });
}

export function balanceLimit(book: Book, spec: OperationSpec, account: string, balance: number): AppError {
  return new AppError(
    'BALANCE_LIMIT',
    `${account} holds ${balance}; ${spec.amount} more would pass the limit of ${book.maxBalance}`,
    { account, balance, needed: spec.amount, max: book.maxBalance, currency: spec.currency },
  );
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
