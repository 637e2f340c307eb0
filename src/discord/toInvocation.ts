import {
  type AutocompleteInteraction,
  type ButtonInteraction,
  type ChatInputCommandInteraction,
  type CommandInteractionOption,
  GuildMember,
  type StringSelectMenuInteraction,
} from 'discord.js';
import type { Invocation } from '../interactions/types.js';

export type SupportedInteraction =
  | ChatInputCommandInteraction
  | AutocompleteInteraction
  | ButtonInteraction
  | StringSelectMenuInteraction;

/** The interactions that get a reply (autocomplete gets suggestions instead). */
export type RepliableInteraction = Exclude<SupportedInteraction, AutocompleteInteraction>;

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
  return {
    user: { id: interaction.user.id, name },
    roleIds: roleIds.filter((id) => id !== interaction.guildId),
  };
}

/** A discord.js slash command, button click or menu choice as the runtime's Invocation. */
export function toInvocation(interaction: SupportedInteraction): Invocation {
  const base = {
    id: interaction.id,
    guildId: interaction.guildId,
    channelId: interaction.channelId,
    locale: interaction.locale ?? null,
    guildLocale: interaction.guildLocale ?? null,
    ...memberInfo(interaction),
  };
  if (interaction.isButton() || interaction.isStringSelectMenu()) {
    return {
      ...base,
      kind: interaction.isButton() ? 'button' : 'select',
      commandName: '',
      group: null,
      subcommand: null,
      options: {},
      users: {},
      customId: interaction.customId,
      messageId: interaction.message.id,
      values: interaction.isStringSelectMenu() ? interaction.values : [],
    };
  }
  if (interaction.isAutocomplete()) {
    const focused = interaction.options.getFocused(true);
    return {
      ...base,
      kind: 'autocomplete',
      commandName: interaction.commandName,
      group: interaction.options.getSubcommandGroup(false),
      subcommand: interaction.options.getSubcommand(false),
      options: leafOptions(interaction.options.data),
      users: {},
      customId: null,
      messageId: null,
      values: [],
      focused: { name: focused.name, value: String(focused.value) },
    };
  }
  const users: Record<string, string> = {};
  const bots: string[] = [];
  for (const [id, user] of interaction.options.resolved?.users ?? []) {
    if (user.bot) bots.push(id);
    const member = interaction.options.resolved?.members?.get(id);
    users[id] =
      (member instanceof GuildMember ? member.displayName : member?.nick) ?? user.globalName ?? user.username;
  }
  return {
    ...base,
    kind: 'command',
    commandName: interaction.commandName,
    group: interaction.options.getSubcommandGroup(false),
    subcommand: interaction.options.getSubcommand(false),
    options: leafOptions(interaction.options.data),
    users,
    bots,
    customId: null,
    messageId: null,
    values: [],
  };
}
