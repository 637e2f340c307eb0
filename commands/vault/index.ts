import type { Feature } from '../../src/features/feature.js';
import { localized } from '../../src/i18n/definitions.js';
import { resolveLocale } from '../../src/i18n/i18n.js';
import { defineCommand } from '../../src/interactions/defineCommand.js';
import { CookieEconomy } from '../../utils/cookieEconomy.js';
import { VAULT_ERROR_MESSAGES } from '../../utils/vault/errors.js';
import { HeistStore } from '../../utils/vault/heistStore.js';
import { VAULT_MESSAGES } from '../../utils/vault/messages.js';
import { VAULT_SETTINGS } from '../../utils/vault/settings.js';
import { VaultService } from '../../utils/vault/vaultService.js';
import { heist, heistMessage, joinButtonHandler } from './heist.js';
import { show } from './show.js';

export const vaultCommand = defineCommand({
  ...localized(VAULT_MESSAGES, 'commands.vault'),
  access: 'everyone',
  category: 'vault:category',
  subcommands: [show, heist],
  components: [joinButtonHandler],
});

export const vaultFeature: Feature = {
  name: 'vault',
  commands: [vaultCommand],
  messages: VAULT_MESSAGES,
  settings: VAULT_SETTINGS,
  errors: VAULT_ERROR_MESSAGES,
  ensureIndexes: HeistStore.ensureIndexes,
  createServices: (infra) => ({
    vault: new VaultService({
      ...infra,
      economy: new CookieEconomy(infra.ledger),
      heists: new HeistStore(infra.db),
      reserve: infra.config.ledger.houseMinReserve,
    }),
  }),
  // When a heist closes, its result goes to `vault.heist_channel` in the language of the server it started in.
  tasks: (deps) =>
    deps.services.vault.tasks(async (closed) => {
      const i18n = deps.i18n.for(resolveLocale(closed.locale));
      await deps.poster.post('vault.heist_channel', { embeds: heistMessage(closed, i18n).embeds ?? [] });
    }),
};
