import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registeredRoutes } from '../../src/http/server.js';
import { clearDatabase, useTestDatabase } from '../support/database.js';
import { booksProblems } from '../support/ledgerHarness.js';
import { startWeb } from '../support/webHarness.js';

/**
 * The moderators' portal over HTTP: its pages by who asks (a browser is told what to do, an API
 * client gets the contract's error), and the moderators' API that the Grants, Earnings, Bans and
 * Economy pages read: the picker, earnings of every kind a page at a time, grants and clawbacks
 * once per Idempotency-Key, bans that the next placement meets.
 */
const t = useTestDatabase('web_portal');
const MOD = '897300000000000001';
const MIA = '897300000000000002';
const BEN = '897300000000000003';
const HTML = { accept: 'text/html,application/xhtml+xml' };
let web: Awaited<ReturnType<typeof startWeb>>;
let admin = '';
let moderator = '';
let member = '';

beforeAll(async () => {
  await clearDatabase(t.db);
  web = await startWeb(t, { MODERATOR_USER_IDS: MOD });
  admin = await web.signIn(web.adminId, 'ada');
  moderator = await web.signIn(MOD, 'moe');
  member = await web.signIn(MIA, 'mia');
  await web.deps.profiles.touch({ id: BEN, name: 'Benjamin' });
});
afterAll(() => web?.close());

describe('the portal pages', () => {
  it('GIVEN a browser THEN signed out it is told to sign in, a member that it is for moderators, in their language', async () => {
    const out = await web.request('GET', '/admin/grants', { headers: HTML });
    expect(out.status).toBe(401);
    expect(out.text).toContain('Run /place web in Discord');
    const german = await web.request('GET', '/admin/grants', {
      headers: { ...HTML, 'accept-language': 'de' },
    });
    expect(german.text).toContain('Gib in Discord /place web ein');
    const refused = await web.request('GET', '/admin', { cookie: member, headers: HTML });
    expect(refused.status).toBe(403);
    expect(refused.text).toContain('This portal is for the server');
    const api = await web.request('GET', '/admin/grants', { cookie: member });
    expect([api.status, api.json.error.code]).toEqual([403, 'FORBIDDEN']);
  });

  it('GIVEN a moderator THEN /admin opens the first page theirs, admin pages are refused; an admin opens them', async () => {
    const home = await web.request('GET', '/admin', { cookie: moderator, headers: HTML });
    expect([home.status, home.headers.get('location')]).toEqual([302, '/admin/grants']);
    const runtime = await web.request('GET', '/admin/runtime', { cookie: moderator, headers: HTML });
    expect(runtime.status).toBe(403);
    expect(runtime.text).toContain('This page is for admins only.');
    const page = await web.request('GET', '/admin/runtime', { cookie: admin, headers: HTML });
    expect(page.status).toBe(200);
    expect(page.text).toContain('<script type="module" src="/admin/app.js">');
    expect(
      (await web.request('GET', '/admin', { cookie: admin, headers: HTML })).headers.get('location'),
    ).toBe('/admin/runtime');
    expect((await web.request('GET', '/place/admin')).headers.get('location')).toBe('/admin');
    const script = await web.request('GET', '/admin/app.js');
    expect(script.headers.get('content-type')).toContain('javascript');
  });

  it('GIVEN a member THEN every portal page and every moderators’ API route answers 403', async () => {
    const routes = registeredRoutes(web.app).filter(
      (r) =>
        (r.url.startsWith('/api/admin/') || /^\/admin\/[a-z]+$/.test(r.url) || r.url === '/admin') &&
        !r.url.endsWith('.js') &&
        !r.url.endsWith('.css'),
    );
    expect(routes.length).toBeGreaterThan(15);
    for (const route of routes) {
      const path = route.url.replace(/:(\w+)/g, 'x1');
      const response = await web.request(route.method, path, {
        cookie: member,
        ...(route.method === 'POST' ? { body: {} } : {}),
        headers: { 'idempotency-key': 'member-tries-0001' },
      });
      expect([`${route.method} ${route.url}`, response.status]).toEqual([
        `${route.method} ${route.url}`,
        403,
      ]);
    }
  });
});

describe('the moderators’ API behind the pages', () => {
  it('GIVEN members and a worker THEN the picker finds them by part of a name, an id, or a worker label with its owner', async () => {
    const worker = await web.deps.services.workers.link(MIA, 'Night Shift');
    const byName = await web.request('GET', '/api/admin/members?q=enjam', { cookie: moderator });
    expect(byName.json.results).toEqual([{ id: BEN, kind: 'member', name: 'Benjamin' }]);
    const byId = await web.request('GET', `/api/admin/members?q=${MIA.slice(0, 12)}`, { cookie: moderator });
    expect(byId.json.results.map((r: { id: string }) => r.id)).toContain(MIA);
    const byLabel = await web.request('GET', '/api/admin/members?q=night', { cookie: moderator });
    expect(byLabel.json.results).toEqual([
      { id: worker._id, kind: 'worker', name: 'Night Shift', owner_id: MIA, owner_name: 'mia' },
    ]);
    const hostile = await web.request('GET', '/api/admin/members?q=.*(', { cookie: moderator });
    expect([hostile.status, hostile.json.results]).toEqual([200, []]);
  });

  it('GIVEN 0,001 points in German to a worker THEN its owner gets one milli-point, once for a double submit, with the audit', async () => {
    const worker = (await web.deps.services.workers.list(MIA))[0];
    const send = () =>
      web.request('POST', '/api/admin/place/points', {
        cookie: moderator,
        body: { target_client_id: worker?._id, points: '0,001', reason: 'Wettbewerb' },
        headers: { 'idempotency-key': 'double-click-0001', 'accept-language': 'de-DE' },
      });
    const [first, second] = await Promise.all([send(), send()]);
    expect(first.json).toMatchObject({ owner: MIA, owner_name: 'mia', points: 0.001 });
    expect(second.json).toMatchObject({ owner: MIA, points: 0.001 });
    expect((await web.deps.services.place.wallet(MIA)).balance).toBe(1);
    const earnings = await web.request('GET', '/api/admin/place/earnings?kind=admin', { cookie: moderator });
    expect(earnings.json.events).toHaveLength(1);
    expect(earnings.json.events[0]).toMatchObject({
      kind: 'admin',
      points: 0.001,
      owner_name: 'mia',
      source: worker?._id,
      moderator: { id: MOD, name: 'moe' },
      reason: 'Wettbewerb',
    });
  });

  it('GIVEN earnings of every kind THEN they page newest first without a gap or a repeat, and filter by kind and member', async () => {
    const events = t.db.collection('place_progress_events');
    const at = new Date('2026-03-01T11:00:00Z');
    await events.insertMany(
      Array.from({ length: 7 }, (_, i) => ({
        _id: `progress:${i}` as never,
        identity: BEN,
        owner: BEN,
        round: 1,
        sequence: i,
        from: i,
        to: i + 1,
        milli: 500,
        at, // one time for all: the order falls back to the id, and paging must keep it
      })),
    );
    const seen: string[] = [];
    let next: string | null = null;
    do {
      const query: string = `?limit=3${next ? `&before=${encodeURIComponent(next)}` : ''}`;
      const page = await web.request('GET', `/api/admin/place/earnings${query}`, { cookie: moderator });
      expect(page.status).toBe(200);
      seen.push(...page.json.events.map((e: { id: string }) => e.id));
      next = page.json.next;
    } while (next);
    expect(seen).toHaveLength(8);
    expect(new Set(seen).size).toBe(8);
    const ben = await web.request(
      'GET',
      `/api/admin/place/earnings?client_id=${BEN}&kind=progress&limit=50`,
      {
        cookie: moderator,
      },
    );
    expect(ben.json.events).toHaveLength(7);
    expect(ben.json.events[0]).toMatchObject({
      kind: 'progress',
      owner_name: 'Benjamin',
      round: 1,
      points: 0.5,
    });
  });

  it('GIVEN grants and clawbacks of Cookies THEN only admins grant, a clawback takes what is free, and an unknown id is refused', async () => {
    const grant = (cookie: string, key: string, to = BEN) =>
      web.request('POST', '/api/admin/cookies/grant', {
        cookie,
        body: { member: to, amount: 300, reason: 'event prize' },
        headers: { 'idempotency-key': key },
      });
    expect((await grant(moderator, 'cookie-grant-0001')).json.error.code).toBe('FORBIDDEN');
    const unknown = await grant(admin, 'cookie-grant-0002', '123456789012345678');
    expect([unknown.status, unknown.json.error.code]).toEqual([404, 'UNKNOWN_CLIENT']);
    expect((await grant(admin, 'cookie-grant-0003')).json).toMatchObject({ granted: 300, balance: 300 });
    expect((await grant(admin, 'cookie-grant-0003')).json).toMatchObject({ granted: 300, balance: 300 });
    const taken = await web.request('POST', '/api/admin/cookies/clawback', {
      cookie: moderator,
      body: { member: BEN, amount: 500 },
      headers: { 'idempotency-key': 'cookie-claw-0001' },
    });
    expect(taken.json).toMatchObject({ asked: 500, taken: 300, balance: 0 });
    await web.deps.ledger.flush();
    expect(await booksProblems(t.cols)).toEqual([]);
  });

  it('GIVEN a ban from the portal THEN the member’s next placement is refused with its end, a moderator’s long ban needs an admin, and a lift ends it', async () => {
    await web.fund(MIA, 100);
    const ban = (cookie: string, duration: string, key: string) =>
      web.request('POST', '/api/admin/sanctions', {
        cookie,
        body: { member: MIA, scope: 'painting', duration, reason: 'griefing the logo' },
        headers: { 'idempotency-key': key },
      });
    const tooLong = await ban(moderator, '4w', 'ban-long-0001');
    expect([tooLong.status, tooLong.json.error.code]).toEqual([403, 'SANCTION_NEEDS_ADMIN']);
    const banned = await ban(moderator, '1d', 'ban-day-0001');
    expect(banned.json).toMatchObject({
      outcome: 'banned',
      sanction: { member: MIA, member_name: 'mia', scope: 'painting', reason: 'griefing the logo' },
    });
    const refused = await web.request('POST', '/api/place/pixel', {
      cookie: member,
      body: { x: 3, y: 3, color_index: 1 },
      headers: { 'idempotency-key': 'after-ban-0001' },
    });
    expect([refused.status, refused.json.error.code]).toEqual([403, 'SANCTIONED']);
    expect(refused.json.error.message).toContain('griefing the logo');
    const list = await web.request('GET', '/api/admin/sanctions', { cookie: moderator });
    expect(list.json.sanctions).toEqual([
      expect.objectContaining({ member: MIA, until: banned.json.sanction.until }),
    ]);
    const lifted = await web.request('POST', '/api/admin/sanctions/lift', {
      cookie: moderator,
      body: { member: MIA, scope: 'painting' },
      headers: { 'idempotency-key': 'lift-0001' },
    });
    expect(lifted.json).toEqual({ lifted: true });
    expect((await web.request('GET', '/api/admin/sanctions', { cookie: moderator })).json.sanctions).toEqual(
      [],
    );
  });

  it('GIVEN the economy page THEN admins read its figures and its image, moderators are refused', async () => {
    expect((await web.request('GET', '/api/admin/economy', { cookie: moderator })).status).toBe(403);
    const figures = await web.request('GET', '/api/admin/economy', { cookie: admin });
    expect(figures.json).toMatchObject({ members: expect.any(Number), supply_rule: expect.any(String) });
    const image = await fetch(`${web.url}/api/admin/economy.png`, { headers: { cookie: admin } });
    const bytes = Buffer.from(await image.arrayBuffer());
    expect(bytes.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
  });
});
