import { type APIApplicationCommandOption, ApplicationCommandOptionType } from 'discord.js';
import type { Feature } from '../../src/features/feature.js';
import { type DiscordNamed, localized } from '../../src/i18n/definitions.js';
import type { Locale, Translator } from '../../src/i18n/i18n.js';
import { hasAccess } from '../../src/interactions/authority.js';
import { defineComponent } from '../../src/interactions/componentIds.js';
import { defineCommand, defineComponentHandler } from '../../src/interactions/defineCommand.js';
import type { CommandContext, CommandModule, Reply } from '../../src/interactions/types.js';
import { HELP_MESSAGES } from '../../utils/help/messages.js';
import { COOKIE_BROWN } from '../colors.js';

const topicMenu = defineComponent('help.topic', {});

interface Line {
  usage: string;
  path: string;
  description: string;
  options: { name: string; description: string; required: boolean }[];
}

/** A name and description as Discord's client shows them to a member with this language. */
function seen(o: DiscordNamed, locale: Locale): { name: string; description: string } {
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

/** The commands this member may use, by help category (in their language), in registry order. */
function visibleGroups({ commands, actor, i18n }: CommandContext): Map<string, Line[]> {
  const groups = new Map<string, Line[]>();
  for (const module of commands) {
    const usable = lines(module, i18n.locale).filter((line) =>
      hasAccess(actor, module.handlers[line.path]?.access ?? module.access),
    );
    const category = i18n.t(module.category);
    if (usable.length > 0) groups.set(category, [...(groups.get(category) ?? []), ...usable]);
  }
  return groups;
}

function menu(groups: Map<string, Line[]>, i18n: Translator): Reply['select'] {
  return {
    customId: topicMenu.build({}),
    placeholder: i18n.t('help:help.menu'),
    options: [...groups.keys()].map((name) => ({ label: name, value: name })),
  };
}

const topicHandler = defineComponentHandler(topicMenu, {
  access: 'everyone',
  async run(ctx) {
    const { i18n } = ctx;
    const groups = visibleGroups(ctx);
    const topic = ctx.invocation.values[0] ?? '';
    const list = groups.get(topic);
    if (!list) return { ephemeral: true, update: true, content: i18n.t('help:help.noTopic', { topic }) };
    const optional = i18n.t('help:help.optional');
    return {
      ephemeral: true,
      update: true,
      embeds: [
        {
          title: i18n.t('help:help.topicTitle', { topic }),
          color: COOKIE_BROWN,
          fields: list.map((l) => ({
            name: l.usage,
            value: [
              l.description,
              ...l.options.map((o) => `• \`${o.name}\`${o.required ? '' : optional}: ${o.description}`),
            ].join('\n'),
          })),
        },
      ],
      select: menu(groups, i18n),
    };
  },
});

export const helpCommand = defineCommand({
  ...localized(HELP_MESSAGES, 'commands.help'),
  access: 'everyone',
  category: 'help:category',
  handler: {
    async run(ctx) {
      const { i18n } = ctx;
      const groups = visibleGroups(ctx);
      return {
        ephemeral: true,
        embeds: [
          {
            title: i18n.t('help:help.title'),
            color: COOKIE_BROWN,
            description: i18n.t('help:help.intro'),
            fields: [...groups].map(([name, list]) => ({
              name,
              value: list.map((l) => `\`${l.usage}\` — ${l.description}`).join('\n'),
            })),
          },
        ],
        select: menu(groups, i18n),
      };
    },
  },
  components: [topicHandler],
});

export const helpFeature: Feature = { name: 'help', messages: HELP_MESSAGES, commands: [helpCommand] };
