import { beforeEach, describe, expect, it } from 'vitest';
import { ASSEMBLY } from '../../commands/index.js';
import { ManualClock } from '../../src/clock.js';
import type { AppError } from '../../src/errors.js';
import { I18n } from '../../src/i18n/i18n.js';
import { describeAppError } from '../../src/interactions/errorReplies.js';
import { silentLogger } from '../../src/logger.js';
import { RuntimeConfig } from '../../src/runtimeConfig/runtimeConfig.js';
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
    });
    expect(await config.set('cookies.give_enabled', 'OFF', 'u2')).toMatchObject({ after: false });
    const listed = await config.list();
    expect(listed.find((s) => s.key === 'cookies.give_max')).toMatchObject({
      value: 250,
      default: 1_000_000,
      updatedBy: 'u1',
    });
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
      'features with settings: cookies, games, vault, poker, place, hunt, admin',
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
});
