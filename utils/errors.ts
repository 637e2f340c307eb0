/**
 * Every expected failure has a stable code. The code is in `error.code` and at the
 * start of `error.message`, so both conventions of the product brief work; `context`
 * carries the numbers a reply needs (balance, amount needed, retry time, ...).
 */
export const ERROR_CODES = [
  'INSUFFICIENT_COOKIES',
  'INSUFFICIENT_PLACE_POINTS',
  'HOUSE_VAULT_INSUFFICIENT',
  'INVALID_INPUT',
  'OPERATION_ID_REUSED',
  'OPERATION_IN_PROGRESS',
  'LEDGER_UNAVAILABLE',
  'BALANCE_LIMIT',
  'COOLDOWN_ACTIVE',
  'NOT_AUTHORIZED',
  'NOT_FOUND',
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

export type ErrorContext = Record<string, string | number | boolean | null | undefined>;

export class AppError extends Error {
  override readonly name = 'AppError';

  constructor(
    readonly code: ErrorCode,
    readonly detail: string,
    readonly context: ErrorContext = {},
  ) {
    super(`${code}: ${detail}`);
  }
}

export function isAppError(error: unknown, code?: ErrorCode): error is AppError {
  return error instanceof AppError && (code === undefined || error.code === code);
}

export function invalidInput(detail: string, context: ErrorContext = {}): AppError {
  return new AppError('INVALID_INPUT', detail, context);
}
