import { connect, createServer, type Server, type Socket } from 'node:net';
import { BSON, type Document } from 'mongodb';

/** What the proxy does with one request from the driver. */
export type FaultAction =
  /** Deliver it and its reply. */
  | 'pass'
  /** Deliver it (the server applies it), then lose the reply: the connection closes instead. */
  | 'cut-reply'
  /** Deliver it, then lose the reply and keep the connection: the driver waits until it times out. */
  | 'lose-reply'
  /** Never deliver it: the connection closes at once. */
  | 'drop'
  /** Hold it in the "network" for `stallMs`, then deliver it even if the driver gave up on it. */
  | { stallMs: number }
  /** Hold it until the test lets it go (however slow the machine), then deliver it the same way. */
  | { stallUntil: Promise<unknown> };

/** A request as the rules see it: the command's name, its collection and its body. */
export interface WireRequest {
  command: string;
  collection: string | null;
  body: Document;
}

export type FaultRule = (request: WireRequest) => FaultAction;

export interface FaultStats {
  requests: number;
  /** Replies lost, whether the connection closed ('cut-reply') or stayed silent ('lose-reply'). */
  cutReplies: number;
  stalls: number;
  drops: number;
  /** Stalled requests that reached the server after the driver had closed the connection. */
  lateDeliveries: number;
}

const HEADER = 16;
const OP_MSG = 2013;
/** OP_MSG flag: the sender expects no reply to this message. */
const MORE_TO_COME = 2;

/**
 * A TCP proxy between the MongoDB driver and the database server that speaks just enough of
 * the wire protocol (message framing, OP_MSG bodies) to pick requests by command and
 * collection and to cut their replies, stall them or drop the connection. A stalled request
 * keeps its server connection open until it has been delivered and answered, like a packet
 * that was already on its way: exactly the late write a ledger must survive.
 */
export class FaultProxy {
  readonly stats: FaultStats = { requests: 0, cutReplies: 0, stalls: 0, drops: 0, lateDeliveries: 0 };
  #rule: FaultRule = () => 'pass';
  readonly #sockets = new Set<Socket>();
  readonly #pending = new Set<Promise<void>>();
  readonly #dataRequests = new Set<Promise<void>>();

  #server: Server | null = null;
  #down = false;

  private constructor(
    private readonly target: { host: string; port: number },
    public port = 0,
  ) {}

  /** Listens on a free loopback port and forwards to `targetUri` (a mongodb:// URI). */
  static async start(targetUri: string): Promise<FaultProxy> {
    const target = new URL(targetUri.replace(/^mongodb:/, 'http:'));
    const proxy = new FaultProxy({ host: target.hostname, port: Number(target.port) });
    await proxy.#listen();
    return proxy;
  }

  async #listen(): Promise<void> {
    const server = createServer();
    server.on('connection', (client) => this.#pipe(client, this.target));
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.port, '127.0.0.1', resolve);
    });
    const address = server.address();
    if (address === null || typeof address === 'string') throw new Error('proxy has no TCP address');
    this.port = address.port;
    this.#server = server;
  }

  /**
   * The database goes away: new connections are refused (nothing listens on the port) and every
   * open one is dropped the moment a request arrives on it, mid-request.
   */
  goDown(): void {
    this.#down = true;
    this.#server?.close();
    this.#server = null;
  }

  /** The database is back on the same address: connections are taken and requests pass again. */
  async comeBack(): Promise<void> {
    this.#down = false;
    await this.#listen();
  }

  /** A URI for the driver that goes through the proxy. */
  get uri(): string {
    return `mongodb://127.0.0.1:${this.port}/?directConnection=true`;
  }

  setRule(rule: FaultRule): void {
    this.#rule = rule;
  }

  resetStats(): void {
    Object.assign(this.stats, { requests: 0, cutReplies: 0, stalls: 0, drops: 0, lateDeliveries: 0 });
  }

  /** Resolves once every stalled request has been delivered and answered. */
  async settled(): Promise<void> {
    while (this.#pending.size > 0) await Promise.all([...this.#pending]);
  }

  /**
   * Resolves once every request on a collection has been delivered and answered, including
   * those the driver stopped waiting for: a request abandoned on a timeout still lands, and
   * what it writes belongs to the run it was sent in (the monitor's own requests do not count).
   */
  async quiet(): Promise<void> {
    while (this.#dataRequests.size > 0) await Promise.all([...this.#dataRequests]);
  }

  async close(): Promise<void> {
    for (const socket of this.#sockets) socket.destroy();
    const server = this.#server;
    this.#server = null;
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  #pipe(client: Socket, target: { host: string; port: number }): void {
    const upstream = connect(target);
    this.#track(client);
    this.#track(upstream);
    const cut = new Set<number>();
    const lost = new Set<number>();
    const inFlight = new Map<number, () => void>();
    let clientGone = false;
    let chain = Promise.resolve();

    const closeUpstreamWhenIdle = () => {
      if (clientGone && inFlight.size === 0) upstream.destroy();
    };

    client.on('close', () => {
      clientGone = true;
      closeUpstreamWhenIdle();
    });
    upstream.on('close', () => {
      for (const answered of inFlight.values()) answered();
      inFlight.clear();
      client.destroy();
    });
    client.on('error', () => undefined);
    upstream.on('error', () => client.destroy());

    readFrames(upstream, (frame) => {
      const responseTo = frame.readInt32LE(8);
      const answered = inFlight.get(responseTo);
      if (answered) {
        inFlight.delete(responseTo);
        answered();
      }
      if (cut.delete(responseTo)) {
        this.stats.cutReplies++;
        client.destroy();
      } else if (lost.delete(responseTo)) {
        this.stats.cutReplies++;
      } else if (!clientGone) {
        client.write(frame);
      }
      closeUpstreamWhenIdle();
    });

    readFrames(client, (frame) => {
      this.stats.requests++;
      const requestId = frame.readInt32LE(4);
      const request = parseRequest(frame);
      const action = this.#down ? 'drop' : request ? this.#rule(request) : 'pass';
      if (action === 'drop') {
        this.stats.drops++;
        client.destroy();
        upstream.destroy();
        return;
      }
      if (action === 'cut-reply') cut.add(requestId);
      if (action === 'lose-reply') lost.add(requestId);
      const stallMs = typeof action === 'object' && 'stallMs' in action ? action.stallMs : 0;
      const stallUntil = typeof action === 'object' && 'stallUntil' in action ? action.stallUntil : null;
      const stalled = stallMs > 0 || stallUntil !== null;
      if (stalled) this.stats.stalls++;
      const expectsReply = (frame.readUInt32LE(HEADER) & MORE_TO_COME) === 0 || request === null;
      const answered = expectsReply
        ? new Promise<void>((resolve) => inFlight.set(requestId, resolve))
        : Promise.resolve();
      chain = chain.then(async () => {
        if (stallMs > 0) await new Promise((resolve) => setTimeout(resolve, stallMs));
        if (stallUntil) await stallUntil;
        if (upstream.destroyed) return;
        if (clientGone) this.stats.lateDeliveries++;
        upstream.write(frame);
        await answered;
      });
      if (stalled) this.#hold(this.#pending, chain);
      if (request?.collection) this.#hold(this.#dataRequests, chain);
    });
  }

  #hold(held: Set<Promise<void>>, delivery: Promise<void>): void {
    const tracked = delivery.finally(() => held.delete(tracked));
    held.add(tracked);
  }

  #track(socket: Socket): void {
    this.#sockets.add(socket);
    socket.on('close', () => this.#sockets.delete(socket));
  }
}

/** Splits a byte stream into wire-protocol messages (each starts with its int32 length). */
function readFrames(socket: Socket, onFrame: (frame: Buffer) => void): void {
  let buffered: Buffer = Buffer.alloc(0);
  socket.on('data', (chunk: Buffer) => {
    buffered = buffered.length === 0 ? chunk : Buffer.concat([buffered, chunk]);
    while (buffered.length >= HEADER) {
      const length = buffered.readInt32LE(0);
      if (buffered.length < length) break;
      onFrame(buffered.subarray(0, length));
      buffered = buffered.subarray(length);
    }
  });
}

/** The command of an OP_MSG request (its body is the first section, kind 0); null for other opcodes. */
function parseRequest(frame: Buffer): WireRequest | null {
  if (frame.readInt32LE(12) !== OP_MSG) return null;
  let offset = HEADER + 4;
  while (offset < frame.length) {
    const kind = frame.readUInt8(offset);
    offset += 1;
    const size = frame.readInt32LE(offset);
    if (kind === 0) {
      const body = BSON.deserialize(frame.subarray(offset, offset + size));
      const command = Object.keys(body)[0] ?? '';
      const target = body[command];
      return { command, collection: typeof target === 'string' ? target : null, body };
    }
    offset += size;
  }
  return null;
}
