import { PermissionFlagsBits } from 'discord.js';
import type { Feature } from '../../src/features/feature.js';
import { localized } from '../../src/i18n/definitions.js';
import { defineCommand } from '../../src/interactions/defineCommand.js';
import { AuditLog } from '../../utils/admin/auditLog.js';
import { ADMIN_MESSAGES } from '../../utils/admin/messages.js';
import { ADMIN_SETTINGS } from '../../utils/admin/settings.js';
import { bakeryPost } from './bakeryPost.js';
import { cleanupInactive } from './cleanup.js';
import { cookiesGrant } from './cookiesGrant.js';
import { huntReroll, rerollButtonHandler } from './huntReroll.js';
import {
  placeChannel,
  placeDisable,
  placeEarnings,
  placeEnable,
  placeGrant,
  placeResize,
} from './placeAdmin.js';
import { placeRollback, rollbackButtonHandler } from './placeRollback.js';
import { runtimeSet } from './runtimeSet.js';
import { runtimeShow } from './runtimeShow.js';
import { vaultFund } from './vaultFund.js';

export const adminCommand = defineCommand({
  ...localized(ADMIN_MESSAGES, 'commands.admin'),
  access: 'admin',
  category: 'admin:category',
  // Hidden from members without Manage Server; the runtime re-checks the bot's own admin list.
  defaultMemberPermissions: PermissionFlagsBits.ManageGuild.toString(),
  groups: [
    { ...localized(ADMIN_MESSAGES, 'commands.runtime'), subcommands: [runtimeShow, runtimeSet] },
    { ...localized(ADMIN_MESSAGES, 'commands.cookies'), subcommands: [cookiesGrant] },
    { ...localized(ADMIN_MESSAGES, 'commands.bakery'), subcommands: [bakeryPost] },
    { ...localized(ADMIN_MESSAGES, 'commands.vault'), subcommands: [vaultFund] },
    { ...localized(ADMIN_MESSAGES, 'commands.cleanup'), subcommands: [cleanupInactive] },
    { ...localized(ADMIN_MESSAGES, 'commands.hunt'), subcommands: [huntReroll] },
    {
      ...localized(ADMIN_MESSAGES, 'commands.place'),
      subcommands: [
        placeGrant,
        placeEarnings,
        placeResize,
        placeRollback,
        placeEnable,
        placeDisable,
        placeChannel,
      ],
    },
  ],
  components: [rollbackButtonHandler, rerollButtonHandler],
});

export const adminFeature: Feature = {
  name: 'admin',
  commands: [adminCommand],
  messages: ADMIN_MESSAGES,
  settings: ADMIN_SETTINGS,
  createServices: (infra) => ({ admin: new AuditLog(infra) }),
  tasks: (deps) => deps.services.admin.tasks(),
};
