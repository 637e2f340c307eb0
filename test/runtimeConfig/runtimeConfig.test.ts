import { beforeEach, describe, expect, it } from 'vitest';
import { ASSEMBLY } from '../../commands/index.js';
import { ManualClock } from '../../src/clock.js';
import type { AppError } from '../../src/errors.js';
import { I18n } from '../../src/i18n/i18n.js';
import { describeAppError } from '../../src/interactions/errorReplies.js';
import { silentLogger } from '../../src/logger.js';
import { RuntimeConfig, type SettingChange } from '../../src/runtimeConfig/runtimeConfig.js';
import { clearDatabase, useTestDatabase } from '../support/database.js';

const t = useTestDatabase('runtime_config');
const i18n = new I18n(ASSEMBLY.messages);
const HOUR = 3_600_000;

function store(ttlMs: number) {
  return new RuntimeConfig(
    { cols: t.cols, clock: new ManualClock(new Date('2026-05-01T00:00:00Z')), log: silentLogger },
    ASSEMBLY.settings,
    ttlMs,
  );
}

describe('runtime configuration', () => {
  beforeEach(() => clearDatabase(t.db));

  it('serves defaults until a setting is changed, then the value with who changed it', async () => {
    const config = store(HOUR);
    expect(await config.get('cookies.give_max')).toBe(1_000_000);
    expect(await config.set('cookies.give_max', ' 250 ', 'u1')).toEqual({
      key: 'cookies.give_max',
      kind: 'number',
      before: 1_000_000,
      after: 250,
      description: 'cookies:settings.give_max',
      revision: 1,
      updatedBy: 'u1',
      updatedAt: new Date('2026-05-01T00:00:00Z'),
      replayed: false,
      guildId: null,
    });
    expect(await config.set('cookies.give_enabled', 'OFF', 'u2')).toMatchObject({ after: false });
    const listed = await config.list();
    expect(listed.find((s) => s.key === 'cookies.give_max')).toMatchObject({
      value: 250,
      default: 1_000_000,
      revision: 1,
      limits: { min: 1, max: 1_000_000_000_000 },
      updatedBy: 'u1',
    });
    expect(listed.find((s) => s.key === 'cookies.leaderboard_size')).toMatchObject({ revision: 0 });
    expect(listed.find((s) => s.key === 'cookies.give_enabled')).toMatchObject({ limits: null });
    expect(await config.get('cookies.give_enabled')).toBe(false);
  });

  it.each([
    ['cookies.give_max', '0', 'must be at least 1', 'muss mindestens 1 sein'],
    ['cookies.give_max', '2.5', 'must be a whole number', 'muss eine ganze Zahl sein'],
    ['cookies.leaderboard_size', '26', 'must be at most 25', 'darf höchstens 25 sein'],
    ['cookies.give_enabled', 'maybe', 'must be on or off', 'muss an oder aus sein'],
  ])(
    "refuses %s = %j with the rule it breaks, in the admin's language, and stores nothing",
    async (key, value, en, de) => {
      const error = (await store(HOUR)
        .set(key, value, 'u1')
        .catch((e: unknown) => e)) as AppError;
      expect(error.code).toBe('INVALID_INPUT');
      expect(describeAppError(error, ASSEMBLY.errorMessages, i18n.for('en'))).toBe(
        `"${value}" is not valid for ${key}: it ${en}.`,
      );
      expect(describeAppError(error, ASSEMBLY.errorMessages, i18n.for('de'))).toContain(de);
      expect(await t.cols.runtimeConfig.countDocuments()).toBe(0);
    },
  );

  it("refuses an unknown key and names the feature's keys, or the features", async () => {
    const config = store(HOUR);
    const error = (await config.set('cookies.rain', '1', 'u1').catch((e: unknown) => e)) as AppError;
    expect(error.code).toBe('NOT_FOUND');
    expect(error.detail).toContain('settings of cookies: cookies.give_enabled, cookies.give_max');
    const unknownFeature = (await config.set('weather.rain', '1', 'u1').catch((e: unknown) => e)) as AppError;
    expect(unknownFeature.detail).toContain(
      'features with settings: cookies, games, vault, shop, poker, place, hunt, admin',
    );
  });

  it('GIVEN two processes THEN the other sees a change once its cached copy is older than the TTL', async () => {
    const here = store(HOUR);
    const cachedElsewhere = store(HOUR);
    const freshElsewhere = store(0);
    expect(await cachedElsewhere.get('cookies.leaderboard_size')).toBe(10);
    await here.set('cookies.leaderboard_size', '7', 'u1');
    expect(await here.get('cookies.leaderboard_size')).toBe(7);
    expect(await cachedElsewhere.get('cookies.leaderboard_size')).toBe(10);
    expect(await freshElsewhere.get('cookies.leaderboard_size')).toBe(7);
  });

  it('falls back to the default when a stored value no longer fits its schema', async () => {
    await t.cols.runtimeConfig.insertOne({
      _id: 'cookies.leaderboard_size',
      value: 'ten',
      updatedBy: 'old',
      updatedAt: new Date(),
      revision: 3,
    });
    expect(await store(0).get('cookies.leaderboard_size')).toBe(10);
  });

  it('GIVEN every number setting THEN it states the bounds its parser keeps', async () => {
    for (const view of await store(0).list()) {
      if (view.kind !== 'number') continue;
      const { min, max } = view.limits ?? { min: Number.NaN, max: Number.NaN };
      const config = store(0);
      await expect(config.set(view.key, String(min), 'u1')).resolves.toMatchObject({ after: min });
      await expect(config.set(view.key, String(max), 'u1')).resolves.toMatchObject({ after: max });
      if (min > 0) await expect(config.set(view.key, String(min - 1), 'u1')).rejects.toThrow(/INVALID_INPUT/);
      await expect(config.set(view.key, String(max + 1), 'u1')).rejects.toThrow(/INVALID_INPUT/);
    }
  });
});

describe('a change that names the revision it read', () => {
  beforeEach(() => clearDatabase(t.db));

  it('GIVEN two admins who read revision 1 WHEN both set at once THEN exactly one wins and the other is told who changed it to what', async () => {
    await store(HOUR).set('cookies.give_max', '500', 'u0');
    const [first, second] = [store(HOUR), store(HOUR)];
    const outcomes = await Promise.allSettled([
      first.set('cookies.give_max', '250', 'u1', { revision: 1 }),
      second.set('cookies.give_max', '750', 'u2', { revision: 1 }),
    ]);
    const won = outcomes.filter((o) => o.status === 'fulfilled');
    const lost = outcomes.filter((o) => o.status === 'rejected');
    expect([won.length, lost.length]).toEqual([1, 1]);
    const change = (won[0] as PromiseFulfilledResult<SettingChange>).value;
    expect(change).toMatchObject({ before: 500, revision: 2, replayed: false });
    const error = (lost[0] as PromiseRejectedResult).reason as AppError;
    expect(error.code).toBe('SETTING_STALE');
    expect(error.context).toMatchObject({
      key: 'cookies.give_max',
      value: change.after,
      revision: 2,
      updatedBy: change.updatedBy,
      updatedAt: '2026-05-01T00:00:00.000Z',
    });
    const stored = await t.cols.runtimeConfig.findOne({ _id: 'cookies.give_max' });
    expect(stored).toMatchObject({ value: change.after, revision: 2 });
    // The loser's process learnt the newer value with its refusal.
    const loser = change.updatedBy === 'u1' ? second : first;
    expect(await loser.get('cookies.give_max')).toBe(change.after);
    const message = describeAppError(error, ASSEMBLY.errorMessages, i18n.for('en'));
    expect(message).toContain(`<@${change.updatedBy}>`);
    expect(message).toContain(`it is ${i18n.for('en').number(change.after as number)} now`);
    // Discord shows the time in the reader's own zone (the web, in UTC).
    expect(message).toContain(`on <t:${Date.parse('2026-05-01T00:00:00Z') / 1000}:f> since you read it`);
    expect(describeAppError(error, ASSEMBLY.errorMessages, i18n.for('de'))).toContain('Jetzt gilt');
  });

  it('GIVEN a setting never set WHEN two admins set it at revision 0 at once THEN one inserts it and the other is refused', async () => {
    const outcomes = await Promise.allSettled(
      ['3', '5', '7', '9'].map((value, i) =>
        store(HOUR).set('cookies.leaderboard_size', value, `u${i}`, { revision: 0 }),
      ),
    );
    expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(1);
    const refusals = outcomes.filter((o): o is PromiseRejectedResult => o.status === 'rejected');
    expect(refusals.map((o) => (o.reason as AppError).code)).toEqual([
      'SETTING_STALE',
      'SETTING_STALE',
      'SETTING_STALE',
    ]);
    expect(await t.cols.runtimeConfig.find({}).toArray()).toHaveLength(1);
    expect(await t.cols.runtimeConfig.findOne({ _id: 'cookies.leaderboard_size' })).toMatchObject({
      revision: 1,
    });
  });

  it('GIVEN a setting written before revisions were counted (revision 0) THEN a change at revision 0 takes it', async () => {
    await t.cols.runtimeConfig.insertOne({
      _id: 'cookies.leaderboard_size',
      value: 12,
      updatedBy: 'old',
      updatedAt: new Date('2025-01-01T00:00:00Z'),
      revision: 0,
    });
    const change = await store(0).set('cookies.leaderboard_size', '8', 'u1', { revision: 0 });
    expect(change).toMatchObject({ before: 12, after: 8, revision: 1 });
  });

  it('GIVEN a revision the setting never had THEN it is refused as stale, saying the setting is at its default', async () => {
    const error = (await store(0)
      .set('cookies.give_enabled', 'off', 'u1', { revision: 4 })
      .catch((e: unknown) => e)) as AppError;
    expect(error.code).toBe('SETTING_STALE');
    expect(error.context).toMatchObject({ revision: 0, updatedBy: null, value: true });
    expect(describeAppError(error, ASSEMBLY.errorMessages, i18n.for('en'))).toContain('it is on now');
    expect(await t.cols.runtimeConfig.countDocuments()).toBe(0);
  });

  it('GIVEN a change made under an operation id WHEN the same request comes again THEN it is answered as made, and nothing is written', async () => {
    const config = store(0);
    const made = await config.set('cookies.give_max', '300', 'u1', { revision: 0, opId: 'op-1' });
    const again = await config.set('cookies.give_max', '300', 'u1', { revision: 0, opId: 'op-1' });
    expect(again).toMatchObject({ after: 300, revision: 1, replayed: true, updatedAt: made.updatedAt });
    // The same id with another value is not the same request.
    await expect(config.set('cookies.give_max', '400', 'u1', { revision: 0, opId: 'op-1' })).rejects.toThrow(
      /SETTING_STALE/,
    );
    expect(await t.cols.runtimeConfig.findOne({ _id: 'cookies.give_max' })).toMatchObject({
      value: 300,
      revision: 1,
    });
  });

  it('GIVEN the Discord path (no revision) THEN a change is made whatever the revision, as before', async () => {
    const config = store(0);
    await config.set('cookies.give_max', '300', 'u1', { revision: 0 });
    expect(await config.set('cookies.give_max', '400', 'u2')).toMatchObject({
      before: 300,
      after: 400,
      revision: 2,
    });
    expect(await config.set('cookies.give_max', '500', 'u3')).toMatchObject({ before: 400, revision: 3 });
  });
});
