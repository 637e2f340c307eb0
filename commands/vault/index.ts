import type { Feature } from '../../src/features/feature.js';
import { localized } from '../../src/i18n/definitions.js';
import { resolveLocale } from '../../src/i18n/i18n.js';
import { defineCommand } from '../../src/interactions/defineCommand.js';
import { inServer } from '../../src/runtimeConfig/serverContext.js';
import { COOKIE_KINDS } from '../../utils/money/cookieEconomy.js';
import { endedOwnerProblems } from '../../utils/money/holds/invariants.js';
import { VAULT_ERROR_MESSAGES } from '../../utils/vault/errors.js';
import { HeistStore } from '../../utils/vault/heistStore.js';
import { VAULT_MESSAGES } from '../../utils/vault/messages.js';
import { VAULT_SETTINGS } from '../../utils/vault/settings.js';
import { VaultService } from '../../utils/vault/vaultService.js';
import { heist, heistMessage, joinButtonHandler } from './heist.js';
import { show } from './show.js';
import { vaultFund } from './vaultFund.js';

export const vaultCommand = defineCommand({
  ...localized(VAULT_MESSAGES, 'commands.vault'),
  access: 'everyone',
  category: 'vault:category',
  subcommands: [show, heist],
  components: [joinButtonHandler],
});

export const vaultFeature: Feature = {
  name: 'vault',
  personalData: { collections: { vault_heists: { what: 'vault:privacy.vault_heists' } } },
  commands: [vaultCommand],
  notifications: ['heist'],
  adminGroups: [{ ...localized(VAULT_MESSAGES, 'admin.commands.vault'), subcommands: [vaultFund] }],
  messages: VAULT_MESSAGES,
  settings: VAULT_SETTINGS,
  errors: VAULT_ERROR_MESSAGES,
  ensureIndexes: HeistStore.ensureIndexes,
  createServices: (infra) => ({
    vault: new VaultService({
      ...infra,
      economy: infra.cookieEconomy,
      heists: new HeistStore(infra.db),
      reserve: infra.config.ledger.houseMinReserve,
    }),
  }),
  // When a heist closes, the crew's own message shows how it ended (its Join button gone), and
  // `vault.heist_channel`, when set, gets the result too; both in the server's language. A
  // heist whose message is unknown (nobody pressed: only a press tells it) or was deleted is
  // told in the channel it started in when no heist channel took the result.
  tasks: (deps) =>
    deps.services.vault.tasks((closed) =>
      // Its result goes to the heist channel of the server it started in.
      inServer(closed.guildId, async () => {
        const message = heistMessage(closed, deps.i18n.for(resolveLocale(closed.locale)));
        const edited =
          closed.channelId && closed.messageId
            ? await deps.poster.edit(closed.channelId, closed.messageId, message)
            : 'gone';
        // A mention in an embed notifies nobody: the crew who asked to hear of it are named above it.
        const notify = await deps.profiles.toNotify(
          'vault.heist',
          closed.crew.map((m) => m.userId),
        );
        const posted = await deps.poster.post('vault.heist_channel', {
          ...(notify.length > 0 ? { content: notify.map((id) => `<@${id}>`).join(' ') } : {}),
          embeds: message.embeds ?? [],
          notify,
        });
        if (closed.channelId && edited === 'gone' && posted.status !== 'posted')
          await deps.poster.postIn(closed.channelId, {
            content: `<@${closed.leader}>`,
            embeds: message.embeds ?? [],
            notify,
          });
      }),
    ),
  // A settled heist holds nothing, and paid its crew exactly the loot it recorded.
  checkInvariants: (db, _config, _ledger, _now, since) =>
    endedOwnerProblems(db, 'heist', new HeistStore(db).settled(since), (heist) => ({
      name: `heist ${heist._id}: settled`,
      paidAs: 'loot',
      kind: COOKIE_KINDS.heistPayout,
      paidTo: heist.result?.crew ?? [],
      owed: heist.result?.outcome === 'success' ? heist.result.loot : 0,
    })),
};
