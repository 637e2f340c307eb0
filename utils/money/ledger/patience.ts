import { MongoError } from 'mongodb';

/**
 * How long the ledger waits for the database. A request that takes longer is treated as a
 * request whose outcome is unknown: the ledger stops waiting and decides the leg with a
 * fence (see legs.ts), so a reply that never comes cannot hold a member's action, and a
 * request that lands late cannot change a decided balance.
 */
export interface LedgerTimeouts {
  /** Longest wait for one database request of a money path. */
  requestTimeoutMs: number;
  /** An attempt older than this starts no new leg: it decides what it began and gives up. */
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

/** Tries at settling, compensating or recording an attempt before it is left to recovery. */
export const PERSISTENCE = 3;

/** How the ledger sends one database request of a money path, and when it sends it again. */
export class Patience {
  constructor(private readonly config: LedgerTimeouts) {}

  /**
   * One database request of a money path, waited for at most `requestTimeoutMs`. A request
   * the driver never sent (pool cleared, no server selectable) is sent again; any other
   * failure leaves its outcome unknown and is the caller's to settle.
   */
  async io<T>(request: () => Promise<T>, timeoutMs = this.config.requestTimeoutMs): Promise<T> {
    const started = performance.now();
    for (let i = 0; ; i++) {
      try {
        return await within(timeoutMs, request());
      } catch (error) {
        // The driver clears its pool after a broken connection and rediscovers the server
        // within about half a second; requests queued meanwhile were never sent.
        if (!neverSent(error) || performance.now() - started > this.config.requestTimeoutMs) throw error;
        await pause(Math.min(10 * 2 ** i, 100));
      }
    }
  }

  /**
   * A request that is safe to repeat (a read, a settle, a marker-guarded reversal, deciding
   * an attempt): after a database failure it is simply sent again, up to PERSISTENCE times.
   */
  async retry<T>(request: () => Promise<T>, timeoutMs?: number): Promise<T> {
    for (let i = 0; ; i++) {
      try {
        return await this.io(request, timeoutMs);
      } catch (error) {
        if (i + 1 >= PERSISTENCE || !isDriverFailure(error)) throw error;
        await pause(20 * 2 ** i);
      }
    }
  }
}

/** Failures that happen before a request leaves the driver: repeating the request is safe. */
function neverSent(error: unknown): boolean {
  const name = error instanceof Error ? error.name : '';
  return (
    name === 'MongoPoolClearedError' ||
    name === 'MongoServerSelectionError' ||
    name === 'MongoWaitQueueTimeoutError'
  );
}

/** An error of the database or of waiting for it (as opposed to a bug or a hook). */
export function isDriverFailure(error: unknown): boolean {
  return error instanceof MongoError || error instanceof RequestTimeoutError;
}
