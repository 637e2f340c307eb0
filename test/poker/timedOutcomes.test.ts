import { beforeEach, describe, expect, it } from 'vitest';
import type { TableDoc } from '../../utils/poker/tableStore.js';
import { makeBotDeps } from '../support/botHarness.js';
import { clearDatabase, useTestDatabase } from '../support/database.js';
import { openTable } from '../support/pokerTable.js';

const t = useTestDatabase('poker_timed');
const ANN = '881000000000000001';
const BEN = '881000000000000002';
const BOARD = { channelId: '871000000000000900', messageId: '871000000000000901' };

/** A table whose board message is known, in `locale`, with ANN (the host) and BEN seated. */
async function seatedTable(
  locale: 'en' | 'de',
  seats: [string, number][] = [
    [ANN, 300],
    [BEN, 300],
  ],
) {
  const made = makeBotDeps(t);
  await openTable(made.deps, {
    id: `timed-${locale}`,
    host: ANN,
    members: [ANN, BEN],
    grant: 1_000,
    seats,
    board: { ...BOARD, locale },
  });
  const lastBoard = () => {
    const edit = made.transport.edits.at(-1);
    expect(edit).toMatchObject(BOARD);
    return edit?.post.embeds?.[0]?.description ?? '';
  };
  return { ...made, tableId: `timed-${locale}`, lastBoard };
}

const WORDS = {
  en: {
    fold: `⏱️ **<@${ANN}>'s time ran out: the table folded their hand.**`,
    won: `🏆 <@${BEN}> wins the pot of 15`,
    check: `⏱️ **<@${BEN}>'s time ran out: the table checked for them.**`,
    checkLog: `<@${BEN}> checks (time ran out)`,
    previous: `-# Hand 1: 🏆 <@${BEN}> wins the pot of 15`,
    closed: `⏱️ **Nobody acted for 15 minutes, so the table closed. Cashed out: <@${ANN}> 300 🍪.**`,
  },
  de: {
    fold: `⏱️ **Die Zeit von <@${ANN}> ist abgelaufen: Die Hand wurde automatisch gefoldet.**`,
    won: `🏆 <@${BEN}> gewinnt den Pot von 15`,
    check: `⏱️ **Die Zeit von <@${BEN}> ist abgelaufen: Es wurde automatisch gecheckt.**`,
    checkLog: `<@${BEN}> checkt (Zeit abgelaufen)`,
    previous: `-# Hand 1: 🏆 <@${BEN}> gewinnt den Pot von 15`,
    closed: `⏱️ **15 Minuten lang hat niemand gespielt, darum ist der Tisch jetzt geschlossen. Ausgezahlt: <@${ANN}> 300 🍪.**`,
  },
} as const;

describe("what a poker timer did is told on the table's board", () => {
  beforeEach(() => clearDatabase(t.db));

  it.each(['en', 'de'] as const)(
    'GIVEN a player facing a bet who lets the clock run out THEN the board says the table folded for them and who won; the next hand still shows it (%s)',
    async (locale) => {
      const { deps, clock, tableId, lastBoard } = await seatedTable(locale);
      await deps.services.poker.start(tableId, ANN);
      clock.advance(61_000);
      await deps.scheduler.runDue();
      expect(lastBoard()).toContain(WORDS[locale].fold);
      expect(lastBoard()).toContain(WORDS[locale].won);
      clock.advance(6_000);
      await deps.scheduler.runDue();
      const dealt = (await deps.services.poker.get(tableId)) as TableDoc;
      expect(dealt.game.handsPlayed).toBe(2);
      expect(lastBoard()).toContain(WORDS[locale].previous);
    },
  );

  it.each(['en', 'de'] as const)(
    'GIVEN a player free to check who lets the clock run out THEN the board says the table checked for them, and its log marks it (%s)',
    async (locale) => {
      const { deps, clock, tableId, lastBoard } = await seatedTable(locale);
      const started = await deps.services.poker.start(tableId, ANN);
      await deps.services.poker.act(tableId, ANN, { type: 'call' }, started.step);
      clock.advance(61_000);
      await deps.scheduler.runDue();
      expect(lastBoard()).toContain(WORDS[locale].check);
      expect(lastBoard()).toContain(WORDS[locale].checkLog);
      expect(((await deps.services.poker.get(tableId)) as TableDoc).game.hand?.street).toBe('flop');
    },
  );

  it('GIVEN players who act before their clock runs out THEN only the turn being played has a clock waiting: a passed turn leaves no timer to run for nothing', async () => {
    const { deps, tableId } = await seatedTable('en');
    const started = await deps.services.poker.start(tableId, ANN);
    const called = await deps.services.poker.act(tableId, ANN, { type: 'call' }, started.step);
    const checked = await deps.services.poker.act(tableId, BEN, { type: 'check' }, called.step);
    const waiting = await t.db
      .collection('due_tasks')
      .find({ status: 'due', kind: { $in: ['poker.turn', 'poker.deal', 'poker.idle'] } })
      .toArray();
    expect(checked.game.hand?.street).toBe('flop');
    expect(waiting.map((task) => task._id)).toEqual([`poker.turn:${tableId}:${checked.step}`]);
  });

  it.each(['en', 'de'] as const)(
    'GIVEN a table nobody plays at THEN it closes after poker.idle_close_s and the board says why and what each was paid (%s)',
    async (locale) => {
      const { deps, clock, tableId, lastBoard, transport } = await seatedTable(locale, [[ANN, 300]]);
      clock.advance(901_000);
      await deps.scheduler.runDue();
      expect(lastBoard()).toContain(WORDS[locale].closed);
      expect(((await deps.services.poker.get(tableId)) as TableDoc).status).toBe('closed');
      expect(await deps.services.cookies.balance(ANN)).toBe(1_000);
      // An edit pings nobody: the paid-out close is also said in the table's channel.
      expect(transport.posts).toEqual([
        { channelId: BOARD.channelId, post: { content: WORDS[locale].closed } },
      ]);
    },
  );

  it('GIVEN a hand the timers keep playing while nobody acts THEN the table closes and its board names every cash-out', async () => {
    const { deps, clock, tableId, lastBoard } = await seatedTable('en');
    await deps.services.poker.start(tableId, ANN);
    for (let minute = 0; minute < 20; minute++) {
      clock.advance(61_000);
      await deps.scheduler.runDue();
    }
    const closed = (await deps.services.poker.get(tableId)) as TableDoc;
    expect(closed.status).toBe('closed');
    const paid = [...lastBoard().matchAll(/<@(\d+)> ([\d,]+) 🍪/g)].map((m) => [
      m[1],
      Number(m[2]?.replace(',', '')),
    ]);
    expect(lastBoard()).toContain('so the table closed. Cashed out:');
    expect(paid.map(([who]) => who).sort()).toEqual([ANN, BEN]);
    expect(paid.reduce((n, [, amount]) => n + Number(amount), 0)).toBe(600);
    const back = (await deps.services.cookies.balance(ANN)) + (await deps.services.cookies.balance(BEN));
    expect(back).toBe(2_000);
  });

  it('GIVEN a table whose message nobody pressed yet (its id unknown) WHEN a turn runs out THEN the outcome is posted in its channel', async () => {
    const made = makeBotDeps(t);
    await openTable(made.deps, {
      id: 'timed-unknown-message',
      host: ANN,
      members: [ANN, BEN],
      grant: 1_000,
      seats: [
        [ANN, 300],
        [BEN, 300],
      ],
      board: { channelId: BOARD.channelId },
    });
    await made.deps.services.poker.start('timed-unknown-message', ANN);
    made.clock.advance(61_000);
    await made.deps.scheduler.runDue();
    expect(made.transport.edits).toEqual([]);
    expect(made.transport.posts).toEqual([{ channelId: BOARD.channelId, post: { content: WORDS.en.fold } }]);
  });
});
