import { ApplicationCommandOptionType } from 'discord.js';
import { z } from 'zod';
import { localized } from '../../src/i18n/definitions.js';
import type { Translator } from '../../src/i18n/i18n.js';
import type { Subcommand } from '../../src/interactions/types.js';
import { PLACE_MESSAGES } from '../../utils/place/messages.js';
import { colorName, PALETTE, parseColor } from '../../utils/place/palette.js';
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
  async run({ deps, invocation, actor, i18n }) {
    const { x, y, color: text } = parseOptions(xy.extend({ color: z.string() }), invocation);
    const color = parseColor(text);
    if (color === null)
      return { ephemeral: true, content: `❌ ${i18n.t('place:errors.color', { max: PALETTE.length - 1 })}` };
    const placed = await deps.services.place.place({
      opId: invocation.id,
      userId: actor.id,
      x,
      y,
      color,
      painter: { isModerator: actor.isModerator, roleIds: invocation.roleIds },
    });
    const cost = await deps.services.place.pixelCost();
    const what = {
      x,
      y,
      color: colorLabel(color, i18n),
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
  },
};

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
