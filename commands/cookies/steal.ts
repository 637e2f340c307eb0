import { ApplicationCommandOptionType } from 'discord.js';
import { z } from 'zod';
import { localized } from '../../src/i18n/definitions.js';
import type { Subcommand } from '../../src/interactions/types.js';
import { COOKIES_MESSAGES } from '../../utils/cookies/messages.js';
import { memberOption, parseOptions, refuseBot } from '../options.js';

const options = z.object({ user: memberOption });

export const steal: Subcommand = {
  sanctionScope: 'economy',
  definition: {
    type: ApplicationCommandOptionType.Subcommand,
    ...localized(COOKIES_MESSAGES, 'commands.steal'),
    options: [
      {
        type: ApplicationCommandOptionType.User,
        ...localized(COOKIES_MESSAGES, 'commands.stealUser'),
        required: true,
      },
    ],
  },
  // The thief's cooldown, claimed before anything runs; a refused attempt (bad target) gives it back.
  cooldown: {
    action: 'cookies.steal',
    ms: async (deps) => (await deps.runtimeConfig.get('cookies.steal_cooldown_s')) * 1000,
  },
  async run({ deps, invocation, actor, i18n }) {
    const { user } = parseOptions(options, invocation);
    refuseBot(invocation, user);
    // In a server, both members' time there counts: Discord's join times when it sent them.
    const place = invocation.guildId
      ? {
          guildId: invocation.guildId,
          thiefJoinedAt: invocation.joinedAt ?? null,
          victimJoinedAt: invocation.usersJoinedAt?.[user] ?? null,
        }
      : undefined;
    const result = await deps.services.steal.steal({
      opId: invocation.id,
      thief: actor.id,
      victim: user,
      place,
    });
    const chance = i18n.number(Math.round(result.chancePct));
    // The victim hears of a robbery, or an attempt, only if they asked to.
    const notify = await deps.profiles.toNotify('cookies.robbed', [user]);
    switch (result.status) {
      case 'stolen':
        return {
          notify,
          content: i18n.t(result.bagFull ? 'cookies:steal.stolenBagFull' : 'cookies:steal.stolen', {
            amount: i18n.cookies(result.amount),
            victim: user,
            chance,
          }),
        };
      case 'caught':
        return {
          notify,
          content:
            result.fine > 0
              ? i18n.t('cookies:steal.caught', { fine: i18n.cookies(result.fine), victim: user, chance })
              : i18n.t('cookies:steal.caughtBroke', { victim: user, chance }),
        };
      case 'locked':
        return {
          notify,
          content: i18n.t(result.fine > 0 ? 'cookies:steal.locked' : 'cookies:steal.lockedBroke', {
            fine: i18n.cookies(result.fine),
            victim: user,
          }),
        };
      case 'shielded':
        return {
          ephemeral: true,
          content: result.freesAt
            ? i18n.t('cookies:steal.shielded', {
                victim: user,
                atSeconds: Math.ceil(result.freesAt.getTime() / 1000),
              })
            : i18n.t('cookies:steal.shieldedNow', { victim: user }),
        };
      case 'escaped':
        return { ephemeral: true, content: i18n.t('cookies:steal.escaped', { victim: user }) };
    }
  },
};
