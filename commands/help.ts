import {
  ApplicationCommandOptionType,
  type RESTPostAPIChatInputApplicationCommandsJSONBody,
} from 'discord.js';
import { hasAccess } from '../src/interactions/authority.js';
import type { CommandModule, EmbedSpec, Invocation } from '../src/interactions/types.js';

const data = {
  name: 'help',
  description: 'What you can do with this bot',
} satisfies RESTPostAPIChatInputApplicationCommandsJSONBody;

interface Line {
  usage: string;
  description: string;
}

/** Every leaf of a command definition as "/name group sub" with its description. */
function lines(module: CommandModule): Line[] {
  const root = module.data;
  const subs = (root.options ?? []).filter(
    (o) =>
      o.type === ApplicationCommandOptionType.Subcommand ||
      o.type === ApplicationCommandOptionType.SubcommandGroup,
  );
  if (subs.length === 0) return [{ usage: `/${root.name}`, description: root.description }];
  return subs.flatMap((o) => {
    if (o.type === ApplicationCommandOptionType.SubcommandGroup) {
      return (o.options ?? []).map((s) => ({
        usage: `/${root.name} ${o.name} ${s.name}`,
        description: s.description,
      }));
    }
    return [{ usage: `/${root.name} ${o.name}`, description: o.description }];
  });
}

function accessOf(module: CommandModule, invocation: Invocation) {
  return typeof module.access === 'function' ? module.access(invocation) : module.access;
}

export const helpCommand: CommandModule = {
  data,
  access: 'everyone',
  category: 'General',

  async execute({ commands, actor, invocation }) {
    const groups = new Map<string, Line[]>();
    for (const module of commands) {
      if (!hasAccess(actor, accessOf(module, invocation))) continue;
      groups.set(module.category, [...(groups.get(module.category) ?? []), ...lines(module)]);
    }
    const embed: EmbedSpec = {
      title: 'What you can do',
      color: 0xc8813b,
      description: 'Commands you can use here, by topic.',
      fields: [...groups].map(([name, list]) => ({
        name,
        value: list.map((l) => `\`${l.usage}\` — ${l.description}`).join('\n'),
      })),
    };
    return { ephemeral: true, embeds: [embed] };
  },
};
