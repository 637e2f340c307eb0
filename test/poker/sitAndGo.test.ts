import { beforeEach, describe, expect, it } from 'vitest';
import { ASSEMBLY } from '../../commands/index.js';
import { boardMessage } from '../../commands/poker/board.js';
import { describeAppError } from '../../src/interactions/errorReplies.js';
import type { BotDeps } from '../../src/interactions/types.js';
import { legalActions } from '../../utils/poker/engine.js';
import { places, prizeAmounts, prizesOf, type SitAndGo } from '../../utils/poker/sitAndGo.js';
import { chipProblems } from '../../utils/poker/tableBooks.js';
import type { TableDoc } from '../../utils/poker/tableStore.js';
import { makeBotDeps } from '../support/botHarness.js';
import { clearDatabase, useTestDatabase } from '../support/database.js';
import { booksProblems } from '../support/ledgerHarness.js';
import { openTournament, playOut } from '../support/sitAndGo.js';

const t = useTestDatabase('poker_sng');
const [ANN, BEN, CAL, DAN] = [
  '881000000000000001',
  '881000000000000002',
  '881000000000000003',
  '881000000000000004',
];
const MEMBERS = [ANN, BEN, CAL, DAN];
const GRANT = 1_000;

async function cookies(deps: BotDeps, account: string): Promise<number> {
  await deps.ledger.flush();
  return deps.ledger.balanceOf('cookies', account);
}

/** Every Cookie is a member's or the table's pot, the pot matches the books, and the checkers agree. */
async function expectWhole(deps: BotDeps, id: string): Promise<TableDoc> {
  const table = (await deps.services.poker.get(id)) as TableDoc;
  expect(table.pending).toEqual([]);
  expect(chipProblems(table)).toEqual([]);
  const pot = await cookies(deps, `pot:poker:${id}`);
  expect(pot).toBe(table.chips.in - table.chips.out);
  let members = 0;
  for (const m of MEMBERS) members += await cookies(deps, m);
  expect(members + pot).toBe(MEMBERS.length * GRANT);
  expect(await booksProblems(t.cols)).toEqual([]);
  expect(await ASSEMBLY.checkInvariants(t.db, deps.config, deps.ledger, deps.clock.now())).toEqual([]);
  return table;
}

async function refusal(deps: BotDeps, promise: Promise<unknown>): Promise<string> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).not.toBeNull();
  return describeAppError(error as never, ASSEMBLY.errorMessages, deps.i18n.for('en'));
}

describe('a sit-and-go', () => {
  beforeEach(() => clearDatabase(t.db));

  it('GIVEN three registered for 100 at 65/35 THEN it starts once full, and pays 195 and 105 (shared when tied) exactly once', async () => {
    const { deps, clock } = makeBotDeps(t);
    await deps.runtimeConfig.set('poker.next_hand_s', '5', 'admin');
    const sng = { id: 'sng', host: ANN, members: MEMBERS, grant: GRANT, buyIn: 100, players: 3 };
    await openTournament(deps, { ...sng, registered: [ANN, BEN, CAL] });
    // Full: it deals by itself once the pause between hands has passed.
    clock.advance(5_000);
    await deps.scheduler.runDue();
    const started = (await deps.services.poker.get('sng')) as TableDoc;
    expect(started.sng?.entrants).toEqual([ANN, BEN, CAL]);
    expect(started.game.hand?.log[0]).toEqual({ what: 'blinds', small: 10, big: 20 });
    expect(started.game.seats.map((s) => s?.stack ?? 0).reduce((a, b) => a + b) + 30).toBe(3_000);
    expect(await refusal(deps, deps.services.poker.join('sng', DAN, 100))).toContain('registration is over');
    expect(await refusal(deps, deps.services.poker.close('sng', ANN))).toContain('cannot be closed');

    const ended = await playOut(deps.services.poker, 'sng', true);
    const prizes = ended.sng?.prizes ?? [];
    // First place 195; second place 105, or 53 and 52 when a split pot left two to go out
    // together with equal stacks and share it.
    const [first, ...seconds] = prizes;
    expect([first?.place, first?.amount]).toEqual([1, 195]);
    expect(seconds.every((p) => p.place === 2)).toBe(true);
    expect(seconds.map((p) => p.amount)).toEqual(seconds.length === 1 ? [105] : [53, 52]);
    const winner = first?.userId as string;
    // Everyone else went out, the last out among the paid.
    expect(new Set([winner, ...(ended.sng?.out ?? []).map((b) => b.userId)])).toEqual(
      new Set([ANN, BEN, CAL]),
    );
    expect(seconds.map((p) => p.userId)).toContain(ended.sng?.out.at(-1)?.userId);
    const table = await expectWhole(deps, 'sng');
    expect(table.chips).toEqual({ in: 300, out: 300, rake: 0 });
    for (const p of prizes) expect(await cookies(deps, p.userId)).toBe(GRANT - 100 + p.amount);
    // Its moves timer finds nothing more to pay.
    clock.advance(120_000);
    await deps.scheduler.runDue();
    await deps.services.poker.finishMoves('sng');
    expect(await cookies(deps, winner as string)).toBe(GRANT - 100 + 195);
  });

  it('GIVEN a level has passed THEN the next hand is dealt at the higher blinds', async () => {
    const { deps, clock } = makeBotDeps(t);
    const sng = { id: 'lv', host: ANN, members: MEMBERS, grant: GRANT, buyIn: 50, players: 4 };
    await openTournament(deps, { ...sng, registered: [ANN, BEN] });
    await deps.services.poker.start('lv', ANN);
    const first = (await deps.services.poker.get('lv')) as TableDoc;
    const [a, b] = first.game.hand?.players ?? [];
    const toAct = first.game.hand?.toAct === a?.seat ? a : b;
    await deps.services.poker.act('lv', toAct?.userId ?? '', { type: 'fold' }, first.step);
    clock.advance(301_000);
    const second = await deps.services.poker.start('lv', null);
    expect(second.game.hand?.log[0]).toEqual({ what: 'blinds', small: 15, big: 30 });
    // Started early by the host with two: two entrants, and one place paid.
    expect(second.sng?.entrants).toHaveLength(2);
    expect(prizeAmounts(100, [65, 35], 2)).toEqual([100]);
  });

  it('GIVEN registrations THEN one taken back and a close before the start pay every buy-in back', async () => {
    const { deps } = makeBotDeps(t);
    const sng = { id: 'rf', host: ANN, members: MEMBERS, grant: GRANT, buyIn: 100, players: 3 };
    await openTournament(deps, { ...sng, registered: [BEN, CAL] });
    expect(await refusal(deps, deps.services.poker.join('rf', DAN, 150))).toContain(
      '100 🍪 for everyone, not 150',
    );
    await deps.services.poker.leave('rf', BEN);
    expect(await cookies(deps, BEN)).toBe(GRANT);
    await deps.services.poker.join('rf', DAN, 100);
    await deps.services.poker.close('rf', ANN);
    const table = await expectWhole(deps, 'rf');
    expect(table.status).toBe('closed');
    for (const m of MEMBERS) expect(await cookies(deps, m)).toBe(GRANT);
  });

  it('GIVEN a player gives up mid-tournament THEN they are out at once and their chips leave play', async () => {
    const { deps } = makeBotDeps(t);
    const sng = { id: 'ff', host: ANN, members: MEMBERS, grant: GRANT, buyIn: 100, players: 3 };
    await openTournament(deps, { ...sng, registered: [ANN, BEN, CAL] });
    await deps.services.poker.start('ff', ANN);
    const left = await deps.services.poker.leave('ff', CAL);
    expect(left.sng?.out.map((b) => b.userId)).toEqual([CAL]);
    expect(chipProblems(left)).toEqual([]);
    const ended = await playOut(deps.services.poker, 'ff');
    expect(ended.sng?.prizes?.map((p) => p.amount)).toEqual([195, 105]);
    expect(ended.sng?.prizes?.some((p) => p.userId === CAL)).toBe(false);
    await expectWhole(deps, 'ff');
  });

  it("GIVEN a player whose turn clock ran out THEN they are away: the table acts for them after 5 s, not the whole clock, until they press I'm back", async () => {
    const { deps, clock } = makeBotDeps(t);
    const poker = deps.services.poker;
    await deps.runtimeConfig.set('poker.next_hand_s', '5', 'admin');
    await deps.runtimeConfig.set('poker.turn_s', '60', 'admin');
    const sng = { id: 'sng', host: ANN, members: MEMBERS, grant: GRANT, buyIn: 100, players: 3 };
    await openTournament(deps, { ...sng, registered: [ANN, BEN, CAL] });
    clock.advance(5_000);
    await deps.scheduler.runDue();
    const table = async () => (await poker.get('sng')) as TableDoc;
    const toAct = async () => {
      const t = await table();
      return t.game.hand?.toAct != null ? t.game.seats[t.game.hand.toAct]?.userId : undefined;
    };
    // The others check or call (a hand that ends is followed by the next) until `who` is to act.
    const untilTurnOf = async (who: string) => {
      for (let n = 0; n < 50 && (await toAct()) !== who; n++) {
        const t = await table();
        const hand = t.game.hand;
        if (!hand || hand.street === 'done' || hand.toAct === null) {
          await poker.start('sng', null);
          continue;
        }
        const legal = legalActions(t.game, hand.toAct);
        const userId = t.game.seats[hand.toAct]?.userId ?? '';
        await poker.act('sng', userId, { type: legal.toCall === 0 ? 'check' : 'call' }, t.step);
      }
      expect(await toAct()).toBe(who);
    };
    const absent = (await toAct()) as string;
    const lastOf = async () =>
      (await table()).game.hand?.log.filter((e) => 'userId' in e && e.userId === absent).at(-1);

    clock.advance(59_000);
    await deps.scheduler.runDue();
    expect(await toAct()).toBe(absent);
    clock.advance(1_001);
    await deps.scheduler.runDue();
    expect(await lastOf()).toMatchObject({ userId: absent, timedOut: true });
    const away = await table();
    expect(away.game.seats.find((s) => s?.userId === absent)?.away).toBe(true);
    const view = boardMessage(away, deps.i18n.for('en'), { turnS: 60, nextS: 5, startS: 60, idleS: 900 });
    expect(view.embeds?.[0]?.description).toContain(`<@${absent}>`);
    expect(view.embeds?.[0]?.description).toContain('💤 away: the table checks or folds after 5 s');
    expect(view.buttons?.map((b) => b.label)).toContain("I'm back");

    // Away: their next turn is taken for them within seconds, as the board says.
    await untilTurnOf(absent);
    const turn = await table();
    const said = boardMessage(turn, deps.i18n.for('en'), { turnS: 60, nextS: 5, startS: 60, idleS: 900 });
    const at = Math.floor(turn.stepAt.getTime() / 1000) + 5;
    expect(said.embeds?.[0]?.description).toContain(`<t:${at}:R>`);
    clock.advance(4_000);
    await deps.scheduler.runDue();
    expect(await toAct()).toBe(absent);
    clock.advance(1_001);
    await deps.scheduler.runDue();
    expect(await lastOf()).toMatchObject({ userId: absent, timedOut: true });

    // Back, pressed as the table acts for them: whichever lands first, they are back.
    await untilTurnOf(absent);
    clock.advance(5_001);
    await Promise.all([poker.back('sng', absent), deps.scheduler.runDue()]);
    expect((await table()).game.seats.find((s) => s?.userId === absent)?.away).toBeUndefined();
    // The whole clock again.
    await untilTurnOf(absent);
    clock.advance(30_000);
    await deps.scheduler.runDue();
    expect(await toAct()).toBe(absent);
    await expectWhole(deps, 'sng');
  });

  it('GIVEN two members race for the last place THEN one is registered, the other refused, nothing lost', async () => {
    const { deps } = makeBotDeps(t);
    const sng = { id: 'race', host: ANN, members: MEMBERS, grant: GRANT, buyIn: 100, players: 3 };
    await openTournament(deps, { ...sng, registered: [ANN, BEN] });
    const results = await Promise.allSettled([
      deps.services.poker.join('race', CAL, 100),
      deps.services.poker.join('race', DAN, 100),
      deps.services.poker.start('race', ANN),
    ]);
    const table = await expectWhole(deps, 'race');
    const seated = table.game.seats.filter((s) => s !== null).map((s) => s?.userId);
    const joined = results.slice(0, 2).filter((r) => r.status === 'fulfilled').length;
    // One place was left: at most one registration landed, and whoever was refused kept their Cookies.
    expect(joined).toBeLessThanOrEqual(1);
    expect(seated).toHaveLength(2 + joined);
    if (table.sng?.startedAt) expect(table.sng.entrants).toEqual(seated);
  });

  it('GIVEN two players out in one hand with equal stacks THEN they share the place and its prize', () => {
    const sng = {
      out: [
        { userId: 'first-out', hand: 3, stack: 400 },
        { userId: 'b', hand: 7, stack: 900 },
        { userId: 'c', hand: 7, stack: 900 },
      ],
    } as SitAndGo;
    const finish = places(sng, 'a');
    expect(finish).toEqual([
      { place: 1, userIds: ['a'] },
      { place: 2, userIds: ['c', 'b'] },
      { place: 4, userIds: ['first-out'] },
    ]);
    // 50/30/20 of 401: places 2 and 3 (120 + 80) split between the two tied.
    const amounts = prizeAmounts(401, [50, 30, 20], 4);
    expect(amounts).toEqual([201, 120, 80]);
    expect(prizesOf(finish, amounts)).toEqual([
      { place: 1, userId: 'a', amount: 201 },
      { place: 2, userId: 'c', amount: 100 },
      { place: 2, userId: 'b', amount: 100 },
    ]);
    expect(prizesOf(places(sng, 'a'), prizeAmounts(301, [65, 35], 4))).toEqual([
      { place: 1, userId: 'a', amount: 196 },
      { place: 2, userId: 'c', amount: 53 },
      { place: 2, userId: 'b', amount: 52 },
    ]);
  });
});
