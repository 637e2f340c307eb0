import { ApplicationCommandOptionType } from 'discord.js';
import { z } from 'zod';
import { localized } from '../../src/i18n/definitions.js';
import type { Translator } from '../../src/i18n/i18n.js';
import { defineComponent } from '../../src/interactions/componentIds.js';
import { defineComponentHandler } from '../../src/interactions/defineCommand.js';
import type { Autocomplete, CommandContext, Reply, Subcommand } from '../../src/interactions/types.js';
import { EFFECTS } from '../../utils/shop/effects/registry.js';
import type { UnitDoc } from '../../utils/shop/inventoryStore.js';
import { SHOP_MESSAGES } from '../../utils/shop/messages.js';
import { COOKIE_BROWN } from '../colors.js';
import { memberOption, parseOptions, refuseBot } from '../options.js';
import { itemEmoji } from './shelf.js';

const id = z.string().regex(/^[\w-]{1,40}$/);
export const unitMenu = defineComponent('shop.unit', {});
/** Use and Sell carry the pick's interaction id: a second press repeats the first, nothing more. */
export const useButton = defineComponent('shop.use', { unit: id, op: id });
export const sellButton = defineComponent('shop.sell', { unit: id, op: id });

const opt = (key: string) => localized(SHOP_MESSAGES, `commands.${key}`);
const UNIT_OPTION = {
  type: ApplicationCommandOptionType.String,
  ...opt('unit'),
  required: true,
  autocomplete: true,
  max_length: 40,
} as const;

function unitLabel(unit: UnitDoc, i18n: Translator): string {
  const date = new Intl.DateTimeFormat(i18n.locale, { dateStyle: 'medium', timeZone: 'UTC' }).format(
    unit.acquiredAt,
  );
  return i18n.t('shop:inventory.optionLabel', { name: unit.name, date }).slice(0, 100);
}

/** The member's free items by what they are (an item of the shop), each with how many. */
function kindsOf(items: readonly UnitDoc[]): { unit: UnitDoc; count: number }[] {
  const kinds = new Map<string, { unit: UnitDoc; count: number }>();
  for (const unit of items) {
    const kind = kinds.get(unit.itemId);
    if (kind) kind.count++;
    else kinds.set(unit.itemId, { unit, count: 1 });
  }
  return [...kinds.values()];
}

/** The member's items, grouped by name, and their roles from the shop. */
export function inventoryLines(units: readonly UnitDoc[], i18n: Translator): string[] {
  const lines: string[] = [];
  const groups = new Map<string, UnitDoc[]>();
  for (const unit of units) {
    if (unit.kind === 'role') {
      lines.push(i18n.t('shop:inventory.roleLine', { role: unit.roleId }));
      continue;
    }
    groups.set(unit.name, [...(groups.get(unit.name) ?? []), unit]);
  }
  for (const [name, group] of groups) {
    const first = group[0] as UnitDoc;
    const traded = group.filter((u) => u.tradeId).length;
    const soonest = group
      .map((u) => u.expiresAt)
      .filter((d): d is Date => d !== null)
      .sort((a, b) => +a - +b)[0];
    lines.push(
      [
        i18n.t('shop:inventory.line', { emoji: itemEmoji(first), name, count: group.length }),
        soonest
          ? i18n.t('shop:inventory.expires', { untilSeconds: Math.floor(soonest.getTime() / 1000) })
          : null,
        traded > 0 ? `${i18n.number(traded)} ${i18n.t('shop:inventory.inTrade')}` : null,
      ]
        .filter(Boolean)
        .join(' · '),
    );
  }
  return lines;
}

async function inventoryReply(ctx: CommandContext): Promise<Reply> {
  const { deps, actor, i18n } = ctx;
  const units = await deps.services.shop.owned(actor.id);
  if (units.length === 0) return { ephemeral: true, content: i18n.t('shop:inventory.empty') };
  const items = units.filter((u) => u.kind === 'item' && !u.tradeId);
  return {
    ephemeral: true,
    embeds: [
      {
        title: i18n.t('shop:inventory.title', { name: actor.name }),
        color: COOKIE_BROWN,
        description: inventoryLines(units, i18n).join('\n'),
      },
    ],
    ...(items.length > 0
      ? {
          select: {
            customId: unitMenu.build({}),
            placeholder: i18n.t('shop:inventory.placeholder'),
            options: kindsOf(items)
              .slice(0, 25)
              .map(({ unit, count }) => ({
                label: i18n.t('shop:inventory.kindLabel', { name: unit.name, count }).slice(0, 100),
                value: unit.itemId,
              })),
          },
        }
      : {}),
  };
}

export const show: Subcommand = {
  definition: { type: ApplicationCommandOptionType.Subcommand, ...opt('show') },
  run: inventoryReply,
};

/** The member's own items as they type (a role is neither used, given nor sold). */
const unitAutocomplete: Autocomplete = async ({ deps, actor, i18n }, typed) => {
  const needle = typed.trim().toLowerCase();
  const units = await deps.services.shop.owned(actor.id);
  return units
    .filter((u) => u.kind === 'item' && !u.tradeId && u.name.toLowerCase().includes(needle))
    .slice(0, 25)
    .map((unit) => ({ name: unitLabel(unit, i18n), value: unit._id }));
};

/**
 * The unit an `item` option names: its id (what autocomplete sends), else the oldest free item
 * of that name the member owns (a name typed without picking a suggestion).
 */
async function unitNamed(ctx: CommandContext, text: string): Promise<string> {
  const owned = await ctx.deps.services.shop.owned(ctx.actor.id);
  if (owned.some((u) => u._id === text)) return text;
  const wanted = text.trim().toLowerCase();
  const named = owned.filter((u) => u.kind === 'item' && !u.tradeId && u.name.toLowerCase() === wanted);
  return named.at(-1)?._id ?? text;
}

async function useReply(ctx: CommandContext, unitId: string, op: string): Promise<string> {
  const { deps, actor, i18n, serverI18n } = ctx;
  const { unit, fresh } = await deps.services.shop.use({ opId: op, owner: actor.id, unitId });
  // A server's own item is used for its events: its shop channel hears of it, once.
  if (fresh)
    await deps.poster.post('shop.channel', {
      content: serverI18n.t('shop:used.post', { member: actor.id, name: unit.name }),
    });
  return i18n.t('shop:used.done', { name: unit.name });
}

async function sellReply(ctx: CommandContext, unitId: string, op: string): Promise<string> {
  const { deps, actor, invocation, i18n } = ctx;
  const sold = await deps.services.shop.sell({
    opId: op,
    owner: actor.id,
    unitId,
    guildId: invocation.guildId,
  });
  const balance = await deps.cookieEconomy.balance(actor.id);
  return i18n.t('shop:sold', {
    name: sold.unit.name,
    amount: i18n.cookies(sold.amount),
    balance: i18n.cookies(balance),
  });
}

export const use: Subcommand = {
  definition: { type: ApplicationCommandOptionType.Subcommand, ...opt('use'), options: [UNIT_OPTION] },
  autocomplete: { item: unitAutocomplete },
  async run(ctx) {
    const { item } = parseOptions(z.object({ item: z.string().min(1) }), ctx.invocation);
    return { ephemeral: true, content: await useReply(ctx, await unitNamed(ctx, item), ctx.invocation.id) };
  },
};

export const gift: Subcommand = {
  sanctionScope: 'economy',
  definition: {
    type: ApplicationCommandOptionType.Subcommand,
    ...opt('gift'),
    options: [UNIT_OPTION, { type: ApplicationCommandOptionType.User, ...opt('member'), required: true }],
  },
  autocomplete: { item: unitAutocomplete },
  async run(ctx) {
    const { item, member } = parseOptions(
      z.object({ item: z.string().min(1), member: memberOption }),
      ctx.invocation,
    );
    refuseBot(ctx.invocation, member);
    const given = await ctx.deps.services.shop.gift({
      opId: ctx.invocation.id,
      from: ctx.actor.id,
      to: member,
      unitId: await unitNamed(ctx, item),
    });
    return { content: ctx.i18n.t('shop:gifted', { name: given.name, to: member }) };
  },
};

export const sell: Subcommand = {
  sanctionScope: 'economy',
  definition: { type: ApplicationCommandOptionType.Subcommand, ...opt('sell'), options: [UNIT_OPTION] },
  autocomplete: { item: unitAutocomplete },
  async run(ctx) {
    const { item } = parseOptions(z.object({ item: z.string().min(1) }), ctx.invocation);
    return { ephemeral: true, content: await sellReply(ctx, await unitNamed(ctx, item), ctx.invocation.id) };
  },
};

export const unitMenuHandler = defineComponentHandler(unitMenu, {
  async run(ctx) {
    const { deps, invocation, actor, i18n } = ctx;
    // The menu offers kinds of item: the oldest free one of the kind picked is the one acted on,
    // so a menu shown before one was used, given or traded still finds the member's next one.
    const itemId = invocation.values[0] ?? '';
    const unit = (await deps.services.shop.owned(actor.id))
      .filter((u) => u.itemId === itemId && u.kind === 'item' && !u.tradeId)
      .at(-1);
    if (!unit) return { ...(await inventoryReply(ctx)), update: true };
    const pct = await deps.runtimeConfig.get('shop.sell_back_pct', invocation.guildId ?? undefined);
    const effect = EFFECTS[unit.effect ?? 'custom'];
    return {
      update: true,
      ephemeral: true,
      embeds: [
        {
          title: i18n.t('shop:inventory.unitTitle', { emoji: effect.emoji, name: unit.name }),
          color: COOKIE_BROWN,
          description: [
            i18n.t(`shop:effects.${effect.name}.how`),
            i18n.t('shop:inventory.paid', { price: i18n.cookies(unit.paid) }),
          ].join('\n'),
        },
      ],
      buttons: [
        ...(effect.acts === 'on_use'
          ? [
              {
                customId: useButton.build({ unit: unit._id, op: invocation.id }),
                label: i18n.t('shop:inventory.useButton'),
                style: 'primary' as const,
              },
            ]
          : []),
        ...(pct > 0
          ? [
              {
                customId: sellButton.build({ unit: unit._id, op: invocation.id }),
                label: i18n.t('shop:inventory.sellFor', {
                  amount: i18n.cookies(Math.floor((unit.paid * pct) / 100)),
                }),
                style: 'secondary' as const,
              },
            ]
          : []),
      ],
    };
  },
});

export const useButtonHandler = defineComponentHandler(useButton, {
  async run(ctx, { unit, op }) {
    return { update: true, ephemeral: true, content: await useReply(ctx, unit, op), embeds: [], buttons: [] };
  },
});

export const sellButtonHandler = defineComponentHandler(sellButton, {
  sanctionScope: 'economy',
  async run(ctx, { unit, op }) {
    return {
      update: true,
      ephemeral: true,
      content: await sellReply(ctx, unit, op),
      embeds: [],
      buttons: [],
    };
  },
});
