import {
  type APIApplicationCommandOption,
  ApplicationCommandOptionType,
  ApplicationCommandType,
  type RESTPostAPIChatInputApplicationCommandsJSONBody,
  type RESTPostAPIContextMenuApplicationCommandsJSONBody,
} from 'discord.js';
import type { DiscordNamed, LocalizationMap } from '../i18n/definitions.js';
import type { CommandModule } from '../interactions/types.js';

/**
 * Discord's documented limits for chat-input commands, checked before deploy (and in CI)
 * so a bad definition fails here rather than as a 400 from Discord.
 */
const NAME = /^[-_'\p{L}\p{N}\p{sc=Deva}\p{sc=Thai}]{1,32}$/u;
const MAX_OPTIONS = 25;
const MAX_CHOICES = 25;
const MAX_TOTAL_CHARS = 4000;
const MAX_GLOBAL_COMMANDS = 100;

type Option = APIApplicationCommandOption;

function isSub(o: Option): boolean {
  return (
    o.type === ApplicationCommandOptionType.Subcommand ||
    o.type === ApplicationCommandOptionType.SubcommandGroup
  );
}

function checkName(where: string, name: string, problems: string[]): void {
  if (!NAME.test(name)) problems.push(`${where}: name "${name}" must be 1-32 letters, digits, - _ or '`);
  if (name !== name.toLowerCase()) problems.push(`${where}: name "${name}" must be lower case`);
}

function checkDescription(where: string, description: string, problems: string[]): void {
  if (description.length < 1 || description.length > 100) {
    problems.push(`${where}: description must be 1-100 characters (has ${description.length})`);
  }
}

type Localized = Pick<DiscordNamed, 'name_localizations' | 'description_localizations'>;

/** Localized names and descriptions follow the same rules as the originals. */
function checkLocalizations(where: string, o: Localized, problems: string[]): void {
  for (const [locale, name] of Object.entries(o.name_localizations ?? {})) {
    if (typeof name === 'string') checkName(`${where} [${locale}]`, name, problems);
  }
  for (const [locale, description] of Object.entries(o.description_localizations ?? {})) {
    if (typeof description === 'string') checkDescription(`${where} [${locale}]`, description, problems);
  }
}

/** Discord counts the longest variant (any language) of each name and description. */
function longest(original: string, localized: LocalizationMap | undefined): number {
  return Math.max(original.length, ...Object.values(localized ?? {}).map((text) => text?.length ?? 0));
}

function charCount(o: {
  name: string;
  description: string;
  options?: Option[];
  choices?: { name: string; value: string | number }[];
}): number {
  const l = o as Localized;
  const own = longest(o.name, l.name_localizations) + longest(o.description, l.description_localizations);
  const choices = (o.choices ?? []).reduce((n, c) => n + c.name.length + String(c.value).length, 0);
  return own + choices + (o.options ?? []).reduce((n, child) => n + charCount(child as never), 0);
}

/** The fields Discord takes on an option of each type beyond its name, description and `required`. */
const TYPED_FIELDS = [
  'choices',
  'autocomplete',
  'min_length',
  'max_length',
  'min_value',
  'max_value',
  'channel_types',
];
const FIELDS_OF: Partial<Record<ApplicationCommandOptionType, readonly string[]>> = {
  [ApplicationCommandOptionType.String]: ['choices', 'autocomplete', 'min_length', 'max_length'],
  [ApplicationCommandOptionType.Integer]: ['choices', 'autocomplete', 'min_value', 'max_value'],
  [ApplicationCommandOptionType.Number]: ['choices', 'autocomplete', 'min_value', 'max_value'],
  [ApplicationCommandOptionType.Channel]: ['channel_types'],
};

/** A field another type of option takes (choices on an attachment, a length on a number) is refused. */
function checkFields(at: string, option: Option, problems: string[]): void {
  const allowed = FIELDS_OF[option.type] ?? [];
  for (const field of TYPED_FIELDS) {
    const value = (option as unknown as Record<string, unknown>)[field];
    if (value !== undefined && value !== false && !allowed.includes(field))
      problems.push(
        `${at}: an option of type ${ApplicationCommandOptionType[option.type]} takes no ${field}`,
      );
  }
}

function checkOptions(where: string, options: Option[], depth: number, problems: string[]): void {
  if (options.length > MAX_OPTIONS) problems.push(`${where}: ${options.length} options (max ${MAX_OPTIONS})`);
  const names = new Set<string>();
  const subs = options.filter(isSub).length;
  if (subs > 0 && subs !== options.length)
    problems.push(`${where}: subcommands cannot be mixed with other options`);
  let sawOptional = false;
  for (const option of options) {
    const at = `${where} ${option.name}`;
    checkName(at, option.name, problems);
    checkDescription(at, option.description, problems);
    checkLocalizations(at, option, problems);
    if (names.has(option.name)) problems.push(`${at}: duplicate option name`);
    names.add(option.name);
    if (option.type === ApplicationCommandOptionType.SubcommandGroup) {
      if (depth > 0) problems.push(`${at}: a subcommand group can only be at the top level`);
      const children = option.options ?? [];
      if (children.some((c) => c.type !== ApplicationCommandOptionType.Subcommand)) {
        problems.push(`${at}: a subcommand group may contain only subcommands`);
      }
      checkOptions(at, children as Option[], depth + 1, problems);
      continue;
    }
    if (option.type === ApplicationCommandOptionType.Subcommand) {
      if (depth > 1) problems.push(`${at}: subcommands nest at most inside one group`);
      const children = (option.options ?? []) as Option[];
      if (children.some(isSub)) problems.push(`${at}: a subcommand cannot contain subcommands`);
      checkOptions(at, children, 2, problems);
      continue;
    }
    checkFields(at, option, problems);
    const required = 'required' in option && option.required === true;
    if (required && sawOptional) problems.push(`${at}: required options must come before optional ones`);
    if (!required) sawOptional = true;
    const choices = 'choices' in option ? (option.choices ?? []) : [];
    if (choices.length > MAX_CHOICES) problems.push(`${at}: ${choices.length} choices (max ${MAX_CHOICES})`);
    for (const choice of choices) {
      if (choice.name.length < 1 || choice.name.length > 100)
        problems.push(`${at}: choice "${choice.name}" name must be 1-100 characters`);
      for (const [locale, name] of Object.entries(choice.name_localizations ?? {})) {
        if (typeof name === 'string' && (name.length < 1 || name.length > 100))
          problems.push(`${at}: choice "${choice.name}" [${locale}] name must be 1-100 characters`);
      }
      if (typeof choice.value === 'string' && choice.value.length > 100)
        problems.push(`${at}: choice value "${choice.value}" over 100 characters`);
    }
    if (
      'max_length' in option &&
      option.max_length !== undefined &&
      (option.max_length < 1 || option.max_length > 6000)
    ) {
      problems.push(`${at}: max_length must be 1-6000`);
    }
    if (
      'min_value' in option &&
      'max_value' in option &&
      option.min_value !== undefined &&
      option.max_value !== undefined &&
      option.min_value > option.max_value
    ) {
      problems.push(`${at}: min_value is above max_value`);
    }
  }
}

/** Every way the definitions break Discord's limits; empty when they can be deployed. */
export function validateCommandDefinitions(
  definitions: readonly RESTPostAPIChatInputApplicationCommandsJSONBody[],
): string[] {
  const problems: string[] = [];
  if (definitions.length > MAX_GLOBAL_COMMANDS)
    problems.push(`${definitions.length} commands (max ${MAX_GLOBAL_COMMANDS})`);
  const names = new Set<string>();
  for (const definition of definitions) {
    const where = `/${definition.name}`;
    checkName(where, definition.name, problems);
    checkDescription(where, definition.description, problems);
    checkLocalizations(where, definition, problems);
    if (names.has(definition.name)) problems.push(`${where}: defined twice`);
    names.add(definition.name);
    checkOptions(where, (definition.options ?? []) as Option[], 0, problems);
    const total = charCount(definition as never);
    if (total > MAX_TOTAL_CHARS)
      problems.push(
        `${where}: ${total} characters in names, descriptions and choices (max ${MAX_TOTAL_CHARS})`,
      );
  }
  return problems;
}

/** An app may show five entries on a member's context menu. */
const MAX_USER_MENUS = 5;
/** A menu entry's name is what the menu shows: capitals and spaces allowed. */
const MENU_NAME_MAX = 32;

/** Every way the context-menu entries break Discord's limits; empty when they can be deployed. */
export function validateMenuDefinitions(
  definitions: readonly RESTPostAPIContextMenuApplicationCommandsJSONBody[],
): string[] {
  const problems: string[] = [];
  const users = definitions.filter((d) => d.type === ApplicationCommandType.User);
  if (users.length > MAX_USER_MENUS)
    problems.push(`${users.length} user menu entries (max ${MAX_USER_MENUS})`);
  const names = new Set<string>();
  for (const definition of definitions) {
    const where = `menu "${definition.name}"`;
    for (const [locale, name] of [
      ['', definition.name],
      ...Object.entries(definition.name_localizations ?? {}),
    ]) {
      if (typeof name === 'string' && (name.trim().length < 1 || name.length > MENU_NAME_MAX))
        problems.push(`${where}${locale ? ` [${locale}]` : ''}: name must be 1-${MENU_NAME_MAX} characters`);
    }
    if (names.has(definition.name)) problems.push(`${where}: defined twice`);
    names.add(definition.name);
  }
  return problems;
}

/** What `deploy-commands` registers: every slash command, then every context-menu entry. */
export function deployedDefinitions(commands: readonly CommandModule[]) {
  return {
    slash: commands.map((c) => c.data),
    menus: commands.flatMap((c) => (c.userMenus ?? []).map((menu) => menu.data)),
  };
}
