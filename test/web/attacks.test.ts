import { request as httpRequest } from 'node:http';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/clock.js';
import { signedHeaders } from '../../utils/hunt/signing.js';
import { clearDatabase, useTestDatabase } from '../support/database.js';
import { startWeb } from '../support/webHarness.js';

/**
 * The findings of an attack on the web and worker APIs from outside, one test each (the slow
 * WebSocket client is in liveFeed.test.ts). Each failed on the code before the fix.
 */
const t = useTestDatabase('web_attacks');
const [ANN, BEN, MOD] = ['897000000000000001', '897000000000000002', '897000000000000003'];
let web: Awaited<ReturnType<typeof startWeb>>;
const wall = new ManualClock();

const fund = (member: string, points: number) => web.fund(member, points);

const pixel = (cookie: string, body: unknown, key: string) =>
  web.request('POST', '/api/place/pixel', { cookie, body, headers: { 'idempotency-key': key } });

/** A raw request, so the Host header is the attacker's to choose. */
function rawPost(path: string, headers: Record<string, string>, body: string) {
  const url = new URL(web.url);
  return new Promise<{ status: number; json: { error?: { code: string } } }>((resolve, reject) => {
    const req = httpRequest({ host: url.hostname, port: url.port, path, method: 'POST', headers }, (res) => {
      let text = '';
      res.on('data', (chunk) => {
        text += chunk;
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, json: JSON.parse(text || '{}') }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

describe('the web and worker APIs under attack', () => {
  beforeEach(async () => {
    await clearDatabase(t.db);
    wall.advanceTo(new Date());
    web = await startWeb(t, { MODERATOR_USER_IDS: MOD }, { wallClock: wall });
  });
  afterEach(() => web.close());

  it('GIVEN any response — a 404, the hunt API, /healthz, /metrics, a refusal — THEN it has the security headers, and every error the one shape', async () => {
    for (const [path, status] of [
      ['/no/such/page', 404],
      ['/api/hunt/status', 401],
      ['/healthz', 200],
      ['/metrics', 200],
      ['/api/public/place/pixel?x=a&y=1', 400],
    ] as const) {
      const response = await web.request('GET', path);
      expect([path, response.status]).toEqual([path, status]);
      expect(response.headers.get('x-content-type-options')).toBe('nosniff');
      expect(response.headers.get('x-frame-options')).toBe('DENY');
      expect(response.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
      if (status >= 400) {
        expect(response.json.error).toMatchObject({ code: expect.any(String), message: expect.any(String) });
      }
    }
  });

  it('GIVEN logout-all THEN a sign-in link made before it opens no session, even when used at the same moment', async () => {
    const { token } = await web.deps.services.web.createLink({ userId: ANN, name: 'ann', roleIds: [] });
    expect(await web.deps.services.web.signOutEverywhere(ANN)).toBe(0);
    const late = await web.request('POST', '/place/login', {
      body: new URLSearchParams({ token }).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect([late.status, late.json.error.code]).toEqual([410, 'LINK_INVALID']);

    // The link used while logout-all runs: whatever the order, no session survives it.
    for (let round = 0; round < 15; round++) {
      const link = await web.deps.services.web.createLink({ userId: ANN, name: 'ann', roleIds: [] });
      const [opened] = await Promise.all([
        web.deps.services.web.signIn(link.token),
        web.deps.services.web.signOutEverywhere(ANN),
      ]);
      if (opened) expect(await web.deps.services.web.session(opened.token)).toBeNull();
    }
  });

  it('GIVEN loose numbers in a query THEN each is refused with a 400 that names the field and the bounds', async () => {
    const cases: [string, string][] = [
      ['/api/public/place/changes?after=', 'after'],
      ['/api/public/place/changes?after=0x10', 'after'],
      ['/api/public/place/changes?after=1e3', 'after'],
      ['/api/public/place/changes?after=-1', 'after'],
      ['/api/public/place/changes?after=1&after=2', 'after'],
      ['/api/public/place/changes?after=0&limit=5001', 'limit'],
      ['/api/public/place/pixel?x=&y=', 'x'],
      ['/api/public/place/pixel?x=256&y=0', 'x'],
      ['/api/public/place/pixel?x=0&y=99999999', 'y'],
      ['/api/public/place/pixel?x=%201&y=0', 'x'],
      ['/api/public/place/pixel?x=1.0&y=0', 'x'],
    ];
    for (const [path, field] of cases) {
      const response = await web.request('GET', path);
      expect([path, response.status, response.json.error.code]).toEqual([path, 400, 'BAD_REQUEST']);
      expect(response.json.error.message).toMatch(new RegExp(`^${field}: `));
    }
    const outside = await web.request('GET', '/api/public/place/pixel?x=256&y=0');
    expect(outside.json.error.message).toBe('x: a whole number from 0 to 255');
    // A revision the canvas has not reached: reload, and the canvas's real revision.
    const ahead = await web.request('GET', '/api/public/place/changes?after=16');
    expect(ahead.json).toMatchObject({ reload: true, revision: 0, changes: [] });
  });

  it('GIVEN an Idempotency-Key first refused for want of points THEN another body with it is 409 before the balance, and the same body places once the points are there', async () => {
    const ann = await web.signIn(ANN, 'ann');
    await fund(ANN, 50);
    const first = await pixel(ann, { x: 1, y: 1, color_index: 1 }, 'refused-key-1');
    expect([first.status, first.json.error.code]).toEqual([402, 'INSUFFICIENT_PLACE_POINTS']);
    expect(first.json.error.message).toContain('you have 50 points, a pixel costs 100 points');
    // The key is checked first: another pixel with it is a reused key, not "not enough points".
    const other = await pixel(ann, { x: 2, y: 1, color_index: 1 }, 'refused-key-1');
    expect([other.status, other.json.error.code]).toEqual([409, 'IDEMPOTENCY_KEY_REUSED']);
    await fund(ANN, 500);
    const again = await pixel(ann, { x: 1, y: 1, color_index: 1 }, 'refused-key-1');
    expect([again.status, again.json.replayed, again.json.points_left]).toEqual([200, false, 450]);
    const replay = await pixel(ann, { x: 1, y: 1, color_index: 1 }, 'refused-key-1');
    expect([replay.status, replay.json.replayed, replay.json.revision]).toEqual([
      200,
      true,
      again.json.revision,
    ]);
    expect(await web.deps.services.place.wallet(ANN)).toMatchObject({ balance: 450_000, placements: 1 });
  });

  it('GIVEN two members who send the same operation id THEN each gets a placement of their own, each charged once', async () => {
    await fund(ANN, 100);
    await fund(BEN, 100);
    const place = web.deps.services.place;
    const ann = await place.place({ opId: '1796000000000000001', userId: ANN, x: 3, y: 3, color: 3 });
    const ben = await place.place({ opId: '1796000000000000001', userId: BEN, x: 4, y: 4, color: 4 });
    expect([ann.replayed, ben.replayed]).toEqual([false, false]);
    expect((await place.pixelInfo(4, 4))?.pixel.owner).toBe(BEN);
    await web.deps.ledger.flush();
    expect((await place.wallet(BEN)).balance).toBe(0);
    // The same member again with that id: a replay, charged nothing.
    const replay = await place.place({ opId: '1796000000000000001', userId: BEN, x: 4, y: 4, color: 4 });
    expect(replay.replayed).toBe(true);
  });

  it('GIVEN no PUBLIC_URL THEN a write whose Origin matches a forged Host header is refused', async () => {
    const ann = await web.signIn(ANN, 'ann');
    await fund(ANN, 100);
    const forged = await rawPost(
      '/api/place/pixel',
      {
        host: 'evil.example',
        origin: 'http://evil.example',
        cookie: ann,
        'content-type': 'application/json',
        'idempotency-key': 'forged-host-1',
      },
      JSON.stringify({ x: 1, y: 1, color_index: 1 }),
    );
    expect([forged.status, forged.json.error?.code]).toEqual([403, 'BAD_ORIGIN']);
    // The loopback page itself, by either name, may write.
    const port = new URL(web.url).port;
    const local = await web.request('POST', '/api/place/pixel', {
      cookie: ann,
      origin: `http://localhost:${port}`,
      body: { x: 1, y: 1, color_index: 1 },
      headers: { 'idempotency-key': 'loopback-1' },
    });
    expect(local.status).toBe(200);
    expect((await web.deps.services.place.wallet(ANN)).placements).toBe(1);
  });

  it("GIVEN a worker's signed request THEN a query string added after signing is refused, in the API's error shape", async () => {
    const worker = await web.deps.services.workers.link(ANN, 'cli');
    const now = String(Date.now());
    const headers = signedHeaders(worker._id, worker.secret, {
      method: 'GET',
      path: '/api/hunt/status',
      query: '',
      timestamp: now,
      nonce: 'nonce-query-000001',
      body: '',
    });
    const tampered = await web.request('GET', '/api/hunt/status?round=1', { headers });
    expect(tampered.status).toBe(401);
    expect(tampered.json.error).toMatchObject({ code: 'WORKER_REFUSED', reason: 'bad_signature' });
    expect(tampered.json.error.message).toContain('signature');
  });

  it("GIVEN the bot's clock stands still (the console) THEN a worker signing with real time is accepted, and a rate limit ends after a real minute", async () => {
    // The harness's business clock is fixed months away from real time, as a console's can be after !wait.
    const worker = await web.deps.services.workers.link(ANN, 'cli');
    const headers = signedHeaders(worker._id, worker.secret, {
      method: 'GET',
      path: '/api/hunt/status',
      query: '',
      timestamp: String(Date.now()),
      nonce: 'nonce-clock-0000001',
      body: '',
    });
    const status = await web.request('GET', '/api/hunt/status', { headers });
    expect([status.status, status.json.owner]).toEqual([200, ANN]);

    await web.close();
    web = await startWeb(t, { WEB_WRITES_PER_MEMBER_PER_MIN: '3' }, { wallClock: wall });
    const ann = await web.signIn(ANN, 'ann');
    await fund(ANN, 1_000);
    for (let i = 0; i < 3; i++)
      expect((await pixel(ann, { x: i, y: 0, color_index: 1 }, `rate-${i}-key`)).status).toBe(200);
    const limited = await pixel(ann, { x: 9, y: 0, color_index: 1 }, 'rate-9-key');
    expect(limited.status).toBe(429);
    wall.advance(60_000);
    expect((await pixel(ann, { x: 9, y: 0, color_index: 1 }, 'rate-9-key')).status).toBe(200);
  });

  it('GIVEN a grant key reused for another amount THEN the answer is 409 IDEMPOTENCY_KEY_REUSED, a code docs/web.md lists', async () => {
    const mod = await web.signIn(MOD, 'mod');
    // Points go only to a member the bot has seen.
    await web.deps.profiles.touch({ id: ANN, name: 'ann' });
    const grant = (points: number) =>
      web.request('POST', '/api/admin/place/points', {
        cookie: mod,
        body: { target_client_id: ANN, points, reason: 'event prize' },
        headers: { 'idempotency-key': 'grant-key-0001' },
      });
    expect((await grant(5)).status).toBe(200);
    const reused = await grant(6);
    expect([reused.status, reused.json.error.code]).toEqual([409, 'IDEMPOTENCY_KEY_REUSED']);
    expect((await web.deps.services.place.wallet(ANN)).balance).toBe(5_000);
  });
});
