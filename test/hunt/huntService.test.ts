import { beforeEach, describe, expect, it } from 'vitest';
import { cryptoRng, type Rng } from '../../src/rng.js';
import { checkInvariants } from '../../utils/ledger/invariants.js';
import { makeBotDeps } from '../support/botHarness.js';
import { clearDatabase, useTestDatabase } from '../support/database.js';

const t = useTestDatabase('hunt');
const [ANN, BEN] = ['893000000000000001', '893000000000000002'];
/** Every draw of randomness its lowest value: the target is all zeros, the first tips are drawn. */
const low: Rng = { ...cryptoRng, int: (min) => min };

describe('the hunt lottery and its rewards', () => {
  beforeEach(() => clearDatabase(t.db));

  it('GIVEN tips in a window THEN at its end the drawn tips earn 25 points each and their score progress, exactly once', async () => {
    const { deps, clock } = makeBotDeps(t, { rng: low });
    const hunt = deps.services.hunt;
    await deps.runtimeConfig.set('hunt_draws_per_window', '2', 'admin');
    // Target 0,…,0: a guess of all 3s is 24 off in 264: 90.90 %.
    const { window } = await hunt.tip(ANN, [1, 1, 1, 1, 1, 1, 1, 1], null);
    await hunt.tip(ANN, [3, 3, 3, 3, 3, 3, 3, 3], null); // replaces the pending tip
    await hunt.tip(BEN, [99, 99, 99, 99, 99, 99, 99, 99], null);
    clock.advance(window.closesAt.getTime() - clock.now().getTime());
    await deps.scheduler.runDue();
    // Run again, in parallel: the draw and the rewards happen once.
    await Promise.all(Array.from({ length: 50 }, () => hunt.closeWindow(window._id)));
    await deps.ledger.flush();
    // ANN: 25 draw points + 90.90 score points × 100 = 9,090 points; BEN: 25 draw, score 0 earns nothing.
    expect(await deps.ledger.balanceOf('place', ANN)).toBe(25_000 + 9_090_000);
    expect(await deps.ledger.balanceOf('place', BEN)).toBe(25_000);
    expect((await hunt.status(ANN)).best).toBe(9_090);
    const history = await hunt.history(ANN, 5);
    expect(history.map((h) => [h.sequence, h.score])).toEqual([[2, 9_090]]);
    expect((await checkInvariants(t.cols)).problems).toEqual([]);
  });

  it('GIVEN Beacon-Hunt THEN a drawn tip on the boosted path earns 50, and 25 with the multiplier off', async () => {
    const { deps, clock, transport } = makeBotDeps(t, { rng: low });
    const hunt = deps.services.hunt;
    await deps.runtimeConfig.set('hunt_beacon_mode', 'on', 'admin');
    await deps.runtimeConfig.set('hunt_channel', '893000000000000900', 'admin');
    await deps.runtimeConfig.set('place_points_per_score', '0', 'admin');
    const { window } = await hunt.tip(ANN, [5, 5, 5, 5, 5, 5, 5, 5], 0); // the boosted path is 0 (lowest draw)
    await hunt.tip(BEN, [5, 5, 5, 5, 5, 5, 5, 5], 1);
    expect(window.beaconPath).toBe(0);
    clock.advance(window.closesAt.getTime() - clock.now().getTime());
    await deps.scheduler.runDue();
    await deps.ledger.flush();
    expect(await deps.ledger.balanceOf('place', ANN)).toBe(50_000);
    expect(await deps.ledger.balanceOf('place', BEN)).toBe(25_000);
    // The channel heard of each window's boosted path once: the first at the first tip, the
    // next as soon as the first was drawn (a hunt in progress goes on without being asked).
    const opened = transport.posts.filter((p) => String(p.post.content).startsWith('🧭'));
    expect(opened.map((p) => p.channelId)).toEqual(['893000000000000900', '893000000000000900']);
    expect(opened[0]?.post.content).toContain('the boosted path is **0** (2× draw weight)');
    await deps.runtimeConfig.set('place_draw_beacon_multiplier', '0', 'admin');
    const next = await hunt.tip(ANN, [5, 5, 5, 5, 5, 5, 5, 5], 0);
    clock.advance(next.window.closesAt.getTime() - clock.now().getTime());
    await deps.scheduler.runDue();
    await deps.ledger.flush();
    expect(await deps.ledger.balanceOf('place', ANN)).toBe(75_000);
  });

  it('GIVEN a reroll THEN the sequence starts again and the new revision rewards independently', async () => {
    const { deps, clock } = makeBotDeps(t, { rng: low });
    const hunt = deps.services.hunt;
    await deps.runtimeConfig.set('place_draw_points', '0', 'admin');
    const first = await hunt.tip(ANN, [10, 10, 10, 10, 10, 10, 10, 10], null);
    clock.advance(first.window.closesAt.getTime() - clock.now().getTime());
    await deps.scheduler.runDue();
    const rerolled = await hunt.reroll();
    expect(rerolled.revision).toBe(2);
    const again = await hunt.tip(ANN, [10, 10, 10, 10, 10, 10, 10, 10], null);
    expect(again.tip.sequence).toBe(1);
    clock.advance(again.window.closesAt.getTime() - clock.now().getTime());
    await deps.scheduler.runDue();
    await deps.ledger.flush();
    // All 10s: 80 off in 264, 69.69 % twice, once per revision: 2 × 6,969 points.
    expect(await deps.ledger.balanceOf('place', ANN)).toBe(2 * 6_969_000);
  });

  it('GIVEN a member active for 5 minutes with a request every 50 s THEN they earn 100 time points; a second process never pays the same seconds again', async () => {
    const { deps, clock } = makeBotDeps(t);
    const other = makeBotDeps(t); // a second process, with its own memory
    let paid = 0;
    for (let s = 0; s <= 300; s += 50) {
      other.clock.advance(clock.now().getTime() - other.clock.now().getTime());
      paid += await deps.services.hunt.activity(ANN);
      // The same requests also reach the other process: it claims nothing already paid.
      paid += await other.deps.services.hunt.activity(ANN);
      clock.advance(50_000);
    }
    await deps.ledger.flush();
    expect(paid).toBe(100_000);
    expect(await deps.ledger.balanceOf('place', ANN)).toBe(100_000);
    // A 3-minute pause earns nothing.
    clock.advance(180_000);
    expect(await deps.services.hunt.activity(ANN)).toBe(0);
  });
});
