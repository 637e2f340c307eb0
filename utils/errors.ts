/**
 * Every expected failure has a stable code. The code is in `error.code` and at the
 * start of `error.message`, so both conventions of the product brief work; `context`
 * carries the numbers a reply needs (balance, amount needed, retry time, ...).
 *
 * Codes are registered by the module that owns them: the core ones below, the ledger's in
 * `utils/ledger/errors.ts`, each feature's in `utils/<feature>/errors.ts`, by merging into
 * `ErrorCodeRegistry`. Each registers its messages beside its codes; the interaction runtime
 * combines them (`src/features/assemble.ts`).
 */
export interface ErrorCodeRegistry {
  INVALID_INPUT: true;
  NOT_FOUND: true;
  NOT_AUTHORIZED: true;
  NOT_YOUR_BUTTON: true;
  FEATURE_DISABLED: true;
  COOLDOWN_ACTIVE: true;
  STALE_CONTROL: true;
}

export type ErrorCode = keyof ErrorCodeRegistry;

export type ErrorContext = Record<string, string | number | boolean | null | undefined>;

/** The sentence a member reads for one code, built from the error's context. */
export type ErrorMessage = (context: ErrorContext, detail: string) => string;

export type ErrorMessages<C extends ErrorCode> = { readonly [K in C]: ErrorMessage };

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

/** `what` completes "… is switched off right now", e.g. "giving Cookies". */
export function featureDisabled(what: string, setting: string): AppError {
  return new AppError('FEATURE_DISABLED', `${what} is switched off (${setting})`, { what, setting });
}

export function notYourButton(ownerId: string): AppError {
  return new AppError('NOT_YOUR_BUTTON', `the control belongs to ${ownerId}`, { ownerId });
}

function sentence(text: string): string {
  return `${text.charAt(0).toUpperCase()}${text.slice(1)}.`;
}

export const CORE_ERROR_MESSAGES: ErrorMessages<
  | 'INVALID_INPUT'
  | 'NOT_FOUND'
  | 'NOT_AUTHORIZED'
  | 'NOT_YOUR_BUTTON'
  | 'FEATURE_DISABLED'
  | 'COOLDOWN_ACTIVE'
  | 'STALE_CONTROL'
> = {
  INVALID_INPUT: (_, detail) => sentence(detail),
  NOT_FOUND: (_, detail) => sentence(detail),
  NOT_AUTHORIZED: (c, detail) =>
    c.needs
      ? `You are not allowed to do that: it needs ${c.needs} rights on this bot.`
      : `You are not allowed to do that: ${detail}.`,
  NOT_YOUR_BUTTON: (c) => `This button belongs to <@${c.ownerId}>. Run the command yourself to get your own.`,
  FEATURE_DISABLED: (c) => `${sentence(String(c.what)).slice(0, -1)} is switched off right now.`,
  COOLDOWN_ACTIVE: (c) => `You can do this again <t:${Math.ceil(Number(c.retryAt) / 1000)}:R>.`,
  STALE_CONTROL: () => 'This control is from an older message and no longer works. Run the command again.',
};
