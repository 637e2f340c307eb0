import { DiscordAPIError } from 'discord.js';
import { type AppError, type ErrorCode, type ErrorMessage, isAppError } from '../../utils/errors.js';
import type { Reply } from './types.js';

/** The sentence a member reads for an expected failure, with the numbers that matter. */
export function describeAppError(
  error: AppError,
  messages: Readonly<Partial<Record<ErrorCode, ErrorMessage>>>,
): string {
  const message = messages[error.code];
  // Every code registers a message (src/features/assemble.ts); the detail is a last resort.
  return message ? message(error.context, error.detail) : `${error.detail}.`;
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
): PresentedError {
  if (isAppError(error)) {
    return { expected: true, reply: { ephemeral: true, content: `❌ ${describeAppError(error, messages)}` } };
  }
  const what = error instanceof DiscordAPIError ? 'Discord refused the request' : 'Something went wrong';
  return {
    expected: false,
    reply: {
      ephemeral: true,
      content: `⚠️ ${what} (ref ${ref}). If it keeps happening, give a moderator this ref.`,
    },
  };
}
