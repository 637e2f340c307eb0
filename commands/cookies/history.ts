import { ApplicationCommandOptionType } from 'discord.js';
import { localized } from '../../src/i18n/definitions.js';
import type { Subcommand } from '../../src/interactions/types.js';
import { COOKIES_MESSAGES } from '../../utils/cookies/messages.js';
import { COOKIE_BROWN } from '../colors.js';

const ROWS = 15;

export const history: Subcommand = {
  definition: {
    type: ApplicationCommandOptionType.Subcommand,
    ...localized(COOKIES_MESSAGES, 'commands.history'),
  },
  async run({ deps, actor, i18n }) {
    const entries = await deps.services.cookies.history(actor.id, ROWS);
    const lines = entries.map((e) => {
      const amount = `${e.delta > 0 ? '+' : '−'}${i18n.cookies(Math.abs(e.delta))}`;
      const kind = i18n.t(`cookies:kinds.${e.kind.replace('.', '_')}`);
      const after = e.balanceAfter === null ? '' : ` → ${i18n.cookies(e.balanceAfter)}`;
      return `\`${amount}\` ${kind}${after} · <t:${Math.floor(e.at.getTime() / 1000)}:R>`;
    });
    return {
      ephemeral: true,
      embeds: [
        {
          title: i18n.t('cookies:history.title'),
          color: COOKIE_BROWN,
          description: lines.length > 0 ? lines.join('\n') : i18n.t('cookies:history.empty'),
          footer: i18n.t('cookies:history.footer', { count: lines.length }),
        },
      ],
    };
  },
};
