import { ApplicationCommandOptionType } from 'discord.js';
import { z } from 'zod';
import type { Subcommand } from '../../src/interactions/types.js';
import { showSetting } from '../../src/runtimeConfig/settings.js';
import { parseOptions } from '../options.js';

const options = z.object({
  key: z.string().min(1),
  value: z.string().min(1, 'must not be empty').max(100),
});

/** Autocomplete shows at most 25 choices, each name at most 100 characters. */
const CHOICE_NAME_MAX = 100;

export const runtimeSet: Subcommand = {
  definition: {
    type: ApplicationCommandOptionType.Subcommand,
    name: 'set',
    description: 'Change one setting',
    options: [
      {
        type: ApplicationCommandOptionType.String,
        name: 'key',
        description: 'Which setting (start typing: feature or name)',
        required: true,
        autocomplete: true,
        max_length: 100,
      },
      {
        type: ApplicationCommandOptionType.String,
        name: 'value',
        description: 'The new value (a number, on/off, or a #channel)',
        required: true,
        max_length: 100,
      },
    ],
  },
  autocomplete: {
    async key({ deps }, typed) {
      const needle = typed.trim().toLowerCase();
      const settings = await deps.runtimeConfig.list();
      return settings
        .filter((s) => s.key.includes(needle))
        .map((s) => ({
          name: `${s.key} (now ${showSetting(s.value).replace(/^<#(\d+)>$/, 'channel $1')})`.slice(
            0,
            CHOICE_NAME_MAX,
          ),
          value: s.key,
        }));
    },
  },
  async run({ deps, invocation, actor }) {
    const { key, value } = parseOptions(options, invocation);
    const change = await deps.runtimeConfig.set(key, value, actor.id);
    const line = `**${change.key}**: ${showSetting(change.before)} → **${showSetting(change.after)}**`;
    await deps.services.admin.record({
      id: `runtime.set:${invocation.id}`,
      actorId: actor.id,
      text: `⚙️ <@${actor.id}> changed ${line}.`,
    });
    const description = (await deps.runtimeConfig.list()).find((s) => s.key === change.key)?.description;
    return { ephemeral: true, content: `⚙️ ${line}. ${description ?? ''}.`.replace(/ \.$/, '.') };
  },
};
