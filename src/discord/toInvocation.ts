import {
  ApplicationCommandOptionType,
  type Attachment,
  type AutocompleteInteraction,
  type ChatInputCommandInteraction,
  type CommandInteractionOption,
  GuildMember,
  type Interaction,
  PermissionFlagsBits,
} from 'discord.js';
import { type AttachmentRef, BARE_INVOCATION, type Invocation } from '../interactions/types.js';

/** Every interaction Discord sends a bot over the gateway: autocomplete gets suggestions, the rest a reply. */
export type SupportedInteraction = Interaction;

/** The interactions that get a reply: commands of every kind, components and forms. */
export type RepliableInteraction = Exclude<Interaction, AutocompleteInteraction>;

function leafOptions(
  options: readonly CommandInteractionOption[],
): Record<string, string | number | boolean> {
  const values: Record<string, string | number | boolean> = {};
  for (const option of options) {
    if (option.options) Object.assign(values, leafOptions(option.options));
    else if (option.value !== undefined) values[option.name] = option.value;
  }
  return values;
}

function memberInfo(interaction: SupportedInteraction) {
  const member = interaction.member;
  const roleIds = member instanceof GuildMember ? [...member.roles.cache.keys()] : (member?.roles ?? []);
  const name =
    member instanceof GuildMember
      ? member.displayName
      : (member?.nick ?? interaction.user.globalName ?? interaction.user.username);
  const joinedAt = member instanceof GuildMember ? member.joinedAt : joinTime(member?.joined_at);
  return {
    user: { id: interaction.user.id, name },
    joinedAt,
    roleIds: roleIds.filter((id) => id !== interaction.guildId),
    // Discord sends the member's permissions with every interaction in a server.
    manageServer: interaction.memberPermissions?.has(PermissionFlagsBits.ManageGuild) ?? false,
  };
}

/** Discord's `joined_at` (ISO 8601) as a date; null when absent or unreadable. */
function joinTime(iso: string | null | undefined): Date | null {
  if (!iso) return null;
  const at = new Date(iso);
  return Number.isNaN(at.getTime()) ? null : at;
}

/** Any discord.js interaction as the runtime's Invocation: each kind it can route, or `other`. */
export function toInvocation(interaction: SupportedInteraction): Invocation {
  const base = {
    ...BARE_INVOCATION,
    id: interaction.id,
    guildId: interaction.guildId,
    channelId: interaction.channelId,
    locale: interaction.locale ?? null,
    guildLocale: interaction.guildLocale ?? null,
    ...memberInfo(interaction),
  };
  if (interaction.isMessageComponent()) {
    return {
      ...base,
      kind: interaction.isButton() ? 'button' : 'select',
      customId: interaction.customId,
      messageId: interaction.message.id,
      values: interaction.isAnySelectMenu() ? [...interaction.values] : [],
    };
  }
  if (interaction.isModalSubmit()) {
    const fields: Record<string, string> = {};
    for (const [id, field] of interaction.fields.fields) {
      if ('value' in field && typeof field.value === 'string') fields[id] = field.value;
    }
    const messageId = interaction.message?.id ?? null;
    return { ...base, kind: 'modal', customId: interaction.customId, messageId, fields };
  }
  if (interaction.isUserContextMenuCommand()) {
    const { targetUser, targetMember } = interaction;
    const joinedAt =
      targetMember instanceof GuildMember ? targetMember.joinedAt : joinTime(targetMember?.joined_at);
    return {
      ...base,
      kind: 'context',
      commandName: interaction.commandName,
      targetId: interaction.targetId,
      users: {
        [targetUser.id]:
          (targetMember instanceof GuildMember ? targetMember.displayName : targetMember?.nick) ??
          targetUser.globalName ??
          targetUser.username,
      },
      bots: targetUser.bot ? [targetUser.id] : [],
      ...(joinedAt ? { usersJoinedAt: { [targetUser.id]: joinedAt } } : {}),
    };
  }
  if (interaction.isContextMenuCommand()) {
    return { ...base, kind: 'context', commandName: interaction.commandName, targetId: interaction.targetId };
  }
  if (interaction.isAutocomplete()) {
    const focused = interaction.options.getFocused(true);
    return {
      ...base,
      ...commandPath(interaction),
      kind: 'autocomplete',
      focused: { name: focused.name, value: String(focused.value) },
    };
  }
  if (!interaction.isChatInputCommand()) return { ...base, kind: 'other' };
  return {
    ...base,
    ...commandPath(interaction),
    ...namedUsers(interaction),
    ...attachedFiles(interaction),
    kind: 'command',
  };
}

/**
 * The files of a command's attachment options, by option name: each option's value (the
 * attachment's id) looked up in what Discord resolved (`resolved.attachments`).
 */
function attachedFiles(interaction: ChatInputCommandInteraction): Pick<Invocation, 'attachments'> {
  const resolved = interaction.options.resolved?.attachments;
  const attachments: Record<string, AttachmentRef> = {};
  const walk = (options: readonly CommandInteractionOption[]) => {
    for (const option of options) {
      if (option.options) walk(option.options);
      else if (option.type === ApplicationCommandOptionType.Attachment) {
        const file = resolved?.get(String(option.value));
        if (file) attachments[option.name] = attachmentRef(file);
      }
    }
  };
  walk(interaction.options.data);
  return Object.keys(attachments).length > 0 ? { attachments } : {};
}

function attachmentRef(file: Attachment): AttachmentRef {
  return {
    id: file.id,
    filename: file.name,
    url: file.url,
    size: file.size,
    contentType: file.contentType ?? null,
    width: file.width ?? null,
    height: file.height ?? null,
  };
}

/** A slash command's name, subcommand and option values. */
function commandPath(interaction: ChatInputCommandInteraction | AutocompleteInteraction) {
  return {
    commandName: interaction.commandName,
    group: interaction.options.getSubcommandGroup(false),
    subcommand: interaction.options.getSubcommand(false),
    options: leafOptions(interaction.options.data),
  };
}

/**
 * The display names of the users a command's options name, which of them are bots, and when
 * those who are members of the server joined it (Discord resolves a member only in its server);
 * and the names of the roles its options name.
 */
function namedUsers(
  interaction: ChatInputCommandInteraction,
): Pick<Invocation, 'users' | 'bots' | 'usersJoinedAt' | 'roleNames'> {
  const users: Record<string, string> = {};
  const bots: string[] = [];
  const usersJoinedAt: Record<string, Date> = {};
  for (const [id, user] of interaction.options.resolved?.users ?? []) {
    if (user.bot) bots.push(id);
    const member = interaction.options.resolved?.members?.get(id);
    users[id] =
      (member instanceof GuildMember ? member.displayName : member?.nick) ?? user.globalName ?? user.username;
    const joinedAt = member instanceof GuildMember ? member.joinedAt : joinTime(member?.joined_at);
    if (joinedAt) usersJoinedAt[id] = joinedAt;
  }
  const roleNames: Record<string, string> = {};
  for (const [id, role] of interaction.options.resolved?.roles ?? []) if (role) roleNames[id] = role.name;
  return { users, bots, usersJoinedAt, roleNames };
}
