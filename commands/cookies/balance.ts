import { ApplicationCommandOptionType } from 'discord.js';
import { z } from 'zod';
import { localized } from '../../src/i18n/definitions.js';
import type { Subcommand } from '../../src/interactions/types.js';
import { COOKIES_MESSAGES } from '../../utils/cookies/messages.js';
import { COOKIE_BROWN } from '../colors.js';
import { memberOption, parseOptions } from '../options.js';

const options = z.object({ user: memberOption.optional() });

export const balance: Subcommand = {
  definition: {
    type: ApplicationCommandOptionType.Subcommand,
    ...localized(COOKIES_MESSAGES, 'commands.balance'),
    options: [
      { type: ApplicationCommandOptionType.User, ...localized(COOKIES_MESSAGES, 'commands.balanceUser') },
    ],
  },
  async run({ deps, invocation, actor, i18n }) {
    const { user } = parseOptions(options, invocation);
    const target = user ?? actor.id;
    const amount = i18n.cookies(await deps.services.cookies.balance(target));
    const text =
      target === actor.id
        ? i18n.t('cookies:balance.yours', { amount })
        : i18n.t('cookies:balance.theirs', { amount, userId: target });
    return {
      ephemeral: true,
      embeds: [{ title: i18n.t('cookies:balance.title'), color: COOKIE_BROWN, description: text }],
    };
  },
};
