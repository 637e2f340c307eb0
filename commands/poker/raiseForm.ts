import { z } from 'zod';
import { AppError, invalidInputText } from '../../src/errors.js';
import { defineComponent } from '../../src/interactions/componentIds.js';
import { defineComponentHandler } from '../../src/interactions/defineCommand.js';
import { amountInput, formAmount } from '../../src/interactions/forms.js';
import type { CommandContext, Reply } from '../../src/interactions/types.js';
import { legalActions } from '../../utils/poker/engine.js';
import { nextHandOnly, notInHand } from '../../utils/poker/errors.js';
import { seatOf } from '../../utils/poker/pokerService.js';
import type { TableDoc } from '../../utils/poker/tableStore.js';

/*
 * Raise…: a raise of any size, typed into a form. The button and the form name the game step
 * the board showed, as every betting press does: on a board the game has left they change
 * nothing and show the table as it is.
 */

const fields = { table: z.string().regex(/^[\w-]{1,40}$/), step: z.coerce.number().int().min(0) };
export const raiseButton = defineComponent('poker.raise', fields);
export const raiseForm = defineComponent('poker.raise_form', fields);

/** Renders a table's board (commands/poker/index.ts). */
export type Board = (ctx: CommandContext, table: TableDoc, update: boolean) => Promise<Reply>;

/** The table a control names; one that is gone makes it an old control. */
export async function tableOf(ctx: CommandContext, tableId: string): Promise<TableDoc> {
  const table = await ctx.deps.services.poker.get(tableId);
  if (!table) throw new AppError('STALE_CONTROL', `poker table ${tableId} is gone`, { tableId });
  return table;
}

/** The board pressed on still shows the game as it is: the same step, a hand in play. */
function current(table: TableDoc, step: number): boolean {
  return table.step === step && table.game.hand !== null && table.game.hand.street !== 'done';
}

/** The seat of the member to act; anyone else is told why it is not theirs. */
function turnOf(table: TableDoc, userId: string): number {
  const seat = seatOf(table, userId);
  const hand = table.game.hand;
  if (seat === null) throw notInHand(table._id);
  if (!hand?.players.some((p) => p.seat === seat && p.userId === userId)) throw nextHandOnly(table._id);
  if (hand.toAct !== seat) throw invalidInputText('not your turn', 'poker:errors.notYourTurn');
  return seat;
}

/** Raise… on the board, and the form it opens; `board` renders a table's board. */
export function raiseHandlers(board: Board) {
  const button = defineComponentHandler(raiseButton, {
    async run(ctx, { table: tableId, step }) {
      const table = await tableOf(ctx, tableId);
      if (!current(table, step)) return board(ctx, table, true);
      const legal = legalActions(table.game, turnOf(table, ctx.actor.id));
      if (!legal.canRaise) throw invalidInputText('cannot raise now', 'poker:errors.cannotRaise');
      const { i18n } = ctx;
      return {
        modal: {
          customId: raiseForm.build({ table: tableId, step }),
          title: i18n.t('poker:raiseForm.title', { hand: table.game.hand?.number ?? 0 }),
          inputs: [
            amountInput(
              'to',
              i18n.t('poker:raiseForm.to'),
              i18n.t('poker:raiseForm.placeholder', {
                min: i18n.number(legal.minRaiseTo),
                max: i18n.number(legal.maxRaiseTo),
              }),
            ),
          ],
        },
      };
    },
  });

  // The amount typed: refused with the limits and the stack when the rules do not allow it,
  // else played as a raise button would be, at the step the form was opened on.
  const form = defineComponentHandler(raiseForm, {
    async run(ctx, { table: tableId, step }) {
      const to = formAmount(ctx.invocation, 'to');
      const poker = ctx.deps.services.poker;
      const table = await tableOf(ctx, tableId);
      if (!current(table, step)) return board(ctx, table, true);
      const seat = turnOf(table, ctx.actor.id);
      const legal = legalActions(table.game, seat);
      if (!legal.canRaise) throw invalidInputText('cannot raise now', 'poker:errors.cannotRaise');
      if (to > legal.maxRaiseTo || (to < legal.minRaiseTo && to !== legal.maxRaiseTo)) {
        throw invalidInputText(
          `raise to ${to} outside ${legal.minRaiseTo}..${legal.maxRaiseTo}`,
          'poker:errors.raiseForm',
          {
            to,
            min: legal.minRaiseTo,
            max: legal.maxRaiseTo,
            stack: table.game.seats[seat]?.stack ?? 0,
          },
        );
      }
      await poker.rememberMessage(table, ctx.invocation.messageId);
      return board(ctx, await poker.act(tableId, ctx.actor.id, { type: 'raise', to }, step), true);
    },
  });

  return [button, form];
}
