import { z } from 'zod';
import { defineComponent } from '../../src/interactions/componentIds.js';
import { defineComponentHandler } from '../../src/interactions/defineCommand.js';
import { amountInput, formAmount } from '../../src/interactions/forms.js';
import { type Board, tableOf } from './raiseForm.js';

/*
 * Sit…: a buy-in of any size between the table's limits, typed into a form, beside the quick
 * picks (the minimum, the middle, the maximum). The buy-in goes the way every Sit goes
 * (`PokerService.join`), which refuses an amount out of range or above the balance with its numbers.
 */

const fields = { table: z.string().regex(/^[\w-]{1,40}$/) };
export const sitAnyButton = defineComponent('poker.sit_any', fields);
export const sitForm = defineComponent('poker.sit_form', fields);

/** Sit… on the board, and the form it opens; `board` renders a table's board. */
export function sitHandlers(board: Board) {
  const button = defineComponentHandler(sitAnyButton, {
    async run(ctx, { table: tableId }) {
      const [table, balance] = await Promise.all([
        tableOf(ctx, tableId),
        ctx.deps.cookieEconomy.balance(ctx.actor.id),
      ]);
      if (table.status === 'closed') return board(ctx, table, true);
      const { i18n } = ctx;
      return {
        modal: {
          customId: sitForm.build({ table: tableId }),
          title: i18n.t('poker:sitForm.title'),
          inputs: [
            amountInput(
              'buyin',
              i18n.t('poker:sitForm.buyin'),
              i18n.t('poker:sitForm.placeholder', {
                min: i18n.number(table.minBuyIn),
                max: i18n.number(table.maxBuyIn),
                balance: i18n.cookies(balance),
              }),
            ),
          ],
        },
      };
    },
  });

  const form = defineComponentHandler(sitForm, {
    async run(ctx, { table: tableId }) {
      const amount = formAmount(ctx.invocation, 'buyin');
      const poker = ctx.deps.services.poker;
      const joined = await poker.join(tableId, ctx.actor.id, amount);
      await poker.rememberMessage(joined, ctx.invocation.messageId);
      return board(ctx, joined, true);
    },
  });

  return [button, form];
}
