import { ApplicationCommandOptionType } from 'discord.js';
import { z } from 'zod';
import { localized } from '../../src/i18n/definitions.js';
import type { Subcommand } from '../../src/interactions/types.js';
import { AMOUNT_MAX, memberAmount } from '../../utils/money/amounts.js';
import { balanceAfter } from '../../utils/money/ledger/ledger.js';
import { VAULT_MESSAGES } from '../../utils/vault/messages.js';
import { parseOptions } from '../options.js';

const options = z.object({ amount: memberAmount, reason: z.string().max(200).default('') });

/** New Cookies for the house vault (its first bankroll, an event budget); audited like a grant. */
export const vaultFund: Subcommand = {
  definition: {
    type: ApplicationCommandOptionType.Subcommand,
    ...localized(VAULT_MESSAGES, 'admin.commands.fund'),
    options: [
      {
        type: ApplicationCommandOptionType.Integer,
        ...localized(VAULT_MESSAGES, 'admin.commands.fundAmount'),
        required: true,
        min_value: 1,
        max_value: AMOUNT_MAX,
      },
      {
        type: ApplicationCommandOptionType.String,
        ...localized(VAULT_MESSAGES, 'admin.commands.grantReason'),
        max_length: 200,
      },
    ],
  },
  async run({ deps, invocation, actor, i18n, serverI18n }) {
    const { amount, reason } = parseOptions(options, invocation);
    const opId = `vault.fund:${invocation.id}`;
    const outcome = await deps.services.vault.fund({ opId, adminId: actor.id, amount, reason });
    await deps.services.admin.record({
      id: opId,
      kind: 'vault.fund',
      actorId: actor.id,
      text: serverI18n.t(reason ? 'vault:admin.audit.fundedWithReason' : 'vault:admin.audit.funded', {
        actor: actor.id,
        amount: serverI18n.cookies(amount),
        reason,
      }),
    });
    const vault =
      balanceAfter(outcome, deps.ledger.houseAccountId) ?? (await deps.services.vault.status()).balance;
    return {
      ephemeral: true,
      content: i18n.t('vault:admin.fund.funded', {
        amount: i18n.cookies(amount),
        vault: i18n.cookies(vault),
      }),
    };
  },
};
