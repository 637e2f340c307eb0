import { ApplicationCommandOptionType } from 'discord.js';
import { z } from 'zod';
import { notYourButton } from '../../src/errors.js';
import { localized } from '../../src/i18n/definitions.js';
import type { Translator } from '../../src/i18n/i18n.js';
import { defineComponent } from '../../src/interactions/componentIds.js';
import { defineComponentHandler } from '../../src/interactions/defineCommand.js';
import type { CommandContext, Reply, Subcommand } from '../../src/interactions/types.js';
import { PLACE_MESSAGES } from '../../utils/place/messages.js';
import { colorName, PALETTE, parseColor } from '../../utils/place/palette.js';
import type { PlaceRequest } from '../../utils/place/placements.js';
import { paintsSameColor } from '../../utils/place/sameColor.js';
import { parseOptions } from '../options.js';

const coordinate = {
  type: ApplicationCommandOptionType.Integer,
  min_value: 0,
  max_value: 2_047,
  required: true,
} as const;
const xy = z.object({ x: z.number().int().min(0), y: z.number().int().min(0) });

/** A colour as a reply names it, in the reader's language: `Rot (#FF4500)`. */
export function colorLabel(index: number, i18n: Translator): string {
  const c = PALETTE[index];
  return c ? `${colorName(index, i18n.locale)} (${c.hex})` : i18n.number(index);
}

/** The colours a member may pick while typing, named in their language; either language's name matches. */
function colorChoices(typed: string, i18n: Translator) {
  const needle = typed.trim().toLowerCase();
  return PALETTE.map((c, i) => ({
    choice: { name: `${colorName(i, i18n.locale)} ${c.hex} (${i})`, value: String(i) },
    words: `${c.name} ${c.de} ${c.hex} ${i}`.toLowerCase(),
  }))
    .filter(({ choice, words }) => `${choice.name.toLowerCase()} ${words}`.includes(needle))
    .map(({ choice }) => choice)
    .slice(0, 25);
}

export const pixel: Subcommand = {
  sanctionScope: 'painting',
  definition: {
    type: ApplicationCommandOptionType.Subcommand,
    ...localized(PLACE_MESSAGES, 'commands.pixel'),
    options: [
      { ...coordinate, ...localized(PLACE_MESSAGES, 'commands.x') },
      { ...coordinate, ...localized(PLACE_MESSAGES, 'commands.y') },
      {
        type: ApplicationCommandOptionType.String,
        ...localized(PLACE_MESSAGES, 'commands.color'),
        required: true,
        autocomplete: true,
        max_length: 20,
      },
    ],
  },
  autocomplete: {
    color: async ({ i18n }, typed) => colorChoices(typed, i18n),
  },
  async run(ctx) {
    const { deps, invocation, actor, i18n } = ctx;
    const { x, y, color: text } = parseOptions(xy.extend({ color: z.string() }), invocation);
    const color = parseColor(text);
    if (color === null)
      return { ephemeral: true, content: `❌ ${i18n.t('place:errors.color', { max: PALETTE.length - 1 })}` };
    const painter = { isModerator: actor.isModerator, roleIds: invocation.roleIds };
    const request = { x, y, color, painter };
    if (await paintsSameColor({ place: deps.services.place, runtimeConfig: deps.runtimeConfig }, request)) {
      return sameColorPrompt(ctx, { op: invocation.id, owner: actor.id, x, y, color });
    }
    return paintReply(ctx, { ...request, opId: invocation.id });
  },
};

/** Paints the pixel and says so (or, for an operation id already used, what it did then). */
export async function paintReply(
  { deps, actor, i18n }: CommandContext,
  request: Omit<PlaceRequest, 'userId'>,
): Promise<Reply> {
  const placed = await deps.services.place.place({ ...request, userId: actor.id });
  const cost = await deps.services.place.pixelCost();
  const what = {
    x: request.x,
    y: request.y,
    color: colorLabel(request.color, i18n),
    revision: i18n.number(placed.revision),
    cost: i18n.points(placed.cost),
  };
  if (placed.replayed) return { ephemeral: true, content: i18n.t('place:alreadyPlaced', what) };
  const left =
    placed.balance === null
      ? ''
      : i18n.t('place:placedLeft', {
          balance: i18n.points(placed.balance),
          count: Math.floor(placed.balance / cost),
        });
  return { ephemeral: true, content: i18n.t('place:placed', { ...what, left }) };
}

/**
 * A placement a button makes, as its custom id carries it: the operation id of the command that
 * offered it (a second press is the same placement), whose button it is, the pixel and colour.
 */
export const BUTTON_PLACEMENT = {
  op: z.string().regex(/^[\w-]{1,40}$/),
  owner: z.string().regex(/^\d{1,20}$/),
  x: z.coerce.number().int().min(0),
  y: z.coerce.number().int().min(0),
  color: z.coerce
    .number()
    .int()
    .min(0)
    .max(PALETTE.length - 1),
};

/**
 * The buttons under the same-colour warning carry the /place pixel's own interaction id: Paint
 * anyway places with it, so a second press is the first placement again, paid once.
 */
export const sameColorButton = defineComponent('place.same_color', {
  ...BUTTON_PLACEMENT,
  action: z.enum(['paint', 'cancel']),
});
type SameColor = Omit<ReturnType<typeof sameColorButton.parse>, 'action'>;

/** The pixel already has the colour: painting costs a pixel and changes nothing, so ask first. */
async function sameColorPrompt({ deps, i18n }: CommandContext, fields: SameColor): Promise<Reply> {
  const button = (action: 'paint' | 'cancel', style: 'primary' | 'secondary') => ({
    customId: sameColorButton.build({ ...fields, action }),
    label: i18n.t(`place:sameColor.${action}`),
    style,
  });
  return {
    ephemeral: true,
    content: i18n.t('place:sameColor.prompt', {
      x: fields.x,
      y: fields.y,
      color: colorLabel(fields.color, i18n),
      cost: i18n.points(await deps.services.place.pixelCost()),
    }),
    buttons: [button('paint', 'primary'), button('cancel', 'secondary')],
  };
}

export const sameColorHandler = defineComponentHandler(sameColorButton, {
  sanctionScope: 'painting',
  async run(ctx, { op, owner, x, y, color, action }) {
    const { actor, invocation, i18n } = ctx;
    if (actor.id !== owner) throw notYourButton(owner);
    if (action === 'cancel') {
      const content = i18n.t('place:sameColor.cancelled', { x, y, color: colorLabel(color, i18n) });
      return { update: true, ephemeral: true, content, buttons: [] };
    }
    const painter = { isModerator: actor.isModerator, roleIds: invocation.roleIds };
    const painted = await paintReply(ctx, { opId: op, x, y, color, painter });
    return { ...painted, update: true, buttons: [] };
  },
});

export const info: Subcommand = {
  definition: {
    type: ApplicationCommandOptionType.Subcommand,
    ...localized(PLACE_MESSAGES, 'commands.info'),
    options: [
      { ...coordinate, ...localized(PLACE_MESSAGES, 'commands.x') },
      { ...coordinate, ...localized(PLACE_MESSAGES, 'commands.y') },
    ],
  },
  async run({ deps, invocation, i18n }) {
    const { x, y } = parseOptions(xy, invocation);
    const found = await deps.services.place.pixelInfo(x, y);
    if (!found) return { ephemeral: true, content: i18n.t('place:info.empty', { x, y }) };
    if (!found.pixel.owner) {
      return {
        ephemeral: true,
        content: i18n.t('place:info.restored', {
          x,
          y,
          color: colorLabel(found.pixel.color, i18n),
          revision: i18n.number(found.pixel.revision),
          count: found.painted,
        }),
      };
    }
    return {
      ephemeral: true,
      content: i18n.t('place:info.set', {
        x,
        y,
        color: colorLabel(found.pixel.color, i18n),
        owner: i18n.member(found.pixel.owner, 'dative'),
        atSeconds: Math.floor(found.pixel.at.getTime() / 1000),
        revision: i18n.number(found.pixel.revision),
        count: found.painted,
      }),
    };
  },
};

export const me: Subcommand = {
  definition: { type: ApplicationCommandOptionType.Subcommand, ...localized(PLACE_MESSAGES, 'commands.me') },
  async run({ deps, actor, i18n }) {
    const [wallet, cost, earnings] = await Promise.all([
      deps.services.place.standing(actor.id),
      deps.services.place.pixelCost(),
      deps.services.hunt.recentEarnings(actor.id, 5),
    ]);
    const recent = earnings.map(
      (e) =>
        `+${i18n.points(e.milli)} · ${i18n.t(`place:earnings.${e.kind}`)}${e.source === actor.id ? '' : ` ← ${e.source}`} · <t:${Math.floor(e.at.getTime() / 1000)}:R>`,
    );
    return {
      ephemeral: true,
      embeds: [
        {
          title: i18n.t('place:me.title'),
          description: i18n.t('place:me.body', {
            balance: i18n.points(wallet.balance),
            earned: i18n.points(wallet.earned),
            spent: i18n.points(wallet.spent),
            placements: i18n.number(wallet.placements),
            cost: i18n.points(cost),
            affordable: Math.floor(wallet.balance / cost),
          }),
          fields: [
            {
              name: i18n.t('place:me.recent'),
              value: recent.length > 0 ? recent.join('\n') : i18n.t('place:me.noEarnings'),
            },
          ],
        },
      ],
    };
  },
};

export const leaderboard: Subcommand = {
  definition: {
    type: ApplicationCommandOptionType.Subcommand,
    ...localized(PLACE_MESSAGES, 'commands.leaderboard'),
  },
  async run({ deps, i18n }) {
    const { placements, earned } = await deps.services.place.leaderboard(10);
    const lines = (rows: { account: string; value: number }[], show: (v: number) => string) =>
      rows.length === 0
        ? i18n.t('place:leaderboard.empty')
        : rows.map((r, i) => `${i + 1}. <@${r.account}> — ${show(r.value)}`).join('\n');
    return {
      embeds: [
        {
          title: i18n.t('place:leaderboard.title'),
          fields: [
            {
              name: i18n.t('place:leaderboard.placements'),
              value: lines(placements, (v) => i18n.number(v)),
              inline: true,
            },
            {
              name: i18n.t('place:leaderboard.earned'),
              value: lines(earned, (v) => i18n.points(v)),
              inline: true,
            },
          ],
        },
      ],
    };
  },
};
