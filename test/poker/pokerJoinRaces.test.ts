import { beforeEach, describe, expect, it } from 'vitest';
import { ASSEMBLY } from '../../commands/index.js';
import { sitButton } from '../../commands/poker/board.js';
import { isAppError } from '../../src/errors.js';
import { I18n } from '../../src/i18n/i18n.js';
import { describeAppError } from '../../src/interactions/errorReplies.js';
import { InteractionRuntime } from '../../src/interactions/runtime.js';
import type { BotDeps } from '../../src/interactions/types.js';
import { chipProblems } from '../../utils/poker/tableBooks.js';
import { TABLES, type TableDoc } from '../../utils/poker/tableStore.js';
import { makeBotDeps } from '../support/botHarness.js';
import { clearDatabase, useTestDatabase } from '../support/database.js';
import { commandInvocation } from '../support/invocations.js';
import { booksProblems } from '../support/ledgerHarness.js';
import { pauseAt } from '../support/pause.js';
import { openTable } from '../support/pokerTable.js';
import { RecordingResponder } from '../support/recordingResponder.js';
import { waitFor, within } from '../support/waitFor.js';

/*
 * Sitting down at a poker table while something else happens to it: the same member twice at
 * once, a Start, a Close, the timers, a leave. After each race the table's books hold (chips
 * conserved, every Cookie accounted), nobody sits twice, and nobody plays a hand dealt before
 * they sat down. "Two processes" are two sets of bot deps over the one database.
 */

const t = useTestDatabase('poker_join_races');
const [ANN, BEN, CAL, DEE] = [
  '883000000000000001',
  '883000000000000002',
  '883000000000000003',
  '883000000000000004',
];
const MEMBERS = [ANN, BEN, CAL, DEE];
const GRANT = 1_000;
const CHANNEL = '873000000000000900';
const TABLE = 'race';
const i18n = new I18n(ASSEMBLY.messages);

/** A table hosted by ANN (5/10, buy-ins 200 to 500) in CHANNEL, with `seats` seated, in one process. */
async function tableIn(
  seats: [string, number][] = [
    [ANN, 300],
    [BEN, 300],
  ],
) {
  const made = makeBotDeps(t);
  await openTable(made.deps, {
    id: TABLE,
    host: ANN,
    members: MEMBERS,
    grant: GRANT,
    seats,
    board: { channelId: CHANNEL },
  });
  return made;
}

const table = async (deps: BotDeps) => (await deps.services.poker.get(TABLE)) as TableDoc;

/** What a refusal tells the member, in English. */
function refusal(error: unknown): string {
  return describeAppError(error as never, ASSEMBLY.errorMessages, i18n.for('en'));
}

/**
 * The books once every move has landed: the table's chips add up, its pot holds what it
 * recorded, the ledger is clean, nobody sits twice, and every Cookie granted is somewhere.
 */
async function expectSoundBooks(deps: BotDeps): Promise<TableDoc> {
  await deps.services.poker.finishMoves(TABLE);
  await deps.ledger.flush();
  const doc = await table(deps);
  expect(chipProblems(doc)).toEqual([]);
  expect(doc.pending).toEqual([]);
  // Nothing in flight is stored as no `pending` at all, never `[]`.
  expect(
    await t.db.collection(TABLES).countDocuments({ _id: TABLE as never, pending: { $exists: true } }),
  ).toBe(0);
  const seated = doc.game.seats.flatMap((s) => (s ? [s.userId] : []));
  expect(new Set(seated).size).toBe(seated.length);
  expect(await ASSEMBLY.checkInvariants(t.db, deps.config, deps.ledger, deps.clock.now())).toEqual([]);
  expect(await booksProblems(t.cols)).toEqual([]);
  const pot = await deps.ledger.balanceOf('cookies', `pot:poker:${TABLE}`);
  // Every table's pot: a member may have bought in at another table of the test.
  const pots = await t.cols.cookies.find({ _id: { $regex: '^pot:poker:' } }).toArray();
  const members = await Promise.all(MEMBERS.map((m) => deps.ledger.balanceOf('cookies', m)));
  const house = await deps.ledger.balanceOf('cookies', deps.ledger.houseAccountId);
  const inPots = pots.reduce((sum, p) => sum + p.cookies, 0);
  expect(members.reduce((a, b) => a + b, 0) + inPots + house).toBe(MEMBERS.length * GRANT);
  expect(pot).toBe(doc.chips.in - doc.chips.out - doc.chips.rake);
  return doc;
}

/** `/poker join buyin:<amount>` as the runtime receives it, in CHANNEL. */
async function joinCommand(
  runtime: InteractionRuntime,
  userId: string,
  buyin: number | string,
): Promise<RecordingResponder> {
  const replies = new RecordingResponder();
  await runtime.dispatch(
    commandInvocation({
      commandName: 'poker',
      subcommand: 'join',
      options: { buyin },
      user: { id: userId, name: `m${userId.slice(-1)}` },
      channelId: CHANNEL,
    }),
    replies,
  );
  return replies;
}

/** A press on the board's "Sit <amount>" button. */
async function sitPress(
  runtime: InteractionRuntime,
  userId: string,
  amount: number,
): Promise<RecordingResponder> {
  const replies = new RecordingResponder();
  await runtime.dispatch(
    commandInvocation({
      kind: 'button',
      commandName: '',
      customId: sitButton.build({ table: TABLE, amount }),
      messageId: '873000000000000901',
      user: { id: userId, name: `m${userId.slice(-1)}` },
      channelId: CHANNEL,
    }),
    replies,
  );
  return replies;
}

/**
 * The host's Close, pressed again while it is refused because a buy-in is still on its way
 * (OPERATION_IN_PROGRESS: "try again in a few seconds", as the host would), until it closes.
 */
function closeAsHost(deps: BotDeps): Promise<TableDoc> {
  return waitFor(
    () =>
      deps.services.poker.close(TABLE, ANN).catch((error: unknown) => {
        if (isAppError(error, 'OPERATION_IN_PROGRESS')) return null;
        throw error;
      }),
    { what: 'the host to close the table once the buy-in in flight is decided' },
  );
}

describe('sitting down at a poker table while something else happens to it', () => {
  beforeEach(() => clearDatabase(t.db));

  it('GIVEN one member pressing Sit and running /poker join at once, in two processes, three times each THEN they sit once, pay once, and the others are told they are seated', async () => {
    const one = await tableIn();
    const two = makeBotDeps(t);
    const runtimes = [new InteractionRuntime(one.deps, ASSEMBLY), new InteractionRuntime(two.deps, ASSEMBLY)];
    const all = await Promise.all([
      ...runtimes.map((r) => joinCommand(r, CAL, 250)),
      ...runtimes.map((r) => sitPress(r, CAL, 300)),
      joinCommand(runtimes[1] as InteractionRuntime, CAL, 400),
      sitPress(runtimes[0] as InteractionRuntime, CAL, 200),
    ]);
    const texts = all.map((r) => r.text());
    const seatedRecordingResponder = texts.filter(
      (x) => !x.includes('You are already seated at this table.'),
    );
    expect(seatedRecordingResponder, texts.join('\n---\n')).toHaveLength(1);
    const doc = await expectSoundBooks(one.deps);
    const mine = doc.game.seats.filter((s) => s?.userId === CAL);
    expect(mine).toHaveLength(1);
    expect(await one.deps.ledger.balanceOf('cookies', CAL)).toBe(GRANT - (mine[0]?.stack ?? 0));
  });

  it('GIVEN two members racing for the same free seat THEN each gets a seat of their own with their own buy-in', async () => {
    const one = await tableIn();
    const two = makeBotDeps(t);
    await Promise.all([
      one.deps.services.poker.join(TABLE, CAL, 250),
      two.deps.services.poker.join(TABLE, DEE, 350),
    ]);
    const doc = await expectSoundBooks(one.deps);
    expect(doc.game.seats.find((s) => s?.userId === CAL)?.stack).toBe(250);
    expect(doc.game.seats.find((s) => s?.userId === DEE)?.stack).toBe(350);
  });

  it('GIVEN a buy-in halfway through the ledger WHEN the host starts the hand in another process THEN the hand is dealt without the newcomer, who plays from the next hand', async () => {
    const one = await tableIn();
    const paused = pauseAt('debit.applied', 'poker.buyin');
    const slow = makeBotDeps(t, { hooks: paused.hooks });
    const joining = slow.deps.services.poker.join(TABLE, CAL, 300);
    await within(paused.reached, "CAL's buy-in to reach the ledger");
    const dealt = await one.deps.services.poker.start(TABLE, ANN);
    expect(dealt.game.hand?.players.map((p) => p.userId)).toEqual([ANN, BEN]);
    paused.release();
    const joined = await joining;
    expect(joined.game.hand?.players.map((p) => p.userId)).not.toContain(CAL);
    expect(joined.game.seats.find((s) => s?.userId === CAL)?.stack).toBe(300);
    // Not their hand: no cards, no turn.
    await expect(one.deps.services.poker.cards(TABLE, CAL).catch(refusal)).resolves.toContain(
      'You play from the next hand',
    );
    await expect(
      one.deps.services.poker.act(TABLE, CAL, { type: 'call' }, joined.step).catch(refusal),
    ).resolves.toContain('You play from the next hand');
    await expectSoundBooks(one.deps);
    // The hand ends; the next deal has them in.
    const toAct = dealt.game.seats[dealt.game.hand?.toAct as number]?.userId as string;
    await one.deps.services.poker.act(TABLE, toAct, { type: 'fold' }, (await table(one.deps)).step);
    const next = await one.deps.services.poker.start(TABLE, null);
    expect(next.game.hand?.number).toBe(2);
    expect(next.game.hand?.players.map((p) => p.userId)).toContain(CAL);
    await expectSoundBooks(one.deps);
  });

  it.each(['the host', 'the idle timer'] as const)(
    'GIVEN a buy-in halfway through the ledger WHEN %s closes the table in another process THEN the newcomer is told the table closed and keeps every Cookie',
    async (closer) => {
      const one = await tableIn();
      const paused = pauseAt('debit.applied', 'poker.buyin');
      const slow = makeBotDeps(t, { hooks: paused.hooks });
      const joining = slow.deps.services.poker.join(TABLE, CAL, 300).then(
        () => 'joined',
        (error: unknown) => refusal(error),
      );
      await within(paused.reached, "CAL's buy-in to reach the ledger");
      if (closer === 'the host') await one.deps.services.poker.close(TABLE, ANN);
      else {
        one.clock.advance(16 * 60_000);
        await one.deps.scheduler.runDue();
      }
      expect((await table(one.deps)).status).toBe('closed');
      paused.release();
      expect(await within(joining, 'the join to answer')).toBe('This table is closed.');
      await slow.deps.ledger.flush();
      expect(await one.deps.ledger.balanceOf('cookies', CAL)).toBe(GRANT);
      const doc = await expectSoundBooks(one.deps);
      expect(doc.game.seats.every((s) => s === null)).toBe(true);
    },
  );

  it('GIVEN a Sit pressed at the moment the host closes THEN the member either never paid or was paid back, is told the table closed, and the table holds nothing', async () => {
    for (let round = 0; round < 8; round++) {
      await clearDatabase(t.db);
      const one = await tableIn();
      const two = makeBotDeps(t);
      const [joined] = await Promise.all([
        two.deps.services.poker.join(TABLE, CAL, 300).then(
          (doc) => (doc.status === 'closed' ? 'sat down at a closed table' : 'joined'),
          (error: unknown) => refusal(error),
        ),
        closeAsHost(one.deps),
      ]);
      const doc = await expectSoundBooks(one.deps);
      expect(doc.status).toBe('closed');
      expect(doc.game.seats.every((s) => s === null)).toBe(true);
      expect(await one.deps.ledger.balanceOf('cookies', CAL)).toBe(GRANT);
      // A join that went through before the close was cashed out by it; one after was refused:
      // "closed", or, when the close voided its hold before marking the table closed, the
      // ledger's "called off … try again" (a retry then hears "closed"). Never charged.
      expect([
        'joined',
        'This table is closed.',
        'That took too long and was called off; nothing was moved. Try again.',
      ]).toContain(joined);
    }
  });

  it('GIVEN a buy-in halfway through the ledger WHEN the next-hand timer deals in another process THEN the next hand is dealt without the newcomer, and the one after has them', async () => {
    const one = await tableIn();
    await one.deps.runtimeConfig.set('poker.next_hand_s', '5', 'admin');
    const first = await one.deps.services.poker.start(TABLE, ANN);
    const toAct = first.game.seats[first.game.hand?.toAct as number]?.userId as string;
    await one.deps.services.poker.act(TABLE, toAct, { type: 'fold' }, first.step);
    const paused = pauseAt('debit.applied', 'poker.buyin');
    const slow = makeBotDeps(t, { hooks: paused.hooks });
    const joining = slow.deps.services.poker.join(TABLE, CAL, 300);
    await within(paused.reached, "CAL's buy-in to reach the ledger");
    one.clock.advance(6_000);
    await one.deps.scheduler.runDue();
    const second = await table(one.deps);
    expect(second.game.hand?.number).toBe(2);
    expect(second.game.hand?.players.map((p) => p.userId).sort()).toEqual([ANN, BEN].sort());
    paused.release();
    await joining;
    await expectSoundBooks(one.deps);
    const now = await table(one.deps);
    expect(now.game.hand?.players.map((p) => p.userId)).not.toContain(CAL);
    expect(now.game.seats.find((s) => s?.userId === CAL)?.stack).toBe(300);
  });

  it('GIVEN a Sit and the next-hand timer at the same moment, 8 times THEN the newcomer is in the new hand only if their chips were on the seat before it was dealt', async () => {
    for (let round = 0; round < 8; round++) {
      await clearDatabase(t.db);
      const one = await tableIn();
      const two = makeBotDeps(t);
      const first = await one.deps.services.poker.start(TABLE, ANN);
      const toAct = first.game.seats[first.game.hand?.toAct as number]?.userId as string;
      await one.deps.services.poker.act(TABLE, toAct, { type: 'fold' }, first.step);
      one.clock.advance(6_000);
      await Promise.all([two.deps.services.poker.join(TABLE, CAL, 300), one.deps.scheduler.runDue()]);
      const doc = await expectSoundBooks(one.deps);
      const hand = doc.game.hand;
      expect(hand?.number).toBe(2);
      const inHand = hand?.players.find((p) => p.userId === CAL);
      // Dealt in: two cards and blinds as anyone; left out: the whole buy-in still on the seat.
      if (inHand) expect(inHand.hole).toHaveLength(2);
      else expect(doc.game.seats.find((s) => s?.userId === CAL)?.stack).toBe(300);
      for (const p of hand?.players ?? []) expect(doc.game.seats[p.seat]?.userId).toBe(p.userId);
    }
  });

  it('GIVEN a latecomer who leaves before the next hand THEN they get their whole buy-in back and the next hand is dealt without them', async () => {
    const one = await tableIn([
      [ANN, 300],
      [BEN, 300],
      [DEE, 300],
    ]);
    await one.deps.services.poker.start(TABLE, ANN);
    await one.deps.services.poker.join(TABLE, CAL, 250);
    const left = await one.deps.services.poker.leave(TABLE, CAL);
    expect(left.game.hand?.street).not.toBe('done');
    expect(left.game.hand?.players.every((p) => !p.folded)).toBe(true);
    await expectSoundBooks(one.deps);
    expect(await one.deps.ledger.balanceOf('cookies', CAL)).toBe(GRANT);
    const doc = await table(one.deps);
    const toAct = doc.game.seats[doc.game.hand?.toAct as number]?.userId as string;
    await one.deps.services.poker.act(TABLE, toAct, { type: 'fold' }, doc.step);
    const next = await one.deps.services.poker.start(TABLE, null);
    expect(next.game.hand?.players.map((p) => p.userId)).not.toContain(CAL);
    await expectSoundBooks(one.deps);
  });

  it('GIVEN a latecomer pressing Leave while their buy-in is still on its way THEN they end up seated with it or paid back, never both or neither, and a second Leave pays them back', async () => {
    const one = await tableIn();
    await one.deps.services.poker.start(TABLE, ANN);
    const paused = pauseAt('debit.applied', 'poker.buyin');
    const slow = makeBotDeps(t, { hooks: paused.hooks });
    const joining = slow.deps.services.poker.join(TABLE, CAL, 300).catch(refusal);
    await within(paused.reached, "CAL's buy-in to reach the ledger");
    await one.deps.services.poker.leave(TABLE, CAL);
    paused.release();
    await joining;
    let doc = await expectSoundBooks(one.deps);
    const stack = doc.game.seats.find((s) => s?.userId === CAL)?.stack ?? 0;
    expect(await one.deps.ledger.balanceOf('cookies', CAL)).toBe(GRANT - stack);
    expect(doc.game.hand?.players.map((p) => p.userId)).not.toContain(CAL);
    if (stack > 0) await one.deps.services.poker.leave(TABLE, CAL);
    doc = await expectSoundBooks(one.deps);
    expect(doc.game.seats.some((s) => s?.userId === CAL)).toBe(false);
    expect(await one.deps.ledger.balanceOf('cookies', CAL)).toBe(GRANT);
  });

  it('GIVEN a player who leaves mid-hand and sits down again during it THEN they play from the next hand, and what they put in before leaving stays forfeit when the table closes', async () => {
    const one = await tableIn([
      [ANN, 300],
      [BEN, 300],
      [CAL, 300],
    ]);
    const poker = one.deps.services.poker;
    // Button ANN, small blind BEN (5), big blind CAL (10); ANN to act.
    const dealt = await poker.start(TABLE, ANN);
    expect(dealt.game.hand).toMatchObject({ smallBlindSeat: 1, bigBlindSeat: 2, toAct: 0 });
    await poker.act(TABLE, ANN, { type: 'call' }, dealt.step);
    await poker.leave(TABLE, BEN);
    expect(await one.deps.ledger.balanceOf('cookies', BEN)).toBe(GRANT - 5);
    const back = await poker.join(TABLE, BEN, 300);
    expect(back.game.hand?.street).not.toBe('done');
    const runtime = new InteractionRuntime(one.deps, ASSEMBLY);
    const told = await sitPress(runtime, DEE, 300);
    expect(told.text()).toContain('plays from the next hand');
    // BEN is back at the table, not in the hand they left.
    await expect(poker.cards(TABLE, BEN).catch(refusal)).resolves.toContain('You play from the next hand');
    await poker.close(TABLE, ANN);
    await expectSoundBooks(one.deps);
    // The 5 BEN forfeited went to those still in the hand; BEN's new buy-in came back whole.
    expect(await one.deps.ledger.balanceOf('cookies', BEN)).toBe(GRANT - 5);
    expect(
      (await one.deps.ledger.balanceOf('cookies', ANN)) + (await one.deps.ledger.balanceOf('cookies', CAL)),
    ).toBe(2 * GRANT + 5);
  });

  it('GIVEN a table with one seated member WHEN a second sits down shortly before the idle close THEN the table stays open (a sit-down is a sign of life), and closes a full idle period later', async () => {
    const one = await tableIn([[ANN, 300]]);
    one.clock.advance(14 * 60_000);
    await one.deps.services.poker.join(TABLE, BEN, 300);
    one.clock.advance(2 * 60_000);
    await one.deps.scheduler.runDue();
    expect((await table(one.deps)).status).toBe('open');
    one.clock.advance(14 * 60_000);
    await one.deps.scheduler.runDue();
    expect((await table(one.deps)).status).toBe('closed');
    await expectSoundBooks(one.deps);
    expect(await one.deps.ledger.balanceOf('cookies', BEN)).toBe(GRANT);
  });

  it.each([
    [199, 'The buy-in at this table is between 200 and 500 🍪; 199 🍪 is not possible.'],
    [501, 'The buy-in at this table is between 200 and 500 🍪; 501 🍪 is not possible.'],
    [
      1_000_000_000_001,
      'The buy-in at this table is between 200 and 500 🍪; 1,000,000,000,001 🍪 is not possible.',
    ],
    [2.5, null],
    [-300, null],
    [0, null],
    ['300abc', null],
  ] as const)(
    'GIVEN /poker join buyin:%s THEN it is refused with the way, and nothing moves',
    async (buyin, says) => {
      const one = await tableIn();
      const runtime = new InteractionRuntime(one.deps, ASSEMBLY);
      const replies = await joinCommand(runtime, CAL, buyin);
      if (says) expect(replies.text()).toContain(says);
      expect(replies.text()).not.toContain('sits down');
      expect(replies.sent[0]?.ephemeral).toBe(true);
      const doc = await expectSoundBooks(one.deps);
      expect(doc.game.seats.some((s) => s?.userId === CAL)).toBe(false);
      expect(await one.deps.ledger.balanceOf('cookies', CAL)).toBe(GRANT);
    },
  );

  it.each([200, 500])(
    'GIVEN /poker join at the limit %s THEN the member sits down with exactly it',
    async (buyin) => {
      const one = await tableIn();
      const replies = await joinCommand(new InteractionRuntime(one.deps, ASSEMBLY), CAL, buyin);
      expect(replies.text()).toContain(`🪑 <@${CAL}> sits down with ${buyin} chips.`);
      const doc = await expectSoundBooks(one.deps);
      expect(doc.game.seats.find((s) => s?.userId === CAL)?.stack).toBe(buyin);
    },
  );

  it('GIVEN a buy-in that is not a whole number, or not a number, reaching the service THEN it is refused before anything is written', async () => {
    const one = await tableIn();
    const before = await table(one.deps);
    for (const buyIn of [250.5, Number.NaN, Number.POSITIVE_INFINITY]) {
      const error = await one.deps.services.poker.join(TABLE, CAL, buyIn).catch((e: unknown) => e);
      expect(refusal(error)).toContain('The buy-in at this table is between 200 and 500 🍪');
    }
    const after = await expectSoundBooks(one.deps);
    expect(after.version).toBe(before.version);
    expect(await one.deps.ledger.balanceOf('cookies', CAL)).toBe(GRANT);
  });

  it('GIVEN a member joining two tables at once with Cookies for only one THEN one buy-in lands, the other is refused with the balance, and nothing is stuck', async () => {
    const one = await tableIn();
    const two = makeBotDeps(t);
    await one.deps.services.poker.create({
      tableId: 'other',
      hostId: BEN,
      smallBlind: 5,
      maxBuyIn: 1_000,
      channelId: null,
      locale: 'en',
    });
    const results = await Promise.all([
      one.deps.services.poker.join(TABLE, CAL, 500).then(() => 'joined', refusal),
      two.deps.services.poker.join('other', CAL, 700).then(() => 'joined', refusal),
    ]);
    expect(results.filter((r) => r === 'joined')).toHaveLength(1);
    expect(results.find((r) => r !== 'joined')).toMatch(/Cookies|🍪/);
    await two.deps.services.poker.finishMoves('other');
    const doc = await expectSoundBooks(one.deps);
    const other = (await one.deps.services.poker.get('other')) as TableDoc;
    expect(other.pending).toEqual([]);
    const paid =
      (doc.game.seats.find((s) => s?.userId === CAL)?.stack ?? 0) +
      (other.game.seats.find((s) => s?.userId === CAL)?.stack ?? 0);
    expect(await one.deps.ledger.balanceOf('cookies', CAL)).toBe(GRANT - paid);
  });

  it('GIVEN a closed table THEN /poker join finds no table, and a Sit press on its old board is told it is closed; nothing moves', async () => {
    const one = await tableIn();
    await one.deps.services.poker.close(TABLE, ANN);
    const runtime = new InteractionRuntime(one.deps, ASSEMBLY);
    expect((await joinCommand(runtime, CAL, 300)).text()).toContain(
      'There is no open poker table in this channel. Open one with /poker create.',
    );
    expect((await sitPress(runtime, CAL, 300)).text()).toContain('This table is closed.');
    await expectSoundBooks(one.deps);
    expect(await one.deps.ledger.balanceOf('cookies', CAL)).toBe(GRANT);
  });

  it('GIVEN a buy-in whose process died after persisting it WHEN the table closes THEN the buy-in is called off and the member keeps every Cookie', async () => {
    const one = await tableIn();
    const paused = pauseAt('debit.applied', 'poker.buyin');
    const dying = makeBotDeps(t, { hooks: paused.hooks });
    void dying.deps.services.poker.join(TABLE, CAL, 300).catch(() => undefined);
    await within(paused.reached, "CAL's buy-in to reach the ledger");
    // The process is gone (never released): the close decides the buy-in, and the ledger's recovery the rest.
    await one.deps.services.poker.close(TABLE, ANN);
    await waitFor(async () => (await table(one.deps)).pending.length === 0, {
      what: 'the close to decide the buy-in',
    });
    const doc = await table(one.deps);
    expect(doc.status).toBe('closed');
    expect(doc.game.seats.every((s) => s === null)).toBe(true);
    paused.release();
    await waitFor(async () => (await one.deps.ledger.balanceOf('cookies', CAL)) === GRANT, {
      what: "CAL's Cookies back",
    });
    await expectSoundBooks(one.deps);
  });
});
