import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/clock.js';
import { clearDatabase, useTestDatabase } from '../support/database.js';
import { booksProblems } from '../support/ledgerHarness.js';
import { eventually, startWeb } from '../support/webHarness.js';

const t = useTestDatabase('web_api');
const [ANN, BEN] = ['896000000000000001', '896000000000000002'];
let web: Awaited<ReturnType<typeof startWeb>>;
/** Real time as the web's windows see it (links, sessions, rate limits), still unless a test moves it. */
let wall: ManualClock;

const fund = (member: string, points: number) => web.fund(member, points);

const pixel = (cookie: string, body: unknown, key = `key-${Math.random().toString(36).slice(2, 12)}`) =>
  web.request('POST', '/api/place/pixel', { cookie, body, headers: { 'idempotency-key': key } });

describe('the canvas API over real HTTP', () => {
  beforeEach(async () => {
    await clearDatabase(t.db);
    wall = new ManualClock();
    web = await startWeb(
      t,
      { WEB_WRITES_PER_MEMBER_PER_MIN: '8', WS_MAX_PLACE_CONNECTIONS: '3' },
      { wallClock: wall },
    );
  });
  afterEach(() => web.close());

  it('GIVEN the public board THEN it is one byte per pixel with its palette, cached by revision and compressed', async () => {
    const board = await web.request('GET', '/api/public/place');
    expect(board.status).toBe(200);
    expect(board.json).toMatchObject({ revision: 0, width: 256, height: 256 });
    expect(board.json.palette).toHaveLength(32);
    expect(board.json.palette[13]).toEqual({ name: 'blue', hex: '#3690EA' });
    expect(Buffer.from(board.json.pixels, 'base64')).toHaveLength(256 * 256);
    const etag = board.headers.get('etag') as string;
    expect(
      (await web.request('GET', '/api/public/place', { headers: { 'if-none-match': etag } })).status,
    ).toBe(304);
    // Compressed when the client asks (a raw socket request, so the body arrives as sent).
    const raw = await fetch(`${web.url}/api/public/place`, { headers: { 'accept-encoding': 'gzip' } });
    expect(raw.headers.get('content-encoding')).toBe('gzip');
    const png = await fetch(`${web.url}/api/public/place.png`);
    expect(png.headers.get('content-type')).toBe('image/png');
    expect(
      Buffer.from(await png.arrayBuffer())
        .subarray(1, 4)
        .toString(),
    ).toBe('PNG');
    // Security headers on every response.
    expect(board.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(board.headers.get('content-security-policy')).not.toContain('unsafe-inline');
    expect(board.headers.get('x-frame-options')).toBe('DENY');
  });

  it('GIVEN a one-time link THEN opening it does not use it, confirming signs in once with a strict HttpOnly cookie, and a second use or an expired link is refused', async () => {
    const { token } = await web.deps.services.web.createLink({ userId: ANN, name: 'ann', roleIds: [] });
    const page = await web.request('GET', `/place/login?token=${token}`);
    expect(page.status).toBe(200);
    expect(page.text).toContain('<form method="post" action="/place/login">');
    const form = { body: `token=${token}`, headers: { 'content-type': 'application/x-www-form-urlencoded' } };
    const first = await web.request('POST', '/place/login', form);
    expect(first.status).toBe(303);
    expect(first.headers.get('location')).toBe('/place');
    const cookie = first.headers.get('set-cookie') as string;
    expect(cookie).toMatch(/^place_session=[\w-]+;/);
    expect(cookie).toContain('HttpOnly');
    expect(cookie).toContain('SameSite=Strict');
    const again = await web.request('POST', '/place/login', form);
    expect(again.status).toBe(410);
    expect(again.json.error.code).toBe('LINK_INVALID');
    const late = await web.deps.services.web.createLink({ userId: ANN, name: 'ann', roleIds: [] });
    wall.advance(11 * 60_000);
    const expired = await web.request('POST', '/place/login', { ...form, body: `token=${late.token}` });
    expect(expired.json.error.code).toBe('LINK_INVALID');
  });

  it('GIVEN a used or expired link opened in a browser THEN a page in the member’s language says what happened and what to do; an API client still gets LINK_INVALID', async () => {
    const html = { accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' };
    const form = (token: string, headers: Record<string, string> = {}) => ({
      body: `token=${token}`,
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    });
    const german = await web.deps.services.web.createLink({
      userId: ANN,
      name: 'ann',
      roleIds: [],
      locale: 'de',
    });
    expect(
      (await web.request('GET', `/place/login?token=${german.token}`, { headers: html })).text,
    ).toContain('Anmelden und Leinwand öffnen');
    expect((await web.request('POST', '/place/login', form(german.token, html))).status).toBe(303);

    // The same link again, from the browser's sign-in form, and opened again from Discord.
    for (const again of [
      await web.request('POST', '/place/login', form(german.token, html)),
      await web.request('GET', `/place/login?token=${german.token}`, { headers: html }),
    ]) {
      expect(again.status).toBe(410);
      expect(again.headers.get('content-type')).toContain('text/html');
      expect(again.text).toContain('<html lang="de">');
      expect(again.text).toContain('Dieser Anmeldelink wurde schon benutzt oder ist abgelaufen.');
      expect(again.text).toContain('Führe in Discord /place web aus, um einen neuen zu bekommen.');
      expect(again.text).not.toContain('<form');
    }
    // An expired link of a member whose language is unknown: the browser's language.
    const late = await web.deps.services.web.createLink({ userId: BEN, name: 'ben', roleIds: [] });
    wall.advance(11 * 60_000);
    const expired = await web.request('GET', `/place/login?token=${late.token}`, {
      headers: { ...html, 'accept-language': 'en-GB,en;q=0.9,de;q=0.5' },
    });
    expect(expired.status).toBe(410);
    expect(expired.text).toContain('This sign-in link was already used or has expired.');
    expect(expired.text).toContain('Run /place web in Discord for a new one.');
    // API clients keep the contract: JSON with its code.
    for (const api of [
      await web.request('POST', '/place/login', form(german.token)),
      await web.request('GET', `/place/login?token=${late.token}`),
    ]) {
      expect([api.status, api.json.error.code]).toEqual([410, 'LINK_INVALID']);
    }
  });

  it('GIVEN the page THEN it speaks the signed-in member’s Discord language, else the browser’s', async () => {
    const page = (headers: Record<string, string>) => web.request('GET', '/place', { headers });
    const english = await page({ 'accept-language': 'en-US,en;q=0.9' });
    expect(english.text).toContain('<html lang="en">');
    expect(english.text).toContain('>Live placements</h2>');
    const german = await page({ 'accept-language': 'de-DE,de;q=0.9,en;q=0.8' });
    expect(german.text).toContain('<html lang="de">');
    expect(german.text).toContain('>Gerade gesetzte Pixel</h2>');
    expect(german.text).toContain('>Dein Place-Guthaben</h2>');
    expect((await page({ 'accept-language': 'fr-FR, de;q=0.5' })).text).toContain('<html lang="de">');
    expect((await page({})).text).toContain('<html lang="en">');

    const { token } = await web.deps.services.web.createLink({
      userId: ANN,
      name: 'ann',
      roleIds: [],
      locale: 'de',
    });
    const login = await web.request('POST', '/place/login', {
      body: `token=${token}`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    const cookie = (login.headers.get('set-cookie') ?? '').split(';')[0] as string;
    const member = await web.request('GET', '/place', { cookie, headers: { 'accept-language': 'en-US' } });
    expect(member.text).toContain('<html lang="de">');
  });

  it('GIVEN the page THEN it is served with its bundled script and styles, and logging out ends only that session', async () => {
    const page = await web.request('GET', '/place');
    expect(page.status).toBe(200);
    expect(page.text).toContain('<script type="module" src="/place/app.js"');
    expect(page.headers.get('x-frame-options')).toBe('DENY');
    const script = await web.request('GET', '/place/app.js');
    expect(script.headers.get('content-type')).toContain('javascript');
    expect(script.text).toContain('/api/place/ws');
    expect((await web.request('GET', '/place/app.css')).headers.get('content-type')).toContain('text/css');

    const [laptop, phone] = [await web.signIn(ANN, 'ann'), await web.signIn(ANN, 'ann')];
    expect((await web.request('GET', '/api/place/session', { cookie: laptop })).json).toEqual({
      signed_in: true,
      client_id: ANN,
      name: 'ann',
    });
    const foreign = await web.request('POST', '/api/place/logout', {
      cookie: laptop,
      origin: 'https://evil.example',
    });
    expect(foreign.json.error.code).toBe('BAD_ORIGIN');
    expect((await web.request('GET', '/api/place/session', { cookie: laptop })).json.signed_in).toBe(true);
    const out = await web.request('POST', '/api/place/logout', { cookie: laptop });
    expect(out.json).toEqual({ signed_out: true });
    expect(out.headers.get('set-cookie')).toMatch(/^place_session=;/);
    expect((await web.request('GET', '/api/place/session', { cookie: laptop })).json).toEqual({
      signed_in: false,
    });
    expect((await web.request('GET', '/api/place/me', { cookie: laptop })).json.error.code).toBe(
      'NOT_SIGNED_IN',
    );
    expect((await web.request('GET', '/api/place/session', { cookie: phone })).json.signed_in).toBe(true);
  });

  it('GIVEN a signed-in member THEN /api/place/me shows the wallet, and a placement charges exactly once per idempotency key', async () => {
    expect((await web.request('GET', '/api/place/me')).json.error.code).toBe('NOT_SIGNED_IN');
    const ann = await web.signIn(ANN, 'ann');
    await fund(ANN, 250);
    const me = await web.request('GET', '/api/place/me', { cookie: ann });
    expect(me.json).toMatchObject({
      client_id: ANN,
      name: 'ann',
      points: 250,
      affordable_pixels: 2,
      pixel_cost: 100,
    });
    const first = await pixel(ann, { x: 12, y: 34, color_index: 15 }, 'same-key-0001');
    expect(first.status).toBe(200);
    expect(first.json).toMatchObject({
      x: 12,
      y: 34,
      color_index: 15,
      cost: 100,
      points_left: 150,
      replayed: false,
    });
    const retried = await pixel(ann, { x: 12, y: 34, color_index: 15 }, 'same-key-0001');
    expect(retried.json).toMatchObject({ revision: first.json.revision, replayed: true });
    const reused = await pixel(ann, { x: 1, y: 1, color_index: 2 }, 'same-key-0001');
    expect(reused.status).toBe(409);
    expect(reused.json.error.code).toBe('IDEMPOTENCY_KEY_REUSED');
    await web.deps.ledger.flush();
    expect((await web.deps.services.place.wallet(ANN)).balance).toBe(150_000);
    const info = await web.request('GET', '/api/public/place/pixel?x=12&y=34');
    expect(info.json).toMatchObject({
      color_index: 15,
      owner: ANN,
      painted: 1,
      revision: first.json.revision,
    });
    expect(await booksProblems(t.cols)).toEqual([]);
  });

  it('GIVEN bad writes THEN each is refused with its code and message, and nothing is written', async () => {
    const ann = await web.signIn(ANN, 'ann');
    await fund(ANN, 100);
    const cases = [
      [
        await web.request('POST', '/api/place/pixel', { cookie: ann, body: {}, origin: null }),
        403,
        'BAD_ORIGIN',
      ],
      [
        await web.request('POST', '/api/place/pixel', {
          cookie: ann,
          body: {},
          origin: 'https://evil.example',
        }),
        403,
        'BAD_ORIGIN',
      ],
      [await pixel('', { x: 1, y: 1, color_index: 1 }), 401, 'NOT_SIGNED_IN'],
      [await pixel(ann, '{"x":1,', undefined), 400, 'BAD_REQUEST'],
      [await pixel(ann, { x: '1', y: 1, color_index: 1 }), 400, 'BAD_REQUEST'],
      [await pixel(ann, { x: 1, y: 1, color_index: 32 }), 400, 'BAD_REQUEST'],
      [await pixel(ann, { x: 1, y: 1, color_index: 1, extra: true }), 400, 'BAD_REQUEST'],
      [await pixel(ann, { x: 300, y: 1, color_index: 1 }), 400, 'INVALID_INPUT'],
      [
        await web.request('POST', '/api/place/pixel', { cookie: ann, body: { x: 1, y: 1, color_index: 1 } }),
        400,
        'BAD_REQUEST',
      ],
    ] as const;
    for (const [response, status, code] of cases) {
      expect([response.status, response.json?.error?.code]).toEqual([status, code]);
      expect(response.json.error.message.length).toBeGreaterThan(10);
    }
    expect(cases[7][0].json.error.message).toBe(
      '(300, 1) is outside the canvas: x goes from 0 to 255, y from 0 to 255.',
    );
    await pixel(ann, { x: 1, y: 1, color_index: 1 });
    const broke = await pixel(ann, { x: 2, y: 2, color_index: 1 });
    expect([broke.status, broke.json.error.code]).toEqual([402, 'INSUFFICIENT_PLACE_POINTS']);
    expect(broke.json.error.message).toContain('0 points');
    await web.deps.ledger.flush();
    const wallet = await web.deps.services.place.wallet(ANN);
    expect([wallet.balance, wallet.placements]).toEqual([0, 1]);
  });

  it('GIVEN more writes than the per-member limit THEN the next is refused with Retry-After, counted in MongoDB', async () => {
    const ann = await web.signIn(ANN, 'ann');
    await fund(ANN, 10_000);
    const statuses: number[] = [];
    for (let i = 0; i < 9; i++) statuses.push((await pixel(ann, { x: i, y: 0, color_index: 3 })).status);
    expect(statuses).toEqual([200, 200, 200, 200, 200, 200, 200, 200, 429]);
    const limited = await pixel(ann, { x: 9, y: 0, color_index: 3 });
    expect(limited.json.error.code).toBe('RATE_LIMITED');
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    // Another member is not limited by Ann's writes.
    const ben = await web.signIn(BEN, 'ben');
    await fund(BEN, 100);
    expect((await pixel(ben, { x: 0, y: 1, color_index: 3 })).status).toBe(200);
  });

  it('GIVEN the moderators API THEN a member is refused, a moderator lists earnings and grants to a worker id route to its owner', async () => {
    const ann = await web.signIn(ANN, 'ann');
    expect((await web.request('GET', '/api/admin/place/earnings', { cookie: ann })).json.error.code).toBe(
      'FORBIDDEN',
    );
    const admin = await web.signIn(web.adminId, 'admin');
    const worker = await web.deps.services.workers.link(BEN, 'laptop');
    const grant = await web.request('POST', '/api/admin/place/points', {
      cookie: admin,
      headers: { 'idempotency-key': 'grant-key-0001' },
      body: { target_client_id: worker._id, points: 100, reason: 'Event-Bonus' },
    });
    expect(grant.json).toEqual({ owner: BEN, owner_name: null, points: 100, balance: 100 });
    // The same key again grants nothing more.
    await web.request('POST', '/api/admin/place/points', {
      cookie: admin,
      headers: { 'idempotency-key': 'grant-key-0001' },
      body: { target_client_id: worker._id, points: 100, reason: 'Event-Bonus' },
    });
    await web.deps.ledger.flush();
    expect((await web.deps.services.place.wallet(BEN)).balance).toBe(100_000);
    const earnings = await web.request('GET', `/api/admin/place/earnings?limit=5&client_id=${BEN}`, {
      cookie: admin,
    });
    expect(earnings.json.events).toEqual([
      expect.objectContaining({ kind: 'admin', points: 100, owner: BEN, source: worker._id }),
    ]);
    const bad = await web.request('POST', '/api/admin/place/points', {
      cookie: admin,
      headers: { 'idempotency-key': 'grant-key-0002' },
      body: { target_client_id: BEN, points: -5 },
    });
    expect(bad.json.error.code).toBe('BAD_REQUEST');
  });

  it('GIVEN a grant to an id the bot does not know THEN it is refused with UNKNOWN_CLIENT and no wallet appears in the rankings', async () => {
    const admin = await web.signIn(web.adminId, 'admin');
    for (const [i, target] of ['123456789012345678', 'w-0123456789abcdef'].entries()) {
      const refused = await web.request('POST', '/api/admin/place/points', {
        cookie: admin,
        headers: { 'idempotency-key': `grant-unknown-${i}` },
        body: { target_client_id: target, points: 100 },
      });
      expect([refused.status, refused.json.error.code]).toEqual([404, 'UNKNOWN_CLIENT']);
      expect(refused.json.error.message).toContain(target);
      expect((await web.deps.services.place.wallet(target)).earned).toBe(0);
    }
    await web.deps.ledger.flush();
    const top = await web.deps.placeEconomy.top('earned', 50);
    expect(top.map((row) => row.account)).not.toContain('123456789012345678');
  });

  it('GIVEN placements THEN the changes feed returns them in order after a revision, and says reload when too far behind', async () => {
    const ann = await web.signIn(ANN, 'ann');
    await fund(ANN, 1_000);
    for (let i = 0; i < 5; i++) await pixel(ann, { x: i, y: 5, color_index: 7 });
    const changes = await web.request('GET', '/api/public/place/changes?after=2&limit=10');
    expect(changes.json.reload).toBe(false);
    expect(changes.json.changes.map((c: { revision: number }) => c.revision)).toEqual([3, 4, 5]);
    expect(changes.json.changes[0]).toMatchObject({ x: 2, y: 5, color_index: 7, owner: ANN });
    const behind = await web.request('GET', '/api/public/place/changes?after=0&limit=1');
    expect(behind.json).toMatchObject({ reload: false, revision: 1, more: true });
    expect((await web.request('GET', '/api/public/place/changes?after=x')).json.error.code).toBe(
      'BAD_REQUEST',
    );
    const metrics = await web.request('GET', '/metrics');
    expect(metrics.text).toMatch(/bot_place_placements_total\{channel="web"\} \d+/);
    expect(metrics.text).toContain(
      'bot_ledger_operations_total{type="debit",currency="place",outcome="applied"}',
    );
    expect((await web.request('GET', '/healthz')).json).toEqual({
      ok: true,
      database: 'ok',
      gateway: 'none',
    });
  });

  it('GIVEN the WebSocket THEN it says the revision, streams placements, catches a reconnect up exactly, and refuses past the cap', async () => {
    const ann = await web.signIn(ANN, 'ann');
    await fund(ANN, 1_000);
    await pixel(ann, { x: 0, y: 0, color_index: 1 });
    const live = web.connect(1);
    await live.opened;
    await eventually(() => live.messages.length > 0);
    // The stream's revision (it may trail the newest placement by one tick; the client skips what it has).
    expect(live.messages[0]).toMatchObject({ type: 'hello' });
    await pixel(ann, { x: 1, y: 0, color_index: 2 });
    await pixel(ann, { x: 2, y: 0, color_index: 3 });
    const seen = () =>
      live.messages.flatMap((m) =>
        m.type === 'changes' ? m.changes.map((c) => c[0]).filter((r) => r > 1) : [],
      );
    await eventually(() => seen().length === 2);
    expect(seen()).toEqual([2, 3]);
    // A browser that left at revision 1 comes back: exactly what it missed, in order.
    const back = web.connect(1);
    await eventually(() => back.messages.some((m) => m.type === 'changes'));
    const missed = back.messages.flatMap((m) => (m.type === 'changes' ? m.changes : []));
    expect(missed.map((c) => [c[0], c[1], c[2], c[3], c[4]])).toEqual([
      [2, 1, 0, 2, ANN],
      [3, 2, 0, 3, ANN],
    ]);
    await pixel(ann, { x: 3, y: 0, color_index: 4 });
    await eventually(() => seen().length === 3);
    await eventually(
      () => back.messages.flatMap((m) => (m.type === 'changes' ? m.changes : [])).length === 3,
    );
    // The cap is 3 here: a fourth connection is told why and closed.
    const third = web.connect();
    await third.opened;
    const fourth = web.connect();
    expect(await fourth.closed).toEqual({ code: 1013, reason: 'server full: at most 3 live connections' });
    const metrics = await web.request('GET', '/metrics');
    expect(metrics.text).toContain('bot_place_websocket_clients 3');
    for (const c of [live, back, third]) c.ws.close();
  });
});
