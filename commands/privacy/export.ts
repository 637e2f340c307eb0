import { ApplicationCommandOptionType } from 'discord.js';
import { localized } from '../../src/i18n/definitions.js';
import type { Subcommand } from '../../src/interactions/types.js';
import { PRIVACY_MESSAGES } from '../../utils/privacy/messages.js';

/** How often a member may ask for their data: each export reads every collection. */
const EXPORT_COOLDOWN_MS = 15 * 60_000;

/** `/privacy export`: a JSON file of everything the bot stores about the member, in their language. */
export const privacyExport: Subcommand = {
  definition: {
    type: ApplicationCommandOptionType.Subcommand,
    ...localized(PRIVACY_MESSAGES, 'commands.export'),
  },
  defer: { ephemeral: true },
  cooldown: { action: 'privacy.export', ms: EXPORT_COOLDOWN_MS },
  async run({ deps, actor, i18n }) {
    const file = await deps.services.privacy.exportFor(deps.services, actor.id, i18n);
    return {
      ephemeral: true,
      content: i18n.t('privacy:export.ready', { count: file.documents }),
      files: [{ name: file.name, data: file.data }],
    };
  },
};
