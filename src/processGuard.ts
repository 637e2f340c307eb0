import type { Logger } from './logger.js';

/**
 * A failure nothing in the process was waiting for (a rejection no code handled, an exception
 * no code caught) leaves the bot in a state nobody planned for. It is logged at fatal with its
 * error, the log is flushed, and the process exits 1, so the supervisor (systemd, the
 * ShardingManager) starts a clean one: the ledger's recovery and the durable timers finish
 * whatever was in flight (docs/operating.md, "When the database is away").
 */
export function guardProcess(log: Logger, exit: (code: number) => void = process.exit): void {
  let stopping = false;
  const die = (event: string, error: unknown) => {
    if (stopping) return;
    stopping = true;
    log.fatal({ event, err: error }, 'stopped by a failure nothing handled; the supervisor restarts the bot');
    log.flush(() => exit(1));
    // A log that cannot flush must not keep a broken process alive.
    setTimeout(() => exit(1), 2_000).unref();
  };
  process.on('unhandledRejection', (reason) => die('process.unhandled_rejection', reason));
  process.on('uncaughtException', (error) => die('process.uncaught_exception', error));
}
