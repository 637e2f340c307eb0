import { ApplicationCommandOptionType } from 'discord.js';
import { z } from 'zod';
import { localized } from '../../src/i18n/definitions.js';
import type { Translator } from '../../src/i18n/i18n.js';
import { defineComponent } from '../../src/interactions/componentIds.js';
import { defineComponentHandler } from '../../src/interactions/defineCommand.js';
import type { Autocomplete, CommandContext, Reply, Subcommand } from '../../src/interactions/types.js';
import { EFFECTS } from '../../utils/shop/effects/registry.js';
import type { ShopItemDoc } from '../../utils/shop/itemStore.js';
import { SHOP_MESSAGES } from '../../utils/shop/messages.js';
import type { Bought } from '../../utils/shop/shopService.js';
import { COOKIE_BROWN } from '../colors.js';
import { parseOptions } from '../options.js';

const id = z.string().regex(/^[\w-]{1,40}$/);
/** The item picked in the shelf's menu. */
export const shelfMenu = defineComponent('shop.pick', {});
/** Buy: the purchase's id is the pick's interaction id, so pressing twice buys once. */
export const buyButton = defineComponent('shop.buy', { item: id, purchase: id });
export const backButton = defineComponent('shop.back', {});

/** The item's name, as the shelf and autocomplete show it. */
export function itemEmoji(item: Pick<ShopItemDoc, 'kind' | 'effect'>): string {
  return item.kind === 'role' ? '🎭' : EFFECTS[item.effect ?? 'custom'].emoji;
}

function itemLines(item: ShopItemDoc, i18n: Translator): string {
  const what =
    item.kind === 'role'
      ? i18n.t(item.durationH ? 'shop:shelf.roleFor' : 'shop:shelf.role', {
          role: item.roleId,
          hours: item.durationH,
        })
      : [
          i18n.t(`shop:effects.${item.effect ?? 'custom'}.short`),
          ...(item.durationH ? [i18n.t('shop:shelf.keeps', { hours: item.durationH })] : []),
        ].join(' · ');
  const terms = [
    item.stockLeft === null
      ? null
      : item.stockLeft === 0
        ? i18n.t('shop:shelf.soldOut')
        : i18n.t('shop:shelf.stock', { count: item.stockLeft }),
    item.perMember === null ? null : i18n.t('shop:shelf.limit', { count: item.perMember }),
    item.requiredRoleId ? i18n.t('shop:shelf.needs', { role: item.requiredRoleId }) : null,
  ].filter((t): t is string => t !== null);
  return [item.description, what, terms.join(' · ')].filter(Boolean).join('\n');
}

/** The shelf: every item with its terms, and a menu to pick one. */
async function shelfReply(ctx: CommandContext): Promise<Reply> {
  const { deps, invocation, actor, i18n } = ctx;
  const [items, balance] = await Promise.all([
    deps.services.shop.shelf(invocation.guildId),
    deps.cookieEconomy.balance(actor.id),
  ]);
  if (items.length === 0) return { ephemeral: true, content: i18n.t('shop:shelf.empty') };
  return {
    ephemeral: true,
    embeds: [
      {
        title: i18n.t('shop:shelf.title'),
        color: COOKIE_BROWN,
        description: i18n.t('shop:shelf.intro', { balance: i18n.cookies(balance) }),
        fields: items.map((item) => ({
          name: i18n.t('shop:shelf.price', {
            emoji: itemEmoji(item),
            name: item.name,
            price: i18n.cookies(item.price),
          }),
          value: itemLines(item, i18n),
        })),
      },
    ],
    select: {
      customId: shelfMenu.build({}),
      placeholder: i18n.t('shop:shelf.placeholder'),
      options: items.map((item) => ({
        label: i18n
          .t('shop:shelf.optionLabel', { name: item.name, price: i18n.cookies(item.price) })
          .slice(0, 100),
        value: item._id,
        ...(item.description ? { description: item.description.slice(0, 100) } : {}),
      })),
    },
  };
}

export const browse: Subcommand = {
  definition: {
    type: ApplicationCommandOptionType.Subcommand,
    ...localized(SHOP_MESSAGES, 'commands.browse'),
  },
  run: shelfReply,
};

/** The items on the shelf as a member types their name. */
export const itemAutocomplete: Autocomplete = async ({ deps, invocation, i18n }, typed) => {
  const needle = typed.trim().toLowerCase();
  const items = await deps.services.shop.shelf(invocation.guildId).catch(() => []);
  return items
    .filter((item) => item.nameKey.includes(needle))
    .slice(0, 25)
    .map((item) => ({
      name: i18n
        .t('shop:shelf.optionLabel', { name: item.name, price: i18n.cookies(item.price) })
        .slice(0, 100),
      value: item.name,
    }));
};

export const ITEM_OPTION = {
  type: ApplicationCommandOptionType.String,
  ...localized(SHOP_MESSAGES, 'commands.item'),
  required: true,
  autocomplete: true,
  max_length: 40,
} as const;

/** The buyer's answer: what they got and what they have left. */
export async function boughtReply(ctx: CommandContext, bought: Bought): Promise<string> {
  const { deps, actor, i18n } = ctx;
  const { item } = bought.purchase;
  const price = i18n.cookies(item.price);
  if (bought.status === 'pending') return i18n.t('shop:bought.pending', { role: item.roleId, price });
  const balance = i18n.cookies(await deps.cookieEconomy.balance(actor.id));
  if (item.kind === 'role') {
    const until = bought.purchase.roleUntil;
    return i18n.t(until ? 'shop:bought.roleFor' : 'shop:bought.role', {
      name: item.name,
      price,
      role: item.roleId,
      balance,
      untilSeconds: until ? Math.floor(until.getTime() / 1000) : 0,
    });
  }
  return i18n.t('shop:bought.item', {
    name: item.name,
    price,
    balance,
    how: i18n.t(`shop:effects.${item.effect ?? 'custom'}.how`),
  });
}

function buy(ctx: CommandContext, item: string, purchase: string): Promise<Bought> {
  const { serverI18n, actor } = ctx;
  // Discord's audit log tells the server's moderators why the bot changed a member's role.
  const reason = (key: string) =>
    serverI18n.t(`shop:roleReason.${key}`, { member: actor.name }).slice(0, 512);
  return ctx.deps.services.shop.buy({
    opId: purchase,
    guildId: ctx.invocation.guildId,
    userId: actor.id,
    item,
    roleIds: ctx.invocation.roleIds,
    reasons: { given: reason('given'), ended: reason('ended'), calledOff: reason('calledOff') },
  });
}

export const buyCommand: Subcommand = {
  sanctionScope: 'economy',
  definition: {
    type: ApplicationCommandOptionType.Subcommand,
    ...localized(SHOP_MESSAGES, 'commands.buy'),
    options: [ITEM_OPTION],
  },
  autocomplete: { item: itemAutocomplete },
  async run(ctx) {
    const { item } = parseOptions(z.object({ item: z.string().min(1) }), ctx.invocation);
    return { ephemeral: true, content: await boughtReply(ctx, await buy(ctx, item, ctx.invocation.id)) };
  },
};

export const shelfMenuHandler = defineComponentHandler(shelfMenu, {
  async run(ctx) {
    const { deps, invocation, i18n } = ctx;
    const item = await deps.services.shop.find(invocation.guildId, invocation.values[0] ?? '');
    return {
      update: true,
      ephemeral: true,
      embeds: [
        {
          title: i18n.t('shop:shelf.price', {
            emoji: itemEmoji(item),
            name: item.name,
            price: i18n.cookies(item.price),
          }),
          color: COOKIE_BROWN,
          description: itemLines(item, i18n),
        },
      ],
      buttons: [
        {
          customId: buyButton.build({ item: item._id, purchase: invocation.id }),
          label: i18n.t('shop:item.buyButton', { price: i18n.cookies(item.price) }),
          style: 'success',
          emoji: '🛒',
        },
        { customId: backButton.build({}), label: i18n.t('shop:item.cancel'), style: 'secondary' },
      ],
    };
  },
});

export const buyButtonHandler = defineComponentHandler(buyButton, {
  sanctionScope: 'economy',
  async run(ctx, { item, purchase }) {
    const bought = await buy(ctx, item, purchase);
    return {
      update: true,
      ephemeral: true,
      content: await boughtReply(ctx, bought),
      embeds: [],
      buttons: [],
    };
  },
});

export const backButtonHandler = defineComponentHandler(backButton, {
  async run(ctx) {
    return { ...(await shelfReply(ctx)), update: true };
  },
});
