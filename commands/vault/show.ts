import { ApplicationCommandOptionType } from 'discord.js';
import { localized } from '../../src/i18n/definitions.js';
import type { Subcommand } from '../../src/interactions/types.js';
import { maxBet } from '../../utils/vault/liquidity.js';
import { VAULT_MESSAGES } from '../../utils/vault/messages.js';
import { COOKIE_BROWN } from '../colors.js';

export const show: Subcommand = {
  definition: {
    type: ApplicationCommandOptionType.Subcommand,
    ...localized(VAULT_MESSAGES, 'commands.show'),
  },
  async run({ deps, i18n }) {
    const v = await deps.services.vault.status();
    const signed = (n: number) => `${n > 0 ? '+' : n < 0 ? '−' : '±'}${i18n.cookies(Math.abs(n))}`;
    // Games and heists are told as members see them: what they staked, what they were paid.
    const flows = v.flows.map((f) =>
      i18n.t(f.group === 'games' || f.group === 'heists' ? 'vault:show.flowPlay' : 'vault:show.flow', {
        group: i18n.t(`vault:groups.${f.group}`),
        in: i18n.cookies(f.in),
        out: i18n.cookies(f.out),
        net: signed(f.in - f.out),
      }),
    );
    const heist = v.lastHeist?.result
      ? i18n.t(`vault:show.lastHeist_${v.lastHeist.result.outcome}`, {
          count: v.lastHeist.result.crew.length,
          loot: i18n.cookies(v.lastHeist.result.loot),
          atSeconds: Math.floor((v.lastHeist.settledAt ?? v.lastHeist.closesAt).getTime() / 1000),
        })
      : null;
    return {
      ephemeral: true,
      embeds: [
        {
          title: i18n.t('vault:show.title'),
          color: COOKIE_BROWN,
          fields: [
            { name: i18n.t('vault:show.balance'), value: i18n.cookies(v.balance), inline: true },
            { name: i18n.t('vault:show.reserve'), value: i18n.cookies(v.reserve), inline: true },
            { name: i18n.t('vault:show.payable'), value: i18n.cookies(v.payable), inline: true },
            {
              name: i18n.t('vault:show.maxBets'),
              value: deps.services.games
                .vaultQuotes()
                .map(({ game, maxMultiplier }) =>
                  i18n.t('vault:show.maxBet', {
                    game: i18n.t(`games:${game}.short`),
                    bet: i18n.cookies(maxBet(v, maxMultiplier)),
                  }),
                )
                .join(' · '),
            },
            {
              name: i18n.t('vault:show.flows'),
              value: flows.length > 0 ? flows.join('\n') : i18n.t('vault:show.noFlows'),
            },
            ...(heist ? [{ name: i18n.t('vault:show.heist'), value: heist }] : []),
          ],
        },
      ],
    };
  },
};
