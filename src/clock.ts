/** Time source for business logic; never read Date.now() directly there. */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

export const MINUTE_MS = 60_000;
export const HOUR_MS = 3_600_000;
export const DAY_MS = 86_400_000;

/** The UTC day of `at` as `2026-03-01`: how daily records are named (the bakery's share, the economy's days). */
export function utcDay(at: Date | number): string {
  return new Date(at).toISOString().slice(0, 10);
}

/** When the UTC day `day` (`2026-03-01`) begins. */
export function startOfUtcDay(day: string): Date {
  return new Date(`${day}T00:00:00Z`);
}

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
