import { beforeEach, describe, expect, it } from 'vitest';
import type { BotDeps } from '../../src/interactions/types.js';
import { metrics } from '../../src/metrics.js';
import { type ReserveRequest, SWEEP_EVERY_MS, SWEEP_GRACE_MS } from '../../utils/money/holds/holds.js';
import { holdProblems } from '../../utils/money/holds/invariants.js';
import { moneyLayer } from '../../utils/money/moneyLayer.js';
import { makeBotDeps } from '../support/botHarness.js';
import { clearDatabase, useTestDatabase } from '../support/database.js';
import type { WireRequest } from '../support/faultProxy.js';
import { useFaultyConnection } from '../support/faultyConnection.js';
import { booksProblems } from '../support/ledgerHarness.js';
import { pauseAt } from '../support/pause.js';
import { waitFor } from '../support/waitFor.js';

const t = useTestDatabase('holds');
const ANN = '893000000000000001';
const BEN = '893000000000000002';

async function funded(deps: BotDeps, amount = 1_000) {
  await deps.services.cookies.grant({ opId: `g-${ANN}`, adminId: 'admin', to: ANN, amount, reason: '' });
}

const stake = (id: string, amount = 300): ReserveRequest => ({
  id,
  currency: 'cookies',
  from: ANN,
  amount,
  kind: 'games.stake',
  source: ANN,
  owner: { kind: 'test', id: 'owner-1' },
  ttlMs: 60_000,
});

async function cookies(deps: BotDeps, account: string) {
  await deps.ledger.flush();
  return deps.ledger.balanceOf('cookies', account);
}

async function expectClean(deps: BotDeps, now: Date) {
  await deps.ledger.flush();
  expect(await booksProblems(t.cols)).toEqual([]);
  expect(await holdProblems(t.db, deps.ledger, now, 0)).toEqual([]);
}

describe('holds: money in play', () => {
  beforeEach(() => clearDatabase(t.db));

  it('GIVEN a reserve THEN the value sits in the hold until a post sends part to one account and the rest back; a second post or a void changes nothing', async () => {
    const { deps, clock } = makeBotDeps(t);
    await funded(deps);
    const held = await deps.holds.reserve(stake('h1'));
    expect(held.state).toBe('held');
    expect([await cookies(deps, ANN), await cookies(deps, held.account)]).toEqual([700, 300]);
    expect(await deps.scheduler.get('holds.expire:h1')).not.toBeNull();
    const posted = await deps.holds.post('h1', [{ to: BEN, amount: 120, kind: 'games.payout' }], {
      rest: 'return',
    });
    expect(posted).toMatchObject({
      state: 'posted',
      postings: [
        { to: BEN, amount: 120 },
        { to: ANN, amount: 180 },
      ],
    });
    // The first post decided: a later post with another plan, and a void, return it as it is.
    expect(await deps.holds.post('h1', [{ to: ANN, amount: 300, kind: 'games.payout' }])).toMatchObject({
      state: 'posted',
      postings: posted.postings,
    });
    expect((await deps.holds.void('h1')).state).toBe('posted');
    expect([await cookies(deps, ANN), await cookies(deps, BEN), await cookies(deps, held.account)]).toEqual([
      880, 120, 0,
    ]);
    // Ended, the hold needs its timer no more: it was dropped rather than left to wake for nothing.
    expect(await deps.scheduler.get('holds.expire:h1')).toBeNull();
    await expectClean(deps, clock.now());
  });

  it('GIVEN a reserve above the balance THEN it is refused with the numbers, moves nothing, and a retry of the id stays refused', async () => {
    const { deps, clock } = makeBotDeps(t);
    await funded(deps, 100);
    await expect(deps.holds.reserve(stake('h2'))).rejects.toMatchObject({
      code: 'INSUFFICIENT_COOKIES',
      context: { balance: 100, needed: 300 },
    });
    expect((await deps.holds.get('h2'))?.state).toBe('refused');
    expect((await deps.holds.reserve(stake('h2'))).state).toBe('refused');
    expect(await cookies(deps, ANN)).toBe(100);
    await expectClean(deps, clock.now());
  });

  it('GIVEN a post and a void racing on one hold from two processes THEN exactly one of them happens', async () => {
    const one = makeBotDeps(t);
    const two = makeBotDeps(t);
    await funded(one.deps);
    for (let i = 0; i < 10; i++) {
      await one.deps.holds.reserve(stake(`race-${i}`, 50));
      const [a, b] = await Promise.all([
        one.deps.holds.post(`race-${i}`, [{ to: BEN, amount: 50, kind: 'games.payout' }]),
        two.deps.holds.void(`race-${i}`),
      ]);
      expect(a.state).toBe(b.state);
    }
    const posted = (await one.deps.holds.ofOwner({ kind: 'test', id: 'owner-1' })).filter(
      (h) => h.state === 'posted',
    );
    expect(await cookies(one.deps, BEN)).toBe(50 * posted.length);
    expect(await cookies(one.deps, ANN)).toBe(1_000 - 50 * posted.length);
    await expectClean(one.deps, one.clock.now());
  });

  it('GIVEN a reserve still in flight in a slow process WHEN another process voids the hold THEN the reserve can never land: the member keeps the Cookies', async () => {
    const pause = pauseAt('credit.before', 'games.stake');
    const slow = makeBotDeps(t, { hooks: pause.hooks });
    const { deps, clock } = makeBotDeps(t);
    await funded(deps);
    const reserving = slow.deps.holds.reserve(stake('h3')).catch((error: unknown) => error);
    await pause.reached;
    expect(await cookies(deps, ANN)).toBe(700); // the debit landed, the credit is on its way
    expect((await deps.holds.void('h3')).state).toBe('refused');
    pause.release();
    expect(await reserving).toMatchObject({ code: 'ACCOUNT_CLOSED' });
    expect(await cookies(deps, ANN)).toBe(1_000);
    expect((await deps.holds.post('h3', [{ to: BEN, amount: 300, kind: 'games.payout' }])).state).toBe(
      'refused',
    );
    // The slow process returned its debit; its sweeper unsets the emptied marker array a moment
    // later, so it is flushed too before the books are read.
    await slow.deps.ledger.flush();
    await expectClean(deps, clock.now());
  });

  it('GIVEN a hold nobody ends THEN its timer voids it at its deadline, once, from any process', async () => {
    const { deps, clock } = makeBotDeps(t);
    const other = makeBotDeps(t);
    await funded(deps);
    await deps.holds.reserve(stake('h4'));
    clock.advance(61_000);
    other.clock.advance(61_000);
    await Promise.all([deps.scheduler.runDue(), other.deps.scheduler.runDue()]);
    expect((await deps.holds.get('h4'))?.state).toBe('voided');
    expect(await cookies(deps, ANN)).toBe(1_000);
    await expectClean(deps, clock.now());
  });
});

describe('holds: a reserve that arrives after its timer decided', () => {
  const net = useFaultyConnection(t);
  const slowStake = (id: string): ReserveRequest => ({ ...stake(id, 30), ttlMs: 200 });
  const isHoldInsert = (r: WireRequest) => r.command === 'insert' && r.collection === 'holds';

  beforeEach(() => clearDatabase(t.db));

  it('GIVEN a reserve whose record is delayed past its deadline WHEN its timer runs first THEN the late record moves nothing and the hold ends refused', async () => {
    const { deps, clock } = makeBotDeps(t);
    const slow = makeBotDeps({ db: net.db, cols: net.faulty });
    await funded(deps, 100);
    let deliver: () => void = () => {};
    const delayed = new Promise<void>((resolve) => {
      deliver = resolve;
    });
    net.proxy.setRule((r) => (isHoldInsert(r) ? { stallUntil: delayed } : 'pass'));
    const reserving = slow.deps.holds.reserve(slowStake('late-1'));
    await waitFor(async () => (await deps.scheduler.get('holds.expire:late-1')) !== null);
    clock.advance(1_500);
    await deps.scheduler.runDue();
    expect((await deps.scheduler.get('holds.expire:late-1'))?.status).toBe('done');
    deliver();
    expect((await reserving).state).toBe('refused');
    expect(await cookies(deps, ANN)).toBe(100);
    expect((await deps.holds.get('late-1'))?.state).toBe('refused');
    await net.proxy.settled();
    await expectClean(deps, clock.now());
  });

  it.each([
    ['after its timer ran', true],
    ['before its timer ran', false],
  ])(
    'GIVEN a first attempt lost before it reached the database WHEN it is retried past its deadline, %s, THEN the retry moves nothing',
    async (_, timerFirst) => {
      const { deps, clock } = makeBotDeps(t);
      const slow = makeBotDeps({ db: net.db, cols: net.faulty });
      await funded(deps, 100);
      let first = true;
      net.proxy.setRule((r) => {
        if (!isHoldInsert(r) || !first) return 'pass';
        first = false;
        return 'drop';
      });
      await expect(slow.deps.holds.reserve(slowStake('late-2'))).rejects.toThrow();
      clock.advance(1_500);
      slow.clock.advance(1_500);
      if (timerFirst) await deps.scheduler.runDue();
      expect((await slow.deps.holds.reserve(slowStake('late-2'))).state).toBe('refused');
      await deps.scheduler.runDue();
      expect(await cookies(deps, ANN)).toBe(100);
      expect((await deps.holds.get('late-2'))?.state).toBe('refused');
      await expectClean(deps, clock.now());
    },
  );

  it('GIVEN an owed hold’s timer that found no hold WHEN the owner’s reserve is stored and starts moving before the timer decides THEN the value still lands, is never called off, and the books balance', async () => {
    // The owner's process: its reserve stops between taking the Cookies and crediting the hold.
    const pause = pauseAt('credit.before', 'poker.cashout');
    const owner = makeBotDeps(t, { hooks: pause.hooks });
    // The timekeeper, hours ahead: its timer runs before the owner's hold is even stored.
    const timekeeper = makeBotDeps({ db: net.db, cols: net.faulty });
    await funded(owner.deps, 100);
    const owed: ReserveRequest = { ...stake('owed-1', 40), kind: 'poker.cashout', ttlMs: 1_000, owed: true };
    const { id: _, ttlMs: __, ...planned } = { ...owed, reason: '' };
    // The timer's next request after it found no hold waits until the owner's reserve is moving.
    let looked = false;
    let decide: () => void = () => {};
    const gate = new Promise<void>((resolve) => {
      decide = resolve;
    });
    net.proxy.setRule((r) => {
      if (looked) return { stallUntil: gate };
      looked = r.command === 'find' && r.collection === 'holds';
      return 'pass';
    });
    const expiring = timekeeper.deps.holds.expire('owed-1', planned).catch((error: unknown) => error);
    await waitFor(() => net.proxy.stats.stalls > 0, { what: 'the timer to have found no hold' });
    const reserving = owner.deps.holds.reserve(owed).catch((error: unknown) => error);
    await pause.reached;
    net.proxy.setRule(() => 'pass');
    decide();
    await net.proxy.settled();
    pause.release();
    expect(await reserving).toMatchObject({ state: 'held' });
    await expiring;
    // The hold's own timer ends it as its owner's rules say (none here: the value goes back).
    owner.clock.advance(10 * 60_000);
    await owner.deps.scheduler.runDue();
    expect((await owner.deps.holds.get('owed-1'))?.state).toBe('voided');
    expect(await cookies(owner.deps, ANN)).toBe(100);
    await net.proxy.settled();
    await owner.deps.ledger.flush();
    await expectClean(owner.deps, owner.clock.now());
  });

  it('GIVEN an owed reserve whose first attempt was lost before it reached the database WHEN it is retried past its deadline THEN the value still lands (owed value is never called off)', async () => {
    const { deps, clock } = makeBotDeps(t);
    const slow = makeBotDeps({ db: net.db, cols: net.faulty });
    await funded(deps, 100);
    const owed: ReserveRequest = { ...slowStake('owed-2'), kind: 'poker.cashout', owed: true };
    let first = true;
    net.proxy.setRule((r) => {
      if (!isHoldInsert(r) || !first) return 'pass';
      first = false;
      return 'drop';
    });
    await expect(slow.deps.holds.reserve(owed)).rejects.toThrow();
    clock.advance(1_500);
    slow.clock.advance(1_500);
    expect(await slow.deps.holds.reserve(owed)).toMatchObject({ state: 'held', amount: 30 });
    expect(await cookies(deps, ANN)).toBe(70);
    // Its timer then ends it as its owner's rules say (none here: the value goes back).
    await deps.scheduler.runDue();
    expect((await deps.holds.get('owed-2'))?.state).toBe('voided');
    expect(await cookies(deps, ANN)).toBe(100);
    await expectClean(deps, clock.now());
  });

  it('GIVEN a retry within the deadline THEN it keeps the first attempt’s deadline: the timer ends the hold on time', async () => {
    const { deps, clock } = makeBotDeps(t);
    await funded(deps, 100);
    await deps.holds.reserve({ ...stake('keep-1', 30), ttlMs: 1_000 });
    clock.advance(600);
    const retried = await deps.holds.reserve({ ...stake('keep-1', 30), ttlMs: 1_000 });
    expect(retried.deadline.getTime()).toBe(clock.now().getTime() + 400);
    clock.advance(500);
    await deps.scheduler.runDue();
    expect((await deps.holds.get('keep-1'))?.state).toBe('voided');
    expect(await cookies(deps, ANN)).toBe(100);
  });
});

describe('holds: the sweep behind the timers', () => {
  beforeEach(() => clearDatabase(t.db));

  it('GIVEN a hold its timer left open THEN the checker reports it past the grace, and the sweep ends it, logged and counted', async () => {
    const { deps, clock, logs } = makeBotDeps(t);
    await funded(deps, 100);
    const held = await deps.holds.reserve({ ...stake('swept-1', 30), ttlMs: 1_000 });
    // The first line fails: the timer is marked done although the hold is still open.
    await t.cols.dueTasks.updateOne({ _id: 'holds.expire:swept-1' }, { $set: { status: 'done' } });
    const counted = async () => (await metrics.holdsSwept.get()).values[0]?.value ?? 0;
    const before = await counted();
    clock.advance(1_000 + deps.config.ledger.recoveryGraceMs + SWEEP_GRACE_MS + SWEEP_EVERY_MS + 1);
    const check = () => moneyLayer.checkInvariants?.(t.db, deps.config, deps.ledger, clock.now()) ?? [];
    expect(await check()).toEqual([
      expect.stringContaining(`hold swept-1 (test owner-1): still held at 30 past its deadline`),
    ]);
    await deps.scheduler.runDue();
    expect((await deps.holds.get(held._id))?.state).toBe('voided');
    expect(await cookies(deps, ANN)).toBe(100);
    expect(await counted()).toBe(before + 1);
    expect(logs.some((l) => l.event === 'holds.swept' && l.hold === 'swept-1')).toBe(true);
    expect(await check()).toEqual([]);
  });

  it('GIVEN holds that end on time THEN the sweep finds nothing and counts nothing', async () => {
    const { deps, clock } = makeBotDeps(t);
    await funded(deps, 100);
    await deps.holds.reserve({ ...stake('fine-1', 30), ttlMs: 1_000 });
    const before = (await metrics.holdsSwept.get()).values[0]?.value ?? 0;
    clock.advance(1_000 + SWEEP_GRACE_MS + SWEEP_EVERY_MS);
    expect(await deps.scheduler.runDue()).toBe(2);
    expect((await deps.holds.get('fine-1'))?.state).toBe('voided');
    expect((await metrics.holdsSwept.get()).values[0]?.value ?? 0).toBe(before);
  });
});
