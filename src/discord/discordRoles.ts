import { type Client, DiscordAPIError, PermissionFlagsBits, RESTJSONErrorCodes, Routes } from 'discord.js';
import { type MemberRoles, type RoleRefusal, RoleRefused } from '../roles/memberRoles.js';

/** The longest one role change waits for Discord, retries included; after it the outcome is unknown. */
const TIMEOUT_MS = 10_000;

/** Discord's answers that repeat until an admin changes the server or the member comes back. */
const LASTING = new Map<number, RoleRefusal>([
  [RESTJSONErrorCodes.MissingPermissions, 'missing_permission'],
  [RESTJSONErrorCodes.MissingAccess, 'missing_permission'],
  [RESTJSONErrorCodes.UnknownRole, 'unknown_role'],
  [RESTJSONErrorCodes.UnknownMember, 'unknown_member'],
  [RESTJSONErrorCodes.UnknownUser, 'unknown_member'],
]);

function refusal(error: unknown): unknown {
  if (error instanceof DiscordAPIError && typeof error.code === 'number') {
    const reason = LASTING.get(error.code);
    if (reason) return new RoleRefused(reason);
  }
  return error;
}

/**
 * What Discord would refuse, read from the server as the gateway keeps it; null when the cache
 * cannot tell (a client without a gateway, a role created a moment ago): Discord's answer decides.
 * Nothing is fetched here, so the request's deadline bounds the whole call.
 */
function foreseen(client: RoleClient, guildId: string, roleId: string): RoleRefusal | null {
  const guild = client.guilds?.cache.get(guildId);
  const me = guild?.members.me;
  const role = guild?.roles.cache.get(roleId);
  if (!me || !role) return null;
  if (!me.permissions.has(PermissionFlagsBits.ManageRoles)) return 'missing_permission';
  if (role.managed) return 'managed_role';
  // Discord lets a bot manage only roles below its highest (position, then the older id first).
  if (me.roles.highest.comparePositionTo(role) <= 0) return 'role_too_high';
  return null;
}

/** A discord.js Client, or only its REST (a process without a gateway). */
export type RoleClient = Pick<Client, 'rest'> & Partial<Pick<Client, 'guilds'>>;

/** Members' roles through Discord's REST; `reason` lands in the server's audit log. */
export function discordRoles(client: RoleClient, options: { timeoutMs?: number } = {}): MemberRoles {
  const timeoutMs = options.timeoutMs ?? TIMEOUT_MS;

  async function change(
    method: 'put' | 'delete',
    guildId: string,
    userId: string,
    roleId: string,
    reason: string,
  ): Promise<void> {
    const refused = foreseen(client, guildId, roleId);
    if (refused) throw new RoleRefused(refused);
    const route = Routes.guildMemberRole(guildId, userId, roleId);
    await client.rest[method](route, { reason, signal: AbortSignal.timeout(timeoutMs) }).catch(
      (error: unknown) => {
        throw refusal(error);
      },
    );
  }

  return {
    add: (guildId, userId, roleId, reason) => change('put', guildId, userId, roleId, reason),
    remove: (guildId, userId, roleId, reason) => change('delete', guildId, userId, roleId, reason),
  };
}
