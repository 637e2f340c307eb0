/**
 * How long the ledger waits for the database. A request that takes longer is treated as a
 * request whose outcome is unknown: the ledger stops waiting and settles the leg with a
 * fence (see legs.ts), so a reply that never comes cannot hold a member's action, and a
 * request that lands late cannot change a decided balance.
 */
export interface LedgerTimeouts {
  /** Longest wait for one database request of a money path. */
  requestTimeoutMs: number;
  /** An attempt older than this starts no new leg: it settles what it began and gives up. */
  attemptDeadlineMs: number;
}

export const DEFAULT_LEDGER_TIMEOUTS: LedgerTimeouts = { requestTimeoutMs: 5_000, attemptDeadlineMs: 10_000 };

export class RequestTimeoutError extends Error {
  override readonly name = 'RequestTimeoutError';

  constructor(readonly ms: number) {
    super(`no reply from the database within ${ms} ms`);
  }
}

/** Waits for `request` at most `ms`; the request itself may still complete later, unobserved. */
export async function within<T>(ms: number, request: Promise<T>): Promise<T> {
  request.catch(() => undefined);
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new RequestTimeoutError(ms)), ms);
  });
  try {
    return await Promise.race([request, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

export function pause(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
