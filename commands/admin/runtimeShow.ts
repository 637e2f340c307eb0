import { ApplicationCommandOptionType } from 'discord.js';
import { z } from 'zod';
import { localized } from '../../src/i18n/definitions.js';
import type { CommandContext, Subcommand } from '../../src/interactions/types.js';
import type { SettingView } from '../../src/runtimeConfig/runtimeConfig.js';
import { showSetting } from '../../src/runtimeConfig/settings.js';
import { ADMIN_MESSAGES } from '../../utils/admin/messages.js';
import { DISCORD_BLURPLE } from '../colors.js';
import { parseOptions } from '../options.js';

/** Discord's limits for one embed field's value and an embed's field count. */
const FIELD_MAX = 1024;
const FIELDS_MAX = 25;

const options = z.object({ feature: z.string().max(50).optional() });

function seconds(at: Date): number {
  return Math.floor(at.getTime() / 1000);
}

async function describe(ctx: CommandContext, s: SettingView, detailed: boolean): Promise<string> {
  const { i18n } = ctx;
  const name = s.key.startsWith(`${s.feature}.`) ? s.key.slice(s.feature.length + 1) : s.key;
  const changed = s.updatedBy
    ? i18n.t('admin:show.changed', { by: s.updatedBy, at: seconds(s.updatedAt ?? new Date(0)) })
    : null;
  const value = i18n.t('admin:show.value', {
    name,
    value: showSetting(s.value, i18n),
    default: showSetting(s.default, i18n),
  });
  const lines = [`${value}${changed && !detailed ? ` · ${changed}` : ''}`];
  if (detailed) lines.push(`  ${i18n.t(s.description)}`, `  ${changed ?? i18n.t('admin:show.neverChanged')}`);
  if (s.kind === 'channel') {
    const status = await ctx.deps.poster.status(s.key as Parameters<typeof ctx.deps.poster.status>[0]);
    if (status.stopped) {
      const stopped = { at: seconds(status.stopped.at), reason: status.stopped.reason };
      lines.push(`  ${i18n.t('admin:show.stopped', stopped)}`);
    }
  }
  return lines.join('\n');
}

/** Lines packed into fields of at most FIELD_MAX characters, continuing under the same name. */
function pack(name: string, continued: string, lines: string[]): { name: string; value: string }[] {
  const fields: { name: string; value: string }[] = [];
  for (const line of lines) {
    const last = fields[fields.length - 1];
    if (last && last.value.length + 1 + line.length <= FIELD_MAX) last.value += `\n${line}`;
    else fields.push({ name: fields.length === 0 ? name : continued, value: line.slice(0, FIELD_MAX) });
  }
  return fields;
}

export const runtimeShow: Subcommand = {
  definition: {
    type: ApplicationCommandOptionType.Subcommand,
    ...localized(ADMIN_MESSAGES, 'commands.show'),
    options: [
      {
        type: ApplicationCommandOptionType.String,
        ...localized(ADMIN_MESSAGES, 'commands.showFeature'),
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
    const { i18n } = ctx;
    const { feature } = parseOptions(options, ctx.invocation);
    const all = await ctx.deps.runtimeConfig.list();
    const shown = feature ? all.filter((s) => s.feature === feature) : all;
    if (shown.length === 0) {
      const known = [...new Set(all.map((s) => s.feature))].join(', ');
      return { ephemeral: true, content: i18n.t('admin:show.noFeature', { feature, known }) };
    }
    const groups = new Map<string, string[]>();
    for (const s of shown) {
      const group = s.feature;
      groups.set(group, [...(groups.get(group) ?? []), await describe(ctx, s, feature !== undefined)]);
    }
    const fields = [...groups].flatMap(([name, lines]) =>
      pack(name, i18n.t('admin:show.continued', { name }), lines),
    );
    return {
      ephemeral: true,
      embeds: [
        {
          title: feature ? i18n.t('admin:show.titleFeature', { feature }) : i18n.t('admin:show.title'),
          color: DISCORD_BLURPLE,
          fields: fields.slice(0, FIELDS_MAX),
          footer:
            fields.length > FIELDS_MAX
              ? i18n.t('admin:show.footerMore', { count: fields.length - FIELDS_MAX })
              : i18n.t('admin:show.footer'),
        },
      ],
    };
  },
};
