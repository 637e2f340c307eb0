import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { utcDay } from '../../src/clock.js';
import type { AuditAction } from '../../utils/admin/auditLog.js';
import { AUDIT } from '../../utils/admin/auditStore.js';
import { makeConsole } from '../support/consoleHarness.js';
import { clearDatabase, databaseFingerprint, useTestDatabase } from '../support/database.js';
import { startWeb } from '../support/webHarness.js';

const t = useTestDatabase('web_audit');
const MOD = '897300000000000001';
const ADMIN = '897300000000000002';
const ANN = '897300000000000011';
const BEN = '897300000000000012';
const MEMBER = '897300000000000021';

let web: Awaited<ReturnType<typeof startWeb>>;

const record = (action: Partial<AuditAction> & { id: string }) =>
  web.deps.services.admin.record({
    kind: 'cookies.grant',
    actorId: ADMIN,
    subjectId: ANN,
    text: `🎁 <@${ADMIN}> granted **10 Cookies** to <@${ANN}>.`,
    ...action,
  });

async function moderator(): Promise<string> {
  return web.signIn(MOD, 'mia');
}

describe('the audit trail over HTTP', () => {
  beforeEach(async () => {
    await clearDatabase(t.db);
    web = await startWeb(t, { MODERATOR_USER_IDS: MOD });
    await web.deps.profiles.touch({ id: ADMIN, name: 'ada' });
    await web.deps.profiles.touch({ id: ANN, name: 'ann' });
  });
  afterEach(() => web.close());

  it('GIVEN a member, a stranger and a moderator THEN only the moderator reads the trail or its export', async () => {
    await record({ id: 'g1' });
    const member = await web.signIn(MEMBER, 'max');
    for (const path of ['/api/admin/audit', '/api/admin/audit.csv']) {
      const refused = await web.request('GET', path, { cookie: member });
      expect([refused.status, refused.json.error.code]).toEqual([403, 'FORBIDDEN']);
      expect((await web.request('GET', path)).json.error.code).toBe('NOT_SIGNED_IN');
      expect((await web.request('GET', path, { cookie: await moderator() })).status).toBe(200);
    }
  });

  it('GIVEN entries with mentions, markdown and times THEN a moderator reads them newest first, with names and plain text, and the kinds to filter by', async () => {
    await record({ id: 'g1' });
    web.clock.advance(1_000);
    await record({
      id: 'ban1',
      kind: 'sanction.ban',
      actorId: MOD,
      subjectId: BEN,
      text: `🔨 <@${MOD}> banned <@${BEN}> from painting until <t:1800000000:f> (<t:1800000000:R>). Reason: _spam_`,
    });
    const cookie = await moderator();

    const { status, json } = await web.request('GET', '/api/admin/audit', { cookie });

    expect(status).toBe(200);
    expect(json.next).toBeNull();
    expect(json.kinds).toContain('cookies.grant');
    expect(json.kinds).toContain('sanction.ban');
    expect(json.entries).toEqual([
      {
        id: 'ban1',
        kind: 'sanction.ban',
        actor_id: MOD,
        actor_name: 'mia',
        subject_id: BEN,
        // A member the bot has no name for is shown by id.
        subject_name: BEN,
        text: `🔨 @mia banned @${BEN} from painting until January 15, 2027 at 8:00 AM UTC (in 10 months). Reason: spam`,
        at: expect.any(String),
      },
      {
        id: 'g1',
        kind: 'cookies.grant',
        actor_id: ADMIN,
        actor_name: 'ada',
        subject_id: ANN,
        subject_name: 'ann',
        text: '🎁 @ada granted 10 Cookies to @ann.',
        at: new Date(web.clock.now().getTime() - 1_000).toISOString(),
      },
    ]);
    expect(JSON.stringify(json)).not.toContain('<@');
  });

  it('GIVEN entries of several kinds, actors and members THEN each filter answers its own', async () => {
    await record({ id: 'g-ann' });
    await record({ id: 'g-ben', actorId: MOD, subjectId: BEN });
    await record({ id: 'set', kind: 'runtime.set', subjectId: undefined, text: 'set' });
    const cookie = await moderator();
    const ids = async (query: string) =>
      (await web.request('GET', `/api/admin/audit?${query}`, { cookie })).json.entries.map(
        (e: { id: string }) => e.id,
      );

    expect((await ids('kind=cookies.grant')).sort()).toEqual(['g-ann', 'g-ben']);
    expect(await ids(`actor=${MOD}`)).toEqual(['g-ben']);
    expect(await ids(`subject=${BEN}`)).toEqual(['g-ben']);
    expect(await ids(`kind=runtime.set&actor=${ADMIN}`)).toEqual(['set']);
    expect(await ids(`subject=${MEMBER}`)).toEqual([]);
  });

  it('GIVEN bad filters THEN each is refused with 400 naming the parameter, and nothing is written', async () => {
    await record({ id: 'g1' });
    const cookie = await moderator();
    const before = await databaseFingerprint(t.db);
    for (const [query, field] of [
      ['kind=cookies.steal', 'kind'],
      ['actor=ann', 'actor'],
      ['subject=<@1>', 'subject'],
      ['limit=0', 'limit'],
      ['limit=101', 'limit'],
      ['before=not-a-cursor', 'before'],
      ['before=WzEsMl0', 'before'],
      ['limit=5&limit=6', 'limit'],
      ['page=2', 'page'],
    ]) {
      for (const path of ['/api/admin/audit', '/api/admin/audit.csv']) {
        if (path.endsWith('.csv') && field === 'limit') continue;
        const { status, json } = await web.request('GET', `${path}?${query}`, { cookie });
        expect([query, status, json.error.code]).toEqual([query, 400, 'BAD_REQUEST']);
        expect(json.error.message.startsWith(`${field}:`), json.error.message).toBe(true);
      }
    }
    expect(await databaseFingerprint(t.db)).toEqual(before);
  });

  it('GIVEN more entries than a page, many in the same millisecond THEN following next reads each once, newest first, and the last page says there is no more', async () => {
    await record({ id: 'first' });
    web.clock.advance(1);
    const same = Array.from({ length: 7 }, (_, i) => `same-${i}`);
    await Promise.all(same.map((id) => record({ id })));
    web.clock.advance(1);
    await record({ id: 'last' });
    const cookie = await moderator();

    const seen: string[] = [];
    const sizes: number[] = [];
    let next: string | null = null;
    do {
      const query: string = next ? `limit=3&before=${encodeURIComponent(next)}` : 'limit=3';
      const { json } = await web.request('GET', `/api/admin/audit?${query}`, { cookie });
      sizes.push(json.entries.length);
      seen.push(...json.entries.map((e: { id: string }) => e.id));
      next = json.next;
    } while (next);

    expect(sizes).toEqual([3, 3, 3]);
    expect(seen).toEqual(['last', ...[...same].reverse(), 'first']);
    // The same cursor with a filter pages that filter.
    const { json } = await web.request('GET', `/api/admin/audit?limit=2&kind=runtime.set`, { cookie });
    expect(json).toMatchObject({ entries: [], next: null });
  });

  it('GIVEN entries with commas, quotes, line breaks and formula-like cells THEN the CSV quotes them, defuses the formulas and names the day', async () => {
    await web.deps.profiles.touch({ id: BEN, name: '=HYPERLINK("http://evil.example","ben")' });
    await record({ id: 'g1' });
    web.clock.advance(1_000);
    await record({ id: 'quoted', subjectId: BEN, text: 'said "stop", then\nleft' });
    web.clock.advance(1_000);
    for (const [i, text] of ['=1+1', '+1', '-1', '@SUM(A1)', '\tx', '\rx'].entries()) {
      await record({ id: `f${i}`, kind: 'runtime.set', subjectId: undefined, text });
    }
    const cookie = await moderator();

    const csv = await web.request('GET', '/api/admin/audit.csv', { cookie });

    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(csv.headers.get('content-disposition')).toBe(
      `attachment; filename="audit-${utcDay(web.clock.now())}.csv"`,
    );
    const lines = csv.text.split('\r\n');
    expect(lines[0]).toBe('at,kind,actor_id,actor_name,subject_id,subject_name,text');
    const at = (ms: number) => new Date(web.clock.now().getTime() - ms).toISOString();
    expect(lines.slice(1, 7)).toEqual([
      `${at(0)},runtime.set,${ADMIN},ada,,,"'\rx"`,
      `${at(0)},runtime.set,${ADMIN},ada,,,'\tx`,
      `${at(0)},runtime.set,${ADMIN},ada,,,'@SUM(A1)`,
      `${at(0)},runtime.set,${ADMIN},ada,,,'-1`,
      `${at(0)},runtime.set,${ADMIN},ada,,,'+1`,
      `${at(0)},runtime.set,${ADMIN},ada,,,'=1+1`,
    ]);
    expect(csv.text).toContain(
      `${at(1_000)},cookies.grant,${ADMIN},ada,${BEN},"'=HYPERLINK(""http://evil.example"",""ben"")","said ""stop"", then\nleft"\r\n`,
    );
    expect(
      csv.text.endsWith(
        `${at(2_000)},cookies.grant,${ADMIN},ada,${ANN},ann,🎁 @ada granted 10 Cookies to @ann.\r\n`,
      ),
    ).toBe(true);
    // Marked as UTF-8 for spreadsheets (the text above is read past the mark).
    const raw = Buffer.from(
      await (await fetch(`${web.url}/api/admin/audit.csv`, { headers: { cookie } })).arrayBuffer(),
    );
    expect([...raw.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);

    const filtered = await web.request('GET', `/api/admin/audit.csv?subject=${BEN}`, { cookie });
    expect(filtered.text.split('\r\n').filter((l) => l.startsWith('20'))).toHaveLength(1);
  });

  it('GIVEN more entries than an export holds THEN the CSV has the newest 10,000', async () => {
    const start = web.clock.now().getTime();
    await t.db.collection(AUDIT).insertMany(
      Array.from({ length: 10_005 }, (_, i) => ({
        _id: `bulk-${String(i).padStart(5, '0')}` as never,
        kind: 'runtime.set',
        actorId: ADMIN,
        text: `setting ${i}`,
        at: new Date(start + i),
      })),
    );

    const csv = await web.request('GET', '/api/admin/audit.csv', { cookie: await moderator() });

    const rows = csv.text.split('\r\n').slice(1, -1);
    expect(rows).toHaveLength(10_000);
    expect(rows[0]).toContain(',setting 10004');
    expect(rows.at(-1)).toContain(',setting 5');
  });

  it('GIVEN an admin grants Cookies with /admin cookies grant in Discord THEN a moderator finds it in the audit trail, named, with the member it concerns', async () => {
    const c = makeConsole(t);
    await c.session.run('/cookies balance');
    await c.session.run('as admin /admin cookies grant user:you amount:1234 reason:welcome');
    const admin = c.identities.get('admin').id;
    const you = c.identities.get('you').id;

    const { json } = await web.request('GET', `/api/admin/audit?kind=cookies.grant&subject=${you}`, {
      cookie: await moderator(),
    });

    expect(json.entries).toHaveLength(1);
    expect(json.entries[0]).toMatchObject({
      kind: 'cookies.grant',
      actor_id: admin,
      actor_name: 'admin',
      subject_id: you,
      subject_name: 'you',
      text: '🎁 @admin granted 1,234 🍪 to @you: welcome',
    });
  });
});
