import { ApplicationCommandOptionType } from 'discord.js';
import { localized } from '../../src/i18n/definitions.js';
import type { Translator } from '../../src/i18n/i18n.js';
import type { Subcommand } from '../../src/interactions/types.js';
import type { BakeryShareDoc } from '../../utils/cookies/bakeryShareStore.js';
import { COOKIES_MESSAGES } from '../../utils/cookies/messages.js';
import { bakeryMessage } from './collect.js';

/**
 * Posts the Crumb Saucer Bakery in the channel the command runs in: a public message whose
 * button collects Cookies for whoever presses it. The button carries no state, so the message
 * keeps working after restarts; posting it again just adds another door to the same bakery.
 */
export const bakeryPost: Subcommand = {
  definition: {
    type: ApplicationCommandOptionType.Subcommand,
    ...localized(COOKIES_MESSAGES, 'admin.commands.bakeryPost'),
  },
  async run({ deps, invocation, actor, serverI18n }) {
    await deps.services.admin.record({
      id: `admin.bakery:${invocation.id}`,
      kind: 'bakery.post',
      actorId: actor.id,
      text: serverI18n.t('cookies:admin.audit.bakeryPosted', { actor: actor.id }),
    });
    // The bakery belongs to the channel: it speaks the server's language, not the admin's.
    return bakeryMessage(serverI18n);
  },
};

/** The bakery's share of a day, as the bakery's channel is told (in the server's language). */
export function bakeryShareText(shared: BakeryShareDoc, i18n: Translator): string {
  return i18n.t('cookies:bakeryShare.posted', {
    count: shared.paid,
    members: i18n.number(shared.paid),
    share: i18n.cookies(shared.share),
    take: i18n.cookies(shared.houseTake),
    paid: i18n.cookies(shared.share * shared.paid),
  });
}
