import { beforeEach, describe, expect, it } from 'vitest';
import { DAY_MS } from '../../src/clock.js';
import type { BotDeps } from '../../src/interactions/types.js';
import { planRetention, RETENTION_EVERY_MS } from '../../src/retention.js';
import { type AuditAction, AuditLog } from '../../utils/admin/auditLog.js';
import { AUDIT, type AuditDoc, AuditStore } from '../../utils/admin/auditStore.js';
import { makeBotDeps } from '../support/botHarness.js';
import { clearDatabase, useTestDatabase } from '../support/database.js';

const t = useTestDatabase('admin_audit_trail');
const MOD = '895000000000000001';
const ADMIN = '895000000000000002';
const ANN = '895000000000000011';
const BEN = '895000000000000012';

const grant = (id: string, over: Partial<AuditAction> = {}): AuditAction => ({
  id,
  kind: 'cookies.grant',
  actorId: ADMIN,
  subjectId: ANN,
  text: `🎁 <@${ADMIN}> granted 10 Cookies to <@${ANN}>.`,
  ...over,
});

const ids = (docs: AuditDoc[]) => docs.map((d) => d._id);

/** Every entry of the trail that matches, page by page as the portal reads it. */
async function readAll(deps: BotDeps, limit: number, filter = {}): Promise<AuditDoc[]> {
  const all: AuditDoc[] = [];
  for (let page = 0; page < 100; page++) {
    const last = all.at(-1);
    const next = await deps.services.admin.entries(filter, {
      limit,
      ...(last ? { before: { at: last.at, id: last._id } } : {}),
    });
    all.push(...next);
    if (next.length < limit) return all;
  }
  throw new Error('the pages never ended');
}

describe('the audit trail', () => {
  beforeEach(() => clearDatabase(t.db));

  it('GIVEN one action recorded twice at the same moment THEN one entry is kept, as first recorded, and one post is planned', async () => {
    const { deps, clock } = makeBotDeps(t);
    await Promise.all([deps.services.admin.record(grant('op-1')), deps.services.admin.record(grant('op-1'))]);
    clock.advance(60_000);
    await deps.services.admin.record(grant('op-1', { text: 'a later retry' }));

    const kept = await t.db.collection(AUDIT).find({}).toArray();
    expect(kept).toHaveLength(1);
    expect(kept[0]).toMatchObject({
      _id: 'op-1',
      kind: 'cookies.grant',
      actorId: ADMIN,
      subjectId: ANN,
      text: `🎁 <@${ADMIN}> granted 10 Cookies to <@${ANN}>.`,
    });
    expect(await t.db.collection('due_tasks').countDocuments({ kind: 'admin.audit.post' })).toBe(1);
  });

  it('GIVEN an action that concerns no member THEN its entry has no subject field', async () => {
    const { deps } = makeBotDeps(t);
    await deps.services.admin.record({ id: 'set-1', kind: 'runtime.set', actorId: ADMIN, text: 'changed' });
    const [doc] = await t.db.collection(AUDIT).find({}).toArray();
    expect(doc).not.toHaveProperty('subjectId');
  });

  it('GIVEN entries of several kinds, actors and members THEN each filter finds its own, newest first', async () => {
    const { deps, clock } = makeBotDeps(t);
    await deps.services.admin.record(grant('g-ann'));
    clock.advance(1_000);
    await deps.services.admin.record(grant('g-ben', { actorId: MOD, subjectId: BEN }));
    clock.advance(1_000);
    await deps.services.admin.record({
      id: 'ban-ben',
      kind: 'sanction.ban',
      actorId: MOD,
      subjectId: BEN,
      text: 'ban',
    });
    clock.advance(1_000);
    await deps.services.admin.record({ id: 'set', kind: 'runtime.set', actorId: ADMIN, text: 'set' });

    const page = (filter: object) => deps.services.admin.entries(filter, { limit: 50 });
    expect(ids(await page({}))).toEqual(['set', 'ban-ben', 'g-ben', 'g-ann']);
    expect(ids(await page({ kind: 'cookies.grant' }))).toEqual(['g-ben', 'g-ann']);
    expect(ids(await page({ actorId: MOD }))).toEqual(['ban-ben', 'g-ben']);
    expect(ids(await page({ subjectId: BEN }))).toEqual(['ban-ben', 'g-ben']);
    expect(ids(await page({ subjectId: BEN, kind: 'sanction.ban' }))).toEqual(['ban-ben']);
    expect(ids(await page({ actorId: ANN }))).toEqual([]);
  });

  it('GIVEN many entries recorded in the same millisecond THEN reading page by page gives each exactly once, newest first and by id', async () => {
    const { deps, clock } = makeBotDeps(t);
    await deps.services.admin.record(grant('early'));
    clock.advance(5);
    const same = Array.from({ length: 11 }, (_, i) => `same-${String(i).padStart(2, '0')}`);
    await Promise.all(same.map((id) => deps.services.admin.record(grant(id))));
    clock.advance(5);
    await deps.services.admin.record(grant('late'));

    for (const limit of [1, 3, 4, 50]) {
      expect(ids(await readAll(deps, limit))).toEqual(['late', ...[...same].reverse(), 'early']);
    }
    expect(ids(await readAll(deps, 2, { kind: 'cookies.grant', subjectId: ANN }))).toHaveLength(13);
  });

  it('GIVEN entries a year old and younger WHEN the hourly retention runs THEN those older than 365 days go and the rest stay', async () => {
    const { deps, clock } = makeBotDeps(t);
    await deps.services.admin.record(grant('oldest'));
    clock.advance(2 * DAY_MS);
    await deps.services.admin.record(grant('year-old'));
    clock.advance(2 * DAY_MS);
    await deps.services.admin.record(grant('recent'));
    // A year and a day (and up to an hour) after the oldest: the hour's prune removes it only.
    clock.advance(362 * DAY_MS + RETENTION_EVERY_MS);
    await planRetention(deps);
    await deps.scheduler.runDue();

    expect(ids(await deps.services.admin.entries({}, { limit: 50 }))).toEqual(['recent', 'year-old']);
    clock.advance(2 * DAY_MS);
    expect(await deps.services.admin.prune(clock.now())).toBe(1);
    expect(ids(await deps.services.admin.entries({}, { limit: 50 }))).toEqual(['recent']);
  });

  it('GIVEN the entry’s own write fails WHEN an admin acts THEN the action is not reported as failed and the post’s task keeps the entry', async () => {
    const { deps, logs } = makeBotDeps(t);
    const store = new AuditStore(t.db);
    const faltering = Object.assign(Object.create(store), {
      keep: () => Promise.reject(new Error('connection reset')),
    }) as AuditStore;
    const log = new AuditLog({ ...deps, store: faltering });

    await log.record(grant('op-falter'));
    expect(await t.db.collection(AUDIT).countDocuments()).toBe(0);
    expect(logs.some((l) => l.event === 'admin.audit.keep_failed')).toBe(true);

    await deps.scheduler.runDue();
    const [doc] = await t.db.collection(AUDIT).find({}).toArray();
    expect(doc).toMatchObject({ _id: 'op-falter', kind: 'cookies.grant', actorId: ADMIN, subjectId: ANN });
  });
});

describe('the audit trail and a forgotten member', () => {
  beforeEach(() => clearDatabase(t.db));

  it('GIVEN entries about a member WHEN they are forgotten THEN the entries stay under their pseudonym, fields and mentions alike, and the erasure is audited about it', async () => {
    const { deps } = makeBotDeps(t);
    await deps.services.admin.record(grant('g-ann'));
    await deps.services.admin.record(grant('g-ben', { subjectId: BEN, text: `<@${ADMIN}> to <@${BEN}>` }));

    const erasure = await deps.services.privacy.forget(deps.services, ANN, 'self', 'en');

    const { pseudonym } = erasure;
    const entries = await deps.services.admin.entries({}, { limit: 50 });
    expect(JSON.stringify(entries)).not.toContain(ANN);
    expect(entries.find((e) => e._id === 'g-ann')).toMatchObject({
      subjectId: pseudonym,
      text: `🎁 <@${ADMIN}> granted 10 Cookies to <@${pseudonym}>.`,
    });
    expect(entries.find((e) => e._id === 'g-ben')).toMatchObject({ subjectId: BEN });
    expect(ids(await deps.services.admin.entries({ subjectId: pseudonym }, { limit: 50 }))).toEqual([
      `privacy.erased:${erasure._id}`,
      'g-ann',
    ]);
    expect(await deps.services.admin.entries({ kind: 'privacy.forget' }, { limit: 50 })).toMatchObject([
      { actorId: pseudonym, subjectId: pseudonym },
    ]);
  });
});
