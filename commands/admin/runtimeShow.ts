import { ApplicationCommandOptionType } from 'discord.js';
import { z } from 'zod';
import type { CommandContext, Subcommand } from '../../src/interactions/types.js';
import type { SettingView } from '../../src/runtimeConfig/runtimeConfig.js';
import { showSetting } from '../../src/runtimeConfig/settings.js';
import { DISCORD_BLURPLE } from '../colors.js';
import { mention, parseOptions } from '../options.js';

/** Discord's limits for one embed field's value and an embed's field count. */
const FIELD_MAX = 1024;
const FIELDS_MAX = 25;

const options = z.object({ feature: z.string().max(50).optional() });

function relative(at: Date): string {
  return `<t:${Math.floor(at.getTime() / 1000)}:R>`;
}

async function describe(ctx: CommandContext, s: SettingView, detailed: boolean): Promise<string> {
  const name = s.key.startsWith(`${s.feature}.`) ? s.key.slice(s.feature.length + 1) : s.key;
  const changed = s.updatedBy
    ? `changed by ${mention(s.updatedBy)} ${relative(s.updatedAt ?? new Date(0))}`
    : null;
  const lines = [
    `\`${name}\` **${showSetting(s.value)}** (default ${showSetting(s.default)})${changed && !detailed ? ` · ${changed}` : ''}`,
  ];
  if (detailed) lines.push(`  ${s.description}`, `  ${changed ?? 'never changed'}`);
  if (s.kind === 'channel') {
    const status = await ctx.deps.poster.status(s.key as Parameters<typeof ctx.deps.poster.status>[0]);
    if (status.stopped) {
      lines.push(
        `  ⚠️ posts stopped ${relative(status.stopped.at)}: ${status.stopped.reason}. Set it again to resume.`,
      );
    }
  }
  return lines.join('\n');
}

/** Lines packed into fields of at most FIELD_MAX characters, continuing under the same name. */
function pack(name: string, lines: string[]): { name: string; value: string }[] {
  const fields: { name: string; value: string }[] = [];
  for (const line of lines) {
    const last = fields[fields.length - 1];
    if (last && last.value.length + 1 + line.length <= FIELD_MAX) last.value += `\n${line}`;
    else
      fields.push({
        name: fields.length === 0 ? name : `${name} (continued)`,
        value: line.slice(0, FIELD_MAX),
      });
  }
  return fields;
}

export const runtimeShow: Subcommand = {
  definition: {
    type: ApplicationCommandOptionType.Subcommand,
    name: 'show',
    description: 'Settings by feature: value, default, last change',
    options: [
      {
        type: ApplicationCommandOptionType.String,
        name: 'feature',
        description: 'Only this feature, with each setting explained',
        autocomplete: true,
      },
    ],
  },
  autocomplete: {
    async feature({ deps }, typed) {
      const features = [...new Set((await deps.runtimeConfig.list()).map((s) => s.feature))];
      return features.filter((f) => f.includes(typed.toLowerCase())).map((f) => ({ name: f, value: f }));
    },
  },
  async run(ctx) {
    const { feature } = parseOptions(options, ctx.invocation);
    const all = await ctx.deps.runtimeConfig.list();
    const shown = feature ? all.filter((s) => s.feature === feature) : all;
    if (shown.length === 0) {
      const known = [...new Set(all.map((s) => s.feature))].join(', ');
      return { ephemeral: true, content: `❌ No feature "${feature}" has settings. Features: ${known}.` };
    }
    const groups = new Map<string, string[]>();
    for (const s of shown) {
      const group = s.feature;
      groups.set(group, [...(groups.get(group) ?? []), await describe(ctx, s, feature !== undefined)]);
    }
    const fields = [...groups].flatMap(([name, lines]) => pack(name, lines));
    return {
      ephemeral: true,
      embeds: [
        {
          title: feature ? `Runtime settings: ${feature}` : 'Runtime settings',
          color: DISCORD_BLURPLE,
          fields: fields.slice(0, FIELDS_MAX),
          footer:
            fields.length > FIELDS_MAX
              ? `${fields.length - FIELDS_MAX} more groups: pick one with feature:`
              : 'Change one with /admin runtime set; details with feature:',
        },
      ],
    };
  },
};
