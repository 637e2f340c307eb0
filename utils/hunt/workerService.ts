import type { Clock } from '../../src/clock.js';
import { AppError } from '../../src/errors.js';
import type { Rng } from '../../src/rng.js';
import { type Refusal, type SignedRequest, verify } from './signing.js';
import type { DelegationDoc, LinkedDelegation, WorkerStore } from './workerStore.js';

declare module '../../src/features/services.js' {
  interface FeatureServices {
    workers: WorkerService;
  }
}

/** How far a worker's clock may be from the bot's. */
export const SKEW_MS = 60_000;
const MAX_WORKERS = 10;

export type WorkerRefusal = Refusal | 'unknown_worker' | 'replayed_nonce';

/** What a worker's author reads for each refusal: what to change. */
const REFUSALS: Record<WorkerRefusal, string> = {
  missing_headers: 'Sign the request: x-worker-id, x-timestamp, x-nonce and x-signature are required.',
  unknown_worker: 'No linked worker has this x-worker-id (unlinked, or never linked).',
  bad_timestamp: 'x-timestamp: milliseconds since 1970, 10 to 16 digits.',
  stale_timestamp: `x-timestamp is more than ${SKEW_MS / 1000} s from the server's clock: check the worker's clock.`,
  bad_nonce: 'x-nonce: 16 to 64 visible ASCII characters.',
  bad_signature:
    'The signature does not match: HMAC-SHA256 of METHOD, PATH, QUERY, TIMESTAMP, NONCE and the hex SHA-256 of the body, one per line (docs/web.md, "Workers").',
  replayed_nonce: 'This x-nonce was used already: send a new one with every request.',
};

export class WorkerRefused extends Error {
  override readonly name = 'WorkerRefused';
  constructor(readonly reason: WorkerRefusal) {
    super(REFUSALS[reason]);
  }
}

/**
 * Worker identities (docs/web.md, "Workers"): a member links workers, each with a secret
 * shown once; a worker's requests are signed (signing.ts); every reward a worker earns is paid
 * to the owner it has at that moment, with the worker as the source.
 */
export class WorkerService {
  /** `wallClock` judges a request's freshness: real time, whatever the business clock says. */
  constructor(private readonly deps: { store: WorkerStore; clock: Clock; wallClock: Clock; rng: Rng }) {}

  async link(ownerId: string, label: string): Promise<LinkedDelegation> {
    if ((await this.deps.store.list(ownerId)).length >= MAX_WORKERS) {
      throw new AppError('INVALID_INPUT', `at most ${MAX_WORKERS} workers`, {
        messageKey: 'hunt:errors.tooManyWorkers',
        max: MAX_WORKERS,
      });
    }
    const worker: LinkedDelegation = {
      _id: `w-${this.deps.rng.secret(8)}`,
      ownerId,
      secret: this.deps.rng.secret(32),
      label,
      createdAt: this.deps.clock.now(),
      unlinkedAt: null,
    };
    await this.deps.store.link(worker);
    return worker;
  }

  list(ownerId: string): Promise<DelegationDoc[]> {
    return this.deps.store.list(ownerId);
  }

  /** Workers' labels by id (the moderators' lists name them). */
  labels(ids: readonly string[]): Promise<Map<string, string>> {
    return this.deps.store.labels(ids);
  }

  /** Linked workers by id prefix or label (the moderators' picker). */
  search(text: string, limit: number): Promise<DelegationDoc[]> {
    return this.deps.store.search(text, limit);
  }

  /** Removes the nonces past the window a replay is refused in (the privacy feature's timer). */
  pruneNonces(): Promise<number> {
    return this.deps.store.pruneNonces(this.deps.wallClock.now(), 2 * SKEW_MS);
  }

  /** Every worker a member ever linked, unlinked ones too (their tips and rewards name them). */
  everOf(ownerId: string): Promise<DelegationDoc[]> {
    return this.deps.store.everOf(ownerId);
  }

  unlink(ownerId: string, workerId: string): Promise<boolean> {
    return this.deps.store.unlink(ownerId, workerId, this.deps.clock.now());
  }

  /** A linked worker's owner, or null when there is no such worker. */
  async linkedOwner(workerId: string): Promise<string | null> {
    return (await this.deps.store.get(workerId))?.ownerId ?? null;
  }

  /**
   * Who is paid for an identity: a worker's owner, else the identity itself. An unlinked
   * worker still has its owner, so a tip it made before the unlink pays the owner, never an
   * orphan wallet; it can make no new requests.
   */
  async ownerOf(identity: string): Promise<string> {
    return (await this.deps.store.record(identity))?.ownerId ?? identity;
  }

  /**
   * Checks a worker's signed request and returns the worker with its input, or throws why it is
   * refused. `input` reads the request (its body, its query) once the signature holds and before
   * the nonce is recorded: a signed request with bad input is refused having written nothing.
   */
  async authenticate<T>(
    request: SignedRequest,
    input: () => T,
  ): Promise<{ worker: DelegationDoc; input: T }> {
    const workerId = request.headers['x-worker-id'];
    if (!workerId) throw new WorkerRefused('missing_headers');
    const worker = await this.deps.store.get(workerId);
    if (!worker) throw new WorkerRefused('unknown_worker');
    const now = this.deps.wallClock.now();
    const refusal = verify(request, worker.secret, now.getTime(), SKEW_MS);
    if (refusal) throw new WorkerRefused(refusal);
    const parsed = input();
    if (
      !(await this.deps.store.useNonce(worker._id, request.headers['x-nonce'] as string, now, 2 * SKEW_MS))
    ) {
      throw new WorkerRefused('replayed_nonce');
    }
    return { worker, input: parsed };
  }
}
