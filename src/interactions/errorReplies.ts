import { DiscordAPIError } from 'discord.js';
import { formatCookies, formatPlacePoints } from '../../utils/amounts.js';
import { type AppError, isAppError } from '../../utils/errors.js';
import type { Reply } from './types.js';

function amount(currency: unknown, value: unknown): string {
  const n = Number(value ?? 0);
  return currency === 'place' ? `${formatPlacePoints(n)} points` : formatCookies(n);
}

/** The sentence a member reads for an expected failure, with the numbers that matter. */
export function describeAppError(error: AppError): string {
  const c = error.context;
  switch (error.code) {
    case 'INSUFFICIENT_COOKIES':
    case 'INSUFFICIENT_PLACE_POINTS':
      return `Not enough: you have ${amount(c.currency, c.balance)} but this needs ${amount(c.currency, c.needed)}.`;
    case 'HOUSE_VAULT_INSUFFICIENT':
      return `The house vault cannot pay ${formatCookies(Number(c.needed))} right now: it can pay out at most ${formatCookies(Number(c.available))}.`;
    case 'COOLDOWN_ACTIVE':
      return `You can do this again <t:${Math.ceil(Number(c.retryAt) / 1000)}:R>.`;
    case 'NOT_AUTHORIZED':
      return c.needs
        ? `You are not allowed to do that: it needs ${c.needs} rights on this bot.`
        : `You are not allowed to do that: ${error.detail}.`;
    case 'OPERATION_IN_PROGRESS':
      return 'This action is still being processed. Try again in a few seconds.';
    case 'LEDGER_UNAVAILABLE':
      return 'The bank did not answer in time, so nothing was moved. Try again in a moment.';
    case 'BALANCE_LIMIT':
      return `That would take a balance past the limit of ${amount(c.currency, c.max)}: it holds ${amount(c.currency, c.balance)}, so at most ${amount(c.currency, Number(c.max) - Number(c.balance))} more fits.`;
    case 'OPERATION_ID_REUSED':
      return 'This button or action was already used for something else.';
    case 'NOT_FOUND':
    case 'INVALID_INPUT':
      return `${error.detail.charAt(0).toUpperCase()}${error.detail.slice(1)}.`;
  }
}

export interface PresentedError {
  reply: Reply;
  expected: boolean;
}

/**
 * Maps any failure to what the member sees: an expected error's message, or for anything
 * else a generic line with a reference that is also logged. Never a stack trace.
 */
export function presentError(error: unknown, ref: string): PresentedError {
  if (isAppError(error)) {
    return { expected: true, reply: { ephemeral: true, content: `❌ ${describeAppError(error)}` } };
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
