import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { type WebSocket, WebSocketServer } from 'ws';
import type { Logger } from '../../src/logger.js';
import { metrics } from '../../src/metrics.js';
import type { PlaceService } from '../place/placeService.js';
import type { PixelEventDoc } from '../place/placeStore.js';

/** Close codes a browser sees (docs/web.md, "The WebSocket as a client sees it"). */
export const CLOSE = {
  /** At WS_MAX_PLACE_CONNECTIONS: try again later. */
  full: 1013,
  /** Too many handshakes from one address. */
  rateLimited: 4029,
  /** The client read too slowly; its messages piled up. */
  tooSlow: 4008,
  /** The server is shutting down. */
  goingAway: 1001,
} as const;

/** A placement on the wire: [revision, x, y, colour, owner, time in ms]. */
export type WireChange = [number, number, number, number, string | null, number];

export type FeedMessage =
  | { type: 'hello'; revision: number }
  | {
      type: 'changes';
      from: number;
      revision: number;
      changes: WireChange[];
      /** Display names of the owners in `changes`, when known. */
      names: Record<string, string>;
    }
  | { type: 'reload'; revision: number };

const wire = (e: PixelEventDoc): WireChange => [e._id, e.x, e.y, e.color, e.owner, e.at.getTime()];

interface Options {
  /** The canvas's changes feed (the Place service). */
  place: Pick<PlaceService, 'advance' | 'changesAfter'>;
  /** Display names of members (the profiles), for the feed's lines. */
  names: (ids: string[]) => Promise<Map<string, string>>;
  log: Logger;
  maxClients: number;
  /** How often the changes feed is read: placements reach browsers batched at most this often. */
  tickMs?: number;
  /** A client further behind than this reloads the board instead of replaying. */
  maxCatchUp?: number;
  /** Bytes waiting to be sent to one client before it is dropped as too slow. */
  maxBufferedBytes?: number;
}

/**
 * The live canvas for browsers: one WebSocket per browser, fed from the Place changes feed
 * (MongoDB), never from this process's own placements, so a placement made by any shard or
 * process reaches every browser of every web process. Every `tickMs` one reader asks the feed
 * for what committed since the last tick and sends it to every client as one message.
 *
 * A client connects with `?after=<revision>` (the board it holds): before it joins the live
 * stream, the same serialized tick sends it the placements after that revision, so it misses
 * none and gets none twice. More than `maxCatchUp` behind, it is told to reload the board.
 */
/** How often the feed is read while reading it fails. */
const FAILING_TICK_MS = 1_000;

export class LiveFeed {
  /** Ticks in a row that could not read the feed. */
  #failing = 0;
  readonly #wss = new WebSocketServer({ noServer: true, maxPayload: 1_024 });
  readonly #live = new Set<WebSocket>();
  #joining: { ws: WebSocket; after: number }[] = [];
  #connections = 0;
  #revision = -1;
  #timer: NodeJS.Timeout | null = null;
  #pinger: NodeJS.Timeout | null = null;
  readonly #alive = new WeakSet<WebSocket>();
  #ticking: Promise<void> | null = null;
  #advancedAt = 0;
  /** Display names seen lately (names rarely change; one query per new owner). */
  readonly #nameCache = new Map<string, string>();

  constructor(private readonly options: Options) {}

  get clients(): number {
    return this.#connections;
  }

  async start(): Promise<void> {
    this.#revision = await this.options.place.advance();
    this.#schedule();
    // Connections that died without a close (a laptop lid) are found by a missing pong.
    this.#pinger = setInterval(() => {
      for (const ws of [...this.#live, ...this.#joining.map((j) => j.ws)]) {
        if (!this.#alive.has(ws)) ws.terminate();
        else {
          this.#alive.delete(ws);
          ws.ping();
        }
      }
    }, 30_000);
  }

  /**
   * The next tick starts `tickMs` after the last one started, or as soon as it ends when it
   * took longer (a fixed interval would skip a whole period behind a slow tick).
   */
  #schedule(delay = 0): void {
    this.#timer = setTimeout(async () => {
      const started = performance.now();
      await this.tick();
      // While the changes cannot be read (the database away), once a second is enough.
      const every = this.#failing > 0 ? FAILING_TICK_MS : (this.options.tickMs ?? 50);
      if (this.#timer) this.#schedule(Math.max(0, every - (performance.now() - started)));
    }, delay);
  }

  /** Takes over an HTTP upgrade: a connection, or a clear refusal (close code and reason). */
  accept(request: IncomingMessage, socket: Duplex, head: Buffer, after: number | null): void {
    this.#wss.handleUpgrade(request, socket, head, (ws) => {
      if (this.#connections >= this.options.maxClients) {
        ws.close(CLOSE.full, `server full: at most ${this.options.maxClients} live connections`);
        return;
      }
      this.#connections++;
      metrics.webSocketClients.set(this.#connections);
      this.#alive.add(ws);
      ws.on('pong', () => this.#alive.add(ws));
      ws.on('close', () => {
        this.#connections--;
        metrics.webSocketClients.set(this.#connections);
        this.#live.delete(ws);
        this.#joining = this.#joining.filter((j) => j.ws !== ws);
      });
      ws.on('error', () => ws.terminate());
      this.#send(ws, { type: 'hello', revision: this.#revision });
      // With a revision, it joins at the next tick, after the feed has read what committed
      // meanwhile: it catches up from there, or is told to reload when it is too far behind or
      // ahead of the canvas (a board from before a restore).
      if (after === null) this.#live.add(ws);
      else this.#joining.push({ ws, after });
    });
  }

  /** Refuses an upgrade before it is accepted (rate limit): a close frame with the reason. */
  refuse(request: IncomingMessage, socket: Duplex, head: Buffer, code: number, reason: string): void {
    this.#wss.handleUpgrade(request, socket, head, (ws) => ws.close(code, reason));
  }

  /** One read of the feed: new placements to every live client, then catch-ups to joiners. */
  tick(): Promise<void> {
    this.#ticking ??= this.#tick().finally(() => {
      this.#ticking = null;
    });
    return this.#ticking;
  }

  async #tick(): Promise<void> {
    try {
      await this.#read();
      if (this.#failing > 0)
        this.options.log.warn(
          { event: 'web.feed_recovered', failed: this.#failing },
          'the changes feed reads again',
        );
      this.#failing = 0;
    } catch (error) {
      this.#failing += 1;
      if (this.#failing === 1 || this.#failing % 60 === 0)
        this.options.log.warn(
          { event: 'web.feed_failed', err: error, failing: this.#failing },
          'could not read the changes feed',
        );
    }
  }

  /** Sends what committed since the last tick to every live client, and catches the joining up. */
  async #read(): Promise<void> {
    if (this.#live.size + this.#joining.length === 0) {
      this.#revision = await this.options.place.advance();
      return;
    }
    // The watermark as it stands; once a second this reader also moves it, in case the
    // process of a placement died before moving it (recovery would, later).
    const advance = Date.now() - this.#advancedAt > 1_000;
    if (advance) this.#advancedAt = Date.now();
    for (;;) {
      const feed = await this.options.place.changesAfter(this.#revision, 2_000, { advance });
      if (feed.revision <= this.#revision) break;
      const message = Buffer.from(
        JSON.stringify({
          type: 'changes',
          from: this.#revision,
          revision: feed.revision,
          changes: feed.changes.map(wire),
          names: await this.#names(feed.changes),
        } satisfies FeedMessage),
      );
      this.#revision = feed.revision;
      // Encoded once, sent to every client as a text frame.
      for (const ws of this.#live) this.#sendRaw(ws, message);
      if (feed.changes.length < 2_000) break;
    }
    const joining = this.#joining;
    this.#joining = [];
    for (const { ws, after } of joining) await this.#catchUp(ws, after);
  }

  async #catchUp(ws: WebSocket, after: number): Promise<void> {
    if (this.#revision - after > (this.options.maxCatchUp ?? 10_000) || after > this.#revision) {
      this.#send(ws, { type: 'reload', revision: this.#revision });
      // It may have closed while an earlier joiner's catch-up waited on the database.
      if (ws.readyState === ws.OPEN) this.#live.add(ws);
      return;
    }
    let from = after;
    while (from < this.#revision) {
      const feed = await this.options.place.changesAfter(from, 2_000);
      const upTo = Math.min(feed.revision, this.#revision);
      const events = feed.changes.filter((c) => c._id <= upTo);
      this.#send(ws, {
        type: 'changes',
        from,
        revision: upTo,
        changes: events.map(wire),
        names: await this.#names(events),
      });
      if (upTo <= from) break;
      from = upTo;
    }
    if (ws.readyState === ws.OPEN) this.#live.add(ws);
  }

  async #names(events: PixelEventDoc[]): Promise<Record<string, string>> {
    const owners = [...new Set(events.flatMap((e) => (e.owner ? [e.owner] : [])))];
    const unknown = owners.filter((o) => !this.#nameCache.has(o));
    if (unknown.length > 0) {
      const found = await this.options.names(unknown);
      if (this.#nameCache.size > 10_000) this.#nameCache.clear();
      for (const o of unknown) this.#nameCache.set(o, found.get(o) ?? '');
    }
    const names: Record<string, string> = {};
    for (const owner of owners) {
      const name = this.#nameCache.get(owner);
      if (name) names[owner] = name;
    }
    return names;
  }

  #send(ws: WebSocket, message: FeedMessage): void {
    this.#sendRaw(ws, Buffer.from(JSON.stringify(message)));
  }

  #sendRaw(ws: WebSocket, data: Buffer): void {
    if (ws.readyState !== ws.OPEN) return;
    // A client that does not read is sent nothing more, never buffered without bound. Its close
    // frame waits behind what it has not read, so it is not cut off: a client that reads again
    // gets the frame and knows to reconnect with its last revision; one that never reads again
    // is cut when the closing handshake times out (ws: 30 s).
    if (ws.bufferedAmount > (this.options.maxBufferedBytes ?? 1 << 20)) {
      ws.close(CLOSE.tooSlow, 'too slow: reconnect with your last revision');
      return;
    }
    ws.send(data, { binary: false });
  }

  async stop(): Promise<void> {
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = null;
    if (this.#pinger) clearInterval(this.#pinger);
    await this.#ticking;
    const open = [...this.#wss.clients];
    const gone = Promise.all(open.map((ws) => new Promise((resolve) => ws.once('close', resolve))));
    for (const ws of open) ws.close(CLOSE.goingAway, 'server shutting down');
    // Clients get half a second to answer the close; then their sockets are cut.
    await Promise.race([gone, new Promise((resolve) => setTimeout(resolve, 500).unref())]);
    for (const ws of this.#wss.clients) ws.terminate();
    await new Promise<void>((resolve) => this.#wss.close(() => resolve()));
  }
}
