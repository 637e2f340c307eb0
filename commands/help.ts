import {
  type APIApplicationCommandOption,
  ApplicationCommandOptionType,
  type RESTPostAPIChatInputApplicationCommandsJSONBody,
} from 'discord.js';
import { accessFor, hasAccess } from '../src/interactions/authority.js';
import type { CommandContext, CommandModule, Reply } from '../src/interactions/types.js';

const HELP_COLOR = 0xc8813b;

const data = {
  name: 'help',
  description: 'What you can do with this bot',
} satisfies RESTPostAPIChatInputApplicationCommandsJSONBody;

interface Line {
  usage: string;
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
  if (subs.length === 0) return [{ usage: `/${root.name}`, description: root.description, options: top }];
  return subs.flatMap((o) => {
    if (o.type === ApplicationCommandOptionType.SubcommandGroup) {
      return (o.options ?? []).map((s) => ({
        usage: `/${root.name} ${o.name} ${s.name}`,
        description: s.description,
        options: s.options ?? [],
      }));
    }
    const options = o.type === ApplicationCommandOptionType.Subcommand ? (o.options ?? []) : [];
    return [{ usage: `/${root.name} ${o.name}`, description: o.description, options }];
  });
}

/** The commands this member may use, grouped by help category, in registry order. */
function visibleGroups({ commands, actor, invocation }: CommandContext): Map<string, Line[]> {
  const groups = new Map<string, Line[]>();
  for (const module of commands) {
    if (!hasAccess(actor, accessFor(module, invocation))) continue;
    groups.set(module.category, [...(groups.get(module.category) ?? []), ...lines(module)]);
  }
  return groups;
}

function topicMenu(groups: Map<string, Line[]>): Reply['select'] {
  return {
    customId: 'help:topic',
    placeholder: 'Details of one topic',
    options: [...groups.keys()].map((name) => ({ label: name, value: name })),
  };
}

export const helpCommand: CommandModule = {
  data,
  access: 'everyone',
  category: 'General',

  async execute(ctx) {
    const groups = visibleGroups(ctx);
    return {
      ephemeral: true,
      embeds: [
        {
          title: 'What you can do',
          color: HELP_COLOR,
          description: 'Commands you can use here, by topic. Pick a topic below for every option.',
          fields: [...groups].map(([name, list]) => ({
            name,
            value: list.map((l) => `\`${l.usage}\` — ${l.description}`).join('\n'),
          })),
        },
      ],
      select: topicMenu(groups),
    };
  },

  components: {
    topic: {
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
              color: HELP_COLOR,
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
          select: topicMenu(groups),
        };
      },
    },
  },
};
