import { ApplicationCommandOptionType } from 'discord.js';
import { z } from 'zod';
import { localized } from '../../src/i18n/definitions.js';
import type { Translator } from '../../src/i18n/i18n.js';
import { defineComponent } from '../../src/interactions/componentIds.js';
import { defineComponentHandler } from '../../src/interactions/defineCommand.js';
import type { ButtonSpec, Reply, Subcommand } from '../../src/interactions/types.js';
import { COOKIES_MESSAGES } from '../../utils/cookies/messages.js';
import { balanceAfter } from '../../utils/money/ledger/ledger.js';
import { parseOptions, refuseBot } from '../options.js';
import { RECIPIENT_OPTIONS, recipientSchema } from './recipient.js';

/** The prompt's id is the /cookies give interaction's id: unique, and the give's operation id. */
const promptField = { prompt: z.string().regex(/^[\w-]{1,40}$/) };
export const giveButton = defineComponent('cookies.give', promptField);
export const cancelButton = defineComponent('cookies.give_cancel', promptField);

export const give: Subcommand = {
  sanctionScope: 'economy',
  definition: {
    type: ApplicationCommandOptionType.Subcommand,
    ...localized(COOKIES_MESSAGES, 'commands.give'),
    options: RECIPIENT_OPTIONS,
  },
  async run({ deps, invocation, actor, i18n }) {
    const { user, amount } = parseOptions(recipientSchema, invocation);
    refuseBot(invocation, user);
    const { balance, prompt } = await deps.services.cookies.openGive({
      promptId: invocation.id,
      from: actor.id,
      to: user,
      amount,
    });
    return {
      ephemeral: true,
      content: i18n.t('cookies:give.prompt', {
        amount: i18n.cookies(amount),
        to: user,
        balance: i18n.cookies(balance),
        endsAt: Math.floor(prompt.expiresAt.getTime() / 1000),
      }),
      buttons: [giveButtonSpec(prompt._id, i18n), cancelButtonSpec(prompt._id, i18n)],
    };
  },
};

function giveButtonSpec(promptId: string, i18n: Translator): ButtonSpec {
  return {
    customId: giveButton.build({ prompt: promptId }),
    label: i18n.t('cookies:give.giveButton'),
    style: 'success',
  };
}

function cancelButtonSpec(promptId: string, i18n: Translator): ButtonSpec {
  return {
    customId: cancelButton.build({ prompt: promptId }),
    label: i18n.t('cookies:give.cancelButton'),
    style: 'secondary',
  };
}

/** The prompt's message, replaced by how it ended (no buttons left). */
function closed(content: string): Reply {
  return { update: true, ephemeral: true, content, buttons: [] };
}

export const giveButtonHandler = defineComponentHandler(giveButton, {
  sanctionScope: 'economy',
  async run({ deps, actor, i18n }, { prompt: promptId }) {
    const result = await deps.services.cookies.confirmGive(promptId, actor.id);
    const what = { amount: i18n.cookies(result.prompt.amount), to: result.prompt.to };
    switch (result.status) {
      case 'given': {
        if (result.outcome.replayed) return closed(i18n.t('cookies:give.alreadyGiven', what));
        const left = balanceAfter(result.outcome, actor.id);
        return closed(
          left === null
            ? i18n.t('cookies:give.given', what)
            : i18n.t('cookies:give.givenLeft', { ...what, left: i18n.cookies(left) }),
        );
      }
      case 'already_given':
        return closed(i18n.t('cookies:give.alreadyGiven', what));
      case 'closed':
        return closed(
          i18n.t(result.why === 'cancelled' ? 'cookies:give.wasCancelled' : 'cookies:give.expired', what),
        );
    }
  },
});

export const cancelButtonHandler = defineComponentHandler(cancelButton, {
  async run({ deps, actor, i18n }, { prompt: promptId }) {
    const result = await deps.services.cookies.cancelGive(promptId, actor.id);
    const what = { amount: i18n.cookies(result.prompt.amount), to: result.prompt.to };
    if (result.status === 'cancelled') return closed(i18n.t('cookies:give.cancelled', what));
    switch (result.why) {
      case 'given':
        return closed(i18n.t('cookies:give.tooLateGiven', what));
      case 'pressed':
        return {
          ...closed(i18n.t('cookies:give.tooLatePressed', what)),
          buttons: [giveButtonSpec(promptId, i18n)],
        };
      case 'expired':
        return closed(i18n.t('cookies:give.alreadyExpired', what));
      case 'cancelled':
        return closed(i18n.t('cookies:give.alreadyCancelled', what));
    }
  },
});
