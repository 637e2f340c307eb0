import { ApplicationCommandOptionType } from 'discord.js';
import { z } from 'zod';
import { invalidInputText } from '../../src/errors.js';
import { localized } from '../../src/i18n/definitions.js';
import { defineComponent } from '../../src/interactions/componentIds.js';
import { defineComponentHandler } from '../../src/interactions/defineCommand.js';
import type { Subcommand } from '../../src/interactions/types.js';
import { PLACE_MESSAGES } from '../../utils/place/messages.js';
import { roleOf } from '../../utils/place/moderationLogStore.js';
import { pressRollback } from '../../utils/place/rollbackPress.js';
import { renderRollbackPreview } from '../../utils/place/rollbackPreview.js';
import { memberOption, parseOptions } from '../options.js';

export const rollbackButton = defineComponent('place.rollback', {
  id: z.string().regex(/^[\w-]{1,40}$/),
  action: z.enum(['apply', 'refund', 'cancel']),
});

const UNITS: Record<string, number> = { m: 60_000, h: 3_600_000, d: 86_400_000 };

/** `30m`, `6h`, `2d` before now. */
function parseSince(text: string, now: Date): Date {
  const match = /^(\d{1,5})(m|h|d)$/.exec(text.trim());
  if (!match)
    throw invalidInputText(`"${text}" is not a duration`, 'place:admin.place.badSince', { since: text });
  return new Date(now.getTime() - Number(match[1]) * (UNITS[match[2] as string] as number));
}

/** `x0,y0,x1,y1`, corners in either order (`/admin place rollback`, `/admin place protect`). */
export function parseArea(text: string) {
  const parts = text.split(',').map((p) => Number(p.trim()));
  if (parts.length !== 4 || parts.some((n) => !Number.isInteger(n) || n < 0)) {
    throw invalidInputText(`"${text}" is not an area`, 'place:admin.place.badArea', { area: text });
  }
  const [a, b, c, d] = parts as [number, number, number, number];
  return { x0: Math.min(a, c), y0: Math.min(b, d), x1: Math.max(a, c), y1: Math.max(b, d) };
}

/**
 * `/admin place rollback user [area] [since]`: a preview image of what would change (the
 * restored pixels outlined), then **Roll back**, **Roll back and refund** or **Cancel**.
 */
export const placeRollback: Subcommand = {
  definition: {
    type: ApplicationCommandOptionType.Subcommand,
    ...localized(PLACE_MESSAGES, 'admin.commands.placeRollback'),
    options: [
      {
        type: ApplicationCommandOptionType.User,
        ...localized(PLACE_MESSAGES, 'admin.commands.placeRollbackUser'),
        required: true,
      },
      {
        type: ApplicationCommandOptionType.String,
        ...localized(PLACE_MESSAGES, 'admin.commands.placeRollbackArea'),
        max_length: 30,
      },
      {
        type: ApplicationCommandOptionType.String,
        ...localized(PLACE_MESSAGES, 'admin.commands.placeRollbackSince'),
        max_length: 10,
      },
    ],
  },
  defer: { ephemeral: true },
  async run({ deps, invocation, actor, i18n }) {
    const { user, area, since } = parseOptions(
      z.object({ user: memberOption, area: z.string().optional(), since: z.string().optional() }),
      invocation,
    );
    const plan = await deps.services.place.rollbacks.plan({
      id: invocation.id,
      adminId: actor.id,
      target: user,
      ...(area ? { area: parseArea(area) } : {}),
      ...(since ? { since: parseSince(since, deps.clock.now()) } : {}),
      role: roleOf(actor),
    });
    if (plan.pixels.length === 0) {
      return {
        ephemeral: true,
        content: i18n.t('place:admin.place.rollbackNothing', { user, count: plan.painted }),
      };
    }
    const png = await renderRollbackPreview(await deps.services.place.board(), plan.pixels, 'after');
    const button = (action: 'apply' | 'refund' | 'cancel', style: 'danger' | 'secondary') => ({
      customId: rollbackButton.build({ id: plan._id, action }),
      label: i18n.t(`place:admin.place.rollback_${action}`),
      style,
    });
    return {
      ephemeral: true,
      embeds: [
        {
          title: i18n.t('place:admin.place.rollbackTitle'),
          description: i18n.t('place:admin.place.rollbackPreview', {
            user,
            count: plan.pixels.length,
            cost: i18n.t('place:admin.place.rollbackCost', {
              user,
              count: plan.pixels.length,
              refund: i18n.points(plan.refund),
            }),
          }),
          imageFile: 'rollback.png',
        },
      ],
      files: [{ name: 'rollback.png', data: png }],
      buttons: [button('apply', 'danger'), button('refund', 'danger'), button('cancel', 'secondary')],
    };
  },
};

export const rollbackButtonHandler = defineComponentHandler(rollbackButton, {
  access: 'admin',
  // A rollback repaints an area pixel by pixel: acknowledged at once.
  defer: true,
  async run({ deps, actor, i18n, serverI18n }, { id, action }) {
    const pressed = await pressRollback(deps.services, serverI18n, { id, action, actorId: actor.id });
    const content =
      pressed.outcome === 'cancelled'
        ? i18n.t('place:admin.place.rollbackCancelled')
        : pressed.outcome === 'gone'
          ? i18n.t('place:admin.place.rollbackGone')
          : i18n.t('place:admin.place.rollbackDone', {
              count: pressed.restored,
              skipped:
                pressed.skipped > 0
                  ? i18n.t('place:admin.place.rollbackSkipped', { count: pressed.skipped })
                  : '',
              refund: i18n.points(pressed.refunded),
            });
    return { update: true, ephemeral: true, content, buttons: [], embeds: [] };
  },
});
