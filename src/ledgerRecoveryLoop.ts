import type { RecoveryReport } from '../utils/ledger/recovery.js';
import type { Logger } from './logger.js';

export interface RecoveryLoop {
  /** Stops the timer and waits for a pass in progress. */
  stop(): Promise<void>;
}

/**
 * Runs the ledger recovery pass every `intervalMs` in a live process, so an operation left
 * behind by a lost reply or a stalled request is finished within the grace period plus one
 * interval instead of at the next start. Passes never overlap; a failing pass is logged and
 * the next one runs as planned. (A plain timer until the durable scheduler exists.)
 */
export function startRecoveryLoop(
  pass: () => Promise<RecoveryReport>,
  options: { intervalMs: number; log: Logger },
): RecoveryLoop {
  let running: Promise<void> | null = null;
  const tick = () => {
    if (running) return;
    running = pass()
      .then(() => undefined)
      .catch((error: unknown) => {
        options.log.error(
          { event: 'ledger.recovery.pass_failed', err: error },
          'ledger recovery pass failed',
        );
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
