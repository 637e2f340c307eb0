/**
 * What one try returns when another writer got in first (a version that moved, a key created
 * in between): read again and try again.
 */
export const CONFLICT: unique symbol = Symbol('conflict');
export type Conflict = typeof CONFLICT;

/**
 * How many tries a conflict retry gets. Each conflict means another writer's change landed, so
 * honest contention (a handful of members pressing on one table or account at once) clears in
 * a few tries; a hundred in a row means a writer that never lets go, or a try that can never
 * succeed, and a clear error beats a request that spins for ever.
 */
export const CONFLICT_RETRY_LIMIT = 100;

/** A conflict retry gave up: `what` still conflicted after `attempts` tries. */
export class ConflictRetriesExhausted extends Error {
  constructor(
    readonly what: string,
    readonly attempts: number,
  ) {
    super(`${what}: still in conflict after ${attempts} attempts; gave up`);
    this.name = 'ConflictRetriesExhausted';
  }
}

/**
 * Runs `attempt` until it returns a value rather than `CONFLICT`, at most `limit` times; then
 * throws `ConflictRetriesExhausted` naming `what`. Each try reads afresh and writes under a
 * guard (a version, a unique key), so giving up leaves nothing half-written.
 */
export async function retryOnConflict<T>(
  limit: number,
  attempt: (tries: number) => Promise<T | Conflict>,
  what: string,
): Promise<T> {
  for (let tries = 1; tries <= limit; tries++) {
    const result = await attempt(tries);
    if (result !== CONFLICT) return result;
  }
  throw new ConflictRetriesExhausted(what, limit);
}
