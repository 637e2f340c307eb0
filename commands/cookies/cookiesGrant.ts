import { ApplicationCommandOptionType } from 'discord.js';
import { z } from 'zod';
import { localized } from '../../src/i18n/definitions.js';
import type { Subcommand } from '../../src/interactions/types.js';
import { COOKIES_MESSAGES } from '../../utils/cookies/messages.js';
import { balanceAfter } from '../../utils/money/ledger/ledger.js';
import { parseOptions } from '../options.js';
import { RECIPIENT_OPTIONS, recipientSchema } from './recipient.js';

const options = recipientSchema.extend({ reason: z.string().max(200).default('') });

export const cookiesGrant: Subcommand = {
  definition: {
    type: ApplicationCommandOptionType.Subcommand,
    ...localized(COOKIES_MESSAGES, 'admin.commands.grant'),
    options: [
      ...RECIPIENT_OPTIONS,
      {
        type: ApplicationCommandOptionType.String,
        ...localized(COOKIES_MESSAGES, 'admin.commands.grantReason'),
        max_length: 200,
      },
    ],
  },
  async run({ deps, invocation, actor, i18n, serverI18n }) {
    const { user, amount, reason } = parseOptions(options, invocation);
    const opId = `cookies.grant:${invocation.id}`;
    const outcome = await deps.services.cookies.grant({ opId, adminId: actor.id, to: user, amount, reason });
    // The audit channel is the server's: its line is in the server's language.
    await deps.services.admin.record({
      id: opId,
      kind: 'cookies.grant',
      actorId: actor.id,
      subjectId: user,
      text: serverI18n.t(reason ? 'cookies:admin.audit.grantedWithReason' : 'cookies:admin.audit.granted', {
        actor: actor.id,
        amount: serverI18n.cookies(amount),
        to: user,
        reason,
      }),
    });
    // The balance right after the grant is unknown when its reply was lost: show the current one.
    const now = balanceAfter(outcome, user) ?? (await deps.services.cookies.balance(user));
    return {
      ephemeral: true,
      content: i18n.t('cookies:admin.grant.granted', {
        amount: i18n.cookies(amount),
        to: user,
        balance: i18n.cookies(now),
      }),
    };
  },
};
