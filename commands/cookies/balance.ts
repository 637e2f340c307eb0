import { ApplicationCommandOptionType } from 'discord.js';
import { z } from 'zod';
import type { Subcommand } from '../../src/interactions/types.js';
import { formatCookies } from '../../utils/amounts.js';
import { COOKIE_BROWN } from '../colors.js';
import { memberOption, mention, parseOptions } from '../options.js';

const options = z.object({ user: memberOption.optional() });

export const balance: Subcommand = {
  definition: {
    type: ApplicationCommandOptionType.Subcommand,
    name: 'balance',
    description: 'Show how many Cookies you (or another member) have',
    options: [
      {
        type: ApplicationCommandOptionType.User,
        name: 'user',
        description: 'Whose balance (default: yours)',
      },
    ],
  },
  async run({ deps, invocation, actor }) {
    const { user } = parseOptions(options, invocation);
    const target = user ?? actor.id;
    const cookies = await deps.services.cookies.balance(target);
    const who = target === actor.id ? 'You have' : `${mention(target)} has`;
    return {
      ephemeral: true,
      embeds: [
        {
          title: 'Cookie balance',
          color: COOKIE_BROWN,
          description: `${who} **${formatCookies(cookies)}**.`,
        },
      ],
    };
  },
};
