import { type APIApplicationCommandOption, ApplicationCommandOptionType } from 'discord.js';
import { parseArgsStringToArgv } from 'string-argv';
import type { DiscordNamed } from '../i18n/definitions.js';
import { LOCALES, type Locale } from '../i18n/i18n.js';
import { INTEGER_TEXT, NUMBER_TEXT } from '../interactions/optionText.js';
import type { CommandModule } from '../interactions/types.js';

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
  | { kind: 'quit' };

export class ConsoleLineError extends Error {}

const UNITS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };
/** The longest `!wait`: ten years, far inside what a Date can hold. */
const MAX_WAIT_MS = 3_650 * 86_400_000;

/** `90s`, `5m`, `2h`, `1d`, `250ms`; at most 3650d. */
export function parseDuration(text: string): number {
  const match = /^(\d{1,15})(ms|s|m|h|d)$/.exec(text.trim());
  if (!match) throw new ConsoleLineError(`"${text}" is not a duration (use e.g. 90s, 5m, 2h, 1d)`);
  const ms = Number(match[1]) * (UNITS[match[2] as string] as number);
  if (ms > MAX_WAIT_MS) throw new ConsoleLineError(`"${text}" is too long: !wait goes at most 3650d`);
  return ms;
}

/**
 * One console line: `[as NAME] /command [group] [subcommand] option:value option:"a b"`,
 * `[as NAME] !click LABEL_OR_ID`, `[as NAME] !choose LABEL_OR_VALUE` (a select menu),
 * `!wait DURATION`, `!locale de|en`, `!quit`; blank lines and `#` comments skip.
 */
export function parseConsoleLine(line: string): ConsoleAction {
  const trimmed = line.trim();
  if (trimmed === '' || trimmed.startsWith('#')) return { kind: 'skip' };
  const tokens = parseArgsStringToArgv(trimmed);
  let as: string | null = null;
  const first = tokens[0] ?? '';
  if (/^\[?as$/i.test(first)) {
    const name = (tokens[1] ?? '').replace(/\]$/, '');
    if (!name) throw new ConsoleLineError('"as" needs a member name, e.g. as bob /cookies balance');
    as = name;
    tokens.splice(0, 2);
  }
  const head = tokens.shift() ?? '';
  if (head === '!click' || head === '!choose') {
    const target = tokens.join(' ');
    if (!target)
      throw new ConsoleLineError(
        `${head} needs a ${head === '!click' ? 'button label or id' : 'menu option'}`,
      );
    return { kind: head === '!click' ? 'click' : 'choose', as, target };
  }
  if (head === '!wait') {
    if (as) throw new ConsoleLineError('!wait moves the clock for everyone; drop "as"');
    return { kind: 'wait', ms: parseDuration(tokens[0] ?? '') };
  }
  if (head === '!locale') {
    const wanted = (tokens[0] ?? '').toLowerCase();
    const locale = LOCALES.find((l) => l === wanted);
    if (!locale) throw new ConsoleLineError(`!locale needs one of: ${LOCALES.join(', ')}`);
    return { kind: 'locale', locale };
  }
  if (head === '!quit' || head === '!exit') return { kind: 'quit' };
  if (!head.startsWith('/') || head.length < 2) {
    throw new ConsoleLineError(
      `"${head}" is not a command; lines start with /command, !click, !choose, !wait or as NAME`,
    );
  }
  const words: string[] = [];
  const args = new Map<string, string>();
  for (const token of tokens) {
    const colon = token.indexOf(':');
    if (colon > 0) {
      const name = token.slice(0, colon);
      if (args.has(name))
        throw new ConsoleLineError(`option ${name} is given twice; Discord sends one value per option`);
      args.set(name, token.slice(colon + 1));
    } else if (args.size === 0) words.push(token);
    else throw new ConsoleLineError(`"${token}" must be option:value`);
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

/**
 * Resolves the words after the command name against its definition (as Discord's client
 * does) and returns the subcommand path and the leaf option definitions.
 */
export function resolveCommandPath(
  module: CommandModule,
  words: (string | null)[],
  loose: string[] = [],
): { group: string | null; subcommand: string | null; options: LeafOption[] } {
  const usage = (list: { name: string }[]) => list.map((o) => o.name).join(', ');
  const top = module.data.options ?? [];
  const groups = top.filter((o) => o.type === ApplicationCommandOptionType.SubcommandGroup);
  const subs = top.filter((o) => o.type === ApplicationCommandOptionType.Subcommand);
  const [w1, w2] = words;
  if (groups.length === 0 && subs.length === 0) {
    if (w1) throw new ConsoleLineError(`/${module.data.name} has no subcommand "${w1}"`);
    return { group: null, subcommand: null, options: top as LeafOption[] };
  }
  const group = groups.find((g) => names(g, w1 ?? null));
  if (group && group.type === ApplicationCommandOptionType.SubcommandGroup) {
    const sub = (group.options ?? []).find((s) => names(s, w2 ?? null));
    if (!sub)
      throw new ConsoleLineError(`/${module.data.name} ${w1} needs one of: ${usage(group.options ?? [])}`);
    return { group: group.name, subcommand: sub.name, options: (sub.options ?? []) as LeafOption[] };
  }
  const sub = subs.find((s) => names(s, w1 ?? null));
  if (sub && sub.type === ApplicationCommandOptionType.Subcommand && w2) {
    throw optionsByName(`/${module.data.name} ${w1}`, (sub.options ?? []) as LeafOption[], [w2, ...loose]);
  }
  if (!sub || sub.type !== ApplicationCommandOptionType.Subcommand) {
    throw new ConsoleLineError(`/${module.data.name} needs one of: ${usage([...groups, ...subs])}`);
  }
  return { group: null, subcommand: sub.name, options: (sub.options ?? []) as LeafOption[] };
}

/**
 * Values typed without their names (`/cookies give bob 50`): Discord's client asks for each
 * option by name, so the console says how to write them, with the member's own values in the
 * options' order (`user:bob amount:50`).
 */
function optionsByName(command: string, options: LeafOption[], values: string[]): ConsoleLineError {
  if (options.length === 0)
    return new ConsoleLineError(`${command} takes no options; drop "${values.join(' ')}"`);
  const example = options.map((option, i) => `${option.name}:${values[i] ?? '…'}`).join(' ');
  return new ConsoleLineError(`${command} takes its options as name:value: ${command} ${example}`);
}

/** How the console finds the member and the channel a typed name means. */
interface NameResolver {
  user: (name: string) => { id: string; name: string };
  channel: (name: string) => { id: string };
}

/** Converts option text by the option's type, enforcing what Discord's client enforces. */
export function convertOptions(
  where: string,
  definitions: LeafOption[],
  args: Map<string, string>,
  resolve: NameResolver,
): { options: Record<string, string | number | boolean>; users: Record<string, string> } {
  const options: Record<string, string | number | boolean> = {};
  const users: Record<string, string> = {};
  renameLocalizedOptions(definitions, args);
  refuseUnknownOptions(where, definitions, args);
  for (const def of definitions) {
    const text = args.get(def.name);
    if (text === undefined) {
      if (def.required) throw new ConsoleLineError(`${where} needs ${def.name}:…`);
      continue;
    }
    if (text === '') throw new ConsoleLineError(`${def.name} is empty; give a value or leave the option out`);
    options[def.name] = convertOption(def, text, resolve, users);
  }
  return { options, users };
}

/** Options may be typed by a localized name; Discord sends them by their name. */
function renameLocalizedOptions(definitions: LeafOption[], args: Map<string, string>): void {
  for (const [typed, text] of [...args]) {
    const definition = definitions.find((d) => names(d, typed));
    if (definition && definition.name !== typed) {
      if (args.has(definition.name)) throw new ConsoleLineError(`option ${definition.name} is given twice`);
      args.delete(typed);
      args.set(definition.name, text);
    }
  }
}

function refuseUnknownOptions(where: string, definitions: LeafOption[], args: Map<string, string>): void {
  for (const name of args.keys()) {
    if (!definitions.some((d) => d.name === name)) {
      throw new ConsoleLineError(
        `${where} has no option "${name}" (options: ${definitions.map((d) => d.name).join(', ') || 'none'})`,
      );
    }
  }
}

/** One option's value from its text; a member's id also records their name in `users`. */
function convertOption(
  def: LeafOption,
  text: string,
  resolve: NameResolver,
  users: Record<string, string>,
): string | number | boolean {
  switch (def.type) {
    case ApplicationCommandOptionType.Integer:
    case ApplicationCommandOptionType.Number: {
      const integer = def.type === ApplicationCommandOptionType.Integer;
      const value = Number(text);
      const ok =
        (integer ? INTEGER_TEXT : NUMBER_TEXT).test(text) &&
        (integer ? Number.isSafeInteger(value) : Number.isFinite(value));
      if (!ok)
        throw new ConsoleLineError(
          `${def.name} must be a ${def.type === ApplicationCommandOptionType.Integer ? 'whole number' : 'number'}`,
        );
      if (def.min_value !== undefined && value < def.min_value)
        throw new ConsoleLineError(`${def.name} must be at least ${def.min_value}`);
      if (def.max_value !== undefined && value > def.max_value)
        throw new ConsoleLineError(`${def.name} must be at most ${def.max_value}`);
      return value;
    }
    case ApplicationCommandOptionType.Boolean:
      if (text !== 'true' && text !== 'false')
        throw new ConsoleLineError(`${def.name} must be true or false`);
      return text === 'true';
    case ApplicationCommandOptionType.User:
    case ApplicationCommandOptionType.Mentionable: {
      if (!/^@?[\w.-]+$/.test(text))
        throw new ConsoleLineError(`${def.name} must be a member name, e.g. ${def.name}:bob`);
      const user = resolve.user(text);
      users[user.id] = user.name;
      return user.id;
    }
    case ApplicationCommandOptionType.String: {
      const choices = def.choices ?? [];
      if (choices.length > 0 && !choices.some((c) => c.value === text)) {
        throw new ConsoleLineError(`${def.name} must be one of: ${choices.map((c) => c.value).join(', ')}`);
      }
      if (def.max_length !== undefined && text.length > def.max_length)
        throw new ConsoleLineError(`${def.name} is longer than ${def.max_length} characters`);
      // Discord's client turns a typed #channel into its mention; so does the console.
      return /^#[\w-]+$/.test(text) ? `<#${resolve.channel(text).id}>` : text;
    }
    default:
      return text;
  }
}
