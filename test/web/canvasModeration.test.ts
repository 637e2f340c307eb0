import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ASSEMBLY } from '../../commands/index.js';
import { BLANK } from '../../utils/place/palette.js';
import { makeConsole } from '../support/consoleHarness.js';
import { clearDatabase, useTestDatabase } from '../support/database.js';
import { booksProblems } from '../support/ledgerHarness.js';
import { startWeb } from '../support/webHarness.js';

const t = useTestDatabase('web_canvas_moderation');
const [VANDAL, ANN, MEMBER] = ['897200000000000001', '897200000000000002', '897200000000000003'];
const MOD = '897200000000000009';
const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
type Web = Awaited<ReturnType<typeof startWeb>>;

let web: Web;
let ops = 0;
const paint = (member: string, x: number, y: number, color: number) =>
  web.deps.services.place.place({ opId: `paint-${++ops}`, userId: member, x, y, color });

/** Ann paints a row, the vandal paints over part of it and beside it. */
async function vandalised(w: Web) {
  await w.fund(ANN, 1_000);
  await w.fund(VANDAL, 1_000);
  await w.deps.profiles.touch({ id: VANDAL, name: 'vandal' });
  for (let x = 0; x < 4; x++) await paint(ANN, x, 5, 4);
  for (let x = 2; x < 6; x++) await paint(VANDAL, x, 5, 27);
}

const preview = (cookie: string, body: unknown, key = 'rollback-key-1') =>
  web.request('POST', '/api/admin/place/rollbacks', { cookie, body, headers: { 'idempotency-key': key } });

async function expectBooksClean(w: Web) {
  await w.deps.ledger.flush();
  expect(await booksProblems(t.cols)).toEqual([]);
  expect(await ASSEMBLY.checkInvariants(t.db, w.deps.config, w.deps.ledger, w.deps.clock.now())).toEqual([]);
}

describe('the canvas’s moderation on the web', () => {
  beforeEach(async () => {
    await clearDatabase(t.db);
    web = await startWeb(t, { MODERATOR_USER_IDS: MOD });
  });
  afterEach(() => web.close());

  it('GIVEN a member and a moderator THEN the member is refused everything, the moderator reads the history but may not roll back, and nothing is written', async () => {
    await vandalised(web);
    const member = await web.signIn(MEMBER, 'mia');
    const mod = await web.signIn(MOD, 'mo');
    for (const [method, path] of [
      ['GET', `/api/admin/place/history?member=${VANDAL}`],
      ['GET', '/api/admin/place/rollbacks/web-x/preview.png'],
    ]) {
      const refused = await web.request(method as string, path as string, { cookie: member });
      expect([refused.status, refused.json.error.code]).toEqual([403, 'FORBIDDEN']);
    }
    expect((await preview(member, { member: VANDAL })).json.error.code).toBe('FORBIDDEN');
    expect(
      (await web.request('GET', `/api/admin/place/history?member=${VANDAL}`, { cookie: mod })).status,
    ).toBe(200);
    const modPreview = await preview(mod, { member: VANDAL });
    expect([modPreview.status, modPreview.json.error.code]).toEqual([403, 'FORBIDDEN']);
    const modApply = await web.request('POST', '/api/admin/place/rollbacks/web-x', {
      cookie: mod,
      body: { action: 'apply' },
    });
    expect(modApply.json.error.code).toBe('FORBIDDEN');
    expect(await t.db.collection('place_rollbacks').countDocuments()).toBe(0);
  });

  it('GIVEN an admin WHEN they preview, look at both pictures and apply with a refund THEN the pixels come back, the points too, once, audited once, and the public log says so without ids', async () => {
    await vandalised(web);
    const admin = await web.signIn(web.adminId, 'root');
    const body = { member: VANDAL, x1: 5, y1: 9, x2: 0, y2: 0, reason: 'griefing the row' };
    const plan = await preview(admin, body);
    expect(plan.status).toBe(200);
    expect(plan.json).toMatchObject({
      member: VANDAL,
      member_name: 'vandal',
      pixels: 4,
      placements: 4,
      refund: 400,
      painted: 4,
      bounds: { x1: 2, y1: 5, x2: 5, y2: 5 },
      reason: 'griefing the row',
    });
    // A double click previews once; the same key for another rollback is refused.
    expect((await preview(admin, body)).json.id).toBe(plan.json.id);
    expect(await t.db.collection('place_rollbacks').countDocuments()).toBe(1);
    const reused = await preview(admin, { ...body, reason: 'another' });
    expect([reused.status, reused.json.error.code]).toEqual([409, 'IDEMPOTENCY_KEY_REUSED']);

    const picture = async (side: string) => {
      const path = `/api/admin/place/rollbacks/${plan.json.id}/preview.png?side=${side}`;
      const response = await fetch(`${web.url}${path}`, { headers: { cookie: admin } });
      expect([response.status, response.headers.get('content-type')]).toEqual([200, 'image/png']);
      return Buffer.from(await response.arrayBuffer());
    };
    const [before, after] = [await picture('before'), await picture('after')];
    expect(before.subarray(0, 8)).toEqual(PNG_SIGNATURE);
    expect(after.subarray(0, 8)).toEqual(PNG_SIGNATURE);
    expect(before.equals(after)).toBe(false);

    await web.deps.ledger.flush();
    const spent = (await web.deps.services.place.wallet(VANDAL)).balance;
    const applied = await web.request('POST', `/api/admin/place/rollbacks/${plan.json.id}`, {
      cookie: admin,
      body: { action: 'refund' },
    });
    expect(applied.json).toEqual({ restored: 4, skipped: 0, refunded: 400, status: 'applied' });
    const again = await web.request('POST', `/api/admin/place/rollbacks/${plan.json.id}`, {
      cookie: admin,
      body: { action: 'apply' },
    });
    expect(again.json).toEqual({ restored: 0, skipped: 0, refunded: 0, status: 'applied' });
    await web.deps.ledger.flush();
    expect((await web.deps.services.place.wallet(VANDAL)).balance).toBe(spent + 400_000);
    expect((await web.deps.services.place.pixelInfo(3, 5))?.pixel).toMatchObject({ color: 4, owner: ANN });
    expect((await web.deps.services.place.pixelInfo(5, 5))?.pixel).toMatchObject({ color: BLANK, owner: '' });
    const audit = { _id: `admin.audit.post:place.rollback:${plan.json.id}` };
    expect(await t.cols.dueTasks.countDocuments(audit)).toBe(1);

    const log = await web.request('GET', '/api/public/place/moderation');
    expect(log.json).toEqual({
      entries: [
        {
          at: expect.any(String),
          action: 'rollback',
          area: { x1: 2, y1: 5, x2: 5, y2: 5 },
          pixels: 4,
          role: 'admin',
          reason: 'griefing the row',
        },
      ],
      next: null,
    });
    expect(log.text).not.toContain(VANDAL);
    expect(log.text).not.toContain(web.adminId);
    await expectBooksClean(web);
  });

  it('GIVEN a rollback that finds nothing, bad areas and a missing plan THEN pixels 0, 400s naming the field, and 404', async () => {
    await vandalised(web);
    const admin = await web.signIn(web.adminId, 'root');
    const nothing = await preview(admin, { member: MEMBER });
    expect(nothing.json).toMatchObject({ pixels: 0, placements: 0, refund: 0, bounds: null });
    const threeCorners = await preview(admin, { member: VANDAL, x1: 0, y1: 0, x2: 3 }, 'rollback-key-2');
    expect(threeCorners.json.error).toMatchObject({
      code: 'BAD_REQUEST',
      message: expect.stringContaining('x1'),
    });
    const outside = await preview(admin, { member: VANDAL, x1: 0, y1: 0, x2: 256, y2: 3 }, 'rollback-key-3');
    expect(outside.json.error.message).toBe('x2: a whole number from 0 to 255');
    const long = await preview(admin, { member: VANDAL, reason: 'x'.repeat(201) }, 'rollback-key-4');
    expect(long.json.error.code).toBe('BAD_REQUEST');
    const missing = await web.request('POST', '/api/admin/place/rollbacks/web-none', {
      cookie: admin,
      body: { action: 'apply' },
    });
    expect([missing.status, missing.json.error.code]).toEqual([404, 'NOT_FOUND']);
    expect(await t.db.collection('place_rollbacks').countDocuments()).toBe(1);
  });

  it('GIVEN a member’s placements and a rollback THEN the history pages newest first, with the colour before, what was rolled back, and the rollback’s own steps', async () => {
    await vandalised(web);
    await web.deps.services.place.rollbacks.plan({
      id: 'rb',
      adminId: web.adminId,
      target: VANDAL,
      area: { x0: 2, y0: 5, x1: 2, y1: 5 },
    });
    await web.deps.services.place.rollbacks.apply('rb', false);
    const mod = await web.signIn(MOD, 'mo');
    const history = (query: string) =>
      web.request('GET', `/api/admin/place/history?${query}`, { cookie: mod });

    const first = await history(`member=${VANDAL}&limit=3`);
    expect(first.json.entries.map((e: { x: number }) => e.x)).toEqual([5, 4, 3]);
    expect(first.json.entries[2]).toEqual({
      revision: 6,
      kind: 'placement',
      x: 3,
      y: 5,
      color_index: 27,
      before_color_index: 4,
      owner: VANDAL,
      owner_name: 'vandal',
      at: expect.any(String),
      rolled_back: false,
    });
    expect(first.json.next).toBe(6);
    const second = await history(`member=${VANDAL}&limit=3&before=6`);
    expect(second.json.entries).toMatchObject([
      { revision: 5, x: 2, kind: 'placement', rolled_back: true, before_color_index: 4 },
    ]);
    expect(second.json.next).toBeNull();

    // The area (corners in either order): the rollback step is an event of its own, Ann's again.
    const area = await history('x1=2&y1=5&x2=2&y2=5');
    expect(area.json.entries).toMatchObject([
      {
        revision: 9,
        kind: 'rollback',
        color_index: 4,
        before_color_index: 27,
        owner: ANN,
        rolled_back: false,
      },
      { revision: 5, kind: 'placement', owner: VANDAL, rolled_back: true },
      { revision: 3, kind: 'placement', owner: ANN, before_color_index: null, rolled_back: false },
    ]);
    expect(area.json.next).toBeNull();
    // A larger area is read by a range of revisions: the same events, newest first.
    const row = await history('x1=0&y1=0&x2=10&y2=10');
    expect(row.json.entries.map((e: { revision: number }) => e.revision)).toEqual([
      9, 8, 7, 6, 5, 4, 3, 2, 1,
    ]);
    expect(row.json.next).toBeNull();
    const both = await history(`member=${ANN}&x1=3&y1=9&x2=0&y2=5&limit=200`);
    expect(both.json.entries.map((e: { revision: number }) => e.revision)).toEqual([9, 4, 3, 2, 1]);

    for (const [query, field] of [
      ['limit=5', 'member'],
      ['x1=0&y1=0&x2=3', 'x1'],
      ['x1=0&y1=0&x2=256&y2=0', 'x2'],
      [`member=${VANDAL}&limit=201`, 'limit'],
    ] as const) {
      const refused = await history(query);
      expect([refused.status, refused.json.error.message]).toEqual([400, expect.stringContaining(field)]);
    }
  });

  it('GIVEN one plan applied with a refund by two web processes, one of them twice, at once THEN it is restored and refunded once and the books are clean', async () => {
    const other = await startWeb(t, { MODERATOR_USER_IDS: MOD });
    try {
      await vandalised(web);
      const admin = await web.signIn(web.adminId, 'root');
      const otherAdmin = await other.signIn(web.adminId, 'root');
      const plan = await preview(admin, { member: VANDAL });
      await web.deps.ledger.flush();
      const spent = (await web.deps.services.place.wallet(VANDAL)).balance;
      const press = (w: Web, cookie: string, action: string) =>
        w.request('POST', `/api/admin/place/rollbacks/${plan.json.id}`, { cookie, body: { action } });
      const results = await Promise.all([
        press(web, admin, 'refund'),
        press(other, otherAdmin, 'refund'),
        press(other, otherAdmin, 'refund'),
      ]);
      const sum = (field: string) => results.reduce((s, r) => s + (r.json[field] as number), 0);
      expect([sum('restored'), sum('refunded')]).toEqual([4, 400]);
      // A press that lost answers while the winner may still be applying.
      for (const r of results) expect(['applying', 'applied']).toContain(r.json.status);
      expect(await web.deps.services.place.rollbacks.get(plan.json.id)).toMatchObject({ status: 'applied' });
      expect(await t.db.collection('place_pixel_events').countDocuments({ kind: 'rollback' })).toBe(4);
      expect(await t.db.collection('place_moderation_log').countDocuments()).toBe(1);
      await other.deps.ledger.flush();
      await web.deps.ledger.flush();
      expect((await web.deps.services.place.wallet(VANDAL)).balance).toBe(spent + 400_000);
      await expectBooksClean(web);
    } finally {
      await other.close();
    }
  });

  it('GIVEN a rollback previewed on Discord WHEN its Roll back and refund button and the web apply it at once THEN it is restored, refunded, logged and audited once', async () => {
    const c = makeConsole(t);
    await c.session.run('as admin /admin place grant target:vandal points:500');
    for (let x = 0; x < 3; x++) await c.session.run(`as vandal /place pixel x:${x} y:7 color:black`);
    await c.session.run('as admin /admin place rollback user:vandal');
    c.take();
    const plan = await t.db.collection<{ _id: string }>('place_rollbacks').findOne({});
    const admin = await web.signIn(web.adminId, 'root');
    const [, onWeb] = await Promise.all([
      c.session.run('as admin !click Roll back and refund'),
      web.request('POST', `/api/admin/place/rollbacks/${plan?._id}`, {
        cookie: admin,
        body: { action: 'refund' },
      }),
    ]);
    const onDiscord = c.take();
    const discordRestored = onDiscord.includes('Restored 3 pixels. Refunded: 300 points.') ? 3 : 0;
    if (discordRestored === 0) expect(onDiscord).toContain('already applied');
    expect(discordRestored + onWeb.json.restored).toBe(3);
    expect(await t.db.collection('place_pixel_events').countDocuments({ kind: 'rollback' })).toBe(3);
    expect(await t.db.collection('place_moderation_log').countDocuments()).toBe(1);
    expect(
      await t.cols.dueTasks.countDocuments({ _id: `admin.audit.post:place.rollback:${plan?._id}` }),
    ).toBe(1);
    await c.deps.ledger.flush();
    expect((await web.deps.services.place.wallet(c.identities.get('vandal').id)).balance).toBe(500_000);
    await expectBooksClean(web);
  });

  it('GIVEN areas protected and unprotected and a rollback THEN the public log pages them newest first and the page lists them in English and German, in UTC', async () => {
    const areas = web.deps.services.place.areas;
    await areas.protect({
      id: 'a1',
      name: 'Logo',
      x1: 1,
      y1: 1,
      x2: 9,
      y2: 9,
      roleId: null,
      by: web.adminId,
    });
    web.clock.advance(60_000);
    await areas.protect({ id: 'a2', name: 'Flag', x1: 20, y1: 20, x2: 29, y2: 24, roleId: null, by: MOD });
    web.clock.advance(60_000);
    await areas.unprotect('logo', 'moderator');
    const first = await web.request('GET', '/api/public/place/moderation?limit=2');
    expect(first.json.entries).toMatchObject([
      { action: 'unprotect', name: 'Logo', area: { x1: 1, y1: 1, x2: 9, y2: 9 }, role: 'moderator' },
      { action: 'protect', name: 'Flag', role: 'admin', reason: null },
    ]);
    const second = await web.request('GET', `/api/public/place/moderation?limit=2&before=${first.json.next}`);
    expect(second.json).toMatchObject({ entries: [{ action: 'protect', name: 'Logo' }], next: null });
    expect((await web.request('GET', '/api/public/place/moderation?before=nonsense!')).status).toBe(400);

    const english = await web.request('GET', '/place/moderation?utm_source=chat', {
      headers: { accept: 'text/html', 'accept-language': 'en-US' },
    });
    expect(english.status).toBe(200);
    expect(english.headers.get('content-type')).toContain('text/html');
    expect(english.text).toContain('Moderation log');
    expect(english.text).toContain('Area opened again');
    expect(english.text).toContain('Logo: (1, 1)–(9, 9)');
    expect(english.text).toContain('UTC');
    expect(english.text).toContain('href="/place"');
    expect(english.text).not.toContain('<script');
    const german = await web.request('GET', '/place/moderation', {
      headers: { accept: 'text/html', 'accept-language': 'de-DE,de;q=0.9' },
    });
    expect(german.text).toContain('<html lang="de">');
    expect(german.text).toContain('Moderationsprotokoll');
    expect(german.text).toContain('Bereich wieder freigegeben');
    expect(german.text).toContain('Zurück zur Leinwand');
    const when = web.deps.clock.now().toLocaleString('de-DE', { timeZone: 'UTC' });
    expect(german.text).toContain(when);
  });
});
