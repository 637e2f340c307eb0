import { describe, expect, it } from 'vitest';
import { ASSEMBLY } from '../../commands/index.js';
import { runPool } from '../../src/concurrency.js';
import { makeBotDeps } from '../support/botHarness.js';
import { useTestDatabase } from '../support/database.js';
import { booksProblems } from '../support/ledgerHarness.js';

const t = useTestDatabase('hunt_mixed');
const MEMBERS = Array.from({ length: 12 }, (_, i) => `895000000000000${String(i).padStart(3, '0')}`);

describe('the hunt under load', () => {
  it('GIVEN tips, draws, active time, grants and placements at once, by members and workers THEN every wallet equals its audited earnings minus its pixels, and the checkers are clean', async () => {
    const { deps, clock } = makeBotDeps(t);
    await deps.runtimeConfig.set('hunt_draws_per_window', '6', 'admin');
    await deps.runtimeConfig.set('hunt_beacon_mode', 'on', 'admin');
    const workers = await Promise.all(
      MEMBERS.slice(0, 4).map((owner) => deps.services.workers.link(owner, 'w')),
    );
    const identities = [...MEMBERS, ...workers.map((w) => w._id)];
    let n = 0;
    for (let window = 0; window < 6; window++) {
      const results = await runPool(identities.length * 3, 16, async (i) => {
        const who = identities[i % identities.length] as string;
        const owner = workers.find((w) => w._id === who)?.ownerId ?? who;
        switch (Math.floor(i / identities.length)) {
          case 0:
            await deps.services.hunt.activity(who);
            return deps.services.hunt.tip(
              who,
              Array.from({ length: 8 }, (_, k) => (i * 7 + k * 13 + window * 5) % 100),
              i % 4,
            );
          case 1:
            if (i % 5 === 0) {
              return deps.services.place.grant({
                opId: `g${n++}`,
                moderatorId: 'mod',
                to: owner,
                amount: 150_000,
                reason: '',
              });
            }
            return deps.services.hunt.activity(who);
          default:
            return deps.services.place
              .place({ opId: `p${n++}`, userId: owner, x: i % 40, y: window, color: i % 32 })
              .catch((e: unknown) =>
                String(e).includes('INSUFFICIENT_PLACE_POINTS') ? null : Promise.reject(e),
              );
        }
      });
      for (const r of results) if (r.status === 'rejected') throw r.reason;
      clock.advance(5 * 60_000);
      await deps.scheduler.runDue();
    }
    await deps.ledger.flush();
    expect(await booksProblems(t.cols)).toEqual([]);
    expect(await ASSEMBLY.checkInvariants(t.db, deps.config, deps.ledger, deps.clock.now())).toEqual([]);
    let drawn = 0;
    for (const owner of MEMBERS) {
      const earned = (await deps.services.hunt.recentEarnings(owner, 10_000)).reduce(
        (sum, e) => sum + e.milli,
        0,
      );
      const grants = (
        await t.cols.ledgerEvents
          .find({ currency: 'place', account: owner, kind: 'place.admin_grant' })
          .toArray()
      ).reduce((s, e) => s + e.delta, 0);
      const wallet = await deps.services.place.wallet(owner);
      expect(wallet.earned).toBe(earned + grants);
      expect(wallet.balance).toBe(wallet.earned - wallet.spent);
      drawn += (await deps.services.hunt.history(owner, 100)).length;
    }
    expect(drawn).toBeGreaterThan(10);
  });
});
