import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SECURITY_HEADERS } from '../../src/http/contract.js';
import { signedHeaders } from '../../utils/hunt/signing.js';
import { clearDatabase, useTestDatabase } from '../support/database.js';
import { startWeb } from '../support/webHarness.js';
import { rawHttp } from './adversarialSupport.js';

/**
 * The workers' signed API attacked from outside: a signature made for one request, sent with
 * another spelling of it (query order, percent-encoding, a fragment, slashes), headers
 * duplicated, a signed request sent twice at once and again after a restart.
 */
const t = useTestDatabase('web_adv_workers');
const ANN = '897600000000000001';
let web: Awaited<ReturnType<typeof startWeb>>;
let port = 0;
let worker = { _id: '', secret: '' };
let nonces = 0;

const nonce = () => `adv-nonce-${Date.now()}-${++nonces}`;

/** Headers signed for `path` + `query` as the worker meant them. */
function sign(method: string, path: string, query = '', body = '', n = nonce()) {
  return signedHeaders(worker._id, worker.secret, {
    method,
    path,
    query,
    timestamp: String(Date.now()),
    nonce: n,
    body,
  });
}

/** A raw GET with `target` exactly as written and the headers given (a header may repeat). */
function rawGet(target: string, headers: [string, string][]) {
  const lines = [
    `GET ${target} HTTP/1.1`,
    'Host: 127.0.0.1',
    'Connection: close',
    ...headers.map(([k, v]) => `${k}: ${v}`),
  ];
  return rawHttp(port, `${lines.join('\r\n')}\r\n\r\n`);
}

describe('the workers API under attack', () => {
  beforeEach(async () => {
    await clearDatabase(t.db);
    web = await startWeb(t);
    port = Number(new URL(web.url).port);
    worker = await web.deps.services.workers.link(ANN, 'cli');
  });
  afterEach(() => web.close());

  it('GIVEN a request signed for one spelling and sent with another (query reordered, %61 for a, a fragment, another method, doubled or trailing slashes, a swapped nonce) THEN 401 bad_signature or 404, never 200', async () => {
    const cases: [string, Record<string, string>][] = [
      ['/api/hunt/status?b=2&a=1', sign('GET', '/api/hunt/status', 'a=1&b=2')],
      ['/api/hunt/st%61tus', sign('GET', '/api/hunt/status')],
      ['/api/hunt/status', sign('GET', '/api/hunt/st%61tus')],
      ['/api/hunt/status#x', sign('GET', '/api/hunt/status')],
      ['/api/hunt/status', sign('POST', '/api/hunt/status')],
      ['/api/hunt/status', { ...sign('GET', '/api/hunt/status'), 'x-nonce': nonce() }],
      [
        '/api/hunt/status',
        {
          ...sign('GET', '/api/hunt/status'),
          'x-signature': sign('GET', '/api/hunt/status')['x-signature']?.toUpperCase() ?? '',
        },
      ],
      ['//api/hunt/status', sign('GET', '/api/hunt/status')],
      ['/api/hunt/status/', sign('GET', '/api/hunt/status')],
      ['/api/hunt/status;a=1', sign('GET', '/api/hunt/status')],
    ];
    const seen = [];
    for (const [target, headers] of cases) {
      const answer = await rawGet(target, Object.entries(headers));
      seen.push({
        target,
        status: answer.status,
        code: answer.json?.error?.code,
        nosniff: answer.headers['x-content-type-options'],
      });
    }
    for (const s of seen) {
      expect([s.target, s.status === 401 || s.status === 404, s.code, s.nosniff]).toEqual([
        s.target,
        true,
        s.status === 401 ? 'WORKER_REFUSED' : 'NOT_FOUND',
        'nosniff',
      ]);
    }
    // A query signed exactly as sent passes the signature and is refused as input (the route
    // takes none), with its nonce left unused: the same nonce then signs a good request.
    const n = nonce();
    const withQuery = await rawGet(
      '/api/hunt/status?a=1',
      Object.entries(sign('GET', '/api/hunt/status', 'a=1', '', n)),
    );
    expect([withQuery.status, withQuery.json?.error?.code]).toEqual([400, 'BAD_REQUEST']);
    const good = await rawGet('/api/hunt/status', Object.entries(sign('GET', '/api/hunt/status', '', '', n)));
    expect(good.status).toBe(200);
  });

  it('GIVEN x-nonce, x-timestamp, x-worker-id or x-signature sent twice THEN 401 WORKER_REFUSED with a reason, in the error shape, and nothing used', async () => {
    const reasons: Record<string, string> = {};
    for (const name of ['x-nonce', 'x-timestamp', 'x-worker-id', 'x-signature']) {
      const headers = sign('GET', '/api/hunt/status');
      const entries = Object.entries(headers);
      entries.push([name, headers[name] as string]);
      const answer = await rawGet('/api/hunt/status', entries);
      expect([name, answer.status, answer.json?.error?.code]).toEqual([name, 401, 'WORKER_REFUSED']);
      for (const [h, v] of Object.entries(SECURITY_HEADERS))
        expect([name, h, answer.headers[h]]).toEqual([name, h, v]);
      reasons[name] = String((answer.json?.error as Record<string, unknown>)?.reason);
    }
    expect(reasons).toEqual({
      'x-nonce': 'bad_nonce',
      'x-timestamp': 'bad_timestamp',
      'x-worker-id': 'unknown_worker',
      'x-signature': 'bad_signature',
    });
    expect(await t.db.collection('hunt_worker_nonces').countDocuments()).toBe(0);
  });

  it('GIVEN one signed request sent five times at once, then again after a restart THEN exactly one is answered, the rest are 401 replayed_nonce', async () => {
    const headers = sign('GET', '/api/hunt/status');
    const answers = await Promise.all(
      Array.from({ length: 5 }, () => web.request('GET', '/api/hunt/status', { headers })),
    );
    const statuses = answers
      .map((a) => (a.status === 200 ? 200 : `${a.status} ${a.json?.error?.reason}`))
      .sort();
    expect(statuses).toEqual([
      200,
      '401 replayed_nonce',
      '401 replayed_nonce',
      '401 replayed_nonce',
      '401 replayed_nonce',
    ]);
    await web.close();
    web = await startWeb(t);
    const replay = await web.request('GET', '/api/hunt/status', { headers });
    expect([replay.status, replay.json.error.reason]).toEqual([401, 'replayed_nonce']);
  });
});
