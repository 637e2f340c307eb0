import { PermissionFlagsBits } from 'discord.js';
import type { AdminGroup, Feature } from '../../src/features/feature.js';
import { localized } from '../../src/i18n/definitions.js';
import { defineCommand } from '../../src/interactions/defineCommand.js';
import type { CommandModule } from '../../src/interactions/types.js';
import { AuditLog } from '../../utils/admin/auditLog.js';
import { AUDIT, AuditStore } from '../../utils/admin/auditStore.js';
import { EconomyHealth } from '../../utils/admin/economyHealth.js';
import { EconomyStore } from '../../utils/admin/economyStore.js';
import { ADMIN_MESSAGES } from '../../utils/admin/messages.js';
import { ADMIN_SETTINGS } from '../../utils/admin/settings.js';
import { cleanupInactive } from './cleanup.js';
import { economyHealth } from './economyHealth.js';
import { runtimeSet } from './runtimeSet.js';
import { runtimeShow } from './runtimeShow.js';
import { settingsReset } from './settingsReset.js';

const economy: AdminGroup = {
  ...localized(ADMIN_MESSAGES, 'commands.economy'),
  subcommands: [economyHealth],
};
const cleanup: AdminGroup = {
  ...localized(ADMIN_MESSAGES, 'commands.cleanup'),
  subcommands: [cleanupInactive],
};

/**
 * `/admin`: every feature's groups in the registry's order, then the economy's health and the
 * cleanup. Two groups with one name would shadow each other's handlers: refused.
 */
export function adminCommand(features: readonly Feature[]): CommandModule {
  const groups = [...features.flatMap((f) => f.adminGroups ?? []), economy, cleanup];
  const names = new Set<string>();
  for (const { name } of groups) {
    if (names.has(name)) throw new Error(`admin group ${name} is declared twice`);
    names.add(name);
  }
  return defineCommand({
    ...localized(ADMIN_MESSAGES, 'commands.admin'),
    access: 'admin',
    category: 'admin:category',
    // Hidden from members without Manage Server; the runtime re-checks the bot's own admin list.
    defaultMemberPermissions: PermissionFlagsBits.ManageGuild.toString(),
    groups,
    components: groups.flatMap((g) => g.components ?? []),
  });
}

/**
 * `/settings`: the runtime settings, apart from `/admin` because they are also each server's:
 * whoever manages a server (Manage Server, or a moderator role) sets its own channels and
 * switches; the defaults every server shares, and the economy's constants, stay with the bot's
 * admins (`settingsLayer.ts`). Shown to members with Manage Server; the handlers check again.
 */
export const settingsCommand: CommandModule = defineCommand({
  ...localized(ADMIN_MESSAGES, 'commands.settings'),
  access: 'serverManager',
  category: 'admin:category',
  defaultMemberPermissions: PermissionFlagsBits.ManageGuild.toString(),
  subcommands: [runtimeShow, runtimeSet, settingsReset],
});

export const adminFeature: Feature = {
  name: 'admin',
  commandsFrom: (features) => [adminCommand(features), settingsCommand],
  messages: ADMIN_MESSAGES,
  settings: ADMIN_SETTINGS,
  ensureIndexes: AuditStore.ensureIndexes,
  createServices: (infra) => ({
    admin: new AuditLog({ ...infra, store: new AuditStore(infra.db) }),
    economy: new EconomyHealth({
      ...infra,
      store: new EconomyStore(infra.db),
      reserve: infra.config.ledger.houseMinReserve,
    }),
  }),
  tasks: (deps) => deps.services.admin.tasks(),
  // The audit trail names moderators and the members they acted on. It is the moderators' record
  // of what was done, so a forgotten member's entries stay, their id (in the fields and in the
  // line's mentions) replaced by the pseudonym, as the books keep theirs.
  personalData: {
    collections: { [AUDIT]: { what: 'admin:privacy.admin_audit', forget: 'pseudonym' } },
  },
  // A year of the trail; the books keep the money it moved for good.
  prune: async (deps, now) => ({ audit: await deps.services.admin.prune(now) }),
};
