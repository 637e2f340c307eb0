import { type APIApplicationCommandOption, ApplicationCommandOptionType } from 'discord.js';
import type { DiscordNamed } from '../../src/i18n/definitions.js';
import { LOCALES, type Locale } from '../../src/i18n/i18n.js';
import { hasAccess } from '../../src/interactions/authority.js';
import type { CommandContext, CommandModule } from '../../src/interactions/types.js';

export interface Line {
  usage: string;
  path: string;
  description: string;
  options: { name: string; description: string; required: boolean }[];
}

/** A help topic: its commands' category (catalog key), its name in the member's language and its lines. */
export interface Topic {
  category: string;
  name: string;
  lines: Line[];
  modules: CommandModule[];
}

/** A name and description as Discord's client shows them to a member with this language. */
export function seen(o: DiscordNamed, locale: Locale): { name: string; description: string } {
  return {
    name: o.name_localizations?.[locale] ?? o.name,
    description: o.description_localizations?.[locale] ?? o.description,
  };
}

function leafOptions(options: APIApplicationCommandOption[], locale: Locale): Line['options'] {
  return options.map((o) => ({ ...seen(o, locale), required: 'required' in o && o.required === true }));
}

/** Every leaf of a command definition as "/name group sub" with its description and options. */
function lines(module: CommandModule, locale: Locale): Line[] {
  const root = module.data;
  const top = root.options ?? [];
  const rootName = seen(root, locale).name;
  const subs = top.filter(
    (o) =>
      o.type === ApplicationCommandOptionType.Subcommand ||
      o.type === ApplicationCommandOptionType.SubcommandGroup,
  );
  if (subs.length === 0) {
    const description = seen(root, locale).description;
    return [{ usage: `/${rootName}`, path: '', description, options: leafOptions(top, locale) }];
  }
  return subs.flatMap((o) => {
    const group = seen(o, locale);
    if (o.type === ApplicationCommandOptionType.SubcommandGroup) {
      return (o.options ?? []).map((sub) => ({
        usage: `/${rootName} ${group.name} ${seen(sub, locale).name}`,
        path: `${o.name} ${sub.name}`,
        description: seen(sub, locale).description,
        options: leafOptions(sub.options ?? [], locale),
      }));
    }
    const options = o.type === ApplicationCommandOptionType.Subcommand ? (o.options ?? []) : [];
    const usage = `/${rootName} ${group.name}`;
    return [{ usage, path: o.name, description: group.description, options: leafOptions(options, locale) }];
  });
}

/** The topics with commands this member may use, in their language, in registry order. */
export function visibleTopics({ commands, actor, i18n }: CommandContext): Topic[] {
  const topics = new Map<string, Topic>();
  for (const module of commands) {
    const usable = lines(module, i18n.locale).filter((line) =>
      hasAccess(actor, module.handlers[line.path]?.access ?? module.access),
    );
    if (usable.length === 0) continue;
    const known = topics.get(module.category);
    if (known) {
      known.lines.push(...usable);
      known.modules.push(module);
    } else {
      topics.set(module.category, {
        category: module.category,
        name: i18n.t(module.category),
        lines: usable,
        modules: [module],
      });
    }
  }
  return [...topics.values()];
}

/** The name a member types for a topic: its first command's name in their language (`hunt`, `jagd`). */
export function topicWord(topic: Topic, locale: Locale): string {
  const first = topic.modules[0];
  return first ? seen(first.data, locale).name : topic.name;
}

/**
 * The topic a member means by what they typed: its name or one of its commands' names, in any
 * language the bot speaks (`hunt`, `Jagd`, `/jagd`, `The hunt`), case and a leading `/` aside.
 */
export function findTopic(ctx: CommandContext, typed: string): Topic | null {
  const wanted = typed.trim().replace(/^\//, '').toLowerCase();
  return (
    visibleTopics(ctx).find((topic) => {
      const names = [
        ...LOCALES.map((locale) => ctx.deps.i18n.for(locale).t(topic.category)),
        ...topic.modules.flatMap((m) => [m.data.name, ...Object.values(m.data.name_localizations ?? {})]),
      ];
      return names.some((name) => typeof name === 'string' && name.toLowerCase() === wanted);
    }) ?? null
  );
}
