import { describe, expect, it } from 'vitest';
import { canonical, sign, verify } from '../../utils/hunt/signing.js';

const SECRET = 'worker-secret-0123456789abcdef';
const NOW = 1_796_000_000_000;
const body = '{"guess":[1,2,3,4,5,6,7,8]}';

function request(overrides: Record<string, string | undefined> = {}, path = '/api/hunt/tip') {
  const headers: Record<string, string | undefined> = {
    'x-worker-id': 'w1',
    'x-timestamp': String(NOW),
    'x-nonce': 'nonce-000000000001',
    ...overrides,
  };
  headers['x-signature'] ??= sign(SECRET, {
    method: 'POST',
    path,
    query: '',
    timestamp: headers['x-timestamp'] as string,
    nonce: headers['x-nonce'] as string,
    body,
  });
  return { method: 'POST', path, query: '', body, headers };
}

describe('worker request signatures', () => {
  it('signs the documented example (docs/web.md, "Workers") exactly as openssl does', () => {
    // printf 'POST\n/api/hunt/tip\n\n1796000000000\nnonce-000000000001\n<sha256 of body>' |
    //   openssl dgst -sha256 -hmac 'worker-secret-0123456789abcdef'
    expect(
      canonical({
        method: 'post',
        path: '/api/hunt/tip',
        query: '',
        timestamp: String(NOW),
        nonce: 'nonce-000000000001',
        body,
      }),
    ).toBe(
      'POST\n/api/hunt/tip\n\n1796000000000\nnonce-000000000001\n277a9d282a7886b954955b202f20d43375465b740aa8ffe0a2ada405c9692f46',
    );
    expect(
      sign(SECRET, {
        method: 'POST',
        path: '/api/hunt/tip',
        query: '',
        timestamp: String(NOW),
        nonce: 'nonce-000000000001',
        body,
      }),
    ).toBe('233ee673db265dcf09cfafbe8cd40456e0aa1285fd17273157b53aa8c8944d4c');
  });

  it('accepts a good request and refuses each kind of bad one', () => {
    expect(verify(request(), SECRET, NOW, 60_000)).toBeNull();
    expect(verify(request({ 'x-signature': 'ab'.repeat(32) }), SECRET, NOW, 60_000)).toBe('bad_signature');
    expect(verify(request(), 'another-secret', NOW, 60_000)).toBe('bad_signature');
    expect(verify(request({ 'x-timestamp': String(NOW - 61_000) }), SECRET, NOW, 60_000)).toBe(
      'stale_timestamp',
    );
    expect(verify(request({ 'x-nonce': 'short' }), SECRET, NOW, 60_000)).toBe('bad_nonce');
    expect(verify(request({ 'x-timestamp': undefined }), SECRET, NOW, 60_000)).toBe('missing_headers');
    // The path, the query and the body are signed: a request moved to another route, with a
    // parameter added or with another body fails.
    const moved = request();
    expect(verify({ ...moved, path: '/api/hunt/status' }, SECRET, NOW, 60_000)).toBe('bad_signature');
    expect(verify({ ...moved, query: 'round=1' }, SECRET, NOW, 60_000)).toBe('bad_signature');
    expect(verify({ ...moved, body: '{"guess":[9,9,9,9,9,9,9,9]}' }, SECRET, NOW, 60_000)).toBe(
      'bad_signature',
    );
  });
});
