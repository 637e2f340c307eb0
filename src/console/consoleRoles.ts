import { type MemberRoles, type RoleRefusal, RoleRefused } from '../roles/memberRoles.js';

/** A role change the bot asked for in the console: made, or refused as Discord would. */
export interface ConsoleRoleChange {
  guildId: string;
  userId: string;
  roleId: string;
  change: 'added' | 'removed';
  reason: string;
  refused: RoleRefusal | null;
}

/** Why `!roles deny` makes the bot's role changes fail: what Discord answers, never `no_discord`. */
export const CONSOLE_REFUSALS = [
  'missing_permission',
  'role_too_high',
  'managed_role',
  'unknown_role',
  'unknown_member',
] as const satisfies readonly RoleRefusal[];

/**
 * Members' roles in the console, in memory, per server. The console has no role list, so any
 * role may be given; `deny` makes the bot's changes in one server fail as Discord refuses them
 * (the bot without Manage Roles, say), for a tour or a test to show what a member then sees.
 * A moderator's hand (`give`, `take`) is not the bot's and is never refused.
 */
export class ConsoleRoles implements MemberRoles {
  readonly #held = new Map<string, Set<string>>();
  readonly #denied = new Map<string, RoleRefusal>();

  constructor(private readonly onChange: (change: ConsoleRoleChange) => void = () => {}) {}

  async add(guildId: string, userId: string, roleId: string, reason: string): Promise<void> {
    this.#change({ guildId, userId, roleId, change: 'added', reason });
  }

  async remove(guildId: string, userId: string, roleId: string, reason: string): Promise<void> {
    this.#change({ guildId, userId, roleId, change: 'removed', reason });
  }

  /** The roles a member holds in a server, as Discord sends them with each interaction. */
  of(guildId: string, userId: string): string[] {
    return [...(this.#held.get(key(guildId, userId)) ?? [])];
  }

  /** A moderator gives the role by hand; false when the member already held it. */
  give(guildId: string, userId: string, roleId: string): boolean {
    const held = this.#held.get(key(guildId, userId)) ?? new Set<string>();
    this.#held.set(key(guildId, userId), held);
    if (held.has(roleId)) return false;
    held.add(roleId);
    return true;
  }

  /** A moderator takes the role by hand; false when the member did not hold it. */
  take(guildId: string, userId: string, roleId: string): boolean {
    return this.#held.get(key(guildId, userId))?.delete(roleId) ?? false;
  }

  /** From now on the bot's role changes in this server are refused for `reason`; null lets them through again. */
  deny(guildId: string, reason: RoleRefusal | null): void {
    if (reason === null) this.#denied.delete(guildId);
    else this.#denied.set(guildId, reason);
  }

  #change(change: Omit<ConsoleRoleChange, 'refused'>): void {
    const refused = this.#denied.get(change.guildId) ?? null;
    if (refused !== null) {
      this.onChange({ ...change, refused });
      throw new RoleRefused(refused);
    }
    const { guildId, userId, roleId } = change;
    // Discord answers a change that is already so like any other: idempotent, and nothing to show.
    const changed =
      change.change === 'added' ? this.give(guildId, userId, roleId) : this.take(guildId, userId, roleId);
    if (changed) this.onChange({ ...change, refused: null });
  }
}

function key(guildId: string, userId: string): string {
  return `${guildId}/${userId}`;
}
