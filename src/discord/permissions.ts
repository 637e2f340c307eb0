import { type PermissionFlagsBits as Flags, PermissionFlagsBits } from 'discord.js';

export type PermissionName = keyof typeof Flags;

/**
 * What the bot needs in a channel a setting names (the bakery, the canvas, the audit log, the
 * hunt's draws, heists), and why. Replies to commands and buttons need none of these: Discord
 * carries them through the interaction itself.
 */
export const CHANNEL_PERMISSIONS: readonly { name: PermissionName; why: string }[] = [
  { name: 'ViewChannel', why: 'to find the channel and edit its own earlier posts there' },
  { name: 'SendMessages', why: 'to post there (bakery, canvas, feed, hunt draws, heists, audit log)' },
  { name: 'EmbedLinks', why: 'its posts are embeds (a heist, a poker table, the canvas caption)' },
  { name: 'AttachFiles', why: 'the canvas and leaderboards are images' },
  {
    name: 'ReadMessageHistory',
    why: 'to edit its own timed messages (a heist, a hand, a table) after they scrolled up',
  },
];

/**
 * What the bot needs in the server as a whole, and why: the shop gives and takes the roles it
 * sells (Discord lets it manage only roles below its own, which a moderator arranges).
 */
export const SERVER_PERMISSIONS: readonly { name: PermissionName; why: string }[] = [
  { name: 'ManageRoles', why: 'to give and take the roles the shop sells' },
];

/** Everything the invite asks for: the server's permissions and the channels'. */
export const INVITE_PERMISSIONS: readonly PermissionName[] = [
  ...SERVER_PERMISSIONS.map((p) => p.name),
  ...CHANNEL_PERMISSIONS.map((p) => p.name),
];

/** The permission integer an invite asks for. */
export function permissionInteger(names: readonly PermissionName[]): bigint {
  return names.reduce((bits, name) => bits | PermissionFlagsBits[name], 0n);
}

/** The link that adds the bot to a server with its commands and exactly these permissions. */
export function inviteUrl(applicationId: string, names: readonly PermissionName[]): string {
  const query = new URLSearchParams({
    client_id: applicationId,
    scope: 'bot applications.commands',
    permissions: permissionInteger(names).toString(),
  });
  return `https://discord.com/oauth2/authorize?${query}`;
}
