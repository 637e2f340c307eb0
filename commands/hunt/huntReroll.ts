import { ApplicationCommandOptionType } from 'discord.js';
import { z } from 'zod';
import { localized } from '../../src/i18n/definitions.js';
import { defineComponent } from '../../src/interactions/componentIds.js';
import { defineComponentHandler } from '../../src/interactions/defineCommand.js';
import type { Subcommand } from '../../src/interactions/types.js';
import { HUNT_MESSAGES } from '../../utils/hunt/messages.js';

/** The button carries the round it rerolls, so a second press or a stale prompt does nothing. */
export const rerollButton = defineComponent('hunt.reroll', {
  round: z.coerce.number().int().min(1),
  action: z.enum(['apply', 'cancel']),
});

/**
 * `/admin hunt reroll`: asks first (a reroll ends every member's best and tip numbering),
 * then **Reroll** starts the next round with a new target.
 */
export const huntReroll: Subcommand = {
  definition: {
    type: ApplicationCommandOptionType.Subcommand,
    ...localized(HUNT_MESSAGES, 'admin.commands.huntReroll'),
  },
  async run({ deps, i18n }) {
    const { round, players } = await deps.services.hunt.players();
    const button = (action: 'apply' | 'cancel', style: 'danger' | 'secondary') => ({
      customId: rerollButton.build({ round, action }),
      label: i18n.t(`hunt:admin.hunt.reroll_${action}`),
      style,
    });
    return {
      ephemeral: true,
      content: i18n.t('hunt:admin.hunt.rerollConfirm', {
        round,
        next: round + 1,
        count: players,
      }),
      buttons: [button('apply', 'danger'), button('cancel', 'secondary')],
    };
  },
};

export const rerollButtonHandler = defineComponentHandler(rerollButton, {
  access: 'admin',
  // A reroll draws the open window on the old target first: acknowledged at once.
  defer: true,
  async run({ deps, actor, i18n, serverI18n }, { round, action }) {
    const done = (content: string) => ({ update: true, ephemeral: true, content, buttons: [] });
    if (action === 'cancel') return done(i18n.t('hunt:admin.hunt.rerollCancelled'));
    const { rerolled, task } = await deps.services.hunt.reroll(round, serverI18n.locale);
    if (!rerolled) return done(i18n.t('hunt:admin.hunt.rerollStale', { round, current: task.round }));
    await deps.services.admin.record({
      id: `hunt.reroll:${round}`,
      kind: 'hunt.reroll',
      actorId: actor.id,
      text: serverI18n.t('hunt:admin.audit.huntRerolled', {
        actor: actor.id,
        round,
        next: task.round,
      }),
    });
    return done(i18n.t('hunt:admin.hunt.rerollDone', { next: task.round }));
  },
});
