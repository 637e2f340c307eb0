import type { Config } from '../config.js';
import type { Access, Actor } from './types.js';

/** Who is acting, with the authority the configuration gives their user id and roles. */
export function resolveActor(
  user: { id: string; name: string },
  roleIds: readonly string[],
  authority: Config['authority'],
  manageServer = false,
): Actor {
  const isAdmin =
    authority.adminUserIds.includes(user.id) || roleIds.some((r) => authority.adminRoleIds.includes(r));
  const isModerator =
    isAdmin ||
    authority.moderatorUserIds.includes(user.id) ||
    roleIds.some((r) => authority.moderatorRoleIds.includes(r));
  return { id: user.id, name: user.name, isAdmin, isModerator, managesServer: isModerator || manageServer };
}

export function hasAccess(actor: Actor, access: Access): boolean {
  if (access === 'admin') return actor.isAdmin;
  if (access === 'moderator') return actor.isModerator;
  if (access === 'serverManager') return actor.isModerator || actor.managesServer === true;
  return true;
}
