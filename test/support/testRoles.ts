import { type MemberRoles, type RoleRefusal, RoleRefused } from '../../src/roles/memberRoles.js';

/**
 * Roles in memory for service tests, which Discord would keep: `refuse` makes every change
 * refused for good with that reason, `fail` makes it fail with an unknown outcome (a timeout:
 * `applied` says whether the change landed anyway, as a request Discord finished after the
 * bot gave up on it would).
 */
export class TestRoles implements MemberRoles {
  readonly held = new Set<string>();
  refuse: RoleRefusal | null = null;
  fail: { applied: boolean } | null = null;
  calls = 0;

  has(guildId: string, userId: string, roleId: string): boolean {
    return this.held.has(`${guildId}:${userId}:${roleId}`);
  }

  async add(guildId: string, userId: string, roleId: string): Promise<void> {
    this.#change(() => this.held.add(`${guildId}:${userId}:${roleId}`));
  }

  async remove(guildId: string, userId: string, roleId: string): Promise<void> {
    this.#change(() => this.held.delete(`${guildId}:${userId}:${roleId}`));
  }

  #change(apply: () => void): void {
    this.calls++;
    if (this.refuse) throw new RoleRefused(this.refuse);
    if (this.fail) {
      if (this.fail.applied) apply();
      throw new Error('The request to Discord timed out');
    }
    apply();
  }
}
