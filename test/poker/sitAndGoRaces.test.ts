import { beforeEach, describe, expect, it } from 'vitest';
import { ASSEMBLY } from '../../commands/index.js';
import { isAppError } from '../../src/errors.js';
import type { BotDeps } from '../../src/interactions/types.js';
import { legalActions, type PokerAction } from '../../utils/poker/engine.js';
import type { PokerService, PokerStep } from '../../utils/poker/pokerService.js';
import { chipProblems } from '../../utils/poker/tableBooks.js';
import type { TableDoc } from '../../utils/poker/tableStore.js';
import { makeBotDeps } from '../support/botHarness.js';
import { clearDatabase, useTestDatabase } from '../support/database.js';
import { booksProblems } from '../support/ledgerHarness.js';
import { pokerServiceOf } from '../support/pokerTable.js';
import { openTournament, playOut } from '../support/sitAndGo.js';
import { waitFor } from '../support/waitFor.js';

/*
 * A sit-and-go while two things happen to it at once: the host's Close against the last
 * registration, an unregistration against the start, a player giving up against an action,
 * two processes finishing the last hand, the level timer during a hand. After each race the
 * books hold: every Cookie is a member's or the pot's, the pot holds in − out, the tournament's
 * chips add up, and the ledger's and the bot's checkers find nothing. "Two processes" are two
 * sets of bot deps (or two PokerService instances) over the one database.
 */

const t = useTestDatabase('poker_sng_races');
const [ANN, BEN, CAL, DAN] = [
  '884000000000000001',
  '884000000000000002',
  '884000000000000003',
  '884000000000000004',
];
const MEMBERS = [ANN, BEN, CAL, DAN];
const GRANT = 1_000;
const BUY_IN = 100;
const ID = 'sng';
/** Past the ledger's recovery grace: a moves timer left by a process that died is due. */
const PAST_GRACE_MS = 61_000;

type Made = ReturnType<typeof makeBotDeps>;

/** A second process: its own bot deps, and a PokerService of its own (with `hooks`, one that dies). */
function processOf(hooks?: { step(step: PokerStep, op: string): void }): Made & { poker: PokerService } {
  const made = makeBotDeps(t);
  const { deps } = made;
  const poker = pokerServiceOf(deps, t.db, hooks);
  return { ...made, poker };
}

/** A process that dies right after persisting the first Cookie operation whose id starts with `prefix`. */
function dyingAt(prefix: string): Made & { poker: PokerService } {
  let died = false;
  return processOf({
    step(step, op) {
      if (died || step !== 'intent.persisted' || !op.startsWith(prefix)) return;
      died = true;
      throw new Error(`process died after persisting ${op}`);
    },
  });
}

/** ANN's tournament of `players` for 100, with `registered` registered in order. */
async function open(deps: BotDeps, registered: string[], players = 3): Promise<TableDoc> {
  return openTournament(deps, {
    id: ID,
    host: ANN,
    members: MEMBERS,
    grant: GRANT,
    buyIn: BUY_IN,
    players,
    registered,
  });
}

/**
 * The host's Close, pressed again while refused because a registration is on its way
 * (OPERATION_IN_PROGRESS: "try again in a few seconds", as the host would).
 */
function closeAsHost(deps: BotDeps): Promise<TableDoc> {
  return waitFor(
    () =>
      deps.services.poker.close(ID, ANN).catch((error: unknown) => {
        if (isAppError(error, 'OPERATION_IN_PROGRESS')) return null;
        throw error;
      }),
    { what: 'the host to close once the registration in flight is decided', intervalMs: 5 },
  );
}

const table = async (deps: BotDeps) => (await deps.services.poker.get(ID)) as TableDoc;

async function cookies(deps: BotDeps, account: string): Promise<number> {
  await deps.ledger.flush();
  return deps.ledger.balanceOf('cookies', account);
}

/**
 * Every Cookie is a member's or the table's pot, the pot holds in − out, the tournament's chips
 * add up, nobody is out twice, and the checkers agree.
 */
async function expectWhole(deps: BotDeps): Promise<TableDoc> {
  await deps.services.poker.finishMoves(ID);
  const doc = await table(deps);
  expect(doc.pending).toEqual([]);
  expect(chipProblems(doc)).toEqual([]);
  const out = (doc.sng?.out ?? []).map((b) => b.userId);
  expect(new Set(out).size).toBe(out.length);
  const pot = await cookies(deps, `pot:poker:${ID}`);
  expect(pot).toBe(doc.chips.in - doc.chips.out);
  let members = 0;
  for (const m of MEMBERS) members += await cookies(deps, m);
  expect(members + pot).toBe(MEMBERS.length * GRANT);
  expect(await booksProblems(t.cols)).toEqual([]);
  expect(await ASSEMBLY.checkInvariants(t.db, deps.config, deps.ledger, deps.clock.now())).toEqual([]);
  return doc;
}

/**
 * Once it ended: the prizes add up to the entrants' buy-ins, the pot is empty, and every member
 * holds their grant, less their buy-in if they played, plus their prize.
 */
async function expectPaidOnce(deps: BotDeps, doc: TableDoc): Promise<void> {
  const entrants = doc.sng?.entrants ?? [];
  const prizes = doc.sng?.prizes ?? [];
  expect(doc.status).toBe('closed');
  expect(prizes.reduce((n, p) => n + p.amount, 0)).toBe(entrants.length * BUY_IN);
  expect(await cookies(deps, `pot:poker:${ID}`)).toBe(0);
  for (const m of MEMBERS) {
    const prize = prizes.filter((p) => p.userId === m).reduce((n, p) => n + p.amount, 0);
    const paid = entrants.includes(m) ? BUY_IN : 0;
    expect(await cookies(deps, m), `${m}'s Cookies`).toBe(GRANT - paid + prize);
  }
}

/** What the player to act would press in playOut: all-in, or a call / check. */
function shove(doc: TableDoc): { userId: string; move: PokerAction } | null {
  const hand = doc.game.hand;
  if (!hand || hand.street === 'done' || hand.toAct === null) return null;
  const legal = legalActions(doc.game, hand.toAct);
  const userId = doc.game.seats[hand.toAct]?.userId ?? '';
  const move: PokerAction = legal.canRaise
    ? { type: 'raise', to: legal.maxRaiseTo }
    : legal.toCall === 0
      ? { type: 'check' }
      : { type: 'call' };
  return { userId, move };
}

describe('a sit-and-go while two things happen to it at once', () => {
  beforeEach(() => clearDatabase(t.db));

  it('GIVEN the last place taken as the host closes, twice THEN it is closed with every Cookie back, or open with the registration seated; nothing stuck in the pot', async () => {
    for (let round = 0; round < 2; round++) {
      await clearDatabase(t.db);
      const one = makeBotDeps(t);
      const two = makeBotDeps(t);
      await open(one.deps, [ANN, BEN]);
      const [joined, closed] = await Promise.allSettled([
        two.deps.services.poker.join(ID, CAL, BUY_IN),
        closeAsHost(one.deps),
      ]);
      await two.deps.ledger.flush();
      const doc = await expectWhole(one.deps);
      if (doc.status === 'closed') {
        expect(closed.status).toBe('fulfilled');
        expect(doc.game.seats.every((s) => s === null)).toBe(true);
        expect(await cookies(one.deps, `pot:poker:${ID}`)).toBe(0);
        for (const m of MEMBERS) expect(await cookies(one.deps, m)).toBe(GRANT);
      } else {
        // The close was refused (a registration landing): the registration is seated and paid.
        expect(joined.status).toBe('fulfilled');
        expect(doc.game.seats.flatMap((s) => (s ? [s.userId] : []))).toEqual([ANN, BEN, CAL]);
        expect(await cookies(one.deps, CAL)).toBe(GRANT - BUY_IN);
      }
    }
  });

  it('GIVEN a registrant unregistering as the host starts, twice THEN they either play or have their buy-in back, never both or neither', async () => {
    for (let round = 0; round < 2; round++) {
      await clearDatabase(t.db);
      const one = makeBotDeps(t);
      const two = makeBotDeps(t);
      await open(one.deps, [ANN, BEN, CAL], 4);
      // Round 0: both pressed at once. Round 1: the Leave pressed the moment the deal shows,
      // while the Start is still finishing.
      const starting = one.deps.services.poker.start(ID, ANN);
      if (round === 1) await waitFor(async () => (await table(one.deps)).sng?.startedAt, { intervalMs: 1 });
      const [left, started] = await Promise.allSettled([two.deps.services.poker.leave(ID, CAL), starting]);
      expect(left.status).toBe('fulfilled');
      expect(started.status).toBe('fulfilled');
      await two.deps.ledger.flush();
      const doc = await expectWhole(one.deps);
      const plays = doc.sng?.entrants?.includes(CAL) ?? false;
      // Playing: they gave up once it started (out, their buy-in in the pool); else refunded.
      expect(await cookies(one.deps, CAL)).toBe(plays ? GRANT - BUY_IN : GRANT);
      expect(doc.sng?.out.filter((b) => b.userId === CAL)).toHaveLength(plays ? 1 : 0);
      expect(doc.chips.in - doc.chips.out).toBe((doc.sng?.entrants?.length ?? 0) * BUY_IN);
      if (round === 1) {
        expect(plays).toBe(true);
        await playOut(one.deps.services.poker, ID);
        await expectPaidOnce(one.deps, await expectWhole(one.deps));
      }
    }
  });

  it('GIVEN a full tournament whose start timer is due WHEN a registrant unregisters at that moment, twice THEN they play or are paid back, and it never starts by itself short of a full table', async () => {
    for (let round = 0; round < 2; round++) {
      await clearDatabase(t.db);
      const one = makeBotDeps(t);
      const two = makeBotDeps(t);
      await one.deps.runtimeConfig.set('poker.next_hand_s', '5', 'admin');
      await open(one.deps, [ANN, BEN, CAL]);
      one.clock.advance(5_000);
      two.clock.advance(5_000);
      // Round 0: at once. Round 1: the Leave pressed the moment the timer's deal shows.
      const timers = one.deps.scheduler.runDue();
      if (round === 1) await waitFor(async () => (await table(one.deps)).sng?.startedAt, { intervalMs: 1 });
      await Promise.allSettled([two.deps.services.poker.leave(ID, CAL), timers]);
      await two.deps.ledger.flush();
      const doc = await expectWhole(one.deps);
      const plays = doc.sng?.entrants?.includes(CAL) ?? false;
      expect(await cookies(one.deps, CAL)).toBe(plays ? GRANT - BUY_IN : GRANT);
      if (doc.sng?.startedAt) expect(doc.sng.entrants).toHaveLength(3);
      else expect(doc.game.seats.flatMap((s) => (s ? [s.userId] : []))).toEqual([ANN, BEN]);
    }
  });

  it('GIVEN the start timer found the table full WHEN a registrant unregistered just before it deals THEN it does not start short of a full table', async () => {
    const { deps } = makeBotDeps(t);
    await open(deps, [ANN, BEN, CAL]);
    await deps.services.poker.leave(ID, CAL);
    // What the start timer does once its check of the table passed: deal, as no member.
    const after = await deps.services.poker.start(ID, null);
    expect(after.sng?.startedAt).toBeUndefined();
    expect(after.game.hand).toBeNull();
    await expectWhole(deps);
    // Full again: it starts by itself, with all three.
    await deps.services.poker.join(ID, DAN, BUY_IN);
    expect((await deps.services.poker.start(ID, null)).sng?.entrants).toEqual([ANN, BEN, DAN]);
  });

  it('GIVEN an unregistration whose process died with the refund on its way WHEN the host starts and the tournament ends THEN the prizes are the entrants’ buy-ins and the refund is still paid', async () => {
    const one = makeBotDeps(t);
    await open(one.deps, [ANN, BEN, CAL], 4);
    const dying = dyingAt('poker_cashout:');
    await expect(dying.poker.leave(ID, CAL)).rejects.toThrow('process died');
    expect((await table(one.deps)).pending.map((m) => m.kind)).toEqual(['cashout']);
    await one.deps.services.poker.start(ID, ANN);
    await playOut(one.deps.services.poker, ID);
    // The refund's timer, once the process is known gone.
    one.clock.advance(PAST_GRACE_MS);
    await one.deps.scheduler.runDue();
    const doc = await expectWhole(one.deps);
    expect(doc.sng?.entrants).toEqual([ANN, BEN]);
    await expectPaidOnce(one.deps, doc);
  });

  it('GIVEN a player giving up while an action is in flight (theirs or another’s), twice THEN they are out once, the chips add up, and the tournament pays its pool', async () => {
    for (let round = 0; round < 2; round++) {
      await clearDatabase(t.db);
      const one = makeBotDeps(t);
      const two = makeBotDeps(t);
      await open(one.deps, [ANN, BEN, CAL, DAN], 4);
      await one.deps.services.poker.start(ID, ANN);
      // `round` folds first (a later seat each round); then the player to act presses as someone gives up.
      for (let fold = 0; fold < round; fold++) {
        const doc = await table(one.deps);
        const turn = shove(doc);
        if (!turn) await one.deps.services.poker.start(ID, null);
        else await one.deps.services.poker.act(ID, turn.userId, { type: 'fold' }, doc.step);
      }
      let doc = await table(one.deps);
      if (!shove(doc)) doc = await one.deps.services.poker.start(ID, null);
      const turn = shove(doc) as { userId: string; move: PokerAction };
      const others = (doc.sng?.entrants ?? []).filter((m) => m !== turn.userId);
      const quitter = round % 2 === 0 ? turn.userId : (others[round] as string);
      const results = await Promise.allSettled([
        one.deps.services.poker.act(ID, turn.userId, turn.move, doc.step),
        two.deps.services.poker.leave(ID, quitter),
        // The same Leave pressed twice.
        one.deps.services.poker.leave(ID, quitter),
      ]);
      expect(results.filter((r) => r.status === 'fulfilled').length).toBeGreaterThanOrEqual(2);
      await two.deps.ledger.flush();
      doc = await expectWhole(one.deps);
      expect(doc.sng?.out.filter((b) => b.userId === quitter)).toEqual([
        expect.objectContaining({ forfeit: true }),
      ]);
      expect(doc.game.seats.some((s) => s?.userId === quitter)).toBe(false);
      const ended = await playOut(one.deps.services.poker, ID);
      expect(ended.sng?.prizes?.some((p) => p.userId === quitter)).toBe(false);
      const whole = await expectWhole(one.deps);
      expect([...(whole.sng?.out ?? []).map((b) => b.userId), whole.sng?.prizes?.[0]?.userId].sort()).toEqual(
        [ANN, BEN, CAL, DAN].sort(),
      );
      await expectPaidOnce(one.deps, whole);
    }
  });

  it('GIVEN two processes pressing every action of the tournament at once, and finishing its moves at once THEN every prize is paid exactly once', async () => {
    const one = processOf();
    const two = processOf();
    await open(one.deps, [ANN, BEN, CAL]);
    const pokers = [one.poker, two.poker];
    await one.poker.start(ID, ANN);
    for (let n = 0; n < 400; n++) {
      const doc = (await one.poker.get(ID)) as TableDoc;
      if (doc.status === 'closed') break;
      const turn = shove(doc);
      await Promise.allSettled(
        turn
          ? [...pokers.map((p) => p.act(ID, turn.userId, turn.move, doc.step)), two.poker.finishMoves(ID)]
          : pokers.map((p) => p.start(ID, null)),
      );
    }
    await Promise.allSettled([one.poker.finishMoves(ID), two.poker.finishMoves(ID)]);
    await two.deps.ledger.flush();
    const doc = await expectWhole(one.deps);
    expect(doc.sng?.prizes?.map((p) => p.amount).reduce((a, b) => a + b, 0)).toBe(3 * BUY_IN);
    await expectPaidOnce(one.deps, doc);
  });

  it('GIVEN the process that ended the tournament died with its prizes on their way WHEN two processes and the moves timer finish them at once THEN every prize is paid exactly once', async () => {
    const one = makeBotDeps(t);
    await open(one.deps, [ANN, BEN, CAL]);
    const dying = dyingAt('poker_prize:');
    await dying.poker.start(ID, ANN);
    await expect(playOut(dying.poker, ID)).rejects.toThrow('process died');
    const left = await table(one.deps);
    expect(left.status).toBe('closed');
    expect(left.pending.map((m) => m.kind)).toEqual(left.sng?.prizes?.map(() => 'prize'));
    const two = processOf();
    one.clock.advance(PAST_GRACE_MS);
    await Promise.allSettled([
      one.deps.services.poker.finishMoves(ID),
      two.poker.finishMoves(ID),
      one.deps.scheduler.runDue(),
      // The host's Close of a tournament that just ended: nothing more to pay.
      two.poker.close(ID, ANN),
    ]);
    await two.deps.ledger.flush();
    const doc = await expectWhole(one.deps);
    await expectPaidOnce(one.deps, doc);
  });

  it('GIVEN the level timer firing during a hand THEN that hand keeps its blinds, and the next deal takes the new level’s', async () => {
    const { deps, clock } = makeBotDeps(t);
    await deps.runtimeConfig.set('poker.turn_s', '3600', 'admin');
    await open(deps, [ANN, BEN, CAL]);
    const first = await deps.services.poker.start(ID, ANN);
    expect(first.game.hand?.log[0]).toEqual({ what: 'blinds', small: 10, big: 20 });
    clock.advance(301_000);
    const turn = shove(first) as { userId: string; move: PokerAction };
    // The level timer and a call at once: the call is judged at the hand's own blinds.
    await Promise.allSettled([
      deps.scheduler.runDue(),
      deps.services.poker.act(ID, turn.userId, { type: 'call' }, first.step),
    ]);
    let doc = await table(deps);
    expect(doc.game.hand?.number).toBe(1);
    expect(doc.game.hand?.street).not.toBe('done');
    expect(doc.game.hand?.log[0]).toEqual({ what: 'blinds', small: 10, big: 20 });
    expect([doc.game.smallBlind, doc.game.bigBlind]).toEqual([10, 20]);
    expect(doc.game.hand?.players.find((p) => p.userId === turn.userId)?.committed).toBe(20);
    expect(chipProblems(doc)).toEqual([]);
    // The level timer did fire, and planned the level after it.
    expect((await t.cols.dueTasks.findOne({ _id: `poker.level:${ID}:1` }))?.status).toBe('done');
    expect((await t.cols.dueTasks.findOne({ _id: `poker.level:${ID}:2` }))?.status).toBe('due');
    while (doc.game.hand?.street !== 'done') {
      const next = shove(doc) as { userId: string; move: PokerAction };
      doc = await deps.services.poker.act(ID, next.userId, { type: 'fold' }, doc.step);
    }
    const second = await deps.services.poker.start(ID, null);
    expect(second.game.hand?.number).toBe(2);
    expect(second.game.hand?.log[0]).toEqual({ what: 'blinds', small: 15, big: 30 });
    await expectWhole(deps);
  });
});
