import { ApplicationCommandOptionType } from 'discord.js';
import { localized } from '../../src/i18n/definitions.js';
import type { Translator } from '../../src/i18n/i18n.js';
import { defineComponent } from '../../src/interactions/componentIds.js';
import { defineComponentHandler } from '../../src/interactions/defineCommand.js';
import type { Invocation, Reply, Subcommand } from '../../src/interactions/types.js';
import type { CollectPlace } from '../../utils/cookies/collectReminders.js';
import type { Collected } from '../../utils/cookies/collectService.js';
import { COOKIES_MESSAGES } from '../../utils/cookies/messages.js';
import { COOKIE_BROWN } from '../colors.js';

/** The Crumb Saucer Bakery's button: it carries no state, so a message posted months ago still works. */
export const bakeryButton = defineComponent('cookies.bakery', {});

export const collect: Subcommand = {
  sanctionScope: 'economy',
  definition: {
    type: ApplicationCommandOptionType.Subcommand,
    ...localized(COOKIES_MESSAGES, 'commands.collect'),
  },
  async run({ deps, actor, invocation, i18n, serverI18n }) {
    const place = collectPlace(invocation, i18n);
    return collectedReply(
      await deps.services.collect.collect(actor.id, 'command', serverI18n.locale, place),
      i18n,
    );
  },
};

export const bakeryButtonHandler = defineComponentHandler(bakeryButton, {
  sanctionScope: 'economy',
  async run({ deps, actor, invocation, i18n, serverI18n }) {
    const place = collectPlace(invocation, i18n);
    return collectedReply(
      await deps.services.collect.collect(actor.id, 'bakery', serverI18n.locale, place),
      i18n,
    );
  },
});

/** Where the member collected: a mention reminder comes there, in the language the reply spoke. */
function collectPlace(invocation: Invocation, i18n: Translator): CollectPlace {
  return { guildId: invocation.guildId, channelId: invocation.channelId ?? null, locale: i18n.locale };
}

function collectedReply(c: Collected, i18n: Translator): Reply {
  const lines = [
    i18n.t('cookies:collect.collected', { amount: i18n.cookies(c.amount) }),
    c.bonus > 0
      ? i18n.t('cookies:collect.streakBonus', { bonus: i18n.cookies(c.bonus), streak: c.streak })
      : i18n.t('cookies:collect.streak', { streak: c.streak }),
    c.balance === null ? '' : i18n.t('cookies:collect.balance', { balance: i18n.cookies(c.balance) }),
    c.ratePct < 100 ? i18n.t('cookies:collect.rate', { pct: c.ratePct }) : '',
    i18n.t('cookies:collect.next', { atSeconds: Math.floor(c.nextAt.getTime() / 1000) }),
  ];
  return {
    ephemeral: true,
    embeds: [
      {
        title: i18n.t('cookies:collect.title'),
        color: COOKIE_BROWN,
        description: lines.filter(Boolean).join('\n'),
      },
    ],
  };
}

/** The bakery's persistent message (posted by `/admin bakery post`). */
export function bakeryMessage(i18n: Translator): Reply {
  return {
    embeds: [
      {
        title: i18n.t('cookies:bakery.title'),
        color: COOKIE_BROWN,
        description: i18n.t('cookies:bakery.description'),
      },
    ],
    buttons: [{ customId: bakeryButton.build({}), label: i18n.t('cookies:bakery.button'), style: 'success' }],
  };
}
