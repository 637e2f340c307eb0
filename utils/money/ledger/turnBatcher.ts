interface Waiter<T, R> {
  item: T;
  resolve(value: R): void;
  reject(error: unknown): void;
}

/**
 * Collects the calls made during one turn of the event loop and serves them together:
 * `serve` gets every item and answers each one (a thrown error fails them all). Each call
 * is sent after its caller asked, so a batched read sees at least what the caller's own read
 * would have seen.
 */
export class TurnBatcher<T, R> {
  #waiting: Waiter<T, R>[] = [];

  constructor(private readonly serve: (items: T[]) => Promise<PromiseSettledResult<R>[]>) {}

  call(item: T): Promise<R> {
    return new Promise((resolve, reject) => {
      if (this.#waiting.length === 0) setImmediate(() => void this.#flush());
      this.#waiting.push({ item, resolve, reject });
    });
  }

  async #flush(): Promise<void> {
    const batch = this.#waiting;
    this.#waiting = [];
    try {
      const results = await this.serve(batch.map((w) => w.item));
      batch.forEach((waiter, i) => {
        const result = results[i];
        if (result?.status === 'fulfilled') waiter.resolve(result.value);
        else waiter.reject(result ? result.reason : new Error('no answer for a batched call'));
      });
    } catch (error) {
      for (const waiter of batch) waiter.reject(error);
    }
  }
}
