/** Time source for business logic; never read Date.now() directly there. */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

/** A clock that only moves when told to (tests, the local console's `!wait`). */
export class ManualClock implements Clock {
  #ms: number;

  constructor(start: Date = new Date()) {
    this.#ms = start.getTime();
  }

  now(): Date {
    return new Date(this.#ms);
  }

  advance(ms: number): void {
    if (!Number.isFinite(ms) || ms < 0) throw new RangeError(`cannot advance a clock by ${ms} ms`);
    this.#ms += ms;
  }

  /** Moves forward to `at`; a time in the past leaves the clock where it is. */
  advanceTo(at: Date): void {
    this.#ms = Math.max(this.#ms, at.getTime());
  }
}
