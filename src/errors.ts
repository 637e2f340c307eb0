import type { Translator } from './i18n/i18n.js';
import { type SettingKind, showSetting } from './runtimeConfig/settings.js';

/**
 * Every expected failure has a stable code. The code is in `error.code` and at the
 * start of `error.message`, so both conventions of the product brief work; `context`
 * carries the numbers a reply needs (balance, amount needed, retry time, ...).
 *
 * Codes are registered by the module that owns them: the core ones below, the ledger's in
 * `utils/money/ledger/errors.ts`, each feature's in `utils/<feature>/errors.ts`, by merging into
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
  UNSUPPORTED_INTERACTION: true;
  DATABASE_UNAVAILABLE: true;
  SETTING_STALE: true;
  FORM_TOO_LATE: true;
}

export type ErrorCode = keyof ErrorCodeRegistry;

export type ErrorContext = Record<string, string | number | boolean | null | undefined>;

/** The sentence a member reads for one code, built from the error's context in their language. */
export type ErrorMessage = (context: ErrorContext, detail: string, i18n: Translator) => string;

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

/**
 * A refusal with a text of its own: `messageKey` names it in a catalog, interpolated with the
 * context (`problemKey`, when set, names a text that fills `{{problem}}`).
 */
export function invalidInputText(detail: string, messageKey: string, context: ErrorContext = {}): AppError {
  return new AppError('INVALID_INPUT', detail, { ...context, messageKey });
}

/** `whatKey` names the feature's text that completes "… is switched off right now". */
export function featureDisabled(whatKey: string, setting: string): AppError {
  return new AppError('FEATURE_DISABLED', `${whatKey} is switched off (${setting})`, { whatKey, setting });
}

export function notYourButton(ownerId: string): AppError {
  return new AppError('NOT_YOUR_BUTTON', `the control belongs to ${ownerId}`, { ownerId });
}

function sentence(text: string): string {
  return `${text.charAt(0).toUpperCase()}${text.slice(1)}.`;
}

/** A message of its own when the error names one, else the detail as a sentence (English). */
function ownText(c: ErrorContext, detail: string, i18n: Translator): string {
  if (typeof c.messageKey !== 'string') return sentence(detail);
  const problem = typeof c.problemKey === 'string' ? i18n.t(c.problemKey, c) : c.problem;
  return i18n.t(c.messageKey, { ...c, problem });
}

export const CORE_ERROR_MESSAGES: ErrorMessages<
  | 'INVALID_INPUT'
  | 'NOT_FOUND'
  | 'NOT_AUTHORIZED'
  | 'NOT_YOUR_BUTTON'
  | 'FEATURE_DISABLED'
  | 'COOLDOWN_ACTIVE'
  | 'STALE_CONTROL'
  | 'UNSUPPORTED_INTERACTION'
  | 'DATABASE_UNAVAILABLE'
  | 'SETTING_STALE'
  | 'FORM_TOO_LATE'
> = {
  INVALID_INPUT: ownText,
  NOT_FOUND: ownText,
  NOT_AUTHORIZED: (c, detail, i18n) =>
    c.needs
      ? i18n.t('core:errors.NOT_AUTHORIZED', { needs: i18n.t(`core:access.${c.needs}`) })
      : ownText(c, detail, i18n),
  NOT_YOUR_BUTTON: (c, _, i18n) => i18n.t('core:errors.NOT_YOUR_BUTTON', c),
  FEATURE_DISABLED: (c, _, i18n) =>
    i18n.t('core:errors.FEATURE_DISABLED', { what: i18n.t(String(c.whatKey)) }),
  COOLDOWN_ACTIVE: (c, _, i18n) =>
    i18n.t('core:errors.COOLDOWN_ACTIVE', { retryAtSeconds: Math.ceil(Number(c.retryAt) / 1000) }),
  STALE_CONTROL: (_, __, i18n) => i18n.t('core:errors.STALE_CONTROL'),
  UNSUPPORTED_INTERACTION: (c, _, i18n) =>
    i18n.t('core:errors.UNSUPPORTED_INTERACTION', { kind: i18n.t(`core:interactionKinds.${c.kind}`) }),
  DATABASE_UNAVAILABLE: (c, _, i18n) =>
    i18n.t(c.underWay ? 'core:errors.DATABASE_LOST' : 'core:errors.DATABASE_UNAVAILABLE'),
  SETTING_STALE: staleSetting,
  FORM_TOO_LATE: (_, __, i18n) => i18n.t('core:errors.FORM_TOO_LATE'),
};

/**
 * Someone changed a setting since the admin read it. `by` and `shown` (the changer's name, the
 * value as the reader's page shows it) are given where they are known; else the member and the
 * value as Discord shows them.
 */
function staleSetting(c: ErrorContext, _: string, i18n: Translator): string {
  const kind = typeof c.kind === 'string' ? (c.kind as SettingKind) : undefined;
  const value = typeof c.shown === 'string' ? c.shown : showSetting(c.value, i18n, kind);
  if (typeof c.updatedBy !== 'string')
    return i18n.t('core:errors.SETTING_STALE_UNSET', { key: c.key, value });
  const by = typeof c.by === 'string' ? c.by : i18n.member(c.updatedBy);
  const at = Math.floor(Date.parse(String(c.updatedAt)) / 1000);
  return i18n.t('core:errors.SETTING_STALE', { key: c.key, by, at, value });
}

/**
 * The database cannot be reached: refused before anything started (`underWay` false), or lost
 * while the action was under way, whose money the ledger's recovery and the holds' timers then
 * finish or return.
 */
export function databaseUnavailable(underWay: boolean, cause?: unknown): AppError {
  const detail = underWay
    ? 'the database stopped answering during the action'
    : 'the database is unreachable';
  const error = new AppError('DATABASE_UNAVAILABLE', detail, { underWay });
  if (cause !== undefined) error.cause = cause;
  return error;
}
