import type { IncomingMessage } from 'node:http';
import type { FastifyInstance } from 'fastify';
import { answerOnSocket, HttpError } from '../../../src/http/contract.js';
import { parseQuery, searchParamsObject, wholeNumber } from '../../../src/http/params.js';
import type { BotDeps } from '../../../src/interactions/types.js';
import { CLOSE, type LiveFeed } from '../liveFeed.js';

/** The live canvas's WebSocket at `/api/place/ws?after=<revision>`, rate-limited per address. */
export function liveSocket(app: FastifyInstance, deps: BotDeps, feed: LiveFeed): void {
  const { config, services } = deps;
  app.get('/api/place/ws', async () => {
    throw new HttpError('UPGRADE_REQUIRED', 'This is a WebSocket: connect with Upgrade: websocket.');
  });
  app.server.on('upgrade', (request, socket, head) => {
    // A client may reset before the handshake is answered; that must not bring the process down.
    socket.on('error', () => socket.destroy());
    let after: number | null;
    try {
      after = readHandshake(request);
    } catch (error) {
      if (error instanceof HttpError) answerOnSocket(socket, error.code, error.message);
      else socket.destroy();
      return;
    }
    const ip = request.socket.remoteAddress ?? 'unknown';
    services.web.allow(`ws:ip:${ip}`, { limit: config.http.wsHandshakesPerIpPerMin, windowMs: 60_000 }).then(
      (verdict) =>
        verdict.allowed
          ? feed.accept(request, socket, head, after)
          : feed.refuse(request, socket, head, CLOSE.rateLimited, 'too many connections from your address'),
      () => socket.destroy(),
    );
  });
}

/**
 * A WebSocket handshake checked before it is handed to the WebSocket server, so every refusal
 * is an HTTP answer in the contract's shape (the library's own are plain text): the path, the
 * method, the headers RFC 6455 requires, and `after`. Returns `after` (null: from now on).
 */
function readHandshake(request: IncomingMessage): number | null {
  let url: URL;
  try {
    url = new URL(request.url ?? '/', 'http://localhost');
  } catch {
    throw new HttpError('BAD_REQUEST', 'The request target is not a URL.');
  }
  if (url.pathname !== '/api/place/ws') {
    throw new HttpError('NOT_FOUND', `There is no WebSocket at ${url.pathname.slice(0, 200)}.`);
  }
  if (request.method !== 'GET') throw new HttpError('BAD_REQUEST', 'A WebSocket handshake is a GET.');
  if (request.headers.upgrade?.toLowerCase() !== 'websocket') {
    throw new HttpError('BAD_REQUEST', 'Upgrade: websocket is the only upgrade served here.');
  }
  if (!/^[+/0-9A-Za-z]{22}==$/.test(request.headers['sec-websocket-key'] ?? '')) {
    throw new HttpError('BAD_REQUEST', 'Sec-WebSocket-Key: 16 random bytes in base64.');
  }
  if (request.headers['sec-websocket-version'] !== '13') {
    throw new HttpError('BAD_REQUEST', 'Sec-WebSocket-Version: this server speaks version 13.');
  }
  return parseQuery({ after: wholeNumber(0).optional() }, searchParamsObject(url.searchParams)).after ?? null;
}
