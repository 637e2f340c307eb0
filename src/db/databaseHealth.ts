import {
  type MongoClient,
  MongoNetworkError,
  MongoNotConnectedError,
  MongoServerSelectionError,
  MongoTopologyClosedError,
} from 'mongodb';
import type { Logger } from '../logger.js';

/**
 * Whether the database answers, as the driver's own monitoring sees it: a server it can select
 * (its heartbeats, and every request that failed on the network, update its picture at once).
 * While it is down the bot refuses new work at the door, in a second, instead of letting each
 * member wait for the driver's server selection (docs/operating.md, "When the database is away").
 */
export class DatabaseHealth {
  #downSince: Date | null = null;

  constructor(
    client: MongoClient,
    private readonly log: Logger,
  ) {
    client.on('topologyDescriptionChanged', (event) => {
      const servers = [...event.newDescription.servers.values()];
      if (servers.some((s) => s.type !== 'Unknown')) this.#up();
      else this.#down(servers.find((s) => s.error)?.error ?? null);
    });
    client.on('serverHeartbeatFailed', (event) => this.#down(event.failure));
    client.on('serverHeartbeatSucceeded', () => this.#up());
  }

  /** True while the driver can select no server. */
  get down(): boolean {
    return this.#downSince !== null;
  }

  /** Since when it has been down (null: it is up). */
  get downSince(): Date | null {
    return this.#downSince;
  }

  #down(cause: unknown): void {
    if (this.#downSince) return;
    this.#downSince = new Date();
    this.log.error(
      { event: 'db.unreachable', err: cause },
      'the database does not answer: new work is refused until it is back',
    );
  }

  #up(): void {
    if (!this.#downSince) return;
    const seconds = (Date.now() - this.#downSince.getTime()) / 1000;
    this.#downSince = null;
    this.log.warn({ event: 'db.reachable', downSeconds: seconds }, 'the database answers again');
  }
}

/**
 * A failure that says the database was not there (the network, a cleared pool, no server to
 * select), not that a request was wrong.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  return (
    error instanceof MongoNetworkError ||
    error instanceof MongoServerSelectionError ||
    error instanceof MongoNotConnectedError ||
    error instanceof MongoTopologyClosedError
  );
}
