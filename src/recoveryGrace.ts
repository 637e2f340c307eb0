/**
 * How long a step a process left half-done stays that process's to finish before a durable timer
 * finishes it instead: a collect's promised reward, an instant round, a fairness claim not yet
 * stored, an owed payment of active time, a placement, a poker table's Cookie move. Long enough
 * for a live process to finish on its own; short enough that a crash keeps a member waiting a
 * minute. The ledger's own grace for its attempts is configured apart (`LEDGER_RECOVERY_GRACE_MS`).
 */
export const RECOVERY_GRACE_MS = 60_000;
