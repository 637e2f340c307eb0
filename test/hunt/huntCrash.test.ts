import { beforeEach, describe, expect, it } from 'vitest';
import { silentLogger } from '../../src/logger.js';
import { cryptoRng } from '../../src/rng.js';
import { recoverLedger } from '../../utils/money/ledger/recovery.js';
import { makeBotDeps } from '../support/botHarness.js';
import { clearDatabase, useTestDatabase } from '../support/database.js';
import type { HuntCrashPlan } from '../support/huntCrashChild.js';
import { booksProblems } from '../support/ledgerHarness.js';
import { PROCESS_TEST_TIMEOUT_MS, reached, runCrashChild } from '../support/nodeProcess.js';

const t = useTestDatabase('hunt_crash');
const ANN = '896000000000000001';

describe('a bot process killed in the middle of a draw', { timeout: PROCESS_TEST_TIMEOUT_MS }, () => {
  beforeEach(() => clearDatabase(t.db));

  it.each([
    ['the draw bonus', 'place.draw', 'credit.before'],
    ['the progress reward', 'place.progress', 'credit.before'],
    ['the progress reward, after the credit', 'place.progress', 'credit.applied'],
  ])(
    'GIVEN a kill while paying %s THEN the window is finished by its timer, every reward paid once',
    async (_, kind, step) => {
      const { deps, clock } = makeBotDeps(t, { rng: { ...cryptoRng, int: (min) => min } });
      // Worked numbers at 100 points per score point, ten times the default, for plain rewards.
      await deps.runtimeConfig.set('place_points_per_score', '100', 'admin');
      const { window } = await deps.services.hunt.tip(ANN, [3, 3, 3, 3, 3, 3, 3, 3], null);
      const advanceMs = window.closesAt.getTime() - clock.now().getTime();
      const { stdout } = await runCrashChild<HuntCrashPlan>(
        'test/support/huntCrashChild.ts',
        { windowId: window._id, kind, step, advanceMs },
        t,
      );
      expect(stdout).toContain(reached(`${kind} ${step}`));
      // A restarted bot: the ledger's recovery, then the window's timer (it runs the close again).
      clock.advance(advanceMs + 120_000);
      await recoverLedger(
        { cols: t.cols, clock, log: silentLogger },
        { graceMs: 0, fenceRetentionMs: 86_400_000 },
      );
      await deps.scheduler.runDue();
      await deps.services.hunt.closeWindow(window._id);
      await deps.ledger.flush();
      // 25 draw points + 90.90 score points × 100 (target all zeros, 24 off in 264), once each.
      expect(await deps.ledger.balanceOf('place', ANN)).toBe(25_000 + 9_090_000);
      expect((await deps.services.hunt.status(ANN)).best).toBe(9_090);
      expect((await deps.services.hunt.recentEarnings(ANN, 10)).map((e) => [e.kind, e.milli]).sort()).toEqual(
        [
          ['draw', 25_000],
          ['progress', 9_090_000],
        ],
      );
      expect(await booksProblems(t.cols)).toEqual([]);
    },
  );

  it.each([
    ['before the credit', 'credit.before'],
    ['after the credit', 'credit.applied'],
  ])(
    'GIVEN a kill while paying active time %s THEN the sweep pays that minute once, and later minutes are paid as before',
    async (_, step) => {
      const { deps, clock } = makeBotDeps(t);
      const { stdout } = await runCrashChild<HuntCrashPlan>(
        'test/support/huntCrashChild.ts',
        { windowId: '', kind: 'place.time', step, advanceMs: 0, activeMember: ANN },
        t,
      );
      expect(stdout).toContain(reached(`place.time ${step}`));
      // Nothing is paid until the sweep: the minute is owed, not lost and not paid twice.
      const died = new Date(clock.now().getTime() + 60_000);
      clock.advance(7 * 60_000);
      await recoverLedger(
        { cols: t.cols, clock, log: silentLogger },
        { graceMs: 0, fenceRetentionMs: 86_400_000 },
      );
      await deps.scheduler.runDue();
      await deps.scheduler.runDue(); // a second pass finds nothing left to pay
      await deps.ledger.flush();
      // One interval of 60 s at 20 points.
      expect(await deps.ledger.balanceOf('place', ANN)).toBe(20_000);
      const earned = await deps.services.hunt.recentEarnings(ANN, 10);
      expect(earned.map((e) => [e.kind, e.milli, e.at.getTime()])).toEqual([
        ['time', 20_000, died.getTime()],
      ]);
      // The member comes back: their next minute is paid at once, and the sweep adds nothing.
      await deps.services.hunt.activity(ANN);
      clock.advance(60_000);
      expect(await deps.services.hunt.activity(ANN)).toBe(20_000);
      clock.advance(7 * 60_000);
      await deps.scheduler.runDue();
      await deps.ledger.flush();
      expect(await deps.ledger.balanceOf('place', ANN)).toBe(40_000);
      expect(await booksProblems(t.cols)).toEqual([]);
    },
  );
});
