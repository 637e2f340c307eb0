import { ApplicationCommandOptionType } from 'discord.js';
import { z } from 'zod';
import { localized } from '../../src/i18n/definitions.js';
import type { Subcommand } from '../../src/interactions/types.js';
import type { ChannelSettingKey } from '../../src/posting/channelPoster.js';
import { showSetting } from '../../src/runtimeConfig/settings.js';
import { startsAt } from '../../src/runtimeConfig/startDelay.js';
import { ADMIN_MESSAGES } from '../../utils/admin/messages.js';
import { parseOptions, permissionList } from '../options.js';
import { layerFor } from './settingsLayer.js';

const options = z.object({
  key: z.string().min(1),
  value: z.string().min(1).max(100),
  everywhere: z.boolean().default(false),
});

/** Autocomplete shows at most 25 choices, each name at most 100 characters. */
const CHOICE_NAME_MAX = 100;

/** The setting's key, suggested as typed (`set` and `reset`). */
export const KEY_OPTION = {
  type: ApplicationCommandOptionType.String,
  ...localized(ADMIN_MESSAGES, 'commands.setKey'),
  required: true,
  autocomplete: true,
  max_length: 100,
} as const;

export const runtimeSet: Subcommand = {
  definition: {
    type: ApplicationCommandOptionType.Subcommand,
    ...localized(ADMIN_MESSAGES, 'commands.set'),
    options: [
      KEY_OPTION,
      {
        type: ApplicationCommandOptionType.String,
        ...localized(ADMIN_MESSAGES, 'commands.setValue'),
        required: true,
        max_length: 100,
      },
      {
        type: ApplicationCommandOptionType.Boolean,
        ...localized(ADMIN_MESSAGES, 'commands.setEverywhere'),
      },
    ],
  },
  autocomplete: {
    async key({ deps, i18n }, typed) {
      const needle = typed.trim().toLowerCase();
      const settings = await deps.runtimeConfig.list();
      return settings
        .filter((s) => s.key.includes(needle))
        .map((s) => ({
          // A choice's name is plain text: a channel shows as #id, a role as @id.
          name: i18n
            .t('admin:show.choice', {
              key: s.key,
              value: showSetting(s.value, i18n, s.kind)
                .replace(/^<#(\d+)>$/, '#$1')
                .replace(/^<@&(\d+)>$/, '@$1'),
            })
            .slice(0, CHOICE_NAME_MAX),
          value: s.key,
        }));
    },
  },
  async run(ctx) {
    const { deps, invocation, actor, i18n, serverI18n } = ctx;
    const { key, value, everywhere } = parseOptions(options, invocation);
    const guildId = layerFor(ctx, deps.runtimeConfig.known(key), everywhere);
    const change = await deps.runtimeConfig.set(key, value, actor.id, { guildId });
    // A flag with a start delay switched on holds only from then: the reply and the audit say when.
    const delayKey = change.after === true ? deps.runtimeConfig.startDelayOf(change.key) : undefined;
    const start = delayKey ? await startsAt(deps.runtimeConfig, change.key, guildId) : null;
    const atSeconds = start ? Math.ceil(start.getTime() / 1000) : 0;
    // The audit channel is the server's: its line is in the server's language.
    const audit = serverI18n.t(guildId ? 'admin:audit.settingChangedHere' : 'admin:audit.settingChanged', {
      actor: actor.id,
      key: change.key,
      before: showSetting(change.before, serverI18n, change.kind),
      after: showSetting(change.after, serverI18n, change.kind),
    });
    await deps.services.admin.record({
      id: `runtime.set:${invocation.id}`,
      kind: 'runtime.set',
      actorId: actor.id,
      text: start ? `${audit} ${serverI18n.t('admin:audit.startsAt', { atSeconds })}` : audit,
    });
    // A flag's description says what holds when it is on: switched off, the reply says it no longer holds.
    const said =
      typeof change.after === 'boolean'
        ? change.after
          ? 'admin:set.switchedOn'
          : 'admin:set.switchedOff'
        : 'admin:set.changed';
    const lines = [
      i18n.t(said, {
        key: change.key,
        before: showSetting(change.before, i18n, change.kind),
        after: showSetting(change.after, i18n, change.kind),
        description: i18n.t(change.description),
      }),
    ];
    // Where it holds: this server alone (the others keep theirs), or every server without its own.
    if (deps.runtimeConfig.scope(change.key) === 'server') {
      lines.push(i18n.t(guildId ? 'admin:set.onlyHere' : 'admin:set.everywhere'));
    }
    if (start) lines.push(i18n.t('admin:set.startsAt', { atSeconds, delayKey }));
    // A channel the bot cannot post in is said now, not when its first post fails.
    if (change.kind === 'channel' && typeof change.after === 'string') {
      const missing = await deps.poster.missingPermissions(change.key as ChannelSettingKey);
      if (missing.length > 0) {
        deps.log.warn(
          { event: 'post.permissions_missing', setting: change.key, channelId: change.after, missing },
          `the bot lacks ${missing.join(', ')} in channel ${change.after} (${change.key})`,
        );
        const permissions = permissionList(missing, i18n);
        lines.push(i18n.t('admin:set.missing', { channel: change.after, permissions }));
      }
    }
    return { ephemeral: true, content: lines.join('\n') };
  },
};
