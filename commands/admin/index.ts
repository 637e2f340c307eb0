import { PermissionFlagsBits } from 'discord.js';
import type { Feature } from '../../src/features/feature.js';
import { defineCommand } from '../../src/interactions/defineCommand.js';
import { AuditLog } from '../../utils/admin/auditLog.js';
import { ADMIN_SETTINGS } from '../../utils/admin/settings.js';
import { cookiesGrant } from './cookiesGrant.js';
import { runtimeSet } from './runtimeSet.js';
import { runtimeShow } from './runtimeShow.js';

export const adminCommand = defineCommand({
  name: 'admin',
  description: 'Bot administration (admins only)',
  access: 'admin',
  category: 'Administration',
  // Hidden from members without Manage Server; the runtime re-checks the bot's own admin list.
  defaultMemberPermissions: PermissionFlagsBits.ManageGuild.toString(),
  groups: [
    {
      name: 'runtime',
      description: 'Settings that change while the bot runs',
      subcommands: [runtimeShow, runtimeSet],
    },
    { name: 'cookies', description: 'Cookie administration', subcommands: [cookiesGrant] },
  ],
});

export const adminFeature: Feature = {
  name: 'admin',
  commands: [adminCommand],
  settings: ADMIN_SETTINGS,
  createServices: (infra) => ({ admin: new AuditLog(infra) }),
  tasks: (deps) => deps.services.admin.tasks(),
};
