import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startTimers } from '../../app/botDeps.js';
import { ASSEMBLY } from '../../commands/index.js';
import { makeAppDeps, makeBotDeps } from '../support/botHarness.js';
import { useTestDatabase } from '../support/database.js';

const t = useTestDatabase('backup_timer');
const dir = mkdtempSync(path.join(tmpdir(), 'cookiebot-timer-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const archives = () =>
  readdirSync(dir)
    .filter((f) => f.endsWith('.ndjson.gz'))
    .sort();

describe("the bot's own backups", () => {
  it('GIVEN BACKUP_DIR every 6 hours, 3 kept WHEN the bot starts, starts again and runs two days THEN one archive per slot is written, a restart writes none twice, and the 3 newest are kept', async () => {
    const env = { BACKUP_DIR: dir, BACKUP_INTERVAL_HOURS: '6', BACKUP_KEEP: '3' };
    const first = makeBotDeps(t, { env });
    first.clock.advanceTo(new Date('2026-12-04T07:30:00Z'));
    const app = { ...makeAppDeps(t, env), clock: first.clock };
    await startTimers(first.deps, app, ASSEMBLY);
    await first.deps.scheduler.runDue();
    expect(archives()).toEqual([`${t.name}-auto-2026-12-04T06-00-00Z.ndjson.gz`]);

    // A second process starting in the same slot plans the same task: nothing more is written.
    const second = makeBotDeps(t, { env });
    second.clock.advanceTo(first.clock.now());
    await startTimers(second.deps, app, ASSEMBLY);
    await second.deps.scheduler.runDue();
    expect(archives().length).toBe(1);

    for (let hour = 0; hour < 48; hour++) {
      first.clock.advance(3_600_000);
      await first.deps.scheduler.runDue();
    }
    expect(archives()).toEqual(
      ['2026-12-06T00-00-00Z', '2026-12-06T06-00-00Z', '2026-12-05T18-00-00Z']
        .sort()
        .map((slot) => `${t.name}-auto-${slot}.ndjson.gz`),
    );

    // Down for a day and a half: the missed slots are not written late; the one under way is.
    first.clock.advance(36 * 3_600_000);
    await first.deps.scheduler.runDue();
    await first.deps.scheduler.runDue();
    expect(archives()).toEqual(
      ['2026-12-06T00-00-00Z', '2026-12-06T06-00-00Z', '2026-12-07T18-00-00Z']
        .sort()
        .map((slot) => `${t.name}-auto-${slot}.ndjson.gz`),
    );
  });
});
