import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pLimit from 'p-limit';
import { afterAll, describe, expect, it } from 'vitest';
import { appCollections, ensureAppIndexes } from '../../app/openApp.js';
import { restoreBackup } from '../../app/restoreBackup.js';
import { type TakenBackup, takeBackup } from '../../src/backup/backup.js';
import { runPool } from '../../src/concurrency.js';
import { schemaOf } from '../../src/db/migrations.js';
import { isAppError } from '../../src/errors.js';
import type { LedgerStep } from '../../utils/money/ledger/ledger.js';
import { placementId } from '../../utils/place/placements.js';
import { fundVaultAndMembers, grantPlacePoints, makeAppDeps, makeBotDeps } from '../support/botHarness.js';
import { useTestDatabase } from '../support/database.js';
import { mixedAction } from '../support/mixedActions.js';
import { waitFor } from '../support/waitFor.js';

/**
 * docs/operating.md, "Backups": a backup is the database at one instant, so restoring one is
 * recovering from a crash of every process at that instant. Here backups are taken while members
 * collect, give, steal, join heists, play every house game and stream placements; each is restored
 * into a fresh database, recovered and checked in full.
 */
const t = useTestDatabase('backup_load');
const dir = mkdtempSync(path.join(tmpdir(), 'cookiebot-backups-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const MEMBERS = Array.from({ length: 30 }, (_, i) => `87100000000000${String(i).padStart(4, '0')}`);
const member = (i: number) => MEMBERS[i % MEMBERS.length] as string;
const BACKUPS = 4;

describe('backups taken while the bot is busy', () => {
  it('GIVEN members playing, heists, house games and placements streaming WHEN four backups are taken THEN each restores into a fresh database with clean books, every balance explained by its events and every placement acknowledged before it present', async () => {
    const { deps, clock } = makeBotDeps(t);
    await deps.runtimeConfig.set('cookies.steal_cooldown_s', '0', 'admin');
    await fundVaultAndMembers(deps, 2_000_000, MEMBERS, 3_000);
    for (const m of MEMBERS) await deps.profiles.touch({ id: m, name: `member ${m.slice(-4)}` });
    await grantPlacePoints(deps, MEMBERS, 1_000_000);
    clock.advance(25 * 3_600_000);

    let running = true;
    // The simulated clock jumps five minutes at a time; a live bot's clock never jumps while a
    // placement is between its writes. The gate keeps a jump out of a placement, so an instant a
    // backup catches holds a placement in flight only as young as a live bot's would be.
    const between = pLimit(1);
    const acknowledged: string[] = [];
    const refusals: string[] = [];
    const placing = (async () => {
      for (let i = 0; running; i++) {
        const userId = member(i * 7);
        const opId = `paint-${i}`;
        try {
          await between(() =>
            deps.services.place.place({ opId, userId, x: i % 40, y: (i * 3) % 40, color: i % 32 }),
          );
          acknowledged.push(placementId(userId, opId));
        } catch (error) {
          if (!isAppError(error)) throw error;
          refusals.push(error.code);
        }
      }
    })();
    const playing = (async () => {
      for (let phase = 0; running; phase++) {
        const heistId = `heist-${phase}`;
        await deps.services.vault.startHeist({ heistId, leader: member(phase), stake: 50, locale: 'en' });
        const results = await runPool(120, 30, (i) => mixedAction(deps, member, phase, i, heistId));
        for (const r of results) if (r.status === 'rejected' && !isAppError(r.reason)) throw r.reason;
        // Time goes on as a live bot's does, its timers keeping up: an instant a backup catches
        // holds at most a step past their deadline, as a live bot's would be.
        for (let step = 0; step < 13; step++) {
          await between(async () => clock.advance(5 * 60_000));
          await deps.scheduler.runDue();
        }
      }
    })();

    const taken: { backup: TakenBackup; before: string[] }[] = [];
    try {
      for (let b = 0; b < BACKUPS; b++) {
        // Let the load build up between backups: a few placements more each time.
        const from = acknowledged.length;
        await waitFor(() => acknowledged.length >= from + 15, {
          timeoutMs: 60_000,
          what: () =>
            `15 more placements (${acknowledged.length - from} so far; refusals: ${refusals.slice(-3).join(', ')})`,
        });
        const before = [...acknowledged];
        const backup = await takeBackup(t.db, path.join(dir, `load-${b}.ndjson.gz`), schemaOf, clock);
        taken.push({ backup, before });
      }
    } finally {
      running = false;
      await Promise.all([placing, playing]);
    }

    let inFlight = 0;
    for (const [b, { backup, before }] of taken.entries()) {
      const restored = t.client.db(`${t.name}_r${b}`);
      try {
        await ensureAppIndexes(restored);
        const app = makeAppDeps({ db: restored, cols: appCollections(restored) });
        // A restore runs after the backup: its clock is past every time the archive holds.
        app.clock.advanceTo(clock.now());
        const report = await restoreBackup(app, backup.file);
        expect(report.problems, `backup ${b}`).toEqual([]);
        expect(report.recovery.stuck).toEqual([]);
        inFlight += report.recovery.examined;
        const painted = await restored
          .collection<{ opId?: string }>('place_pixel_events')
          .find({ opId: { $in: before } }, { projection: { opId: 1 } })
          .toArray();
        expect(new Set(painted.map((e) => e.opId)).size, `placements before backup ${b}`).toBe(before.length);
        // What the archive held is what was restored, collection by collection.
        expect(report.loaded.documents).toEqual(backup.documents);
      } finally {
        await restored.dropDatabase();
      }
    }
    console.info(
      `backups under load: ${taken.length} taken (${taken.map((x) => `${Object.values(x.backup.documents).reduce((a, c) => a + c, 0)} docs, writes held ${x.backup.pauseMs} ms`).join('; ')}), ${inFlight} operations in flight at their instants, all restored clean`,
    );
  }, 300_000);
});

describe('a backup that meets a transfer half-way', () => {
  const steps: LedgerStep[] = ['debit.applied', 'credit.applied', 'events.written'];
  it.each(steps)(
    'GIVEN a give stopped at %s WHEN a backup is taken then THEN its restore finishes or returns the give whole, and the books are clean',
    async (step) => {
      let reached!: () => void;
      let release!: () => void;
      const paused = new Promise<void>((resolve) => {
        reached = resolve;
      });
      const resume = new Promise<void>((resolve) => {
        release = resolve;
      });
      const opId = `halfway-${step}`;
      const { deps, clock } = makeBotDeps(t, {
        hooks: {
          async step(at, spec) {
            if (at === step && spec.opId === opId) {
              reached();
              await resume;
            }
          },
        },
      });
      const [from, to] = [
        `8720000000000000${steps.indexOf(step)}1`,
        `8720000000000000${steps.indexOf(step)}2`,
      ];
      await deps.services.cookies.grant({
        opId: `seed-${step}`,
        adminId: 'admin',
        to: from,
        amount: 500,
        reason: '',
      });
      const give = deps.ledger.transfer({
        opId,
        currency: 'cookies',
        from,
        to,
        amount: 120,
        kind: 'cookies.give',
        reason: '',
      });
      await paused;
      const backup = await takeBackup(t.db, path.join(dir, `halfway-${step}.ndjson.gz`), schemaOf, clock);
      release();
      await give;

      const restored = t.client.db(`${t.name}_h${steps.indexOf(step)}`);
      try {
        await ensureAppIndexes(restored);
        const app = makeAppDeps({ db: restored, cols: appCollections(restored) });
        app.clock.advanceTo(clock.now());
        const report = await restoreBackup(app, backup.file);
        expect(report.recovery.examined).toBeGreaterThan(0);
        expect(report.problems).toEqual([]);
        const [a, b] = await Promise.all([
          app.ledger.balanceOf('cookies', from),
          app.ledger.balanceOf('cookies', to),
        ]);
        // Only the debit landed: recovery returns it. Both legs landed: it finishes the give.
        expect([a, b]).toEqual(step === 'debit.applied' ? [500, 0] : [380, 120]);
      } finally {
        await restored.dropDatabase();
      }
    },
  );
});
