import { ApplicationCommandOptionType } from 'discord.js';
import { z } from 'zod';
import type { Subcommand } from '../../src/interactions/types.js';
import { formatCookies } from '../../utils/amounts.js';
import { balanceAfter } from '../../utils/ledger/ledger.js';
import { RECIPIENT_OPTIONS, recipientSchema } from '../cookies/recipient.js';
import { mention, parseOptions } from '../options.js';

const options = recipientSchema.extend({ reason: z.string().max(200).default('') });

export const cookiesGrant: Subcommand = {
  definition: {
    type: ApplicationCommandOptionType.Subcommand,
    name: 'grant',
    description: 'Create Cookies for a member (event prizes); audited',
    options: [
      ...RECIPIENT_OPTIONS,
      {
        type: ApplicationCommandOptionType.String,
        name: 'reason',
        description: 'Why (kept in the audit log)',
        max_length: 200,
      },
    ],
  },
  async run({ deps, invocation, actor }) {
    const { user, amount, reason } = parseOptions(options, invocation);
    const opId = `cookies.grant:${invocation.id}`;
    const outcome = await deps.services.cookies.grant({ opId, adminId: actor.id, to: user, amount, reason });
    await deps.services.admin.record({
      id: opId,
      actorId: actor.id,
      text: `🎁 ${mention(actor.id)} granted ${formatCookies(amount)} to ${mention(user)}${reason ? `: ${reason}` : '.'}`,
    });
    // The balance right after the grant is unknown when its reply was lost: show the current one.
    const now = balanceAfter(outcome, user) ?? (await deps.services.cookies.balance(user));
    return {
      ephemeral: true,
      content: `🎁 Granted **${formatCookies(amount)}** to ${mention(user)}; they now have ${formatCookies(now)}.`,
    };
  },
};
