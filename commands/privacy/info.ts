import { ApplicationCommandOptionType } from 'discord.js';
import { localized } from '../../src/i18n/definitions.js';
import type { Subcommand } from '../../src/interactions/types.js';
import { PRIVACY_MESSAGES } from '../../utils/privacy/messages.js';
import { PRIVACY_BLUE } from '../colors.js';

/** `/privacy info`: what the bot keeps about a member, why, for how long, and their rights. */
export const privacyInfo: Subcommand = {
  definition: {
    type: ApplicationCommandOptionType.Subcommand,
    ...localized(PRIVACY_MESSAGES, 'commands.info'),
  },
  async run({ deps, i18n }) {
    const facts = deps.services.privacy.facts();
    const days = (count: number) => i18n.t('privacy:info.days', { count });
    const field = (key: string, values: Record<string, unknown> = {}) => ({
      name: i18n.t(`privacy:info.${key}Title`),
      value: i18n.t(`privacy:info.${key}`, values),
    });
    return {
      ephemeral: true,
      embeds: [
        {
          title: i18n.t('privacy:info.title'),
          color: PRIVACY_BLUE,
          description: i18n.t('privacy:info.intro'),
          fields: [
            field('what'),
            field('why'),
            field('howLong', {
              sessions: days(facts.sessionDays),
              kept: i18n.t('privacy:info.kept', { count: facts.backups }),
              backupDays: days(facts.backupDays),
              logs: days(facts.logDays),
            }),
            field('rights'),
          ],
        },
      ],
    };
  },
};
