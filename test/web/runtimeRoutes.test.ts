import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { clearDatabase, databaseFingerprint, useTestDatabase } from '../support/database.js';
import { startWeb } from '../support/webHarness.js';

const t = useTestDatabase('web_runtime');
const MEMBER = '894100000000000001';
const MOD = '894100000000000002';
const SECOND_ADMIN = '894100000000000003';
const ENV = { MODERATOR_USER_IDS: MOD, ADMIN_USER_IDS: `800000000000000001,${SECOND_ADMIN}` };

type Web = Awaited<ReturnType<typeof startWeb>>;

/** A change as the Runtime page sends it. */
function change(web: Web, cookie: string, key: string, body: unknown, extra: Record<string, string> = {}) {
  return web.request('POST', `/api/admin/runtime/${key}`, {
    cookie,
    body,
    headers: { 'idempotency-key': `k-${Math.random().toString(36).slice(2, 12)}`, ...extra },
  });
}

/** The audit entries a web change planned: one post task per recorded action. */
async function auditTasks(): Promise<string[]> {
  const tasks = await t.cols.dueTasks
    .find({ _id: { $regex: '^admin\\.audit\\.post:runtime\\.set:web:' } })
    .toArray();
  return tasks.map((task) => task._id);
}

describe('the runtime settings over the API', () => {
  let web: Web | null = null;
  beforeEach(() => clearDatabase(t.db));
  afterEach(async () => {
    await web?.close();
    web = null;
  });

  it('GIVEN a member or a moderator THEN both routes answer 403 FORBIDDEN and nothing changes', async () => {
    web = await startWeb(t, ENV);
    const cookies = [await web.signIn(MEMBER, 'mia'), await web.signIn(MOD, 'moe')];
    const before = await databaseFingerprint(t.db);
    for (const cookie of cookies) {
      const listed = await web.request('GET', '/api/admin/runtime', { cookie });
      expect([listed.status, listed.json.error.code]).toEqual([403, 'FORBIDDEN']);
      const changed = await change(web, cookie, 'cookies.give_max', { value: '5', revision: 0 });
      expect([changed.status, changed.json.error.code]).toEqual([403, 'FORBIDDEN']);
    }
    expect(await databaseFingerprint(t.db)).toEqual(before);
    expect(await web.deps.runtimeConfig.get('cookies.give_max')).toBe(1_000_000);
  });

  it('GIVEN an admin THEN every setting is listed by feature in the registry order, with its revision, bounds and who changed it', async () => {
    web = await startWeb(t, ENV);
    const admin = await web.signIn(web.adminId, 'ada');
    await web.deps.runtimeConfig.set('place_pixel_cost', '250', web.adminId);
    const { status, json } = await web.request('GET', '/api/admin/runtime', { cookie: admin });
    expect(status).toBe(200);
    const all = await web.deps.runtimeConfig.list();
    expect(json.features.map((f: { feature: string }) => f.feature)).toEqual([
      ...new Set(all.map((s) => s.feature)),
    ]);
    const listed = json.features.flatMap((f: { settings: { key: string }[] }) =>
      f.settings.map((s) => s.key),
    );
    expect(listed).toEqual(all.map((s) => s.key));
    const settings = Object.fromEntries(
      json.features.flatMap((f: { settings: { key: string }[] }) => f.settings.map((s) => [s.key, s])),
    );
    expect(settings.place_pixel_cost).toEqual({
      key: 'place_pixel_cost',
      kind: 'number',
      scope: 'global',
      description: web.deps.i18n.for('en').t('place:settings.place_pixel_cost'),
      value: 250,
      shown: '250',
      default: 100,
      min: 1,
      max: 1_000_000,
      revision: 1,
      updated_by: { id: web.adminId, name: 'ada' },
      updated_at: '2026-03-01T12:00:00.000Z',
    });
    expect(settings['cookies.give_enabled']).toMatchObject({
      kind: 'flag',
      value: true,
      shown: 'on',
      revision: 0,
      updated_by: null,
      updated_at: null,
    });
    expect(settings['cookies.give_enabled']).not.toHaveProperty('min');
    expect(settings['admin.audit_channel']).toMatchObject({ kind: 'channel', value: null, shown: 'off' });
    // No Discord in this process: the page asks for a channel id instead.
    expect(json.channels).toBeNull();
  });

  it('GIVEN a change at the revision read THEN it is made once, revision + 1, seen by /settings, audited once even when submitted twice', async () => {
    web = await startWeb(t, ENV);
    const admin = await web.signIn(web.adminId, 'ada');
    const headers = { 'idempotency-key': 'give-max-0001' };
    const body = { value: '250', revision: 0 };
    const first = await web.request('POST', '/api/admin/runtime/cookies.give_max', {
      cookie: admin,
      body,
      headers,
    });
    expect(first.status).toBe(200);
    expect(first.json).toEqual({
      key: 'cookies.give_max',
      value: 250,
      shown: '250',
      revision: 1,
      updated_by: { id: web.adminId, name: 'ada' },
      updated_at: '2026-03-01T12:00:00.000Z',
    });
    expect(await web.deps.runtimeConfig.get('cookies.give_max')).toBe(250);
    // A double click: the same key and body answer the same change, and nothing is done again.
    const again = await web.request('POST', '/api/admin/runtime/cookies.give_max', {
      cookie: admin,
      body,
      headers,
    });
    expect([again.status, again.json]).toEqual([200, first.json]);
    expect(await t.cols.runtimeConfig.findOne({ _id: 'cookies.give_max' })).toMatchObject({ revision: 1 });
    expect(await auditTasks()).toEqual([`admin.audit.post:runtime.set:web:${web.adminId}:give-max-0001`]);
    expect(web.logs.filter((l) => l.event === 'admin.audit')).toHaveLength(1);
    const next = await change(web, admin, 'cookies.give_max', { value: '300', revision: 1 });
    expect(next.json).toMatchObject({ value: 300, revision: 2 });
    expect(await auditTasks()).toHaveLength(2);
  });

  it('GIVEN two tabs at the same revision WHEN both submit at once THEN one change is made and the other gets 409 SETTING_STALE with the value now', async () => {
    web = await startWeb(t, ENV);
    const [ada, ben] = [await web.signIn(web.adminId, 'ada'), await web.signIn(SECOND_ADMIN, 'ben')];
    const answers = await Promise.all([
      change(web, ada, 'cookies.leaderboard_size', { value: '5', revision: 0 }),
      change(web, ben, 'cookies.leaderboard_size', { value: '20', revision: 0 }),
    ]);
    const won = answers.filter((a) => a.status === 200);
    const lost = answers.filter((a) => a.status === 409);
    expect([won.length, lost.length]).toEqual([1, 1]);
    const winner = won[0]?.json as { value: number; updated_by: { name: string } };
    expect(lost[0]?.json.error.code).toBe('SETTING_STALE');
    expect(lost[0]?.json.error.message).toContain(
      `changed by ${winner.updated_by.name} on March 1, 2026 at 12:00 PM UTC`,
    );
    expect(lost[0]?.json.error.message).toContain(`it is ${winner.value} now`);
    expect(lost[0]?.json.error.message).not.toMatch(/<[@#]/);
    expect(await web.deps.runtimeConfig.get('cookies.leaderboard_size')).toBe(winner.value);
    expect(await auditTasks()).toHaveLength(1);

    // A second tab still at revision 1 after the setting moved on: refused, nothing written.
    await change(web, ada, 'cookies.leaderboard_size', { value: '7', revision: 1 });
    const stale = await change(web, ben, 'cookies.leaderboard_size', { value: '9', revision: 1 });
    expect(stale.status).toBe(409);
    expect(stale.json.error.message).toContain('changed by ada');
    expect(stale.json.error.message).toContain('it is 7 now');
    expect(await web.deps.runtimeConfig.get('cookies.leaderboard_size')).toBe(7);
    expect(await auditTasks()).toHaveLength(2);
  });

  it('GIVEN a browser that asks for German THEN the descriptions, values and refusals are German', async () => {
    web = await startWeb(t, ENV);
    const admin = await web.signIn(web.adminId, 'ada');
    const german = { 'accept-language': 'de-DE,de;q=0.9,en;q=0.5' };
    const { json } = await web.request('GET', '/api/admin/runtime', { cookie: admin, headers: german });
    const cookies = json.features.find((f: { feature: string }) => f.feature === 'cookies').settings;
    const giveEnabled = cookies.find((s: { key: string }) => s.key === 'cookies.give_enabled');
    expect(giveEnabled.description).toBe(web.deps.i18n.for('de').t('cookies:settings.give_enabled'));
    expect(giveEnabled.description).not.toBe(web.deps.i18n.for('en').t('cookies:settings.give_enabled'));
    expect(giveEnabled.shown).toBe('an');
    const giveMax = cookies.find((s: { key: string }) => s.key === 'cookies.give_max');
    expect(giveMax.shown).toBe('1.000.000');

    const refused = await change(web, admin, 'cookies.give_max', { value: '0', revision: 0 }, german);
    expect([refused.status, refused.json.error.code]).toEqual([400, 'INVALID_INPUT']);
    expect(refused.json.error.message).toBe(
      '„0“ passt nicht zu cookies.give_max: Der Wert muss mindestens 1 sein.',
    );
    const flag = await change(web, admin, 'cookies.give_enabled', { value: 'aus', revision: 0 }, german);
    expect(flag.json).toMatchObject({ value: false, shown: 'aus', revision: 1 });
    const stale = await change(web, admin, 'cookies.give_enabled', { value: 'an', revision: 0 }, german);
    expect(stale.json.error.code).toBe('SETTING_STALE');
    expect(stale.json.error.message).toContain(
      'ada hat cookies.give_enabled am 1. März 2026 um 12:00 UTC geändert',
    );
    expect(stale.json.error.message).toContain('Jetzt gilt aus.');
  });

  it('GIVEN a write from another page, an unknown key, a bad body or value THEN it is refused and nothing is written', async () => {
    web = await startWeb(t, ENV);
    const admin = await web.signIn(web.adminId, 'ada');
    const before = await databaseFingerprint(t.db);
    const elsewhere = await web.request('POST', '/api/admin/runtime/cookies.give_max', {
      cookie: admin,
      origin: 'https://evil.example',
      body: { value: '5', revision: 0 },
      headers: { 'idempotency-key': 'evil-000001' },
    });
    expect([elsewhere.status, elsewhere.json.error.code]).toEqual([403, 'BAD_ORIGIN']);
    const unknown = await change(web, admin, 'cookies.rain', { value: '5', revision: 0 });
    expect([unknown.status, unknown.json.error.code]).toEqual([404, 'NOT_FOUND']);
    expect(unknown.json.error.message).toContain('cookies.give_max');
    for (const body of [
      { value: '5' },
      { value: '5', revision: -1 },
      { value: '5', revision: 1.5 },
      { value: 5, revision: 0 },
      { value: '', revision: 0 },
      { value: '5', revision: 0, key: 'cookies.give_max' },
    ]) {
      const refused = await change(web, admin, 'cookies.give_max', body);
      expect([refused.status, refused.json.error.code], JSON.stringify(body)).toEqual([400, 'BAD_REQUEST']);
    }
    const noKey = await web.request('POST', '/api/admin/runtime/cookies.give_max', {
      cookie: admin,
      body: { value: '5', revision: 0 },
    });
    expect(noKey.json.error.message).toMatch(/^Idempotency-Key: /);
    for (const [key, value] of [
      ['cookies.give_max', 'lots'],
      ['place_channel', '#general'],
      ['cookies.give_enabled', 'maybe'],
    ] as const) {
      const refused = await change(web, admin, key, { value, revision: 0 });
      expect([refused.status, refused.json.error.code]).toEqual([400, 'INVALID_INPUT']);
    }
    expect(await databaseFingerprint(t.db)).toEqual(before);
  });

  it('GIVEN a bot that knows its channels THEN the page gets them to pick from, a channel by its name, and a warning where the bot lacks permissions', async () => {
    web = await startWeb(t, ENV);
    const channels = [
      { id: '894100000000000101', name: 'general' },
      { id: '894100000000000102', name: 'canvas' },
    ];
    Object.assign(web.transport, {
      postableChannels: async () => channels,
      missingPermissions: async (id: string) =>
        id === '894100000000000103' ? ['AttachFiles', 'EmbedLinks'] : [],
    });
    const admin = await web.signIn(web.adminId, 'ada');
    const picked = await change(web, admin, 'place_channel', { value: '894100000000000102', revision: 0 });
    expect(picked.json).toMatchObject({ value: '894100000000000102', shown: '#canvas', revision: 1 });
    expect(picked.json).not.toHaveProperty('warning');
    const { json } = await web.request('GET', '/api/admin/runtime', { cookie: admin });
    expect(json.channels).toEqual(channels);
    const place = json.features.find((f: { feature: string }) => f.feature === 'place').settings;
    expect(place.find((s: { key: string }) => s.key === 'place_channel').shown).toBe('#canvas');

    const lacking = await change(
      web,
      admin,
      'place_feed_channel',
      { value: '894100000000000103', revision: 0 },
      { 'accept-language': 'de' },
    );
    expect(lacking.status).toBe(200);
    expect(lacking.json.shown).toBe('894100000000000103');
    expect(lacking.json.warning).toContain(
      'Dem Bot fehlt in 894100000000000103: Dateien anhängen und Links einbetten',
    );
    const off = await change(web, admin, 'place_channel', { value: 'off', revision: 1 });
    expect(off.json).toMatchObject({ value: null, shown: 'off', revision: 2 });
  });

  it('GIVEN the canvas template role THEN the page lists it as a role by its id, takes a role mention or id, refuses a channel, and the audit line names the role', async () => {
    web = await startWeb(t, ENV);
    const admin = await web.signIn(web.adminId, 'ada');
    const role = '894100000000000201';
    const listed = await web.request('GET', '/api/admin/runtime', { cookie: admin });
    const setting = listed.json.features
      .find((f: { feature: string }) => f.feature === 'place')
      .settings.find((s: { key: string }) => s.key === 'place_template_role');
    expect(setting).toMatchObject({
      kind: 'role',
      scope: 'server',
      value: null,
      shown: 'off',
      revision: 0,
    });

    const before = await databaseFingerprint(t.db);
    const channel = await change(web, admin, 'place_template_role', { value: `<#${role}>`, revision: 0 });
    expect([channel.status, channel.json.error.code]).toEqual([400, 'INVALID_INPUT']);
    expect(channel.json.error.message).toContain('it must be a role (@name), its id, or off');
    expect(await databaseFingerprint(t.db)).toEqual(before);

    const set = await change(
      web,
      admin,
      'place_template_role',
      { value: `<@&${role}>`, revision: 0 },
      { 'idempotency-key': 'role-mention-01' },
    );
    expect(set.status).toBe(200);
    // The page shows no Discord markup: the role by its id, as its field takes it.
    expect(set.json).toMatchObject({ value: role, shown: role, revision: 1 });
    expect((await t.cols.runtimeConfig.findOne({ _id: 'place_template_role' }))?.value).toBe(role);
    const audit = await t.cols.dueTasks.findOne({
      _id: `admin.audit.post:runtime.set:web:${web.adminId}:role-mention-01`,
    });
    expect((audit?.payload as { text?: string } | undefined)?.text).toContain(`off → **<@&${role}>**`);

    const byId = await change(web, admin, 'place_template_role', {
      value: '894100000000000202',
      revision: 1,
    });
    expect(byId.json).toMatchObject({
      value: '894100000000000202',
      shown: '894100000000000202',
      revision: 2,
    });
    // A tab still at revision 1 is told the role in force now, by its id.
    const stale = await change(web, admin, 'place_template_role', { value: 'off', revision: 1 });
    expect(stale.json.error.code).toBe('SETTING_STALE');
    expect(stale.json.error.message).toContain('it is 894100000000000202 now');
    const off = await change(web, admin, 'place_template_role', { value: 'off', revision: 2 });
    expect(off.json).toMatchObject({ value: null, shown: 'off', revision: 3 });
  });
});
