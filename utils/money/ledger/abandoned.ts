import type { Attempt, LedgerDeps } from './attempt.js';
import { inProgress } from './errors.js';
import { type Patience, PERSISTENCE } from './patience.js';
import { decideAttempt } from './recovery.js';

/**
 * Attempts this process gave up on with OPERATION_IN_PROGRESS, by operation id, until
 * decided. An attempt that ended without a known outcome may still have a request on its
 * way. Before this process answers anything else for the same id, that attempt is frozen and
 * decided (recovery's `decideAttempt`), so a later "failed" can never be followed by a late
 * success of the earlier attempt.
 */
export class AbandonedAttempts {
  readonly #byOperation = new Map<string, Attempt[]>();

  constructor(
    private readonly deps: LedgerDeps,
    private readonly patience: Patience,
  ) {}

  add(a: Attempt): void {
    const list = this.#byOperation.get(a.spec.opId) ?? [];
    list.push(a);
    this.#byOperation.set(a.spec.opId, list);
  }

  /** Decides every abandoned attempt of all ids; returns how many it decided. */
  async decideAll(): Promise<number> {
    let decided = 0;
    for (const opId of [...this.#byOperation.keys()]) {
      decided += await this.decide(opId).catch(() => 0);
    }
    return decided;
  }

  /** Decides the abandoned attempts of `opId`; OPERATION_IN_PROGRESS while one cannot be decided. */
  async decide(opId: string): Promise<number> {
    const attempts = this.#byOperation.get(opId);
    if (!attempts) return 0;
    let decided = 0;
    for (const attempt of [...attempts]) {
      try {
        // Several requests, so a larger budget than one request's. Deciding is idempotent and
        // safe to run concurrently, so a try that failed or ran out of time is simply repeated.
        const budget = PERSISTENCE * this.deps.config.requestTimeoutMs;
        await this.patience.retry(() => decideAttempt(this.deps, attempt.spec, attempt.att), budget);
      } catch (error) {
        this.deps.log.warn(
          { event: 'ledger.abandoned.undecided', opId, attempt: attempt.att, err: error },
          'an attempt this process gave up on cannot be decided yet',
        );
        throw inProgress(attempt.spec);
      }
      attempts.splice(attempts.indexOf(attempt), 1);
      decided++;
    }
    this.#byOperation.delete(opId);
    return decided;
  }
}
