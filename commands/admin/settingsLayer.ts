import { AppError } from '../../src/errors.js';
import { hasAccess } from '../../src/interactions/authority.js';
import type { CommandContext } from '../../src/interactions/types.js';
import type { SettingKey } from '../../src/runtimeConfig/settings.js';

/**
 * Which layer a change in `/settings` goes to, and whether the member may make it: a server's
 * own value (a `server` setting asked in a server, without `everywhere`) is for whoever manages
 * that server (Discord's Manage Server, or a moderator role); the default every server shares is
 * the bot's configured admins'. Returns the server's id, or null for the default.
 */
export function layerFor(ctx: CommandContext, key: SettingKey, everywhere: boolean): string | null {
  const { invocation, actor, deps } = ctx;
  const guildId = invocation.guildId;
  if (guildId && !everywhere && deps.runtimeConfig.scope(key) === 'server') {
    if (!hasAccess(actor, 'serverManager'))
      throw new AppError('NOT_AUTHORIZED', `${actor.id} may not change the settings of ${guildId}`, {
        messageKey: 'admin:layer.needManager',
      });
    return guildId;
  }
  if (!actor.isAdmin)
    throw new AppError('NOT_AUTHORIZED', `${actor.id} may not change the default of ${key}`, {
      key,
      messageKey:
        deps.runtimeConfig.scope(key) === 'server' ? 'admin:layer.needAdminDefault' : 'admin:layer.needAdmin',
    });
  return null;
}
