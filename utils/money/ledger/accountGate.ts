import pLimit, { type LimitFunction } from 'p-limit';

/**
 * Admission per account: at most `perAccount` operations of this process touch one balance
 * document at a time, from their first leg until their markers are queued for removal.
 * Correctness never depends on it (every leg is one guarded atomic update); it keeps a hot
 * document's marker array short. Without it, one member paying 500 times at once piles up
 * 500 markers, and every update of that document rewrites all of them (ECONOMY.md,
 * "A hot account"). It is per process: a member acting in two servers served by two shards
 * meets two gates, so up to twice `perAccount` operations hold the document
 * (test/ledger/twoShards.test.ts).
 */
export class AccountGate {
  readonly #limits = new Map<string, LimitFunction>();

  constructor(private readonly perAccount: number) {}

  /** Runs `task` holding a place on every account in `keys` (taken in sorted order: no deadlock). */
  run<T>(keys: readonly string[], task: () => Promise<T>): Promise<T> {
    const sorted = [...new Set(keys)].sort();
    const enter = (index: number): Promise<T> => {
      const key = sorted[index];
      if (key === undefined) return task();
      const limit = this.#limit(key);
      return limit(() => enter(index + 1)).finally(() => {
        if (limit.activeCount === 0 && limit.pendingCount === 0) this.#limits.delete(key);
      });
    };
    return enter(0);
  }

  #limit(key: string): LimitFunction {
    let limit = this.#limits.get(key);
    if (!limit) {
      limit = pLimit(this.perAccount);
      this.#limits.set(key, limit);
    }
    return limit;
  }
}
