import { AppError, invalidInputText } from '../../src/errors.js';

/** A move the rules refuse (the engine's refusals; `messageKey` names the member's message). */
export function pokerError(
  detail: string,
  messageKey: string,
  context: Record<string, number | string> = {},
): AppError {
  return new AppError('INVALID_INPUT', detail, { ...context, messageKey });
}

export function tableClosed(tableId: string): AppError {
  return invalidInputText(`table ${tableId} is closed`, 'poker:errors.tableClosed');
}

export function notInHand(tableId: string): AppError {
  return invalidInputText(`not seated at ${tableId}`, 'poker:errors.notSeated');
}

/** Seated, but after the hand in play was dealt: they play from the next hand on. */
export function nextHandOnly(tableId: string): AppError {
  return invalidInputText(`seated at ${tableId} after this hand was dealt`, 'poker:errors.nextHandOnly');
}
