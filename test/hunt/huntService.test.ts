import { beforeEach, describe, expect, it } from 'vitest';
import { cryptoRng, type Rng } from '../../src/rng.js';
import { makeBotDeps } from '../support/botHarness.js';
import { clearDatabase, useTestDatabase } from '../support/database.js';
import { booksProblems } from '../support/ledgerHarness.js';

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
    // Worked numbers at 100 points per score point, ten times the default, for plain rewards.
    await deps.runtimeConfig.set('place_points_per_score', '100', 'admin');
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
    expect(await booksProblems(t.cols)).toEqual([]);
  });

  it('GIVEN a window drawn a day ago THEN the next draw archives its tips: the drawn stay in the history, the missed are gone, and a scan of today reads only today', async () => {
    const { deps, clock } = makeBotDeps(t, { rng: low });
    const hunt = deps.services.hunt;
    await deps.runtimeConfig.set('hunt_draws_per_window', '1', 'admin');
    const { window } = await hunt.tip(ANN, [3, 3, 3, 3, 3, 3, 3, 3], null);
    await hunt.tip(BEN, [9, 9, 9, 9, 9, 9, 9, 9], null);
    clock.advance(window.closesAt.getTime() - clock.now().getTime());
    await deps.scheduler.runDue();
    const tips = t.db.collection('hunt_tips');
    expect(await tips.countDocuments({})).toBe(2);
    // A day later, another window is drawn: yesterday's tips leave `hunt_tips`.
    clock.advance(25 * 3_600_000);
    const today = await hunt.tip(BEN, [4, 4, 4, 4, 4, 4, 4, 4], null);
    clock.advance(today.window.closesAt.getTime() - clock.now().getTime());
    await deps.scheduler.runDue();
    expect((await tips.find({}).toArray()).map((tip) => tip._id)).toEqual([`${today.window._id}:${BEN}`]);
    expect((await hunt.history(ANN, 5)).map((h) => [h.sequence, h.status])).toEqual([[1, 'drawn']]);
    expect((await hunt.history(BEN, 5)).map((h) => h.window)).toEqual([today.window.index]);
    expect(await t.db.collection('hunt_drawn_tips').countDocuments({})).toBe(1);
  });

  it('GIVEN the bonus path on THEN a drawn tip on it earns 50, and 25 with the multiplier off', async () => {
    const { deps, clock, transport } = makeBotDeps(t, { rng: low });
    const hunt = deps.services.hunt;
    await deps.runtimeConfig.set('hunt_beacon_mode', 'on', 'admin');
    await deps.runtimeConfig.set('hunt_channel', '893000000000000900', 'admin');
    await deps.runtimeConfig.set('place_points_per_score', '0', 'admin');
    const { window } = await hunt.tip(ANN, [5, 5, 5, 5, 5, 5, 5, 5], 0); // the boosted path is 0 (lowest draw)
    await hunt.tip(BEN, [5, 5, 5, 5, 5, 5, 5, 5], 1);
    expect(window.bonusPath).toBe(0);
    clock.advance(window.closesAt.getTime() - clock.now().getTime());
    await deps.scheduler.runDue();
    await deps.ledger.flush();
    expect(await deps.ledger.balanceOf('place', ANN)).toBe(50_000);
    expect(await deps.ledger.balanceOf('place', BEN)).toBe(25_000);
    // The channel heard of each window's boosted path once: the first at the first tip, the
    // next as soon as the first was drawn (a hunt in progress goes on without being asked).
    const opened = transport.posts.filter((p) => String(p.post.content).startsWith('🧭'));
    expect(opened.map((p) => p.channelId)).toEqual(['893000000000000900', '893000000000000900']);
    expect(opened[0]?.post.content).toContain(
      'The bonus path of the next draw is **0** (a tip on it counts 2× in the draw)',
    );
    await deps.runtimeConfig.set('place_draw_beacon_multiplier', '0', 'admin');
    const next = await hunt.tip(ANN, [5, 5, 5, 5, 5, 5, 5, 5], 0);
    clock.advance(next.window.closesAt.getTime() - clock.now().getTime());
    await deps.scheduler.runDue();
    await deps.ledger.flush();
    expect(await deps.ledger.balanceOf('place', ANN)).toBe(75_000);
  });

  it('GIVEN a reroll in the middle of a window THEN it happens once, the pending tips are scored on the old target, and the new round starts again on the new one', async () => {
    let targetValue = 0;
    // Targets are drawn with rng.int(0, 100); the rest of the hunt's randomness takes the lowest value.
    const rng: Rng = { ...cryptoRng, int: (min, max) => (max === 100 ? targetValue : min) };
    const { deps, clock, transport } = makeBotDeps(t, { rng });
    // Worked numbers at 100 points per score point, ten times the default, for plain rewards.
    await deps.runtimeConfig.set('place_points_per_score', '100', 'admin');
    const hunt = deps.services.hunt;
    await deps.runtimeConfig.set('place_draw_points', '0', 'admin');
    await deps.runtimeConfig.set('hunt_channel', '893000000000000900', 'admin');
    const first = await hunt.tip(ANN, [10, 10, 10, 10, 10, 10, 10, 10], null); // target 0,…,0
    targetValue = 50;
    const attempts = await Promise.all(Array.from({ length: 5 }, () => hunt.reroll(1)));
    expect(attempts.filter((a) => a.rerolled)).toHaveLength(1);
    expect(attempts.every((a) => a.task.round === 2)).toBe(true);
    expect((await hunt.reroll(1)).rerolled).toBe(false);
    clock.advance(first.window.closesAt.getTime() - clock.now().getTime());
    await deps.scheduler.runDue();
    // The tip of round 1: 80 off 0,…,0 in 264 → 69.69 %, paid 6,969 points.
    expect((await hunt.history(ANN, 1))[0]?.score).toBe(6_969);
    const again = await hunt.tip(ANN, [50, 50, 50, 50, 50, 50, 50, 50], null);
    expect(again.tip.sequence).toBe(1);
    expect(again.tip.round).toBe(2);
    clock.advance(again.window.closesAt.getTime() - clock.now().getTime());
    await deps.scheduler.runDue();
    await deps.ledger.flush();
    // Round 2 on its own: from no best to 100.00 %, 10,000 points.
    expect(await deps.ledger.balanceOf('place', ANN)).toBe(6_969_000 + 10_000_000);
    expect((await hunt.status(ANN)).best).toBe(10_000);
    const rerolled = transport.posts.filter((p) => String(p.post.content).startsWith('🎲'));
    expect(rerolled.map((p) => p.post.content)).toEqual([
      '🎲 Round 1 is over: its target was **0, 0, 0, 0, 0, 0, 0, 0**. Round 2 has a new target; bests and tip numbers start again.',
    ]);
    expect(await booksProblems(t.cols)).toEqual([]);
  });

  it('GIVEN a member and its two workers hunting the same 5 minutes THEN the member is paid for 5 minutes once; a worker alone still pays its owner', async () => {
    const { deps, clock } = makeBotDeps(t);
    const workers = [await deps.services.workers.link(ANN, 'a'), await deps.services.workers.link(ANN, 'b')];
    let paid = 0;
    for (let s = 0; s <= 300; s += 50) {
      for (const identity of [ANN, ...workers.map((w) => w._id)])
        paid += await deps.services.hunt.activity(identity);
      clock.advance(50_000);
    }
    expect(paid).toBe(100_000);
    // The member goes; a worker keeps hunting: that time is new, and the owner's.
    clock.advance(180_000);
    const worker = workers[0] as { _id: string };
    for (let s = 0; s <= 120; s += 60) {
      paid += await deps.services.hunt.activity(worker._id);
      clock.advance(60_000);
    }
    await deps.ledger.flush();
    expect(paid).toBe(140_000);
    expect(await deps.ledger.balanceOf('place', ANN)).toBe(140_000);
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

  it('GIVEN two minutes owed by claims from before the sweep (paid through holds and their timers) THEN each is paid once through its hold, a new minute by a credit, and nothing stays owed', async () => {
    const { deps, clock } = makeBotDeps(t);
    const at = clock.now();
    const owed = (n: number) => ({
      id: `hunt.time:${ANN}:${n}`,
      identity: ANN,
      milli: 20_000,
      units: 1,
      detail: '',
      at,
    });
    // What a claim of that shape left when its process died before paying.
    await t.db.collection('hunt_time').insertOne({ _id: ANN as never, version: 2, owed: [owed(1), owed(2)] });
    for (const n of [1, 2]) {
      await deps.scheduler.schedule({
        id: `hunt.time.pay:${owed(n).id}`,
        kind: 'hunt.time.pay',
        dueAt: new Date(at.getTime() + 60_000),
        payload: { owner: ANN, id: owed(n).id },
      });
    }
    // The member hunts on after the upgrade: a new minute, paid at once by its claim.
    await deps.services.hunt.activity(ANN);
    clock.advance(60_000);
    expect(await deps.services.hunt.activity(ANN)).toBe(20_000);
    clock.advance(7 * 60_000);
    await deps.scheduler.runDue();
    await deps.scheduler.runDue();
    await deps.ledger.flush();
    expect(await deps.ledger.balanceOf('place', ANN)).toBe(60_000);
    const holds = await deps.holds.ofOwner({ kind: 'hunt.time', id: ANN });
    expect(holds.map((h) => [h._id, h.state]).sort()).toEqual([
      [owed(1).id, 'posted'],
      [owed(2).id, 'posted'],
    ]);
    expect((await t.db.collection('hunt_time').findOne({ _id: ANN as never }))?.owed).toEqual([]);
    expect(await booksProblems(t.cols)).toEqual([]);
  });

  it('GIVEN score rewards switched on after some drawn tips THEN the bests from before earn nothing; only the later improvement pays', async () => {
    const { deps, clock } = makeBotDeps(t, { rng: low });
    const hunt = deps.services.hunt;
    await deps.runtimeConfig.set('place_points_per_score', '0', 'admin');
    await deps.runtimeConfig.set('place_draw_points', '0', 'admin');
    const before = await hunt.tip(ANN, [10, 10, 10, 10, 10, 10, 10, 10], null); // 69.69 %
    clock.advance(before.window.closesAt.getTime() - clock.now().getTime());
    await deps.scheduler.runDue();
    await deps.runtimeConfig.set('place_points_per_score', '100', 'admin');
    const after = await hunt.tip(ANN, [5, 5, 5, 5, 5, 5, 5, 5], null); // 84.84 %
    clock.advance(after.window.closesAt.getTime() - clock.now().getTime());
    await deps.scheduler.runDue();
    await deps.ledger.flush();
    // Only 69.69 → 84.84 pays: 15.15 score points × 100 = 1,515 points.
    expect(await deps.ledger.balanceOf('place', ANN)).toBe(1_515_000);
    expect((await hunt.status(ANN)).best).toBe(8_484);
  });

  it('GIVEN the hunt switched off THEN tips are refused and record nothing, active time earns nothing, and a tip from before is still drawn', async () => {
    const { deps, clock } = makeBotDeps(t, { rng: low });
    const hunt = deps.services.hunt;
    await deps.runtimeConfig.set('place_points_per_score', '0', 'admin');
    const { window } = await hunt.tip(ANN, [5, 5, 5, 5, 5, 5, 5, 5], null);
    await hunt.activity(BEN);
    await deps.runtimeConfig.set('hunt_enabled', 'off', 'admin');
    await expect(hunt.tip(BEN, [5, 5, 5, 5, 5, 5, 5, 5], null)).rejects.toMatchObject({
      code: 'FEATURE_DISABLED',
    });
    clock.advance(90_000);
    expect(await hunt.activity(BEN)).toBe(0);
    expect((await hunt.status(BEN)).tip).toBeNull();
    clock.advance(window.closesAt.getTime() - clock.now().getTime());
    await deps.scheduler.runDue();
    await deps.ledger.flush();
    expect(await deps.ledger.balanceOf('place', ANN)).toBe(25_000);
    expect(await deps.ledger.balanceOf('place', BEN)).toBe(0);
  });

  it('GIVEN a window another process has already drawn (its clock a little ahead) THEN a late tip is refused with when to tip again, and nothing is recorded', async () => {
    const { deps } = makeBotDeps(t, { rng: low });
    const hunt = deps.services.hunt;
    const { window } = await hunt.tip(ANN, [5, 5, 5, 5, 5, 5, 5, 5], null);
    await hunt.closeWindow(window._id); // the other process's timer
    await expect(hunt.tip(BEN, [5, 5, 5, 5, 5, 5, 5, 5], null)).rejects.toMatchObject({
      code: 'INVALID_INPUT',
      context: { messageKey: 'hunt:errors.drawing', atSeconds: window.closesAt.getTime() / 1000 },
    });
    expect((await hunt.status(BEN)).tip).toBeNull();
  });
});
