import type { Logger } from './logger.js';

export interface Periodic {
  /** Stops the timer and waits for a pass in progress. */
  stop(): Promise<void>;
}

/**
 * Runs `pass` every `intervalMs` in a live process (the ledger recovery pass, the scheduler's
 * look for due tasks). Passes never overlap; a failing pass is logged as `<name>.pass_failed`
 * and the next one runs as planned. The timer does not keep the process alive.
 */
export function startPeriodic(
  name: string,
  pass: () => Promise<unknown>,
  options: { intervalMs: number; log: Logger },
): Periodic {
  let running: Promise<void> | null = null;
  const tick = () => {
    if (running) return;
    running = pass()
      .then(() => undefined)
      .catch((error: unknown) => {
        options.log.error({ event: `${name}.pass_failed`, err: error }, `${name} pass failed`);
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
