import { ApplicationCommandOptionType } from 'discord.js';
import { z } from 'zod';
import { localized } from '../../src/i18n/definitions.js';
import type { Subcommand } from '../../src/interactions/types.js';
import { PLACE_MESSAGES } from '../../utils/place/messages.js';
import { parseOptions } from '../options.js';

/**
 * `/place web`: a one-time sign-in link to the canvas's web page (ephemeral; 10 minutes, once).
 * `action:logout-all` signs the member out of every browser. Discord does not let `web` be a
 * subcommand and a group at once, so logging out is an option of the same subcommand.
 */
export const web: Subcommand = {
  definition: {
    type: ApplicationCommandOptionType.Subcommand,
    ...localized(PLACE_MESSAGES, 'commands.web'),
    options: [
      {
        type: ApplicationCommandOptionType.String,
        ...localized(PLACE_MESSAGES, 'commands.webAction'),
        choices: [
          { name: 'link', value: 'link', name_localizations: { de: 'link' } },
          { name: 'logout-all', value: 'logout-all', name_localizations: { de: 'überall-abmelden' } },
        ],
      },
    ],
  },
  async run({ deps, invocation, actor, i18n }) {
    const { action } = parseOptions(
      z.object({ action: z.enum(['link', 'logout-all']).default('link') }),
      invocation,
    );
    if (action === 'logout-all') {
      const ended = await deps.services.web.signOutEverywhere(actor.id);
      return { ephemeral: true, content: i18n.t('place:web.loggedOut', { count: ended }) };
    }
    const { http } = deps.config;
    if (http.port === 0 && !http.publicUrl) return { ephemeral: true, content: i18n.t('place:web.off') };
    const base = http.publicUrl ?? `http://${http.host}:${http.port}`;
    const { token, expiresAt } = await deps.services.web.createLink({
      userId: actor.id,
      name: actor.name,
      roleIds: [...invocation.roleIds],
      locale: i18n.locale,
    });
    return {
      ephemeral: true,
      // The link expires by the wall clock; said as a duration, so no client or console clock
      // (a script's clock moves with !wait) can show it as already ended.
      content: i18n.t('place:web.link', {
        count: Math.max(1, Math.round((expiresAt.getTime() - deps.wallClock.now().getTime()) / 60_000)),
      }),
      links: [{ label: i18n.t('place:web.open'), url: `${base}/place/login?token=${token}`, emoji: '🎨' }],
    };
  },
};
