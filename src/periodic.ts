import type { Logger } from './logger.js';

/** While passes keep failing, one failure a minute is logged. */
const FAILURE_LOG_EVERY_MS = 60_000;

export interface Periodic {
  /** Stops the timer and waits for a pass in progress. */
  stop(): Promise<void>;
}

/**
 * Runs `pass` every `intervalMs` in a live process (the ledger recovery pass, the scheduler's
 * look for due tasks). Passes never overlap; a failing pass is logged as `<name>.pass_failed`
 * and the next one runs as planned. While passes keep failing (the database away), the first
 * failure is logged and then one a minute, and the first pass that works again says how many
 * failed. The timer does not keep the process alive.
 */
export function startPeriodic(
  name: string,
  pass: () => Promise<unknown>,
  options: { intervalMs: number; log: Logger },
): Periodic {
  let running: Promise<void> | null = null;
  let failing = 0;
  let loggedAt = 0;
  const tick = () => {
    if (running) return;
    running = pass()
      .then(() => {
        if (failing > 0)
          options.log.warn({ event: `${name}.pass_recovered`, failed: failing }, `${name} passes work again`);
        failing = 0;
      })
      .catch((error: unknown) => {
        failing += 1;
        if (failing === 1 || Date.now() - loggedAt >= FAILURE_LOG_EVERY_MS) {
          loggedAt = Date.now();
          options.log.error({ event: `${name}.pass_failed`, err: error, failing }, `${name} pass failed`);
        }
      })
      .finally(() => {
        running = null;
      });
  };
  const timer = setInterval(tick, options.intervalMs);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
