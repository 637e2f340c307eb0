import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ASSEMBLY } from '../../commands/index.js';
import type { TableDoc } from '../../utils/poker/tableStore.js';
import { ADMIN_ID } from '../support/botHarness.js';
import { useTestDatabase } from '../support/database.js';
import { type FakeBot, freshMember, startFakeBot } from '../support/discordHarness.js';
import { CHANNEL_ID, FakeDiscord, type FakeUser, type VisibleMessage } from '../support/fakeDiscord.js';
import { booksProblems } from '../support/ledgerHarness.js';

const t = useTestDatabase('discord_poker');

describe('a poker table through the real discord.js client', () => {
  const fake = new FakeDiscord();
  let harness: FakeBot;

  beforeAll(async () => {
    await fake.start();
    harness = await startFakeBot(fake, t);
  });

  afterAll(async () => {
    await harness?.bot.stop();
    await fake.stop();
  });

  const poker = () => harness.deps.services.poker;
  const labels = (m: VisibleMessage | undefined) =>
    (m?.components ?? []).flatMap((row) => row.components.map((c) => c.label ?? ''));
  const idOf = (m: VisibleMessage, label: string) => {
    const found = m.components.flatMap((row) => row.components).find((c) => c.label === label);
    if (!found) throw new Error(`no button ${label} on the board: ${labels(m).join(', ')}`);
    return found.custom_id;
  };

  /** Presses the button labelled `label` on `board`; the first message it answered. */
  async function press(who: FakeUser, board: VisibleMessage, label: string): Promise<VisibleMessage> {
    const [answer] = await fake.waitFor(fake.click(who, board, idOf(board, label)));
    if (!answer) throw new Error(`no answer to ${label}`);
    return answer;
  }

  /** The board as a timer last edited it in the channel. */
  function editedBoard(board: VisibleMessage): VisibleMessage {
    const edit = fake.channelEdits
      .get(CHANNEL_ID)
      ?.filter((m) => m.id === board.id)
      .at(-1);
    if (!edit) throw new Error('the board was never edited');
    return edit;
  }

  /** Runs the timers due after `ms`. */
  async function later(ms: number): Promise<void> {
    harness.clock.advance(ms);
    await harness.deps.scheduler.runDue();
  }

  /** A 5/10 table (buy-ins 200 to 400) opened by `host`, with `host` and `guest` seated for 200 each. */
  async function seatedTable(
    host: FakeUser,
    guest: FakeUser,
  ): Promise<{ board: VisibleMessage; id: string }> {
    for (const member of [host, guest]) {
      fake.addMember(member);
      await harness.deps.services.cookies.grant({
        opId: `grant-${member.id}`,
        adminId: ADMIN_ID,
        to: member.id,
        amount: 1_000,
        reason: '',
      });
    }
    const [opened] = await fake.waitFor(
      fake.command(host, 'poker', ['create'], { small_blind: 5, max_buy_in: 400 }),
    );
    let board = opened as VisibleMessage;
    const id = (await poker().openTablesOf(host.id))[0]?._id as string;
    for (const member of [host, guest]) board = await press(member, board, 'Sit 200');
    return { board, id };
  }

  async function expectBooksClean(): Promise<void> {
    await harness.deps.ledger.flush();
    expect(await booksProblems(t.cols)).toEqual([]);
    expect(
      await ASSEMBLY.checkInvariants(t.db, harness.deps.config, harness.deps.ledger, harness.clock.now()),
    ).toEqual([]);
  }

  it('GIVEN a hand THEN only the sensible buttons show, each with its chips; a busted player stands up without a Cookie moving and buys in again', async () => {
    const ana = freshMember('ana');
    const ben = freshMember('ben');
    const members = new Map([ana, ben].map((m) => [m.id, m]));
    let { board, id } = await seatedTable(ana, ben);
    expect(labels(board)).toEqual(['Sit 200', 'Sit 300', 'Sit 400', 'Sit…', 'Start', 'Leave', 'Close']);
    board = await press(ana, board, 'Start');
    // Heads-up, the button (ana) posted the small blind and acts first.
    expect(labels(board)).toEqual([
      'Fold',
      'Call 5',
      'Raise to 20',
      'Pot 30',
      'All-in 200',
      'Raise…',
      'My cards',
      'Leave',
    ]);
    expect(board.components.length).toBeLessThanOrEqual(2);
    const cards = await press(ana, board, 'My cards');
    expect(cards.ephemeral).toBe(true);
    expect(cards.content).toMatch(/^🂠 Your cards: \*\*\S+[♠♥♦♣] \S+[♠♥♦♣]\*\*$/);

    // All-in and a call until one of them is out (a split pot deals again).
    let table = (await poker().get(id)) as TableDoc;
    for (let hand = 0; hand < 6 && table.game.seats.filter(Boolean).length === 2; hand++) {
      const toAct = (t: TableDoc) =>
        members.get(t.game.seats[t.game.hand?.toAct ?? -1]?.userId ?? '') as FakeUser;
      board = await press(toAct(table), board, 'All-in 200');
      table = (await poker().get(id)) as TableDoc;
      expect(labels(board)).toEqual(['Fold', 'Call 190 (all-in)', 'My cards', 'Leave']);
      board = await press(toAct(table), board, 'Call 190 (all-in)');
      table = (await poker().get(id)) as TableDoc;
      if (table.game.seats.filter(Boolean).length === 2) {
        await later(6_000);
        board = editedBoard(board);
        table = (await poker().get(id)) as TableDoc;
      }
    }
    const out = [ana, ben].find((m) => !table.game.seats.some((s) => s?.userId === m.id)) as FakeUser;
    expect(out).toBeDefined();
    expect(board.embeds[0]?.description).toContain(`🪑 <@${out.id}> is out of chips and stands up.`);
    // Nothing to cash out: no Cookie moved for the stand-up.
    expect(table.chips).toEqual({ in: 400, out: 0, rake: 0 });
    expect(table.pending).toEqual([]);
    expect(await harness.deps.services.cookies.balance(out.id)).toBe(800);
    expect(labels(board)).toEqual(['Sit 200', 'Sit 300', 'Sit 400', 'Sit…', 'Leave', 'Close']);
    await expectBooksClean();

    board = await press(out, board, 'Sit 300');
    table = (await poker().get(id)) as TableDoc;
    expect(table.game.seats.find((s) => s?.userId === out.id)?.stack).toBe(300);
    expect(await harness.deps.services.cookies.balance(out.id)).toBe(500);
    await later(6_000);
    expect(((await poker().get(id)) as TableDoc).game.hand?.street).toBe('preflop');
    await expectBooksClean();
  });

  it('GIVEN Raise… THEN its form tells the smallest raise and the all-in; a size out of range is refused with the numbers, one in range raises, and an old form changes nothing', async () => {
    const ana = freshMember('ana');
    const ben = freshMember('ben');
    let { board, id } = await seatedTable(ana, ben);
    board = await press(ana, board, 'Start');
    const step = ((await poker().get(id)) as TableDoc).step;
    const [form] = await fake.waitFor(fake.click(ana, board, idOf(board, 'Raise…')));
    expect(form?.via).toBe('modal');
    expect(JSON.stringify(form?.modal)).toContain('min 20 · all-in 200');
    const formId = form?.modal?.custom_id as string;

    const [wrong] = await fake.waitFor(fake.submitModal(ana, board, formId, { to: '5,000' }));
    expect(wrong?.ephemeral).toBe(true);
    expect(wrong?.content).toContain(
      'A raise here goes to at least 20 and at most 200 (all-in), not to 5,000. Your stack: 195.',
    );
    expect(((await poker().get(id)) as TableDoc).step).toBe(step);

    const [raised] = await fake.waitFor(fake.submitModal(ana, board, formId, { to: '60' }));
    expect(raised?.via).toBe('update');
    expect(labels(raised)).toEqual([
      'Fold',
      'Call 50',
      'Raise to 110',
      'Pot 180',
      'All-in 200',
      'Raise…',
      'My cards',
      'Leave',
    ]);
    const after = (await poker().get(id)) as TableDoc;
    expect(after.game.hand?.currentBet).toBe(60);

    // The same form sent again belongs to a step the game left: nothing changes.
    await fake.waitFor(fake.submitModal(ana, board, formId, { to: '80' }));
    expect(((await poker().get(id)) as TableDoc).step).toBe(after.step);
    // It is ben's turn now: ana's Raise… tells her so.
    const [notYours] = await fake.waitFor(
      fake.click(ana, raised as VisibleMessage, idOf(raised as VisibleMessage, 'Raise…')),
    );
    expect(notYours?.ephemeral).toBe(true);
    expect(notYours?.content).toContain('It is not your turn.');
    await expectBooksClean();
  });

  it('GIVEN nobody plays THEN two hands deal, the table pauses (its timers too), Deal plays on, and it closes after its idle time', async () => {
    const ana = freshMember('ana');
    const ben = freshMember('ben');
    let { board, id } = await seatedTable(ana, ben);
    board = await press(ana, board, 'Start');
    // Hand 1 folds on the clock, hand 2 deals itself and folds too, then nothing deals.
    await later(61_000);
    await later(6_000);
    await later(61_000);
    await later(6_000);
    await later(6_000);
    let table = (await poker().get(id)) as TableDoc;
    expect(table.game.handsPlayed).toBe(2);
    expect(table.status).toBe('playing');
    board = editedBoard(board);
    expect(board.embeds[0]?.description).toContain('⏸️ Paused: nobody played the last 2 hands.');
    expect(labels(board)).toContain('Deal');
    // Only the idle close waits: a restart finds no deal to run.
    const waiting = await t.db
      .collection('due_tasks')
      .find({
        status: 'due',
        kind: { $in: ['poker.turn', 'poker.deal', 'poker.idle'] },
        'payload.tableId': id,
      })
      .toArray();
    expect(waiting.map((task) => task.kind)).toEqual(['poker.idle']);

    // Anyone seated deals again.
    board = await press(ben, board, 'Deal');
    table = (await poker().get(id)) as TableDoc;
    expect(table.game.handsPlayed).toBe(3);
    expect(labels(board)).not.toContain('Deal');

    // Quiet again: it pauses after two more hands and closes idle_close_s after ben's Deal.
    for (let i = 0; i < 4; i++) await later(61_000);
    table = (await poker().get(id)) as TableDoc;
    expect(table.game.handsPlayed).toBe(4);
    expect(table.status).toBe('playing');
    await later(900_000);
    table = (await poker().get(id)) as TableDoc;
    expect(table.status).toBe('closed');
    expect(editedBoard(board).embeds[0]?.description).toContain(
      'Nobody acted for 15 minutes, so the table closed.',
    );
    expect(
      (await harness.deps.services.cookies.balance(ana.id)) +
        (await harness.deps.services.cookies.balance(ben.id)),
    ).toBe(2_000);
    await expectBooksClean();
  });

  it('GIVEN a paused table WHEN Deal is pressed as the idle close fires THEN it either deals or closes, never both', async () => {
    const ana = freshMember('ana');
    const ben = freshMember('ben');
    let { board, id } = await seatedTable(ana, ben);
    board = await press(ana, board, 'Start');
    for (let i = 0; i < 3; i++) await later(61_000);
    const paused = (await poker().get(id)) as TableDoc;
    expect(paused.quietHands).toBe(2);
    board = editedBoard(board);
    harness.clock.advance(900_000);
    const [dealt] = await Promise.all([
      fake.waitFor(fake.click(ben, board, idOf(board, 'Deal'))),
      harness.deps.scheduler.runDue(),
    ]);
    const table = (await poker().get(id)) as TableDoc;
    if (table.status === 'closed') {
      expect(table.game.handsPlayed).toBe(2);
      expect(dealt[0]?.ephemeral).toBe(true);
    } else {
      expect(table.game.handsPlayed).toBe(3);
      expect(table.game.hand?.street).toBe('preflop');
    }
    // The idle close of the paused step, run late, finds the table moved on and leaves it.
    const late = await poker().close(id, null, paused.step);
    expect(late.status).toBe(table.status);
    expect(late.game.handsPlayed).toBe(table.game.handsPlayed);
    await expectBooksClean();
  });
});
