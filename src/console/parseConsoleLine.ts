import { type APIApplicationCommandOption, ApplicationCommandOptionType } from 'discord.js';
import { parseArgsStringToArgv } from 'string-argv';
import type { DiscordNamed } from '../i18n/definitions.js';
import { LOCALES, type Locale } from '../i18n/i18n.js';
import { INTEGER_TEXT, NUMBER_TEXT } from '../interactions/optionText.js';
import type { AttachmentRef, CommandModule } from '../interactions/types.js';
import { consoleAttachment } from './consoleAttachments.js';
import { MEMBER_NAME, ROLE_NAME } from './consoleNames.js';
import { ConsoleLineError, nameIn } from './consoleTexts.js';
import { type FormLine, parseFormLine } from './parseFormLine.js';
import { parseRoleLine, type RoleLine } from './parseRoleLine.js';

export { ConsoleLineError } from './consoleTexts.js';

export type ConsoleAction =
  | { kind: 'skip' }
  | {
      kind: 'command';
      as: string | null;
      commandName: string;
      group: string | null;
      subcommand: string | null;
      /** Words after the subcommand that are not `name:value` (a member writing `give bob 50`). */
      loose: string[];
      args: Map<string, string>;
    }
  | { kind: 'click'; as: string | null; target: string }
  | { kind: 'choose'; as: string | null; target: string }
  | { kind: 'wait'; ms: number }
  | { kind: 'locale'; locale: Locale }
  | { kind: 'guild'; name: string }
  | RoleLine
  | FormLine
  | { kind: 'quit' };

/** The console's first server, the one it starts in: `!guild main` goes back to it. */
export const HOME_GUILD = 'main';

const UNITS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };
/** The longest `!wait`: ten years, far inside what a Date can hold. */
const MAX_WAIT_MS = 3_650 * 86_400_000;

/** `90s`, `5m`, `2h`, `1d`, `250ms`; at most 3650d. */
export function parseDuration(text: string): number {
  const match = /^(\d{1,15})(ms|s|m|h|d)$/.exec(text.trim());
  if (!match) throw new ConsoleLineError('core:console.notDuration', { text });
  const ms = Number(match[1]) * (UNITS[match[2] as string] as number);
  if (ms > MAX_WAIT_MS) throw new ConsoleLineError('core:console.waitTooLong', { text });
  return ms;
}

/**
 * One console line: `[as NAME] /command [group] [subcommand] option:value option:"a b"`,
 * `[as NAME] !click LABEL_OR_ID`, `[as NAME] !choose LABEL_OR_VALUE` (a select menu),
 * `!wait DURATION`, `!locale de|en`, `!guild NAME` (the server the next lines happen in), the role
 * lines (`!role`, `!unrole`, `!roles`: parseRoleLine.ts), forms and context menus (`!submit`,
 * `!app`: parseFormLine.ts), `!quit`; blank lines and `#` comments skip.
 */
export function parseConsoleLine(line: string): ConsoleAction {
  const trimmed = line.trim();
  if (trimmed === '' || trimmed.startsWith('#')) return { kind: 'skip' };
  const tokens = parseArgsStringToArgv(trimmed);
  let as: string | null = null;
  const first = tokens[0] ?? '';
  if (/^\[?as$/i.test(first)) {
    const name = (tokens[1] ?? '').replace(/\]$/, '');
    if (!name) throw new ConsoleLineError('core:console.asNeedsName');
    as = name;
    tokens.splice(0, 2);
  }
  const head = tokens.shift() ?? '';
  if (head === '!click' || head === '!choose') {
    const target = tokens.join(' ');
    if (!target)
      throw new ConsoleLineError(
        head === '!click' ? 'core:console.clickNeedsTarget' : 'core:console.chooseNeedsTarget',
      );
    return { kind: head === '!click' ? 'click' : 'choose', as, target };
  }
  if (head === '!wait') {
    if (as) throw new ConsoleLineError('core:console.waitWithAs');
    return { kind: 'wait', ms: parseDuration(tokens[0] ?? '') };
  }
  if (head === '!locale') {
    const wanted = (tokens[0] ?? '').toLowerCase();
    const locale = LOCALES.find((l) => l === wanted);
    if (!locale) throw new ConsoleLineError('core:console.localeNeeds', { locales: LOCALES.join(', ') });
    return { kind: 'locale', locale };
  }
  if (head === '!guild') {
    if (as) throw new ConsoleLineError('core:console.guildWithAs');
    const name = tokens[0] ?? '';
    if (!/^[\p{L}\p{N}_-]{1,32}$/u.test(name) || tokens.length > 1)
      throw new ConsoleLineError('core:console.guildNeedsName', { home: HOME_GUILD });
    return { kind: 'guild', name: name.toLowerCase() };
  }
  const roleLine = parseRoleLine(head, tokens, as);
  if (roleLine) return roleLine;
  const formLine = parseFormLine(head, tokens, as);
  if (formLine) return formLine;
  if (head === '!quit' || head === '!exit') return { kind: 'quit' };
  if (!head.startsWith('/') || head.length < 2) {
    throw new ConsoleLineError('core:console.notCommand', { head });
  }
  const words: string[] = [];
  const args = new Map<string, string>();
  for (const token of tokens) {
    const colon = token.indexOf(':');
    if (colon > 0) {
      const name = token.slice(0, colon);
      if (args.has(name)) throw new ConsoleLineError('core:console.optionTwice', { option: name });
      args.set(name, token.slice(colon + 1));
    } else if (args.size === 0) words.push(token);
    else throw new ConsoleLineError('core:console.mustBeNameValue', { token });
  }
  return {
    kind: 'command',
    as,
    commandName: head.slice(1),
    group: words[0] ?? null,
    subcommand: words[1] ?? null,
    loose: words.slice(2),
    args,
  };
}

/** A word names a definition by its name or one of its localized names (`/kekse schenken`). */
export function names(
  definition: Pick<DiscordNamed, 'name' | 'name_localizations'>,
  word: string | null,
): boolean {
  if (word === null) return false;
  return definition.name === word || Object.values(definition.name_localizations ?? {}).includes(word);
}

type LeafOption = Exclude<
  APIApplicationCommandOption,
  { type: ApplicationCommandOptionType.Subcommand | ApplicationCommandOptionType.SubcommandGroup }
>;

/** What a member of that language types for a definition: `/kekse schenken`, `mitglied`. */
function listNames(list: Pick<DiscordNamed, 'name' | 'name_localizations'>[], locale: Locale): string {
  return list.map((o) => nameIn(o, locale)).join(', ');
}

/**
 * Resolves the words after the command name against its definition (as Discord's client
 * does) and returns the subcommand path and the leaf option definitions. Refusals name the
 * command and its parts as a member of `locale` types them.
 */
export function resolveCommandPath(
  module: CommandModule,
  words: (string | null)[],
  loose: string[] = [],
  locale: Locale = 'en',
): { group: string | null; subcommand: string | null; options: LeafOption[] } {
  const top = module.data.options ?? [];
  const groups = top.filter((o) => o.type === ApplicationCommandOptionType.SubcommandGroup);
  const subs = top.filter((o) => o.type === ApplicationCommandOptionType.Subcommand);
  const [w1, w2] = words;
  const command = `/${nameIn(module.data, locale)}`;
  if (groups.length === 0 && subs.length === 0) {
    if (w1) throw new ConsoleLineError('core:console.noSubcommand', { command, word: w1 });
    return { group: null, subcommand: null, options: top as LeafOption[] };
  }
  const group = groups.find((g) => names(g, w1 ?? null));
  if (group && group.type === ApplicationCommandOptionType.SubcommandGroup) {
    const sub = (group.options ?? []).find((s) => names(s, w2 ?? null));
    if (!sub)
      throw new ConsoleLineError('core:console.needsOneOf', {
        command: `${command} ${nameIn(group, locale)}`,
        list: listNames(group.options ?? [], locale),
      });
    return { group: group.name, subcommand: sub.name, options: (sub.options ?? []) as LeafOption[] };
  }
  const sub = subs.find((s) => names(s, w1 ?? null));
  if (sub && sub.type === ApplicationCommandOptionType.Subcommand && w2) {
    const where = `${command} ${nameIn(sub, locale)}`;
    throw optionsByName(where, (sub.options ?? []) as LeafOption[], [w2, ...loose], locale);
  }
  if (!sub || sub.type !== ApplicationCommandOptionType.Subcommand) {
    throw new ConsoleLineError('core:console.needsOneOf', {
      command,
      list: listNames([...groups, ...subs], locale),
    });
  }
  return { group: null, subcommand: sub.name, options: (sub.options ?? []) as LeafOption[] };
}

/**
 * Values typed without their names (`/cookies give bob 50`): Discord's client asks for each
 * option by name, so the console says how to write them, with the member's own values in the
 * options' order (`user:bob amount:50`).
 */
function optionsByName(
  command: string,
  options: LeafOption[],
  values: string[],
  locale: Locale,
): ConsoleLineError {
  if (options.length === 0)
    return new ConsoleLineError('core:console.noOptions', { command, values: values.join(' ') });
  const example = options.map((option, i) => `${nameIn(option, locale)}:${values[i] ?? '…'}`).join(' ');
  return new ConsoleLineError('core:console.byName', { command, example: `${command} ${example}` });
}

/**
 * How the console finds the member, the channel and the role a typed name means, and the file
 * an attachment option's path names (default: relative to the folder the console runs in).
 */
interface NameResolver {
  user: (name: string) => { id: string; name: string };
  channel: (name: string) => { id: string };
  role: (name: string) => { id: string; name: string };
  /** A role a line named before, by name; undefined for any other name. */
  knownRole?: (name: string) => { id: string; name: string } | undefined;
  attachment?: (path: string, option: string) => AttachmentRef;
}

/**
 * Converts option text by the option's type, enforcing what Discord's client enforces;
 * refusals name the options as a member of `locale` sees them.
 */
export function convertOptions(
  where: string,
  definitions: LeafOption[],
  args: Map<string, string>,
  resolve: NameResolver,
  locale: Locale = 'en',
): {
  options: Record<string, string | number | boolean>;
  users: Record<string, string>;
  roleNames: Record<string, string>;
  /** The files of attachment options, by option name (each option's value is the file's id). */
  attachments: Record<string, AttachmentRef>;
} {
  const options: Record<string, string | number | boolean> = {};
  const users: Record<string, string> = {};
  const roleNames: Record<string, string> = {};
  const attachments: Record<string, AttachmentRef> = {};
  renameLocalizedOptions(definitions, args, locale);
  refuseUnknownOptions(where, definitions, args, locale);
  for (const def of definitions) {
    const text = args.get(def.name);
    const option = nameIn(def, locale);
    if (text === undefined) {
      if (def.required) throw new ConsoleLineError('core:console.needsOption', { command: where, option });
      continue;
    }
    if (text === '') throw new ConsoleLineError('core:console.emptyOption', { option });
    options[def.name] = convertOption(def, text, { resolve, users, roleNames, attachments, locale });
  }
  return { options, users, roleNames, attachments };
}

/** Options may be typed by a localized name; Discord sends them by their name. */
function renameLocalizedOptions(definitions: LeafOption[], args: Map<string, string>, locale: Locale): void {
  for (const [typed, text] of [...args]) {
    const definition = definitions.find((d) => names(d, typed));
    if (definition && definition.name !== typed) {
      if (args.has(definition.name))
        throw new ConsoleLineError('core:console.optionTwice', { option: nameIn(definition, locale) });
      args.delete(typed);
      args.set(definition.name, text);
    }
  }
}

function refuseUnknownOptions(
  where: string,
  definitions: LeafOption[],
  args: Map<string, string>,
  locale: Locale,
): void {
  for (const name of args.keys()) {
    if (!definitions.some((d) => d.name === name)) {
      throw new ConsoleLineError(
        definitions.length === 0 ? 'core:console.noOptionAtAll' : 'core:console.noOption',
        { command: where, option: name, list: listNames(definitions, locale) },
      );
    }
  }
}

/** Yes and no as Discord's client offers them for a true/false option, in either language. */
const TRUE_WORDS = ['true', 'yes', 'wahr', 'ja'];
const FALSE_WORDS = ['false', 'no', 'falsch', 'nein'];
/** A channel as typed: `#general`, `#spiele-ecke`, `#küche`. */
const CHANNEL_NAME = /^#[\p{L}\p{N}_-]+$/u;

/**
 * One option's value from its text; a member's or a role's id also records its name (`users`,
 * `roleNames`), a file's id the file (`attachments`).
 */
function convertOption(
  def: LeafOption,
  text: string,
  at: {
    resolve: NameResolver;
    users: Record<string, string>;
    roleNames: Record<string, string>;
    attachments: Record<string, AttachmentRef>;
    locale: Locale;
  },
): string | number | boolean {
  const option = nameIn(def, at.locale);
  switch (def.type) {
    case ApplicationCommandOptionType.Integer:
    case ApplicationCommandOptionType.Number:
      return convertNumber(def, text, option);
    case ApplicationCommandOptionType.Boolean: {
      const word = text.toLowerCase();
      if (!TRUE_WORDS.includes(word) && !FALSE_WORDS.includes(word))
        throw new ConsoleLineError('core:console.trueFalse', { option });
      return TRUE_WORDS.includes(word);
    }
    case ApplicationCommandOptionType.User:
    case ApplicationCommandOptionType.Mentionable: {
      if (!MEMBER_NAME.test(text)) throw new ConsoleLineError('core:console.memberName', { option });
      const user = at.resolve.user(text);
      at.users[user.id] = user.name;
      return user.id;
    }
    case ApplicationCommandOptionType.Role: {
      // Discord sends a role option as the role's id, its name beside it.
      if (!ROLE_NAME.test(text)) throw new ConsoleLineError('core:console.roleName', { option });
      const role = at.resolve.role(text);
      at.roleNames[role.id] = role.name;
      return role.id;
    }
    case ApplicationCommandOptionType.Channel:
      // Discord sends a channel option as the channel's id; the console takes `#name` or `name`.
      return at.resolve.channel(text).id;
    case ApplicationCommandOptionType.Attachment: {
      // Discord sends an attachment option as the file's id, the file beside it.
      const file = (at.resolve.attachment ?? consoleAttachment)(text, option);
      at.attachments[def.name] = file;
      return file.id;
    }
    case ApplicationCommandOptionType.String: {
      const value = chosen(def, text, option, at.locale);
      if (def.max_length !== undefined && value.length > def.max_length)
        throw new ConsoleLineError('core:console.tooLong', { option, max: def.max_length });
      // Discord's client turns a typed #channel, and a role picked after @, into their
      // mentions; so does the console, for a role a line named before.
      if (CHANNEL_NAME.test(value)) return `<#${at.resolve.channel(value).id}>`;
      const role = value.startsWith('@') && ROLE_NAME.test(value) ? at.resolve.knownRole?.(value) : undefined;
      if (!role) return value;
      at.roleNames[role.id] = role.name;
      return `<@&${role.id}>`;
    }
    default:
      return text;
  }
}

function convertNumber(
  def: Extract<
    LeafOption,
    { type: ApplicationCommandOptionType.Integer | ApplicationCommandOptionType.Number }
  >,
  text: string,
  option: string,
): number {
  const integer = def.type === ApplicationCommandOptionType.Integer;
  const value = Number(text);
  const ok =
    (integer ? INTEGER_TEXT : NUMBER_TEXT).test(text) &&
    (integer ? Number.isSafeInteger(value) : Number.isFinite(value));
  if (!ok)
    throw new ConsoleLineError(integer ? 'core:console.wholeNumber' : 'core:console.number', { option });
  if (def.min_value !== undefined && value < def.min_value)
    throw new ConsoleLineError('core:console.atLeast', { option, min: def.min_value });
  if (def.max_value !== undefined && value > def.max_value)
    throw new ConsoleLineError('core:console.atMost', { option, max: def.max_value });
  return value;
}

/**
 * A string option with choices takes one of them as Discord's client offers it: by its value
 * or its name in any language, in any case (`seite:kopf` is `heads`). Without choices: the text.
 */
function chosen(
  def: Extract<LeafOption, { type: ApplicationCommandOptionType.String }>,
  text: string,
  option: string,
  locale: Locale,
): string {
  const choices = def.choices ?? [];
  if (choices.length === 0) return text;
  const typed = text.toLowerCase();
  const found = choices.find((c) =>
    [c.value, c.name, ...Object.values(c.name_localizations ?? {})].some(
      (word) => typeof word === 'string' && word.toLowerCase() === typed,
    ),
  );
  if (!found) throw new ConsoleLineError('core:console.oneOf', { option, list: listNames(choices, locale) });
  return found.value;
}
