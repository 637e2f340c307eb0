import { ApplicationCommandOptionType } from 'discord.js';
import { z } from 'zod';
import type { Feature, HelpGuide } from '../../src/features/feature.js';
import { localized } from '../../src/i18n/definitions.js';
import type { Translator } from '../../src/i18n/i18n.js';
import { defineComponent } from '../../src/interactions/componentIds.js';
import { defineCommand, defineComponentHandler } from '../../src/interactions/defineCommand.js';
import type { CommandContext, CommandModule, Reply } from '../../src/interactions/types.js';
import { HELP_MESSAGES } from '../../utils/help/messages.js';
import { COOKIE_BROWN } from '../colors.js';
import { parseOptions } from '../options.js';
import { findTopic, type Topic, topicWord, visibleTopics } from './topics.js';

const topicMenu = defineComponent('help.topic', {});

function menu(topics: Topic[], i18n: Translator): Reply['select'] {
  return {
    customId: topicMenu.build({}),
    placeholder: i18n.t('help:help.menu'),
    options: topics.map((topic) => ({ label: topic.name, value: topic.name })),
  };
}

/** One topic in full: its guide, if it has one, above every command with its options. */
async function topicReply(ctx: CommandContext, topic: Topic, guides: readonly HelpGuide[]): Promise<Reply> {
  const { i18n } = ctx;
  const optional = i18n.t('help:help.optional');
  const guide = guides.find((g) => g.category === topic.category);
  return {
    ephemeral: true,
    embeds: [
      {
        title: i18n.t('help:help.topicTitle', { topic: topic.name }),
        color: COOKIE_BROWN,
        ...(guide ? { description: await guide.explain(ctx) } : {}),
        fields: topic.lines.map((l) => ({
          name: l.usage,
          value: [
            l.description,
            ...l.options.map((o) => `• \`${o.name}\`${o.required ? '' : optional}: ${o.description}`),
          ].join('\n'),
        })),
      },
    ],
    select: menu(visibleTopics(ctx), i18n),
  };
}

/** Every topic and its commands, and where the topics with a guide are explained. */
function overview(ctx: CommandContext, guides: readonly HelpGuide[]): Reply {
  const { i18n } = ctx;
  const topics = visibleTopics(ctx);
  const explained = topics
    .filter((topic) => guides.some((g) => g.category === topic.category))
    .map((topic) => i18n.t('help:help.guideLink', { topic: topicWord(topic, i18n.locale) }));
  return {
    ephemeral: true,
    embeds: [
      {
        title: i18n.t('help:help.title'),
        color: COOKIE_BROWN,
        description: [
          i18n.t('help:help.intro'),
          explained.length > 0 ? i18n.t('help:help.guides', { topics: explained.join(', ') }) : '',
        ]
          .filter(Boolean)
          .join('\n'),
        fields: topics.map((topic) => ({
          name: topic.name,
          value: topic.lines.map((l) => `\`${l.usage}\` — ${l.description}`).join('\n'),
        })),
      },
    ],
    select: menu(topics, i18n),
  };
}

/** `/help` and its topic menu, with the guides the features bring. */
export function helpCommand(guides: readonly HelpGuide[]): CommandModule {
  const topicHandler = defineComponentHandler(topicMenu, {
    access: 'everyone',
    async run(ctx) {
      const picked = ctx.invocation.values[0] ?? '';
      const topic = visibleTopics(ctx).find((t) => t.name === picked);
      if (!topic)
        return { ephemeral: true, update: true, content: ctx.i18n.t('help:help.noTopic', { topic: picked }) };
      return { ...(await topicReply(ctx, topic, guides)), update: true };
    },
  });
  return defineCommand({
    ...localized(HELP_MESSAGES, 'commands.help'),
    access: 'everyone',
    category: 'help:category',
    options: [
      {
        type: ApplicationCommandOptionType.String,
        ...localized(HELP_MESSAGES, 'commands.topic'),
        max_length: 40,
        autocomplete: true,
      },
    ],
    handler: {
      autocomplete: {
        async topic(ctx, typed) {
          const wanted = typed.toLowerCase();
          return visibleTopics(ctx)
            .filter((t) => t.name.toLowerCase().includes(wanted))
            .map((t) => ({ name: t.name, value: topicWord(t, ctx.i18n.locale) }));
        },
      },
      async run(ctx) {
        const { topic: typed } = parseOptions(
          z.object({ topic: z.string().max(40).optional() }),
          ctx.invocation,
        );
        if (typed === undefined) return overview(ctx, guides);
        const topic = findTopic(ctx, typed);
        if (topic) return topicReply(ctx, topic, guides);
        const known = visibleTopics(ctx).map((t) => topicWord(t, ctx.i18n.locale));
        return {
          ephemeral: true,
          content: ctx.i18n.t('help:help.unknownTopic', { topic: typed, topics: known.join(', ') }),
        };
      },
    },
    components: [topicHandler],
  });
}

export const helpFeature: Feature = {
  name: 'help',
  messages: HELP_MESSAGES,
  // Built from every feature: the guides they bring (`guide`) join their topics.
  commandsFrom: (features) => [helpCommand(features.flatMap((f) => (f.guide ? [f.guide] : [])))],
};
