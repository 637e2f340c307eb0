import { ApplicationCommandOptionType } from 'discord.js';
import { z } from 'zod';
import { AppError } from '../../src/errors.js';
import { localized } from '../../src/i18n/definitions.js';
import type { Subcommand } from '../../src/interactions/types.js';
import { showSetting } from '../../src/runtimeConfig/settings.js';
import { ADMIN_MESSAGES } from '../../utils/admin/messages.js';
import { parseOptions } from '../options.js';
import { KEY_OPTION, runtimeSet } from './runtimeSet.js';
import { layerFor } from './settingsLayer.js';

const options = z.object({ key: z.string().min(1) });

/** `/settings reset key`: this server's own value goes, and the default holds here again. */
export const settingsReset: Subcommand = {
  definition: {
    type: ApplicationCommandOptionType.Subcommand,
    ...localized(ADMIN_MESSAGES, 'commands.reset'),
    options: [KEY_OPTION],
  },
  autocomplete: runtimeSet.autocomplete,
  async run(ctx) {
    const { deps, invocation, actor, i18n, serverI18n } = ctx;
    const key = deps.runtimeConfig.known(parseOptions(options, invocation).key);
    const guildId = layerFor(ctx, key, false);
    if (!guildId) {
      throw new AppError('INVALID_INPUT', `${key} has no server layer here`, {
        key,
        messageKey: 'core:errors.settingGlobal',
      });
    }
    // A role's id reads as its mention, a channel's as its own (`showSetting`).
    const kind = (await deps.runtimeConfig.list()).find((s) => s.key === key)?.kind;
    const reset = await deps.runtimeConfig.reset(key, guildId, actor.id);
    if (!reset) {
      const value = showSetting(await deps.runtimeConfig.get(key, guildId), i18n, kind);
      return { ephemeral: true, content: i18n.t('admin:reset.none', { key, value }) };
    }
    const words = (t: typeof i18n) => ({
      actor: actor.id,
      key,
      before: showSetting(reset.before, t, kind),
      after: showSetting(reset.after, t, kind),
    });
    await deps.services.admin.record({
      id: `runtime.reset:${invocation.id}`,
      kind: 'runtime.set',
      actorId: actor.id,
      text: serverI18n.t('admin:audit.settingReset', words(serverI18n)),
    });
    return { ephemeral: true, content: i18n.t('admin:reset.done', words(i18n)) };
  },
};
