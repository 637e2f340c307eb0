import { ApplicationCommandOptionType } from 'discord.js';
import { localized } from '../../src/i18n/definitions.js';
import type { Subcommand } from '../../src/interactions/types.js';
import { renderEconomyImage } from '../../src/render/economyImage.js';
import { economyPicture, MONTH, supplyLine } from '../../utils/admin/economyPicture.js';
import { ADMIN_MESSAGES } from '../../utils/admin/messages.js';

/**
 * `/admin economy health`: the economy of the last 7 and 30 days as one image, for moderators:
 * the members' Cookies and their growth, the vault against its reserve, faucets and sinks by
 * kind, the Gini coefficient, and the hunt's Place points and pixels. Read from the kept daily
 * sums (utils/admin/economyHealth.ts), in the admin's language.
 */
export const economyHealth: Subcommand = {
  definition: {
    type: ApplicationCommandOptionType.Subcommand,
    ...localized(ADMIN_MESSAGES, 'commands.economyHealth'),
  },
  defer: { ephemeral: true },
  async run({ deps, i18n }) {
    const report = await deps.services.economy.report(MONTH);
    const png = await renderEconomyImage(economyPicture(report, i18n));
    const supply = supplyLine(await deps.services.bakery.supplyState(), i18n);
    return {
      ephemeral: true,
      content: `${i18n.t('admin:economy.caption', { days: MONTH })}\n${supply}`,
      files: [{ name: 'economy.png', data: png }],
    };
  },
};
