import type { BotDeps } from '../../src/interactions/types.js';
import { legalActions, type PokerAction } from '../../utils/poker/engine.js';
import type { PokerService } from '../../utils/poker/pokerService.js';
import { DEFAULT_PAYOUTS } from '../../utils/poker/sitAndGo.js';
import type { TableDoc } from '../../utils/poker/tableStore.js';
import { grantCookies } from './pokerTable.js';

/**
 * A sit-and-go of the poker tests: members granted Cookies, the tournament opened (a 1,000-chip
 * stack, blinds 10/20 at level 1) and the given members registered in order.
 */
export async function openTournament(
  deps: BotDeps,
  sng: {
    id: string;
    host: string;
    members: string[];
    grant: number;
    buyIn: number;
    players: number;
    registered: string[];
    payouts?: number[];
  },
): Promise<TableDoc> {
  await grantCookies(deps, sng.members, sng.grant);
  await deps.services.poker.create({
    tableId: sng.id,
    hostId: sng.host,
    channelId: null,
    locale: 'en',
    sng: {
      buyIn: sng.buyIn,
      players: sng.players,
      stack: 1_000,
      smallBlind: 10,
      levelS: 300,
      payouts: sng.payouts ?? DEFAULT_PAYOUTS,
    },
  });
  let table: TableDoc | null = null;
  for (const m of sng.registered) table = await deps.services.poker.join(sng.id, m, sng.buyIn);
  return table ?? ((await deps.services.poker.get(sng.id)) as TableDoc);
}

/**
 * Plays the tournament to its end: whoever is to act goes all-in, or calls one; between hands
 * the next is dealt. `firstFolds`: the first to act in the first hand folds instead, so the
 * stacks differ from then on and nobody ties. Refused after `maxMoves` (a tournament that never
 * ends is the finding).
 */
export async function playOut(
  poker: PokerService,
  tableId: string,
  firstFolds = false,
  maxMoves = 400,
): Promise<TableDoc> {
  for (let n = 0; n < maxMoves; n++) {
    const t = (await poker.get(tableId)) as TableDoc;
    if (t.status === 'closed') return t;
    const hand = t.game.hand;
    if (!hand || hand.street === 'done' || hand.toAct === null) {
      await poker.start(tableId, null);
      continue;
    }
    const seat = hand.toAct;
    const legal = legalActions(t.game, seat);
    const userId = t.game.seats[seat]?.userId ?? '';
    const opening = firstFolds && hand.number === 1 && hand.log.length === 1;
    const move: PokerAction = opening
      ? { type: 'fold' }
      : legal.canRaise
        ? { type: 'raise', to: legal.maxRaiseTo }
        : legal.toCall === 0
          ? { type: 'check' }
          : { type: 'call' };
    await poker.act(tableId, userId, move, t.step);
  }
  throw new Error(`tournament ${tableId} still running after ${maxMoves} moves`);
}
