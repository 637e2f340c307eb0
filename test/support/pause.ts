import type { OperationSpec } from '../../utils/money/ledger/documents.js';
import type { LedgerHooks, LedgerStep } from '../../utils/money/ledger/ledger.js';

/**
 * Stops the first ledger operation of `kind` at `step` until `release()`: a request in flight
 * in a slow process, while the test lets other processes act. `reached` resolves once it stopped.
 */
export function pauseAt(
  step: LedgerStep,
  kind: string,
): {
  hooks: LedgerHooks;
  reached: Promise<OperationSpec>;
  release(): void;
} {
  let release = () => {};
  const gate = new Promise<void>((resolve) => {
    release = resolve;
  });
  let arrive: (spec: OperationSpec) => void = () => {};
  const reached = new Promise<OperationSpec>((resolve) => {
    arrive = resolve;
  });
  let stopped = false;
  return {
    hooks: {
      async step(at, spec) {
        if (stopped || at !== step || spec.kind !== kind) return;
        stopped = true;
        arrive(spec);
        await gate;
      },
    },
    reached,
    release,
  };
}

/**
 * A place a slow process stops at: `stop()` (awaited by the code under test) resolves
 * `reached` and waits until the test calls `open()`.
 */
export function gate(): { stop(): Promise<void>; reached: Promise<void>; open(): void } {
  let open = () => {};
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  let arrive = () => {};
  const reached = new Promise<void>((resolve) => {
    arrive = resolve;
  });
  return {
    async stop() {
      arrive();
      await opened;
    },
    reached,
    open,
  };
}
