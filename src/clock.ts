/** Time source for business logic; never read Date.now() directly there. */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

/** A clock that can be moved forward: `!wait` in the console, the simulation's days. */
export interface SteerableClock extends Clock {
  advance(ms: number): void;
  /** Moves forward to `at`; a time in the past leaves the clock where it is. */
  advanceTo(at: Date): void;
}

/** A clock that only moves when told to (tests, a console script, the simulation). */
export class ManualClock implements SteerableClock {
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

/**
 * Real time plus every jump it was told to make: the interactive console's clock. It runs like
 * a live bot's between lines (timers fall due, a worker's active time counts), and `!wait 1h`
 * moves it an hour ahead of the wall, where it keeps running.
 */
export class RunningClock implements SteerableClock {
  #aheadMs = 0;

  constructor(private readonly wall: () => number = Date.now) {}

  now(): Date {
    return new Date(this.wall() + this.#aheadMs);
  }

  advance(ms: number): void {
    if (!Number.isFinite(ms) || ms < 0) throw new RangeError(`cannot advance a clock by ${ms} ms`);
    this.#aheadMs += ms;
  }

  advanceTo(at: Date): void {
    this.#aheadMs = Math.max(this.#aheadMs, at.getTime() - this.wall());
  }
}
