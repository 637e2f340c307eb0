/**
 * Child process of the hunt crash test: closes a window through the real service (or, with
 * `activeMember`, hunts a member's requests a minute apart) and dies when a reward of the named
 * kind reaches the named ledger step.
 * Input (JSON in argv[2]): HuntCrashPlan.
 */
import { cryptoRng } from '../../src/rng.js';
import { makeBotDeps } from './botHarness.js';
import { type ChildDatabase, crashChild, dieAt } from './nodeProcess.js';

export interface HuntCrashPlan extends ChildDatabase {
  windowId: string;
  kind: string;
  step: string;
  advanceMs: number;
  /** A member whose requests, a minute apart, earn active time (instead of a window's close). */
  activeMember?: string;
}

await crashChild<HuntCrashPlan>(async ({ plan, db, cols }) => {
  const { deps, clock } = makeBotDeps(
    { db, cols },
    {
      rng: { ...cryptoRng, int: (min: number) => min },
      hooks: {
        step(step, spec) {
          if (step === plan.step && spec.kind === plan.kind) dieAt(`${spec.kind} ${step}`);
        },
      },
    },
  );
  clock.advance(plan.advanceMs);
  if (plan.activeMember) {
    for (;;) {
      await deps.services.hunt.activity(plan.activeMember);
      clock.advance(60_000);
    }
  }
  await deps.services.hunt.closeWindow(plan.windowId);
});
