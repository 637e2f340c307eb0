import type { AnyBulkWriteOperation, Collection } from 'mongodb';
import type { Logger } from '../../../src/logger.js';
import { asUpdate, type BalanceDoc } from './books.js';

interface Removal {
  accountId: string;
  marker: { op: string; att: string } | null;
}

/**
 * Removes finished operation markers in batches: every removal queued while a batch is
 * being written goes out together in one bulk write (pull markers, then unset emptied
 * arrays). A marker is queued only after its audit event is durable, so a lost batch
 * (crash) leaves markers that the recovery pass clears; it never loses value.
 */
export class MarkerSweeper {
  readonly #queue = new Map<Collection<BalanceDoc>, Removal[]>();
  #running: Promise<void> | null = null;

  constructor(private readonly log: Logger) {}

  /** Queues the removal of a marker (or, with `marker` null, only the unset of an emptied array). */
  enqueue(collection: Collection<BalanceDoc>, accountId: string, marker: Removal['marker']): void {
    const list = this.#queue.get(collection) ?? [];
    list.push({ accountId, marker });
    this.#queue.set(collection, list);
    if (!this.#running) this.#running = this.#loop();
  }

  /** Resolves once every queued removal has been written (or logged as failed). */
  async drain(): Promise<void> {
    while (this.#running) await this.#running;
  }

  async #loop(): Promise<void> {
    await new Promise<void>((resolve) => setImmediate(resolve));
    while (this.#queue.size > 0) {
      const batch = [...this.#queue.entries()];
      this.#queue.clear();
      await Promise.all(batch.map(([collection, removals]) => this.#write(collection, removals)));
    }
    this.#running = null;
  }

  async #write(collection: Collection<BalanceDoc>, removals: Removal[]): Promise<void> {
    // One pull per account for all its finished attempts (attempt ids are unique), so a hot
    // account with hundreds of finished payments is cleaned in one write, not hundreds.
    const attemptsByAccount = new Map<string, string[]>();
    for (const { accountId, marker } of removals) {
      const list = attemptsByAccount.get(accountId) ?? [];
      if (marker) list.push(marker.att);
      attemptsByAccount.set(accountId, list);
    }
    const ops: AnyBulkWriteOperation<BalanceDoc>[] = [];
    for (const [accountId, atts] of attemptsByAccount) {
      if (atts.length === 0) continue;
      ops.push({
        updateOne: {
          filter: { _id: accountId },
          update: asUpdate({ $pull: { pendingOps: { att: { $in: atts } } } }),
        },
      });
    }
    // Then the arrays left empty go, in one guarded update over the same accounts.
    ops.push({
      updateMany: {
        filter: { _id: { $in: [...attemptsByAccount.keys()] }, pendingOps: { $size: 0 } },
        update: { $unset: { pendingOps: '' } },
      },
    });
    try {
      await collection.bulkWrite(ops, { ordered: true });
    } catch (error) {
      this.log.error(
        {
          event: 'ledger.markers.cleanup_failed',
          collection: collection.collectionName,
          opIds: removals.flatMap((r) => (r.marker ? [r.marker.op] : [])),
          err: error,
        },
        'could not remove finished operation markers; the recovery pass will clear them',
      );
    }
  }
}
