import { notYourButton } from '../../src/errors.js';
import { defineComponent } from '../../src/interactions/componentIds.js';
import { defineComponentHandler } from '../../src/interactions/defineCommand.js';
import { colorName } from '../../utils/place/palette.js';
import { paintsSameColor } from '../../utils/place/sameColor.js';
import { BUTTON_PLACEMENT, paintReply } from './pixel.js';

/** The button under `/place template next`: paints the nearest wrong pixel in the colour it needs. */
export const fixButton = defineComponent('place.template_fix', BUTTON_PLACEMENT);

export const fixHandler = defineComponentHandler(fixButton, {
  sanctionScope: 'painting',
  async run(ctx, { op, owner, x, y, color }) {
    const { deps, actor, invocation, i18n } = ctx;
    if (actor.id !== owner) throw notYourButton(owner);
    const painter = { isModerator: actor.isModerator, roleIds: invocation.roleIds };
    // Someone else fixed it since (not this button's own placement, which a press again answers):
    // painting it again would cost a pixel and change nothing.
    const request = { x, y, color, painter };
    const place = deps.services.place;
    const ownAlready = await place.asked(actor.id, op);
    if (!ownAlready && (await paintsSameColor({ place, runtimeConfig: deps.runtimeConfig }, request))) {
      const content = i18n.t('place:templates.fixed', { x, y, color: colorName(color, i18n.locale) });
      return { update: true, ephemeral: true, content, buttons: [] };
    }
    const painted = await paintReply(ctx, { opId: op, ...request });
    return { ...painted, update: true, buttons: [] };
  },
});
