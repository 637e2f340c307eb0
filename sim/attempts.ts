import { isAppError } from '../src/errors.js';

/** What the members tried: each action's operation id, and whether it was done or refused. */
export class Attempts {
  /** Refusals by code (expected: cooldowns, limits, a poor member's bet). */
  readonly refusals = new Map<string, number>();
  readonly actions = new Map<string, number>();
  #counter = 0;

  /** Counts an action; a refusal (an AppError) is counted by its code, anything else is a bug. */
  async try<T>(name: string, action: () => Promise<T>): Promise<T | null> {
    try {
      const result = await action();
      this.actions.set(name, (this.actions.get(name) ?? 0) + 1);
      return result;
    } catch (error) {
      if (!isAppError(error)) throw error;
      this.refusals.set(error.code, (this.refusals.get(error.code) ?? 0) + 1);
      return null;
    }
  }

  id(kind: string): string {
    return `sim.${kind}:${++this.#counter}`;
  }
}
