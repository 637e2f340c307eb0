import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SECURITY_HEADERS } from '../../src/http/contract.js';
import { clearDatabase, databaseFingerprint, useTestDatabase } from '../support/database.js';
import { startWeb } from '../support/webHarness.js';
import { type RawAnswer, rawHttp } from './adversarialSupport.js';

/**
 * Parsing attacked from outside: numbers in every shape a query can carry them, HTTP the parser
 * refuses before any route sees it, refused writes that must leave the database as it was, and
 * the Origin check with and without PUBLIC_URL.
 */
const t = useTestDatabase('web_adv_parsing');
const [ANN, MOD] = ['897500000000000001', '897500000000000002'];
let web: Awaited<ReturnType<typeof startWeb>>;
let port = 0;

const fingerprint = () => databaseFingerprint(t.db);

async function collections(): Promise<Map<string, string>> {
  const result = new Map<string, string>();
  for (const { name } of await t.db.listCollections({}, { nameOnly: true }).toArray()) {
    const docs = await t.db.collection(name).find().sort({ _id: 1 }).toArray();
    result.set(name, JSON.stringify(docs));
  }
  return result;
}

const fund = (member: string, points: number) => web.fund(member, points);

/** Numbers as an attacker writes them; each must be refused wherever a whole number is read. */
const MALFORMED = [
  '0x10',
  '1e3',
  '1E3',
  '%201',
  '1%20',
  '%091',
  '+1',
  '%2B1',
  '1.0',
  '1.',
  '.1',
  '%D9%A1', // ١ (Arabic-Indic one)
  '%EF%BC%91', // １ (full-width one)
  '%E0%A5%A7', // १ (Devanagari one)
  '0b1',
  '0o7',
  '1_000',
  '1%2C000',
  '9'.repeat(17),
  '1'.repeat(400),
  'Infinity',
  'NaN',
  '%00',
  '1%00',
  '--1',
];

describe('parsing and origins under attack', () => {
  beforeEach(async () => {
    await clearDatabase(t.db);
    web = await startWeb(t, { MODERATOR_USER_IDS: MOD });
    port = Number(new URL(web.url).port);
  });
  afterEach(() => web.close());

  it('GIVEN a malformed number in any query (hex, exponent, spaces, +, unicode and full-width digits, 17+ digits) THEN 400 BAD_REQUEST naming the field, with the headers, and nothing written', async () => {
    const mod = await web.signIn(MOD, 'mod');
    const before = await fingerprint();
    const templates: [string, string][] = [
      ['/api/public/place/changes?after=N', 'after'],
      ['/api/public/place/changes?after=0&limit=N', 'limit'],
      ['/api/public/place/pixel?x=N&y=0', 'x'],
      ['/api/public/place/pixel?x=0&y=N', 'y'],
      ['/api/admin/place/earnings?limit=N', 'limit'],
    ];
    const wrong: string[] = [];
    for (const [template, field] of templates) {
      for (const value of MALFORMED) {
        const path = template.replace('N', value);
        const answer = await web.request('GET', path, { cookie: mod });
        const ok =
          answer.status === 400 &&
          answer.json?.error?.code === 'BAD_REQUEST' &&
          String(answer.json.error.message).startsWith(`${field}: `) &&
          answer.headers.get('x-content-type-options') === 'nosniff';
        if (!ok) wrong.push(`${path} → ${answer.status} ${answer.text.slice(0, 100)}`);
      }
    }
    expect(wrong).toEqual([]);
    // The pixel route's rate limit is not touched by reads; nothing else is written either.
    expect(await fingerprint()).toBe(before);
  });

  it('GIVEN HTTP the parser refuses (a lower-case method, a header too large, a bad header line, a bad Content-Length) THEN the answer is still in the one error shape with the security headers', async () => {
    const cases: [string, string][] = [
      ['lower-case method', 'get /healthz HTTP/1.1\r\nHost: x\r\n\r\n'],
      ['header too large', `GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`],
      ['header line without a colon', 'GET /healthz HTTP/1.1\r\nHost: x\r\nno colon here\r\n\r\n'],
      ['bad Content-Length', 'POST /api/place/logout HTTP/1.1\r\nHost: x\r\nContent-Length: abc\r\n\r\n'],
      [
        'Content-Length and chunked',
        'POST /api/place/logout HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n',
      ],
    ];
    const seen: { what: string; shape: boolean; nosniff: string | undefined; body: string }[] = [];
    for (const [what, text] of cases) {
      const answer: RawAnswer = await rawHttp(port, text);
      expect([what, answer.status >= 400 && answer.status < 500]).toEqual([what, true]);
      seen.push({
        what,
        shape:
          typeof answer.json?.error?.code === 'string' && typeof answer.json?.error?.message === 'string',
        nosniff: answer.headers['x-content-type-options'],
        body: answer.body.slice(0, 90),
      });
    }
    expect(seen).toEqual(
      cases.map(([what]) => ({ what, shape: true, nosniff: 'nosniff', body: expect.any(String) })),
    );
  });

  it('GIVEN a URL fastify cannot decode (/%, a bad escape in a path or a query) THEN 400 in the error shape with the security headers', async () => {
    const paths = [
      '/%',
      '/api/%zz',
      '/api/public/place/%E0%A4',
      '/api/public/place/pixel?x=%&y=0',
      '/api/public/place/pixel?x=%E0%A4&y=0',
    ];
    const seen = [];
    for (const path of paths) {
      const answer = await rawHttp(port, `GET ${path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`);
      seen.push({
        path,
        status: answer.status,
        code: answer.json?.error?.code,
        csp: answer.headers['content-security-policy'] ?? null,
        body: answer.body.slice(0, 100),
      });
    }
    expect(seen).toEqual(
      paths.map((path) => ({
        path,
        status: 400,
        code: 'BAD_REQUEST',
        csp: SECURITY_HEADERS['content-security-policy'],
        body: expect.any(String),
      })),
    );
  });

  it('GIVEN writes the bot refuses after parsing (a pixel outside the canvas, a grant to an unknown worker, a grant of 0 points) THEN the refusal writes nothing but the rate-limit counters', async () => {
    const ann = await web.signIn(ANN, 'ann');
    const mod = await web.signIn(MOD, 'mod');
    await fund(ANN, 1_000);
    await web.deps.ledger.flush();
    const before = await collections();
    const outside = await web.request('POST', '/api/place/pixel', {
      cookie: ann,
      body: { x: 100_000, y: 0, color_index: 1 },
      headers: { 'idempotency-key': 'outside-canvas-1' },
    });
    expect([outside.status, outside.json.error.code]).toEqual([400, 'INVALID_INPUT']);
    const unknownWorker = await web.request('POST', '/api/admin/place/points', {
      cookie: mod,
      body: { target_client_id: 'w-0123456789abcdef', points: 5, reason: 'x' },
      headers: { 'idempotency-key': 'unknown-worker-1' },
    });
    expect([unknownWorker.status, unknownWorker.json.error.code]).toEqual([404, 'UNKNOWN_CLIENT']);
    const zero = await web.request('POST', '/api/admin/place/points', {
      cookie: mod,
      body: { target_client_id: ANN, points: '0', reason: 'x' },
      headers: { 'idempotency-key': 'zero-points-1' },
    });
    expect([zero.status]).toEqual([400]);
    const after = await collections();
    // The rate-limit counters count every write attempt, refused or not (that is what they are for).
    const written = [...after]
      .filter(([name, docs]) => name !== 'web_rate_limits' && before.get(name) !== docs)
      .map(([name, docs]) => `${name}: ${docs.slice(0, 300)}`);
    expect(written).toEqual([]);
  });

  it('GIVEN no PUBLIC_URL THEN a write from any Origin but the loopback page on this port is refused 403 BAD_ORIGIN, and nothing is placed', async () => {
    const ann = await web.signIn(ANN, 'ann');
    await fund(ANN, 1_000);
    const origins = [
      `http://127.0.0.1:${port}/`,
      `HTTP://127.0.0.1:${port}`,
      `http://LOCALHOST:${port}`,
      `http://localhost.:${port}`,
      `https://127.0.0.1:${port}`,
      'http://127.0.0.1',
      `http://127.0.0.1:${port + 1}`,
      `http://127.1:${port}`,
      `http://2130706433:${port}`,
      `http://127.0.0.2:${port}`,
      `http://[0:0:0:0:0:0:0:1]:${port}`,
      `http://[::ffff:127.0.0.1]:${port}`,
      `http://0.0.0.0:${port}`,
      `http://evil.example:${port}`,
      'null',
      '',
      `http://127.0.0.1:${port}, http://evil.example`,
    ];
    const accepted: string[] = [];
    for (const [i, origin] of origins.entries()) {
      const answer = await web.request('POST', '/api/place/pixel', {
        cookie: ann,
        origin,
        body: { x: i, y: 0, color_index: 1 },
        headers: { 'idempotency-key': `origin-no-public-${i}` },
      });
      if (answer.status !== 403 || answer.json.error.code !== 'BAD_ORIGIN')
        accepted.push(`${origin} → ${answer.status}`);
    }
    const noOrigin = await web.request('POST', '/api/place/pixel', {
      cookie: ann,
      origin: null,
      body: { x: 50, y: 0, color_index: 1 },
      headers: { 'idempotency-key': 'origin-none-1', referer: `http://127.0.0.1:${port}/place` },
    });
    if (noOrigin.status !== 403) accepted.push(`(no Origin, a Referer) → ${noOrigin.status}`);
    expect(accepted).toEqual([]);
    expect((await web.deps.services.place.wallet(ANN)).placements).toBe(0);
  });

  it('GIVEN PUBLIC_URL http://place.test THEN only that exact origin may write', async () => {
    await web.close();
    web = await startWeb(t, { PUBLIC_URL: 'http://place.test' });
    port = Number(new URL(web.url).port);
    const ann = await web.signIn(ANN, 'ann'); // the harness's loopback origin: refused now
    expect(ann).toBe('');
    const { token } = await web.deps.services.web.createLink({ userId: ANN, name: 'ann', roleIds: [] });
    const login = await web.request('POST', '/place/login', {
      origin: 'http://place.test',
      body: new URLSearchParams({ token }).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(login.status).toBe(303);
    const cookie = (login.headers.get('set-cookie') ?? '').split(';')[0] as string;
    await fund(ANN, 1_000);
    const origins = [
      web.url,
      `http://localhost:${port}`,
      'http://place.test/',
      'http://PLACE.TEST',
      'http://place.test.',
      'http://place.test:80',
      'https://place.test',
      'http://place.test.evil.example',
      'http://evil.place.test',
      'http://place.test:8787',
      'null',
      'http://place.test, http://evil.example',
    ];
    const accepted: string[] = [];
    for (const [i, origin] of origins.entries()) {
      const answer = await web.request('POST', '/api/place/pixel', {
        cookie,
        origin,
        body: { x: i, y: 0, color_index: 1 },
        headers: { 'idempotency-key': `origin-public-${i}` },
      });
      if (answer.status !== 403 || answer.json.error.code !== 'BAD_ORIGIN')
        accepted.push(`${origin} → ${answer.status}`);
    }
    expect(accepted).toEqual([]);
    const page = await web.request('POST', '/api/place/pixel', {
      cookie,
      origin: 'http://place.test',
      body: { x: 99, y: 0, color_index: 1 },
      headers: { 'idempotency-key': 'origin-public-ok' },
    });
    expect(page.status).toBe(200);
    expect((await web.deps.services.place.wallet(ANN)).placements).toBe(1);
  });
});
