import { type APIApplicationCommandOption, ApplicationCommandOptionType } from 'discord.js';
import type { Feature } from '../../src/features/feature.js';
import { hasAccess } from '../../src/interactions/authority.js';
import { defineComponent } from '../../src/interactions/componentIds.js';
import { defineCommand, defineComponentHandler } from '../../src/interactions/defineCommand.js';
import type { CommandContext, CommandModule, Reply } from '../../src/interactions/types.js';
import { COOKIE_BROWN } from '../colors.js';

const topicMenu = defineComponent('help.topic', {});

interface Line {
  usage: string;
  path: string;
  description: string;
  options: APIApplicationCommandOption[];
}

/** Every leaf of a command definition as "/name group sub" with its description and options. */
function lines(module: CommandModule): Line[] {
  const root = module.data;
  const top = root.options ?? [];
  const subs = top.filter(
    (o) =>
      o.type === ApplicationCommandOptionType.Subcommand ||
      o.type === ApplicationCommandOptionType.SubcommandGroup,
  );
  if (subs.length === 0)
    return [{ usage: `/${root.name}`, path: '', description: root.description, options: top }];
  return subs.flatMap((o) => {
    if (o.type === ApplicationCommandOptionType.SubcommandGroup) {
      return (o.options ?? []).map((s) => ({
        usage: `/${root.name} ${o.name} ${s.name}`,
        path: `${o.name} ${s.name}`,
        description: s.description,
        options: s.options ?? [],
      }));
    }
    const options = o.type === ApplicationCommandOptionType.Subcommand ? (o.options ?? []) : [];
    return [{ usage: `/${root.name} ${o.name}`, path: o.name, description: o.description, options }];
  });
}

/** The commands this member may use, grouped by help category, in registry order. */
function visibleGroups({ commands, actor }: CommandContext): Map<string, Line[]> {
  const groups = new Map<string, Line[]>();
  for (const module of commands) {
    const usable = lines(module).filter((line) =>
      hasAccess(actor, module.handlers[line.path]?.access ?? module.access),
    );
    if (usable.length > 0) groups.set(module.category, [...(groups.get(module.category) ?? []), ...usable]);
  }
  return groups;
}

function menu(groups: Map<string, Line[]>): Reply['select'] {
  return {
    customId: topicMenu.build({}),
    placeholder: 'Details of one topic',
    options: [...groups.keys()].map((name) => ({ label: name, value: name })),
  };
}

const topicHandler = defineComponentHandler(topicMenu, {
  access: 'everyone',
  async run(ctx) {
    const groups = visibleGroups(ctx);
    const topic = ctx.invocation.values[0] ?? '';
    const list = groups.get(topic);
    if (!list) return { ephemeral: true, update: true, content: `There is no topic "${topic}" for you.` };
    return {
      ephemeral: true,
      update: true,
      embeds: [
        {
          title: `Help: ${topic}`,
          color: COOKIE_BROWN,
          fields: list.map((l) => ({
            name: l.usage,
            value: [
              l.description,
              ...l.options.map(
                (o) =>
                  `• \`${o.name}\`${'required' in o && o.required ? '' : ' (optional)'}: ${o.description}`,
              ),
            ].join('\n'),
          })),
        },
      ],
      select: menu(groups),
    };
  },
});

export const helpCommand = defineCommand({
  name: 'help',
  description: 'What you can do with this bot',
  access: 'everyone',
  category: 'General',
  handler: {
    async run(ctx) {
      const groups = visibleGroups(ctx);
      return {
        ephemeral: true,
        embeds: [
          {
            title: 'What you can do',
            color: COOKIE_BROWN,
            description: 'Commands you can use here, by topic. Pick a topic below for every option.',
            fields: [...groups].map(([name, list]) => ({
              name,
              value: list.map((l) => `\`${l.usage}\` — ${l.description}`).join('\n'),
            })),
          },
        ],
        select: menu(groups),
      };
    },
  },
  components: [topicHandler],
});

export const helpFeature: Feature = { name: 'help', commands: [helpCommand] };
