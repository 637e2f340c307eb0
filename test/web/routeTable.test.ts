import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HTTP_STATUS, SECURITY_HEADERS } from '../../src/http/contract.js';
import { registeredRoutes } from '../../src/http/server.js';
import { signedHeaders, splitUrl } from '../../utils/hunt/signing.js';
import { clearDatabase, databaseFingerprint, useTestDatabase } from '../support/database.js';
import { startWeb } from '../support/webHarness.js';

/**
 * Every route fastify has registered, attacked with malformed input (property-based): random
 * and hostile query values (empty, hex, exponents, huge, signed, unicode, repeated), bodies with
 * fields no route takes, bodies that are not JSON, content types no route reads, random
 * Idempotency-Keys, cookies and origins, and for the workers' routes requests signed with a
 * real worker's secret, so the input is read past the signature. For each answer: no 5xx, the
 * security headers, an error in the one documented shape with a code docs/web.md lists, and nothing
 * written to the database. A route added later is attacked without anyone adding it here.
 */
const t = useTestDatabase('web_route_table');
const PUBLIC_URL = 'http://place.test';
const MOD = '897100000000000001';
const RUNS_PER_ROUTE = 40;

/** The codes the HTTP manual lists, with their status (docs/web.md, "Errors over HTTP"). */
function documentedCodes(): Map<string, number> {
  const manual = readFileSync('docs/web.md', 'utf8');
  const section = manual.slice(manual.indexOf('## Errors over HTTP'));
  const codes = new Map<string, number>();
  for (const [, code, status] of section.matchAll(/^\| `([A-Z_]+)` +\| (\d{3}) /gm)) {
    codes.set(code as string, Number(status));
  }
  return codes;
}

const fingerprint = () => databaseFingerprint(t.db);

const hostileValue = fc.oneof(
  fc.constantFrom(
    '',
    '0x10',
    '1e3',
    '-1',
    ' 1',
    '1.0',
    '+1',
    '99999999999999999999',
    '256',
    'NaN',
    'null',
    '[]',
  ),
  fc.string({ maxLength: 20 }),
  fc.string({ unit: 'grapheme', maxLength: 8 }),
  fc.bigInt({ min: -(10n ** 30n), max: 10n ** 30n }).map(String),
);
const KNOWN_NAMES = ['after', 'limit', 'x', 'y', 'client_id', 'token', 'code', 'state', 'error', 'revision'];
const queryEntries = fc.array(
  fc.tuple(
    fc.oneof(fc.constantFrom(...KNOWN_NAMES), fc.string({ minLength: 1, maxLength: 10 })),
    fc.oneof(hostileValue, fc.array(hostileValue, { minLength: 2, maxLength: 3 })),
  ),
  { minLength: 1, maxLength: 4 },
);
/** A body every POST route must refuse: a field none takes, or not JSON at all. */
const badBody = fc.oneof(
  fc
    .tuple(
      fc.dictionary(fc.constantFrom('x', 'y', 'color_index', 'token', 'points', 'guess'), fc.jsonValue()),
      fc.string({ minLength: 1, maxLength: 8 }).map((k) => `zz_${k}`),
      fc.jsonValue(),
    )
    .map(([fields, extra, value]) => ({
      type: 'application/json',
      text: JSON.stringify({ ...fields, [extra]: value }),
    })),
  fc.string({ minLength: 1, maxLength: 40 }).map((text) => ({ type: 'application/json', text: `{${text}` })),
  fc
    .constantFrom('text/plain', 'application/xml', 'multipart/form-data; boundary=x')
    .chain((type) => fc.string({ maxLength: 40 }).map((text) => ({ type, text }))),
);
type Defect =
  | { kind: 'query'; entries: [string, string | string[]][] }
  | { kind: 'body'; type: string; text: string };
const badQuery: fc.Arbitrary<Defect> = queryEntries.map((entries) => ({ kind: 'query' as const, entries }));
/** What is wrong with a request: a GET's query; a POST's query or body. */
const defectFor = (method: string): fc.Arbitrary<Defect> =>
  method === 'POST'
    ? fc.oneof(
        badQuery,
        badBody.map((body) => ({ kind: 'body' as const, ...body })),
      )
    : badQuery;

describe('every registered route under malformed input', () => {
  let web: Awaited<ReturnType<typeof startWeb>>;
  let moderator = '';
  let worker = { _id: '', secret: '' };
  let documented: Map<string, number>;

  beforeAll(async () => {
    await clearDatabase(t.db);
    // Every optional part switched on, so every route exists: Discord OAuth2 too.
    web = await startWeb(t, {
      PUBLIC_URL,
      DISCORD_APPLICATION_ID: '897100000000000009',
      DISCORD_CLIENT_SECRET: 'route-table-secret',
      DISCORD_API_URL: 'http://127.0.0.1:9/api',
      MODERATOR_USER_IDS: MOD,
    });
    const { token } = await web.deps.services.web.createLink({ userId: MOD, name: 'mod', roleIds: [] });
    const login = await web.request('POST', '/place/login', {
      origin: PUBLIC_URL,
      body: `token=${token}`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    moderator = (login.headers.get('set-cookie') ?? '').split(';')[0] as string;
    worker = await web.deps.services.workers.link(MOD, 'fuzz');
    await web.deps.services.place.board();
    documented = documentedCodes();
  });
  afterAll(() => web?.close());

  it('GIVEN docs/web.md THEN it lists every code the contract answers, with its status', () => {
    for (const [code, status] of Object.entries(HTTP_STATUS))
      expect([code, documented.get(code)]).toEqual([code, status]);
    expect(documented.get('NOT_FOUND')).toBe(404);
    // A grant to an id that is neither a member the bot knows nor a linked worker.
    expect(documented.get('UNKNOWN_CLIENT')).toBe(404);
  });

  it('GIVEN the route table THEN it has the API, the page, the workers’ routes and the operator’s', () => {
    const routes = registeredRoutes(web.app).map((r) => `${r.method} ${r.url}`);
    for (const route of [
      'GET /api/public/place/pixel',
      'GET /api/public/place/areas',
      'GET /api/public/place/templates',
      'GET /api/public/place/templates/:id/art.png',
      'POST /api/place/pixel',
      'POST /api/admin/place/points',
      'POST /api/hunt/tip',
      'GET /api/hunt/status',
      'GET /auth/discord/callback',
      'GET /metrics',
      'GET /healthz',
      'GET /place',
    ]) {
      expect(routes).toContain(route);
    }
  });

  it('GIVEN each route and hostile input THEN no 5xx, the headers, the error shape, a listed code, and nothing written', async () => {
    const routes = [...registeredRoutes(web.app), { method: 'GET', url: '/no/such/route', page: false }];
    const answered = new Set<string>();
    for (const route of routes) {
      const before = await fingerprint();
      await fc.assert(
        fc.asyncProperty(
          defectFor(route.method),
          fc.constantFrom('moderator', 'garbage', 'none'),
          fc.constantFrom(PUBLIC_URL, 'https://evil.example', null),
          fc.option(fc.string({ maxLength: 80 }), { nil: undefined }),
          fc.boolean(),
          async (bad, who, origin, key, sign) => {
            const query = new URLSearchParams();
            if (bad.kind === 'query') {
              for (const [name, value] of bad.entries) for (const v of [value].flat()) query.append(name, v);
            }
            const path = `${route.url}${query.size > 0 ? `?${query}` : ''}`;
            const body =
              route.method === 'POST'
                ? bad.kind === 'body'
                  ? bad
                  : { type: 'application/json', text: '{}' }
                : null;
            const headers: Record<string, string> = {};
            if (body) headers['content-type'] = body.type;
            if (key !== undefined) headers['idempotency-key'] = key;
            if (who === 'moderator') headers.cookie = moderator;
            if (who === 'garbage') headers.cookie = 'place_session=not-a-session';
            if (sign && route.url.startsWith('/api/hunt/')) {
              Object.assign(
                headers,
                signedHeaders(worker._id, worker.secret, {
                  method: route.method,
                  ...splitUrl(path),
                  timestamp: String(Date.now()),
                  nonce: `fuzz-${Math.random().toString(36).slice(2)}-nonce`,
                  body: body?.text ?? '',
                }),
              );
            }
            const response = await web.request(route.method, path, { origin, headers, body: body?.text });
            const where = `${route.method} ${path} → ${response.status} ${response.text.slice(0, 200)}`;
            expect(response.status, where).toBeLessThan(500);
            for (const [name, value] of Object.entries(SECURITY_HEADERS)) {
              expect(response.headers.get(name), `${where}: ${name}`).toBe(value);
            }
            if (route.method === 'POST') expect(response.status, where).toBeGreaterThanOrEqual(400);
            if (response.status >= 400 && route.method !== 'HEAD') {
              expect(response.json?.error, where).toMatchObject({
                code: expect.any(String),
                message: expect.any(String),
              });
              const code = response.json.error.code as string;
              expect(documented.has(code), `${where}: ${code} is not in docs/web.md`).toBe(true);
              expect(response.status, where).toBe(documented.get(code));
              answered.add(code);
            }
          },
        ),
        { numRuns: RUNS_PER_ROUTE },
      );
      expect(await fingerprint(), `${route.method} ${route.url} wrote to the database`).toBe(before);
    }
    // The attack reached past each gate: signed-out, wrong origin, bad input, unknown route, bad signature.
    for (const code of [
      'NOT_SIGNED_IN',
      'BAD_ORIGIN',
      'BAD_REQUEST',
      'NOT_FOUND',
      'WORKER_REFUSED',
      'UNSUPPORTED_MEDIA_TYPE',
    ]) {
      expect(answered).toContain(code);
    }
  }, 240_000);
});
