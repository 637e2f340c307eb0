import { DiscordAPIError } from 'discord.js';
import { type AppError, type ErrorCode, type ErrorMessage, isAppError } from '../errors.js';
import type { Translator } from '../i18n/i18n.js';
import type { Reply } from './types.js';

/** The sentence a member reads for an expected failure, with the numbers that matter. */
export function describeAppError(
  error: AppError,
  messages: Readonly<Partial<Record<ErrorCode, ErrorMessage>>>,
  i18n: Translator,
): string {
  const message = messages[error.code];
  // Every code registers a message (src/features/assemble.ts); the detail is a last resort.
  return message ? message(error.context, error.detail, i18n) : `${error.detail}.`;
}

export interface PresentedError {
  reply: Reply;
  expected: boolean;
}

/**
 * Maps any failure to what the member sees: an expected error's message, or for anything
 * else a generic line with a reference that is also logged. Never a stack trace.
 */
export function presentError(
  error: unknown,
  ref: string,
  messages: Readonly<Partial<Record<ErrorCode, ErrorMessage>>>,
  i18n: Translator,
): PresentedError {
  if (isAppError(error)) {
    const message = describeAppError(error, messages, i18n);
    return {
      expected: true,
      reply: { ephemeral: true, content: i18n.t('core:runtime.refused', { message }) },
    };
  }
  const key = error instanceof DiscordAPIError ? 'core:runtime.discordRefused' : 'core:runtime.unexpected';
  return { expected: false, reply: { ephemeral: true, content: i18n.t(key, { ref }) } };
}
