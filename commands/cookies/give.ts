import { ApplicationCommandOptionType } from 'discord.js';
import { z } from 'zod';
import { defineComponent } from '../../src/interactions/componentIds.js';
import { defineComponentHandler } from '../../src/interactions/defineCommand.js';
import type { Reply, Subcommand } from '../../src/interactions/types.js';
import { formatCookies } from '../../utils/amounts.js';
import { balanceAfter } from '../../utils/ledger/ledger.js';
import { mention, parseOptions } from '../options.js';
import { RECIPIENT_OPTIONS, recipientSchema } from './recipient.js';

/** The prompt's id is the /cookies give interaction's id: unique, and the give's operation id. */
const promptField = { prompt: z.string().regex(/^[\w-]{1,40}$/) };
export const giveButton = defineComponent('cookies.give', promptField);
export const cancelButton = defineComponent('cookies.give_cancel', promptField);

export const give: Subcommand = {
  definition: {
    type: ApplicationCommandOptionType.Subcommand,
    name: 'give',
    description: 'Give some of your Cookies to another member',
    options: RECIPIENT_OPTIONS,
  },
  async run({ deps, invocation, actor }) {
    const { user, amount } = parseOptions(recipientSchema, invocation);
    const { balance, prompt } = await deps.services.cookies.openGive({
      promptId: invocation.id,
      from: actor.id,
      to: user,
      amount,
    });
    return {
      ephemeral: true,
      content: `Give **${formatCookies(amount)}** to ${mention(user)}? You have ${formatCookies(balance)}. This offer ends <t:${Math.floor(prompt.expiresAt.getTime() / 1000)}:R>.`,
      buttons: [
        { customId: giveButton.build({ prompt: prompt._id }), label: 'Give', style: 'success' },
        { customId: cancelButton.build({ prompt: prompt._id }), label: 'Cancel', style: 'secondary' },
      ],
    };
  },
};

/** The prompt's message, replaced by how it ended (no buttons left). */
function closed(content: string): Reply {
  return { update: true, ephemeral: true, content, buttons: [] };
}

export const giveButtonHandler = defineComponentHandler(giveButton, {
  async run({ deps, actor }, { prompt: promptId }) {
    const result = await deps.services.cookies.confirmGive(promptId, actor.id);
    const { amount, to } = result.prompt;
    const what = `**${formatCookies(amount)}** to ${mention(to)}`;
    switch (result.status) {
      case 'given': {
        const left = balanceAfter(result.outcome, actor.id);
        const prefix = result.outcome.replayed ? 'Already done: you gave' : 'You gave';
        return closed(
          `✅ ${prefix} ${what}.${left === null ? '' : ` You have ${formatCookies(left)} left.`}`,
        );
      }
      case 'already_given':
        return closed(`✅ Already done: you gave ${what}.`);
      case 'closed':
        return closed(
          result.why === 'cancelled'
            ? `This give of ${what} was cancelled. No Cookies were moved.`
            : `This give of ${what} expired. No Cookies were moved; run /cookies give again.`,
        );
    }
  },
});

export const cancelButtonHandler = defineComponentHandler(cancelButton, {
  async run({ deps, actor }, { prompt: promptId }) {
    const result = await deps.services.cookies.cancelGive(promptId, actor.id);
    const { amount, to } = result.prompt;
    const what = `**${formatCookies(amount)}** to ${mention(to)}`;
    if (result.status === 'cancelled') return closed(`Cancelled the give of ${what}. No Cookies were moved.`);
    switch (result.why) {
      case 'given':
        return closed(`Too late to cancel: you already gave ${what}.`);
      case 'pressed':
        return {
          ...closed(
            `Too late to cancel: Give was already pressed for ${what}. Press Give to see how it ended.`,
          ),
          buttons: [{ customId: giveButton.build({ prompt: promptId }), label: 'Give', style: 'success' }],
        };
      case 'expired':
        return closed(`This give of ${what} had already expired. No Cookies were moved.`);
      case 'cancelled':
        return closed(`This give of ${what} was already cancelled. No Cookies were moved.`);
    }
  },
});
