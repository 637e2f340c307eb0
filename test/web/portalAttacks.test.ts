import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registeredRoutes } from '../../src/http/server.js';
import { clearDatabase, useTestDatabase } from '../support/database.js';
import { booksProblems } from '../support/ledgerHarness.js';
import { startWeb } from '../support/webHarness.js';

/**
 * The moderators' portal attacked: by a moderator overstepping their rights, a page on another
 * site, a client that reuses its keys, and names and amounts chosen to break things.
 */
const t = useTestDatabase('web_portal_attacks');
const MOD = '897400000000000001';
const MIA = '897400000000000002';
const BEN = '897400000000000003';
const STRANGER = '897400000000000099';
let web: Awaited<ReturnType<typeof startWeb>>;
let admin = '';
let moderator = '';

const post = (
  cookie: string,
  path: string,
  body: unknown,
  key: string,
  headers: Record<string, string> = {},
) => web.request('POST', path, { cookie, body, headers: { 'idempotency-key': key, ...headers } });
const auditOf = (kind: string) => t.db.collection('admin_audit').find({ kind }).toArray();

beforeAll(async () => {
  await clearDatabase(t.db);
  web = await startWeb(t, { MODERATOR_USER_IDS: MOD });
  admin = await web.signIn(web.adminId, 'ada');
  moderator = await web.signIn(MOD, 'moe');
  await web.deps.profiles.touch({ id: MIA, name: 'mia' });
  await web.deps.profiles.touch({ id: BEN, name: 'ben' });
});
afterAll(() => web?.close());

describe('a moderator overstepping', () => {
  it('GIVEN a moderator WHEN they ban for good or past a week THEN 403 SANCTION_NEEDS_ADMIN and no ban; a week is theirs', async () => {
    const ban = (duration: string, key: string) =>
      post(moderator, '/api/admin/sanctions', { member: BEN, scope: 'games', duration, reason: 'spam' }, key);
    for (const [duration, key] of [
      ['permanent', 'mod-ban-perm-1'],
      ['169h', 'mod-ban-169h-1'],
      ['8d', 'mod-ban-8d-01'],
    ] as const) {
      const refused = await ban(duration, key);
      expect([duration, refused.status, refused.json.error.code]).toEqual([
        duration,
        403,
        'SANCTION_NEEDS_ADMIN',
      ]);
    }
    expect(await web.deps.services.moderation.list(BEN)).toEqual([]);
    expect((await ban('1w', 'mod-ban-week-1')).json.outcome).toBe('banned');
    await web.deps.services.moderation.lift(BEN, 'games');
  });
});

describe('keys reused with another body', () => {
  it('GIVEN a Cookie grant key reused for 1000 THEN 409 and 1 Cookie granted, audited once', async () => {
    const first = await post(
      admin,
      '/api/admin/cookies/grant',
      { member: MIA, amount: 1 },
      'cookie-reuse-01',
    );
    expect(first.json).toMatchObject({ granted: 1, balance: 1 });
    const reused = await post(
      admin,
      '/api/admin/cookies/grant',
      { member: MIA, amount: 1000 },
      'cookie-reuse-01',
    );
    expect([reused.status, reused.json.error.code]).toEqual([409, 'IDEMPOTENCY_KEY_REUSED']);
    const otherMember = await post(
      admin,
      '/api/admin/cookies/grant',
      { member: BEN, amount: 1 },
      'cookie-reuse-01',
    );
    expect([otherMember.status, otherMember.json.error.code]).toEqual([409, 'IDEMPOTENCY_KEY_REUSED']);
    expect(await web.deps.services.cookies.balance(MIA)).toBe(1);
    expect(await web.deps.services.cookies.balance(BEN)).toBe(0);
    expect(await auditOf('cookies.grant')).toHaveLength(1);
  });

  it('GIVEN a clawback key reused for more THEN no more is taken than the first asked', async () => {
    await post(admin, '/api/admin/cookies/grant', { member: BEN, amount: 500 }, 'cookie-fund-ben1');
    const first = await post(
      moderator,
      '/api/admin/cookies/clawback',
      { member: BEN, amount: 1 },
      'claw-reuse-0001',
    );
    expect(first.json).toMatchObject({ taken: 1, balance: 499 });
    const reused = await post(
      moderator,
      '/api/admin/cookies/clawback',
      { member: BEN, amount: 400 },
      'claw-reuse-0001',
    );
    expect(reused.status).toBe(409);
    expect(await web.deps.services.cookies.balance(BEN)).toBe(499);

    await web.fund(BEN, 10);
    const points = (amount: string) =>
      post(moderator, '/api/admin/place/clawback', { member: BEN, points: amount }, 'points-claw-reuse');
    expect((await points('1')).json).toMatchObject({ taken: 1, balance: 9 });
    expect((await points('9')).status).toBe(409);
    expect((await web.deps.services.place.wallet(BEN)).balance).toBe(9_000);
    await web.deps.ledger.flush();
    expect(await booksProblems(t.cols)).toEqual([]);
  });

  it('GIVEN a ban key reused for another member THEN the second is refused 409, never a ban the audit trail misses', async () => {
    const ban = (member: string) =>
      post(
        moderator,
        '/api/admin/sanctions',
        { member, scope: 'painting', duration: '1h', reason: 'spam' },
        'ban-reuse-0001',
      );
    expect((await ban(MIA)).json.outcome).toBe('banned');
    const reused = await ban(BEN);
    expect([reused.status, reused.json.error?.code]).toEqual([409, 'IDEMPOTENCY_KEY_REUSED']);
    expect(await web.deps.services.moderation.list(BEN)).toEqual([]);
    const audited = await t.db
      .collection('admin_audit')
      .find({ _id: /ban-reuse-0001/ as never })
      .toArray();
    expect(audited.map((a) => a.subjectId)).toEqual([MIA]);
    await web.deps.services.moderation.lift(MIA, 'painting');
  });
});

describe('reading the portal', () => {
  it('GIVEN an admin who opens every page and reads every moderators’ GET route THEN not one document anywhere changes', async () => {
    const snapshot = async () => {
      const all = new Map<string, string>();
      for (const { name } of await t.db.listCollections().toArray()) {
        all.set(name, JSON.stringify(await t.db.collection(name).find().sort({ _id: 1 }).toArray()));
      }
      return all;
    };
    const before = await snapshot();
    const gets = registeredRoutes(web.app).filter(
      (r) =>
        r.method === 'GET' &&
        (r.url.startsWith('/api/admin/') || r.url.startsWith('/admin')) &&
        !r.url.includes(':'),
    );
    expect(gets.length).toBeGreaterThan(10);
    for (const { url } of gets) {
      const query =
        url === '/api/admin/members' ? '?q=mi' : url === '/api/admin/place/history' ? `?member=${MIA}` : '';
      const answer = await web.request('GET', `${url}${query}`, {
        cookie: admin,
        headers: { accept: 'text/html' },
      });
      expect([url, answer.status < 400]).toEqual([url, true]);
    }
    const after = await snapshot();
    // The economy page keeps the sums of closed days it computed (a cache of the ledger's events).
    const changed = [...after]
      .filter(([name, docs]) => name !== 'economy_days' && before.get(name) !== docs)
      .map(([name]) => name);
    expect(changed).toEqual([]);
  });
});

describe('a setting changed under a key already used', () => {
  it('GIVEN an admin’s key reused for another setting THEN 409 and that setting unchanged, never a change the audit trail misses', async () => {
    const set = (setting: string, value: string) =>
      post(admin, `/api/admin/runtime/${setting}`, { value, revision: 0 }, 'runtime-reuse-01');
    expect((await set('cookies.give_max', '250')).status).toBe(200);
    const reused = await set('cookies.leaderboard_size', '12');
    expect([reused.status, reused.json.error?.code]).toEqual([409, 'IDEMPOTENCY_KEY_REUSED']);
    const before = await web.deps.runtimeConfig.list();
    expect(before.find((s) => s.key === 'cookies.leaderboard_size')?.revision ?? 0).toBe(0);
    const sameSettingOtherValue = await set('cookies.give_max', '300');
    expect(sameSettingOtherValue.status).toBe(409);
    expect(await web.deps.runtimeConfig.get('cookies.give_max')).toBe(250);
    expect(await auditOf('runtime.set')).toHaveLength(1);
  });
});

describe('a page on another site, and members nobody knows', () => {
  it('GIVEN writes with a foreign, a missing or a null Origin THEN 403 BAD_ORIGIN and nothing moves', async () => {
    for (const origin of ['https://evil.example', null, 'null']) {
      const refused = await web.request('POST', '/api/admin/cookies/grant', {
        cookie: admin,
        origin,
        body: { member: MIA, amount: 50 },
        headers: { 'idempotency-key': `csrf-${String(origin).length}-key` },
      });
      expect([String(origin), refused.status, refused.json.error.code]).toEqual([
        String(origin),
        403,
        'BAD_ORIGIN',
      ]);
    }
    expect(await web.deps.services.cookies.balance(MIA)).toBe(1);
  });

  it('GIVEN an id the bot never saw THEN each write is 404 UNKNOWN_CLIENT and leaves no wallet and no profile', async () => {
    const attempts = [
      [admin, '/api/admin/cookies/grant', { member: STRANGER, amount: 5 }],
      [moderator, '/api/admin/cookies/clawback', { member: STRANGER, amount: 5 }],
      [moderator, '/api/admin/place/clawback', { member: STRANGER, points: '5' }],
      [moderator, '/api/admin/place/points', { target_client_id: STRANGER, points: 5 }],
      [moderator, '/api/admin/sanctions', { member: STRANGER, scope: 'games', duration: '1h', reason: 'x' }],
    ] as const;
    for (const [i, [cookie, path, body]] of attempts.entries()) {
      const refused = await post(cookie, path, body, `unknown-${i}-key`);
      expect([path, refused.status, refused.json.error.code]).toEqual([path, 404, 'UNKNOWN_CLIENT']);
    }
    const lift = await post(
      moderator,
      '/api/admin/sanctions/lift',
      { member: STRANGER, scope: 'games' },
      'unknown-lift-1',
    );
    expect(lift.json).toEqual({ lifted: false });
    expect(await web.deps.profiles.firstSeenAt(STRANGER)).toBeNull();
    const mentions = await Promise.all(
      (await t.db.listCollections().toArray()).map(async ({ name }) => {
        const found = await t.db.collection(name).countDocuments({
          $or: [{ _id: STRANGER as never }, { userId: STRANGER }, { member: STRANGER }, { owner: STRANGER }],
        });
        return found > 0 ? name : null;
      }),
    );
    expect(mentions.filter(Boolean)).toEqual([]);
  });
});

describe('amounts as a buggy client sends them', () => {
  it('GIVEN points like 1e3, 0.0001, -1, 1,000.5 or too many digits THEN 400 naming points, and nothing granted', async () => {
    const before = (await web.deps.services.place.wallet(MIA)).balance;
    const bad: unknown[] = [
      '1e3',
      1e-4,
      '0.0001',
      -1,
      '-1',
      '1,000.5',
      '1,000',
      0,
      '0',
      1e21,
      '99999999999999',
      '',
      ' ',
      'NaN',
      Number.MAX_VALUE,
    ];
    for (const [i, points] of bad.entries()) {
      const refused = await post(
        moderator,
        '/api/admin/place/points',
        { target_client_id: MIA, points },
        `bad-points-${i}-k`,
      );
      expect([JSON.stringify(points), refused.status, refused.json.error.code]).toEqual([
        JSON.stringify(points),
        400,
        'BAD_REQUEST',
      ]);
      expect(refused.json.error.message).toMatch(/^points/);
    }
    for (const [i, amount] of [1.5, -1, 0, '5', 1e300, 2 ** 53].entries()) {
      const refused = await post(
        admin,
        '/api/admin/cookies/grant',
        { member: MIA, amount },
        `bad-cookies-${i}-k`,
      );
      expect([amount, refused.status]).toEqual([amount, 400]);
    }
    expect((await web.deps.services.place.wallet(MIA)).balance).toBe(before);
    expect(await web.deps.services.cookies.balance(MIA)).toBe(1);
  });
});

describe('names and reasons written to be run', () => {
  const HOSTILE = '<img src=x onerror=alert(1)>';

  it('GIVEN an area and a rollback reason written as HTML THEN the public page shows them as text, once escaped, and the API as they were typed', async () => {
    await web.deps.services.place.areas.protect({
      id: 'hostile-area',
      name: HOSTILE,
      x1: 0,
      y1: 0,
      x2: 1,
      y2: 1,
      roleId: null,
      by: web.adminId,
    });
    await web.fund(MIA, 100);
    await web.deps.services.place.place({ opId: 'hostile-paint-1', userId: MIA, x: 5, y: 5, color: 3 });
    const reason = '<script>alert("x")</script> & "quotes"';
    const plan = await post(admin, '/api/admin/place/rollbacks', { member: MIA, reason }, 'hostile-rollback');
    expect(
      (
        await web.request('POST', `/api/admin/place/rollbacks/${plan.json.id}`, {
          cookie: admin,
          body: { action: 'apply' },
        })
      ).json.status,
    ).toBeTruthy();

    const page = await web.request('GET', '/place/moderation', { headers: { accept: 'text/html' } });
    expect(page.text).not.toContain('<img');
    expect(page.text).not.toContain('<script>alert');
    expect(page.text).toContain('&lt;img src=x onerror=alert(1)&gt;');
    expect(page.text).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &quot;quotes&quot;');
    expect(page.text).not.toContain('&amp;lt;');
    const api = await web.request('GET', '/api/public/place/moderation');
    expect(api.json.entries.map((e: { name?: string; reason: string | null }) => e.name ?? e.reason)).toEqual(
      expect.arrayContaining([HOSTILE, reason]),
    );
  });

  it('GIVEN a member named with markup and a picker query of regex, NUL, unicode or too long THEN the picker answers, never 500, and finds by any case', async () => {
    const ZOE = '897400000000000004';
    await web.deps.profiles.touch({ id: ZOE, name: `Zoë 🍪 ${HOSTILE}` });
    const pick = (q: string) =>
      web.request('GET', `/api/admin/members?q=${encodeURIComponent(q)}`, { cookie: moderator });
    expect((await pick('ZOË')).json.results).toEqual([
      { id: ZOE, kind: 'member', name: `Zoë 🍪 ${HOSTILE}` },
    ]);
    expect((await pick('🍪')).json.results.map((r: { id: string }) => r.id)).toEqual([ZOE]);
    expect((await pick('<img src=x')).json.results.map((r: { id: string }) => r.id)).toEqual([ZOE]);
    for (const q of ['\u0000', '(?i)', '\\', '$where', '[', 'a{99999}', '.*'.repeat(20), '\u202e', '%']) {
      const answer = await pick(q);
      expect([q, answer.status, answer.json.results]).toEqual([q, 200, []]);
    }
    for (const q of ['x'.repeat(41), ' ', '']) {
      const refused = await pick(q);
      expect([q, refused.status, refused.json.error.code]).toEqual([q, 400, 'BAD_REQUEST']);
    }
  });
});

describe('a portal action on Discord', () => {
  it('GIVEN a ban with the longest reason, all markup, THEN its audit post fits Discord’s 2,000 characters and keeps the reason', async () => {
    await web.deps.runtimeConfig.set('admin.audit_channel', '897400000000000777', web.adminId);
    const reason = '*_~`|>'.repeat(34).slice(0, 200);
    const ban = await post(
      admin,
      '/api/admin/sanctions',
      { member: BEN, scope: 'economy', duration: 'permanent', reason },
      'long-reason-ban',
    );
    expect(ban.json.outcome).toBe('banned');
    await web.deps.scheduler.runDue();
    const posts = web.transport.posts.filter((p) => p.channelId === '897400000000000777');
    expect(posts.length).toBeGreaterThan(0);
    for (const { post: sent } of posts) expect((sent.content ?? '').length).toBeLessThanOrEqual(2_000);
    expect(posts.map((p) => p.post.content).join('')).toContain(reason.slice(0, 20));
    await web.deps.services.moderation.lift(BEN, 'economy');
  });
});

describe('rights taken away', () => {
  it('GIVEN a moderator signed in WHEN the bot restarts without them in MODERATOR_USER_IDS THEN their same session is refused at the next request', async () => {
    const restarted = await startWeb(t, { MODERATOR_USER_IDS: '' });
    try {
      const me = await restarted.request('GET', '/api/admin/me', { cookie: moderator });
      expect([me.status, me.json.error.code]).toEqual([403, 'FORBIDDEN']);
      const claw = await restarted.request('POST', '/api/admin/cookies/clawback', {
        cookie: moderator,
        body: { member: BEN, amount: 1 },
        headers: { 'idempotency-key': 'demoted-claw-01' },
      });
      expect([claw.status, claw.json.error.code]).toEqual([403, 'FORBIDDEN']);
      expect(await web.deps.services.cookies.balance(BEN)).toBe(499);
      // The session itself stands: the member still paints.
      expect((await restarted.request('GET', '/api/place/me', { cookie: moderator })).status).toBe(200);
    } finally {
      await restarted.close();
    }
  });
});
