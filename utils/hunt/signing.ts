import { createHash, createHmac, timingSafeEqual } from 'node:crypto';

/**
 * How a worker signs a request (README, "Workers"): HMAC-SHA256 with the worker's secret over
 *
 *   METHOD \n PATH \n TIMESTAMP \n NONCE \n SHA-256(body) in hex
 *
 * sent as hex in `x-signature`, with `x-worker-id`, `x-timestamp` (milliseconds since 1970)
 * and `x-nonce` (16–64 visible characters, never reused). The server refuses a timestamp more
 * than `skewMs` from its clock and a nonce it has seen (it remembers nonces for twice the skew).
 */
export function canonical(
  method: string,
  path: string,
  timestamp: string,
  nonce: string,
  body: string,
): string {
  const bodyHash = createHash('sha256').update(body).digest('hex');
  return `${method.toUpperCase()}\n${path}\n${timestamp}\n${nonce}\n${bodyHash}`;
}

export function sign(
  secret: string,
  method: string,
  path: string,
  timestamp: string,
  nonce: string,
  body: string,
): string {
  return createHmac('sha256', secret)
    .update(canonical(method, path, timestamp, nonce, body))
    .digest('hex');
}

export type Refusal = 'missing_headers' | 'bad_timestamp' | 'stale_timestamp' | 'bad_nonce' | 'bad_signature';

/** Checks a request's signature and freshness (not yet the nonce's novelty, which needs the store). */
export function verify(
  request: { method: string; path: string; body: string; headers: Record<string, string | undefined> },
  secret: string,
  now: number,
  skewMs: number,
): Refusal | null {
  const timestamp = request.headers['x-timestamp'];
  const nonce = request.headers['x-nonce'];
  const signature = request.headers['x-signature'];
  if (!timestamp || !nonce || !signature) return 'missing_headers';
  if (!/^\d{10,16}$/.test(timestamp)) return 'bad_timestamp';
  if (Math.abs(now - Number(timestamp)) > skewMs) return 'stale_timestamp';
  if (!/^[\x21-\x7e]{16,64}$/.test(nonce)) return 'bad_nonce';
  const expected = Buffer.from(
    sign(secret, request.method, request.path, timestamp, nonce, request.body),
    'hex',
  );
  const given = Buffer.from(/^[0-9a-f]{64}$/.test(signature) ? signature : '', 'hex');
  return given.length === expected.length && timingSafeEqual(given, expected) ? null : 'bad_signature';
}
