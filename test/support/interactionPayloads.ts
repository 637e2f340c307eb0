import type { ApiAttachment } from './fakeAttachments.js';
import type { VisibleMessage } from './fakeDiscord.js';
import {
  apiUser,
  BOT_USER,
  CHANNEL_ID,
  type FakeGuild,
  type FakeRole,
  type FakeUser,
  GUILD_ID,
} from './fakeGuild.js';

/**
 * The `data` of the interactions the fake dispatches, as Discord sends them on the gateway
 * (Interactions › Receiving and Responding), so discord.js builds the same interaction classes
 * it builds in production.
 */

const EPHEMERAL = 1 << 6;

let snowflakeCounter = 1_000n;
export function snowflake(): string {
  snowflakeCounter += 1n;
  return (1_300_000_000_000_000_000n + snowflakeCounter).toString();
}

/**
 * Users and members as an interaction's `resolved` carries them: partial members, without their
 * user, `deaf` and `mute` (Discord's spec: ResolvedObjectsResponse, BasicGuildMemberResponse), with
 * `joined_at` and the member's permissions in the channel.
 */
function resolvedUsers(guild: FakeGuild, users: FakeUser[]) {
  if (users.length === 0) return {};
  const partial = (u: FakeUser) => {
    const { user: _user, deaf: _deaf, mute: _mute, ...member } = guild.apiMember(u);
    return member;
  };
  return {
    users: Object.fromEntries(users.map((u) => [u.id, apiUser(u)])),
    members: Object.fromEntries(users.map((u) => [u.id, partial(u)])),
  };
}

function resolvedRoles(guild: FakeGuild, roles: FakeRole[]) {
  if (roles.length === 0) return {};
  return { roles: Object.fromEntries(roles.map((r) => [r.id, guild.apiRole(r)])) };
}

/**
 * A slash command (or a member typing into its option `focused`: autocomplete). `files`: the
 * files of its attachment options by option name, each option's value the attachment's id and
 * the attachment itself in `resolved.attachments`.
 */
export function commandData(
  guild: FakeGuild,
  name: string,
  path: string[],
  options: Record<string, string | number | boolean>,
  users: FakeUser[],
  focused?: string,
  files: Record<string, ApiAttachment> = {},
) {
  const attached = Object.entries(files).map(([optName, file]) => ({
    name: optName,
    type: 11,
    value: file.id,
  }));
  const leaf = Object.entries(options).map(([optName, value]) => ({
    name: optName,
    type:
      typeof value === 'number'
        ? 4
        : typeof value === 'boolean'
          ? 5
          : users.some((u) => u.id === value)
            ? 6
            : 3,
    value,
    ...(optName === focused ? { focused: true } : {}),
  }));
  let tree: unknown[] = [...leaf, ...attached];
  for (const part of [...path].reverse()) {
    tree = [{ name: part, type: part === path[path.length - 1] ? 1 : 2, options: tree }];
  }
  const resolved = {
    ...resolvedUsers(guild, users),
    ...(attached.length > 0
      ? { attachments: Object.fromEntries(Object.values(files).map((f) => [f.id, f])) }
      : {}),
  };
  return {
    id: snowflake(),
    name,
    type: 1,
    guild_id: GUILD_ID,
    options: tree,
    ...(users.length > 0 || attached.length > 0 ? { resolved } : {}),
  };
}

/** A user command (right click on a member › Apps), with the member it targets. */
export function userCommandData(guild: FakeGuild, name: string, target: FakeUser) {
  return {
    id: snowflake(),
    name,
    type: 2,
    guild_id: GUILD_ID,
    target_id: target.id,
    resolved: resolvedUsers(guild, [target]),
  };
}

/** A message command (right click on a message › Apps), with the message it targets. */
export function messageCommandData(name: string, target: VisibleMessage, channelId: string) {
  return {
    id: snowflake(),
    name,
    type: 3,
    guild_id: GUILD_ID,
    target_id: target.id,
    resolved: { messages: { [target.id]: apiMessage(target, channelId) } },
  };
}

/** A submitted form: one text input a row, by custom id, as Discord sends the classic modal. */
export function modalSubmitData(customId: string, fields: Record<string, string>) {
  return {
    custom_id: customId,
    components: Object.entries(fields).map(([id, value]) => ({
      type: 1,
      components: [{ type: 4, custom_id: id, value }],
    })),
  };
}

export function buttonData(customId: string) {
  return { custom_id: customId, component_type: 2 };
}

export function stringSelectData(customId: string, values: string[]) {
  return { custom_id: customId, component_type: 3, values };
}

export function userSelectData(guild: FakeGuild, customId: string, users: FakeUser[]) {
  return {
    custom_id: customId,
    component_type: 5,
    values: users.map((u) => u.id),
    resolved: resolvedUsers(guild, users),
  };
}

export function roleSelectData(guild: FakeGuild, customId: string, roles: FakeRole[]) {
  return {
    custom_id: customId,
    component_type: 6,
    values: roles.map((r) => r.id),
    resolved: resolvedRoles(guild, roles),
  };
}

export function mentionableSelectData(
  guild: FakeGuild,
  customId: string,
  picked: { users?: FakeUser[]; roles?: FakeRole[] },
) {
  const users = picked.users ?? [];
  const roles = picked.roles ?? [];
  return {
    custom_id: customId,
    component_type: 7,
    values: [...users.map((u) => u.id), ...roles.map((r) => r.id)],
    resolved: { ...resolvedUsers(guild, users), ...resolvedRoles(guild, roles) },
  };
}

export function channelSelectData(
  guild: FakeGuild,
  customId: string,
  channelIds: string[],
  member: FakeUser,
) {
  return {
    custom_id: customId,
    component_type: 8,
    values: channelIds,
    resolved: {
      channels: Object.fromEntries(
        channelIds.map((id) => {
          const { name, type } = guild.apiChannel(id);
          return [
            id,
            { id, name, type, permissions: guild.permissions(member, id).toString(), parent_id: null },
          ];
        }),
      ),
    },
  };
}

/** A message as Discord's API returns it (the bot's author, its attachments, its flags). */
export function apiMessage(message: VisibleMessage | undefined, channelId = CHANNEL_ID) {
  return {
    id: message?.id ?? snowflake(),
    channel_id: channelId,
    author: apiUser(BOT_USER),
    content: message?.content ?? '',
    embeds: message?.embeds ?? [],
    components: message?.components ?? [],
    attachments: (message?.files ?? []).map((f, i) => ({
      id: String(i),
      filename: f.name,
      size: f.data.length,
      url: `https://cdn.invalid/${f.name}`,
      proxy_url: '',
    })),
    flags: message?.ephemeral ? EPHEMERAL : 0,
    timestamp: new Date().toISOString(),
    edited_timestamp: null,
    type: 0,
    tts: false,
    mention_everyone: false,
    mentions: [],
    mention_roles: [],
    pinned: false,
  };
}
