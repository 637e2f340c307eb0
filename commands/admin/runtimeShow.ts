import { ApplicationCommandOptionType } from 'discord.js';
import { z } from 'zod';
import { localized } from '../../src/i18n/definitions.js';
import type { CommandContext, Subcommand } from '../../src/interactions/types.js';
import type { ChannelSettingKey } from '../../src/posting/channelPoster.js';
import type { SettingView } from '../../src/runtimeConfig/runtimeConfig.js';
import { showSetting } from '../../src/runtimeConfig/settings.js';
import { ADMIN_MESSAGES } from '../../utils/admin/messages.js';
import { DISCORD_BLURPLE } from '../colors.js';
import { parseOptions, permissionList } from '../options.js';

const options = z.object({ feature: z.string().max(50).optional() });

function seconds(at: Date): number {
  return Math.floor(at.getTime() / 1000);
}

async function describe(ctx: CommandContext, s: SettingView, detailed: boolean): Promise<string> {
  const { i18n } = ctx;
  const name = s.key.startsWith(`${s.feature}.`) ? s.key.slice(s.feature.length + 1) : s.key;
  // This server's own value where it set one; else the default every server shares.
  const held = s.server ?? { value: s.value, updatedBy: s.updatedBy, updatedAt: s.updatedAt };
  const changed = held.updatedBy
    ? i18n.t('admin:show.changed', { by: held.updatedBy, at: seconds(held.updatedAt ?? new Date(0)) })
    : null;
  const value = i18n.t('admin:show.value', {
    name,
    value: showSetting(held.value, i18n, s.kind),
    default: showSetting(s.server ? s.value : s.default, i18n, s.kind),
  });
  const layer = s.scope === 'global' ? ' 🌐' : s.server ? ' 🏠' : '';
  const lines = [`${value}${layer}${changed && !detailed ? ` · ${changed}` : ''}`];
  if (detailed) lines.push(`  ${i18n.t(s.description)}`, `  ${changed ?? i18n.t('admin:show.neverChanged')}`);
  if (s.kind === 'channel') {
    const setting = s.key as ChannelSettingKey;
    const status = await ctx.deps.poster.status(setting);
    if (status.stopped) {
      const stopped = { at: seconds(status.stopped.at), reason: status.stopped.reason };
      lines.push(`  ${i18n.t('admin:show.stopped', stopped)}`);
    }
    const missing = await ctx.deps.poster.missingPermissions(setting);
    if (missing.length > 0)
      lines.push(`  ${i18n.t('admin:show.missing', { permissions: permissionList(missing, i18n) })}`);
  }
  return lines.join('\n');
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
    const all = await ctx.deps.runtimeConfig.list(ctx.invocation.guildId);
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
    // One field a feature; a long one goes on in more fields and messages (the runtime's layout).
    const fields = [...groups].map(([name, lines]) => ({ name, value: lines.join('\n') }));
    return {
      ephemeral: true,
      embeds: [
        {
          title: feature ? i18n.t('admin:show.titleFeature', { feature }) : i18n.t('admin:show.title'),
          color: DISCORD_BLURPLE,
          fields,
          footer: i18n.t(ctx.invocation.guildId ? 'admin:show.footerServer' : 'admin:show.footer'),
        },
      ],
    };
  },
};
