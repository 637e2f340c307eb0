/**
 * Why Discord refuses to give or take a role, for good: asking again changes nothing until an
 * admin fixes the server (the bot's Manage Roles, its role's place in the list) or the member
 * comes back.
 */
export type RoleRefusal =
  /** The bot lacks Manage Roles in the server. */
  | 'missing_permission'
  /** The role is at or above the bot's highest role: Discord lets a bot manage only roles below its own. */
  | 'role_too_high'
  /** The role belongs to an integration or is a server booster's: no bot can give it. */
  | 'managed_role'
  | 'unknown_role'
  /** The member is not (or no longer) in the server. */
  | 'unknown_member'
  /** There is no Discord here (the console without a server, the web process). */
  | 'no_discord';

/** A refusal that will not change on retry; any other error leaves the outcome unknown (ask again). */
export class RoleRefused extends Error {
  constructor(
    readonly reason: RoleRefusal,
    message = `Discord refused the role change: ${reason}`,
  ) {
    super(message);
    this.name = 'RoleRefused';
  }
}

export function isRoleRefused(error: unknown): error is RoleRefused {
  return error instanceof RoleRefused;
}

/**
 * Gives and takes a member's roles in a server: through Discord's REST in the bot
 * (src/discord/discordRoles.ts), in memory in the console. Both calls are idempotent on Discord's
 * side (a role given twice is held once), so a call whose answer was lost is simply made again.
 * A refusal for good throws RoleRefused; a timeout or a server error throws anything else.
 */
export interface MemberRoles {
  add(guildId: string, userId: string, roleId: string, reason: string): Promise<void>;
  remove(guildId: string, userId: string, roleId: string, reason: string): Promise<void>;
}

/** Where no Discord is: every change is refused, so a purchase of a role is called off and refunded. */
export const NO_ROLES: MemberRoles = {
  add: async () => {
    throw new RoleRefused('no_discord');
  },
  remove: async () => {
    throw new RoleRefused('no_discord');
  },
};
