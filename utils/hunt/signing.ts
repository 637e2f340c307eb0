import { createHash, createHmac, timingSafeEqual } from 'node:crypto';

/**
 * How a worker signs a request (docs/web.md, "Workers"): HMAC-SHA256 with the worker's secret over
 *
 *   METHOD \n PATH \n QUERY \n TIMESTAMP \n NONCE \n SHA-256(body) in hex
 *
 * sent as hex in `x-signature`, with `x-worker-id`, `x-timestamp` (milliseconds since 1970)
 * and `x-nonce` (16–64 visible characters, never reused). QUERY is the query string exactly as
 * sent, without its `?` (empty when there is none), so no parameter can be added or changed
 * after signing. The server refuses a timestamp more than `skewMs` from its clock and a nonce it
 * has seen (it remembers nonces for twice the skew).
 */
/** What a signature covers. */
export interface SignedParts {
  method: string;
  path: string;
  /** The query string as sent, without `?` ('' when there is none). */
  query: string;
  /** Milliseconds since 1970, as sent in `x-timestamp`. */
  timestamp: string;
  nonce: string;
  /** The raw body ('' when there is none). */
  body: string;
}

export function canonical({ method, path, query, timestamp, nonce, body }: SignedParts): string {
  const bodyHash = createHash('sha256').update(body).digest('hex');
  return `${method.toUpperCase()}\n${path}\n${query}\n${timestamp}\n${nonce}\n${bodyHash}`;
}

/** A request's path and query string as the signature covers them (`/a/b?x=1` → `/a/b`, `x=1`). */
export function splitUrl(url: string): { path: string; query: string } {
  const at = url.indexOf('?');
  return at < 0 ? { path: url, query: '' } : { path: url.slice(0, at), query: url.slice(at + 1) };
}

export function sign(secret: string, parts: SignedParts): string {
  return createHmac('sha256', secret).update(canonical(parts)).digest('hex');
}

/** The four headers of a worker's signed request. */
export function signedHeaders(workerId: string, secret: string, parts: SignedParts): Record<string, string> {
  return {
    'x-worker-id': workerId,
    'x-timestamp': parts.timestamp,
    'x-nonce': parts.nonce,
    'x-signature': sign(secret, parts),
  };
}

export type Refusal = 'missing_headers' | 'bad_timestamp' | 'stale_timestamp' | 'bad_nonce' | 'bad_signature';

/** A worker's request as the server reads it: what the signature covers, and its headers. */
export interface SignedRequest {
  method: string;
  path: string;
  query: string;
  body: string;
  headers: Record<string, string | undefined>;
}

/** Checks a request's signature and freshness (not yet the nonce's novelty, which needs the store). */
export function verify(request: SignedRequest, secret: string, now: number, skewMs: number): Refusal | null {
  const timestamp = request.headers['x-timestamp'];
  const nonce = request.headers['x-nonce'];
  const signature = request.headers['x-signature'];
  if (!timestamp || !nonce || !signature) return 'missing_headers';
  if (!/^\d{10,16}$/.test(timestamp)) return 'bad_timestamp';
  if (Math.abs(now - Number(timestamp)) > skewMs) return 'stale_timestamp';
  if (!/^[\x21-\x7e]{16,64}$/.test(nonce)) return 'bad_nonce';
  const expected = Buffer.from(sign(secret, { ...request, timestamp, nonce }), 'hex');
  const given = Buffer.from(/^[0-9a-f]{64}$/.test(signature) ? signature : '', 'hex');
  return given.length === expected.length && timingSafeEqual(given, expected) ? null : 'bad_signature';
}
