/**
 * Child process of the Cookie economy crash tests: runs one member action through the real
 * services and dies when a ledger operation of the named kind reaches the named step, like a
 * bot process dying between two steps of a settlement.
 * Input (JSON in argv[2]): EconomyCrashPlan.
 */
import { cryptoRng } from '../../src/rng.js';
import type { LedgerStep } from '../../utils/money/ledger/ledger.js';
import { makeBotDeps } from './botHarness.js';
import { type ChildDatabase, crashChild, dieAt } from './nodeProcess.js';

export interface EconomyCrashPlan extends ChildDatabase {
  action: 'collect' | 'coinflip' | 'blackjack' | 'heist-close';
  /** The movement to die in (`games.payout`, `cookies.collect`, ...) and the step there. */
  kind: string;
  step: LedgerStep;
  /** Die the nth time that point is reached (default 1): a double is a round's second stake. */
  nth?: number;
  /** The member, and the round or heist id. */
  userId: string;
  id: string;
  /** How far the child's clock is ahead of the harness's start (a heist closes later). */
  advanceMs?: number;
}

await crashChild<EconomyCrashPlan>(async ({ plan, db, cols }) => {
  // Heads every time: the coinflip wins, so its settlement pays the member out of the pot.
  const rng = { ...cryptoRng, int: (min: number) => min };
  let reachedCount = 0;
  const { deps, clock } = makeBotDeps(
    { db, cols },
    {
      rng,
      hooks: {
        step(step, spec) {
          if (step === plan.step && spec.kind === plan.kind && ++reachedCount === (plan.nth ?? 1))
            dieAt(`${spec.kind} ${step}`);
        },
      },
    },
  );
  clock.advance(plan.advanceMs ?? 0);
  const run = {
    collect: () => deps.services.collect.collect(plan.userId, 'bakery'),
    coinflip: () =>
      deps.services.games.playInstant('coinflip', {
        roundId: plan.id,
        userId: plan.userId,
        bet: 100,
        params: { side: 'heads' },
      }),
    blackjack: async () => {
      const round = await deps.services.games.startBlackjack({
        roundId: plan.id,
        userId: plan.userId,
        bet: 100,
      });
      if (round.status === 'playing')
        await deps.services.games.blackjack(plan.id, plan.userId, 'double', round.step);
    },
    'heist-close': () => deps.services.vault.closeHeist(plan.id),
  }[plan.action];
  await run();
});
