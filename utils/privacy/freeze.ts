import { AppError } from '../../src/errors.js';
import type { ErasureStore } from './erasureStore.js';

/** How stale a process's list of members being erased may be. */
export const FREEZE_REFRESH_MS = 1_000;

/**
 * While a member's data is erased, nothing of theirs may start: a command, a button, a web
 * write or a worker's tip would write records the erasure has already passed, or pay into an
 * account it closed. Every process reads the members being erased at most once a second
 * (usually none) and refuses them with PRIVACY_ERASING; the erasure waits that second out
 * before it closes anything (`Erasures`).
 */
export class Freeze {
  #known: { ids: Set<string>; at: number } | null = null;
  #reading: Promise<Set<string>> | null = null;

  constructor(private readonly deps: { erasures: ErasureStore }) {}

  /** Whether `id` (a member or one of their workers) is being erased. */
  async isErasing(id: string): Promise<boolean> {
    return (await this.#current()).has(id);
  }

  /** Refuses `id` while it is erased (the interaction runtime, the web, the workers' API). */
  async refuse(id: string): Promise<void> {
    if (await this.isErasing(id)) throw new AppError('PRIVACY_ERASING', `${id} is being erased`);
  }

  /** This process knows at once of an erasure it records itself. */
  add(ids: readonly string[]): void {
    for (const id of ids) this.#known?.ids.add(id);
  }

  async #current(): Promise<Set<string>> {
    const now = Date.now();
    if (this.#known && now - this.#known.at < FREEZE_REFRESH_MS) return this.#known.ids;
    this.#reading ??= this.deps.erasures.runningSubjects().then(
      (ids) => {
        this.#known = { ids: new Set(ids), at: Date.now() };
        this.#reading = null;
        return this.#known.ids;
      },
      (error: unknown) => {
        this.#reading = null;
        throw error;
      },
    );
    return this.#reading;
  }
}
