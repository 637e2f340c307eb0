import type { LedgerEventDoc } from '../../src/db/collections.js';

interface Waiter {
  events: LedgerEventDoc[];
  resolve(): void;
  reject(error: unknown): void;
}

/**
 * Writes the audit events of operations, many in one request: every write asked for during
 * one turn of the event loop goes out as one unordered `insertMany`. Unordered is safe
 * here: while an attempt holds its markers, no other attempt of its id can apply a leg, so
 * none can write its events (ECONOMY.md, "Audit"); the only possible collision is recovery
 * writing this same attempt's events. Only a request that fully succeeded confirms a
 * caller's events: a server may stop at the first failed document even when unordered and
 * report nothing for the rest. So when a shared request fails, each caller's events are
 * sent again on their own, and each caller gets its own answer (a duplicate is then read
 * back by the ledger's `#finish`). Saves a round trip per operation under load.
 */
export class EventWriter {
  #waiting: Waiter[] = [];

  constructor(private readonly insert: (docs: LedgerEventDoc[]) => Promise<unknown>) {}

  write(events: LedgerEventDoc[]): Promise<void> {
    return new Promise((resolve, reject) => {
      if (this.#waiting.length === 0) setImmediate(() => void this.#flush());
      this.#waiting.push({ events, resolve, reject });
    });
  }

  async #flush(): Promise<void> {
    const batch = this.#waiting;
    this.#waiting = [];
    try {
      await this.insert(batch.flatMap((w) => w.events));
      for (const waiter of batch) waiter.resolve();
    } catch (error) {
      const [only] = batch;
      if (batch.length === 1 && only) return only.reject(error);
      await Promise.all(batch.map((w) => this.insert(w.events).then(w.resolve, w.reject)));
    }
  }
}
