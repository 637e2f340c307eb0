import { ApplicationCommandOptionType } from 'discord.js';
import { z } from 'zod';
import { localized } from '../../src/i18n/definitions.js';
import { defineComponent } from '../../src/interactions/componentIds.js';
import { defineComponentHandler } from '../../src/interactions/defineCommand.js';
import type { Subcommand } from '../../src/interactions/types.js';
import { PRIVACY_MESSAGES } from '../../utils/privacy/messages.js';
import { memberOption, parseOptions, refuseBot } from '../options.js';
import { erasureResult, forgetPreview, refuseStale } from './forget.js';

const options = z.object({ user: memberOption });
export const adminForgetButton = defineComponent('privacy.admin_forget', {
  user: memberOption,
  at: z.coerce.number().int().nonnegative(),
});

/** `/admin privacy forget user:`: a moderator acting on a member's request, confirmed first. */
export const adminForget: Subcommand = {
  access: 'moderator',
  definition: {
    type: ApplicationCommandOptionType.Subcommand,
    ...localized(PRIVACY_MESSAGES, 'admin.commands.forget'),
    options: [
      {
        type: ApplicationCommandOptionType.User,
        ...localized(PRIVACY_MESSAGES, 'admin.commands.forgetUser'),
        required: true,
      },
    ],
  },
  async run({ deps, invocation, i18n }) {
    const { user } = parseOptions(options, invocation);
    refuseBot(invocation, user);
    const holdings = await forgetPreview(deps, user, i18n);
    return {
      ephemeral: true,
      content: i18n.t('privacy:admin.prompt', { user, ...holdings }),
      buttons: [
        {
          customId: adminForgetButton.build({ user, at: Math.floor(deps.clock.now().getTime() / 1000) }),
          label: i18n.t('privacy:admin.confirm'),
          style: 'danger',
        },
      ],
    };
  },
};

export const adminForgetButtonHandler = defineComponentHandler(adminForgetButton, {
  access: 'moderator',
  // An erasure waits for every process to have read it (about a second): acknowledged at once.
  defer: true,
  async run({ deps, actor, i18n, serverI18n }, { user, at }) {
    refuseStale(deps, at);
    const erasure = await deps.services.privacy.forget(deps.services, user, actor.id, serverI18n.locale);
    return erasureResult(erasure, i18n, 'privacy:admin.done');
  },
});
