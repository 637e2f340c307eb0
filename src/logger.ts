import pino, { type DestinationStream, type Logger } from 'pino';

export type { Logger };

/**
 * Structured logger. Event names are stable strings in the `event` field
 * (e.g. `ledger.compensation.failed`) so alerts can match on them.
 */
export function createLogger(level: string, destination?: DestinationStream): Logger {
  return pino({ level, base: { app: 'cookie-place-bot' } }, destination ?? pino.destination(2));
}

export const silentLogger: Logger = pino({ level: 'silent' });
