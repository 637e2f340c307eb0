import { ApplicationCommandOptionType } from 'discord.js';
import { z } from 'zod';
import { invalidInputText } from '../../src/errors.js';
import { localized } from '../../src/i18n/definitions.js';
import { resolveLocale, type Translator } from '../../src/i18n/i18n.js';
import { defineComponent } from '../../src/interactions/componentIds.js';
import { defineComponentHandler } from '../../src/interactions/defineCommand.js';
import type {
  Autocomplete,
  BotDeps,
  CommandContext,
  Reply,
  Subcommand,
} from '../../src/interactions/types.js';
import { AMOUNT_MAX } from '../../utils/money/amounts.js';
import { SHOP_MESSAGES } from '../../utils/shop/messages.js';
import type { TradeChange, TradeDoc, TradeSide } from '../../utils/shop/tradeStore.js';
import { sideOf } from '../../utils/shop/trades.js';
import { memberOption, parseOptions, refuseBot } from '../options.js';

const id = z.string().regex(/^[\w-]{1,40}$/);
export const addButton = defineComponent('shop.trade_add', { trade: id });
export const pickMenu = defineComponent('shop.trade_pick', { trade: id });
/** Confirm carries the revision its board showed: a press on an older board is refused. */
export const confirmButton = defineComponent('shop.trade_confirm', {
  trade: id,
  rev: z.coerce.number().int().min(0),
});
export const cancelButton = defineComponent('shop.trade_cancel', { trade: id });

const TRADE_GREEN = 0x2e8b57;
const opt = (key: string) => localized(SHOP_MESSAGES, `commands.${key}`);

/** One side's offer, and whether it confirmed what the board shows. */
function sideField(trade: TradeDoc, side: TradeSide, confirmed: boolean, i18n: Translator) {
  const items = side.units.map((u) => `• ${u.name}`);
  const offer = [side.cookies > 0 ? `• ${i18n.cookies(side.cookies)}` : null, ...items].filter(Boolean);
  const mark =
    trade.state === 'open'
      ? i18n.t(confirmed ? 'shop:trade.board.confirmed' : 'shop:trade.board.waiting')
      : '';
  return {
    name: i18n.t('shop:trade.board.offer'),
    value: [
      `<@${side.userId}> ${mark}`.trim(),
      offer.length > 0 ? offer.join('\n') : i18n.t('shop:trade.board.nothing'),
    ].join('\n'),
    inline: true,
  };
}

/** The trade's public board: both offers, who confirmed, when it ends; its controls while open. */
export function tradeBoard(trade: TradeDoc, i18n: Translator): Reply {
  const status =
    trade.state === 'open'
      ? i18n.t('shop:trade.board.open', {
          untilSeconds: Math.floor(trade.expiresAt.getTime() / 1000),
          revision: trade.revision,
        })
      : i18n.t(`shop:trade.board.${trade.state}`);
  return {
    embeds: [
      {
        title: i18n.t('shop:trade.board.title'),
        color: TRADE_GREEN,
        description: [status, trade.state === 'open' ? i18n.t('shop:trade.board.how') : null]
          .filter(Boolean)
          .join('\n'),
        fields: [
          sideField(trade, trade.a, trade.confirmed.a === trade.revision, i18n),
          sideField(trade, trade.b, trade.confirmed.b === trade.revision, i18n),
        ],
      },
    ],
    buttons:
      trade.state === 'open'
        ? [
            {
              customId: addButton.build({ trade: trade._id }),
              label: i18n.t('shop:trade.board.add'),
              style: 'secondary',
            },
            {
              customId: confirmButton.build({ trade: trade._id, rev: trade.revision }),
              label: i18n.t('shop:trade.board.confirm'),
              style: 'success',
            },
            {
              customId: cancelButton.build({ trade: trade._id }),
              label: i18n.t('shop:trade.board.cancel'),
              style: 'danger',
            },
          ]
        : [],
  };
}

/** Brings the board up to date after a change made elsewhere (a subcommand, the item menu). */
export async function refreshBoard(deps: BotDeps, trade: TradeDoc): Promise<void> {
  if (!trade.channelId || !trade.messageId) return;
  const board = tradeBoard(trade, deps.i18n.for(resolveLocale(trade.locale)));
  await deps.poster.edit(trade.channelId, trade.messageId, { ...board, buttons: board.buttons ?? [] });
}

function changeLine(change: TradeChange, i18n: Translator): string {
  return i18n.t(`shop:trade.change.${change.what}`, {
    member: change.by,
    name: change.value,
    amount: change.what === 'cookies' ? i18n.cookies(Number(change.value)) : '',
  });
}

/** A public board that becomes the trade's: a later change shows there. */
function postBoard(ctx: CommandContext, trade: TradeDoc): Reply {
  const { deps, invocation, serverI18n } = ctx;
  return {
    ...tradeBoard(trade, serverI18n),
    onSent: ({ messageId }) =>
      deps.services.trades.rememberMessage(trade, invocation.channelId ?? null, messageId),
  };
}

/** The member's open trade changed by a subcommand: the board shows it, the member hears it. */
async function changed(
  ctx: CommandContext,
  trade: TradeDoc,
  key: string,
  values: Record<string, unknown>,
): Promise<Reply> {
  await refreshBoard(ctx.deps, trade);
  return { ephemeral: true, content: ctx.i18n.t(key, values), embeds: tradeBoard(trade, ctx.i18n).embeds };
}

export const start: Subcommand = {
  sanctionScope: 'economy',
  definition: {
    type: ApplicationCommandOptionType.Subcommand,
    ...opt('tradeWith'),
    options: [{ type: ApplicationCommandOptionType.User, ...opt('tradeMember'), required: true }],
  },
  async run(ctx) {
    const { user } = parseOptions(z.object({ user: memberOption }), ctx.invocation);
    refuseBot(ctx.invocation, user);
    const trade = await ctx.deps.services.trades.open({
      tradeId: ctx.invocation.id,
      guildId: ctx.invocation.guildId,
      from: ctx.actor.id,
      to: user,
      locale: ctx.serverI18n.locale,
    });
    return postBoard(ctx, trade);
  },
};

export const cookies: Subcommand = {
  sanctionScope: 'economy',
  definition: {
    type: ApplicationCommandOptionType.Subcommand,
    ...opt('tradeCookies'),
    options: [
      {
        type: ApplicationCommandOptionType.Integer,
        ...opt('tradeAmount'),
        required: true,
        min_value: 0,
        max_value: AMOUNT_MAX,
      },
    ],
  },
  async run(ctx) {
    const { amount } = parseOptions(
      z.object({ amount: z.number().int().min(0).max(AMOUNT_MAX) }),
      ctx.invocation,
    );
    const trades = ctx.deps.services.trades;
    const open = await trades.mine(ctx.actor.id, ctx.invocation.guildId);
    const trade = await trades.setCookies({ tradeId: open._id, userId: ctx.actor.id, amount });
    return changed(ctx, trade, 'shop:trade.done.cookies', { amount: ctx.i18n.cookies(amount) });
  },
};

/** The member's free items as they type. */
const freeItems: Autocomplete = async ({ deps, actor, invocation }, typed) => {
  const needle = typed.trim().toLowerCase();
  const units = await deps.services.shop.owned(actor.id, invocation.guildId);
  return units
    .filter((u) => u.kind === 'item' && !u.tradeId && u.name.toLowerCase().includes(needle))
    .slice(0, 25)
    .map((u) => ({ name: u.name.slice(0, 100), value: u._id }));
};

/** The items the member has in their open trade, as they type. */
const tradedItems: Autocomplete = async ({ deps, actor, invocation }, typed) => {
  const trade = await deps.services.trades.mine(actor.id, invocation.guildId).catch(() => null);
  if (!trade) return [];
  const needle = typed.trim().toLowerCase();
  return trade[sideOf(trade, actor.id)].units
    .filter((u) => u.name.toLowerCase().includes(needle))
    .map((u) => ({ name: u.name.slice(0, 100), value: u.id }));
};

/**
 * The unit an `item` option names: its id (what autocomplete sends), else the oldest of
 * `units` with that name (a name typed without picking a suggestion).
 */
function named(units: readonly { id: string; name: string }[], text: string): string {
  if (units.some((u) => u.id === text)) return text;
  const wanted = text.trim().toLowerCase();
  return units.filter((u) => u.name.toLowerCase() === wanted).at(-1)?.id ?? text;
}

const ITEM_OPTION = {
  type: ApplicationCommandOptionType.String,
  ...opt('tradeItem'),
  required: true,
  autocomplete: true,
  max_length: 40,
} as const;

export const add: Subcommand = {
  sanctionScope: 'economy',
  definition: { type: ApplicationCommandOptionType.Subcommand, ...opt('tradeAdd'), options: [ITEM_OPTION] },
  autocomplete: { item: freeItems },
  async run(ctx) {
    const { item } = parseOptions(z.object({ item: z.string().min(1) }), ctx.invocation);
    const trades = ctx.deps.services.trades;
    const open = await trades.mine(ctx.actor.id, ctx.invocation.guildId);
    const free = (await ctx.deps.services.shop.owned(ctx.actor.id, ctx.invocation.guildId))
      .filter((u) => u.kind === 'item' && !u.tradeId)
      .map((u) => ({ id: u._id, name: u.name }));
    const unitId = named(free, item);
    const trade = await trades.addItem({ tradeId: open._id, userId: ctx.actor.id, unitId });
    const name = trade[sideOf(trade, ctx.actor.id)].units.find((u) => u.id === unitId)?.name ?? item;
    return changed(ctx, trade, 'shop:trade.done.add', { name });
  },
};

export const remove: Subcommand = {
  sanctionScope: 'economy',
  definition: {
    type: ApplicationCommandOptionType.Subcommand,
    ...opt('tradeRemove'),
    options: [ITEM_OPTION],
  },
  autocomplete: { item: tradedItems },
  async run(ctx) {
    const { item } = parseOptions(z.object({ item: z.string().min(1) }), ctx.invocation);
    const trades = ctx.deps.services.trades;
    const open = await trades.mine(ctx.actor.id, ctx.invocation.guildId);
    const mine = open[sideOf(open, ctx.actor.id)].units;
    const unitId = named(mine, item);
    const name = mine.find((u) => u.id === unitId)?.name ?? item;
    const trade = await trades.removeItem({ tradeId: open._id, userId: ctx.actor.id, unitId });
    return changed(ctx, trade, 'shop:trade.done.remove', { name });
  },
};

export const show: Subcommand = {
  definition: { type: ApplicationCommandOptionType.Subcommand, ...opt('tradeShow') },
  async run(ctx) {
    const trade = await ctx.deps.services.trades.mine(ctx.actor.id, ctx.invocation.guildId);
    return postBoard(ctx, trade);
  },
};

export const addButtonHandler = defineComponentHandler(addButton, {
  sanctionScope: 'economy',
  async run({ deps, actor, invocation, i18n }, { trade: tradeId }) {
    const trade = await deps.services.trades.get(tradeId);
    if (trade?.state !== 'open')
      throw invalidInputText('the trade ended', `shop:trade.errors.${trade?.state ?? 'cancelled'}`);
    sideOf(trade, actor.id);
    const units = (await deps.services.shop.owned(actor.id, invocation.guildId)).filter(
      (u) => u.kind === 'item' && !u.tradeId,
    );
    if (units.length === 0) return { ephemeral: true, content: i18n.t('shop:trade.noItems') };
    return {
      ephemeral: true,
      content: i18n.t('shop:trade.pick'),
      select: {
        customId: pickMenu.build({ trade: tradeId }),
        placeholder: i18n.t('shop:trade.pickPlaceholder'),
        options: units.slice(0, 25).map((u) => ({ label: u.name.slice(0, 100), value: u._id })),
      },
    };
  },
});

export const pickMenuHandler = defineComponentHandler(pickMenu, {
  sanctionScope: 'economy',
  async run({ deps, actor, invocation, i18n }, { trade: tradeId }) {
    const unitId = invocation.values[0] ?? '';
    const trade = await deps.services.trades.addItem({ tradeId, userId: actor.id, unitId });
    await refreshBoard(deps, trade);
    const name = trade[sideOf(trade, actor.id)].units.find((u) => u.id === unitId)?.name ?? unitId;
    return { update: true, ephemeral: true, content: i18n.t('shop:trade.done.add', { name }) };
  },
});

export const confirmButtonHandler = defineComponentHandler(confirmButton, {
  sanctionScope: 'economy',
  async run({ deps, actor, invocation, i18n }, { trade: tradeId, rev }) {
    const trades = deps.services.trades;
    const before = await trades.get(tradeId);
    if (before) await trades.rememberMessage(before, invocation.channelId ?? null, invocation.messageId);
    const pressed = await trades.confirm({ tradeId, userId: actor.id, revision: rev });
    if (pressed.status === 'changed') {
      await refreshBoard(deps, pressed.trade);
      return {
        ephemeral: true,
        content: [
          i18n.t('shop:trade.stale', { revision: pressed.trade.revision }),
          ...pressed.missed.map((c) => changeLine(c, i18n)),
        ].join('\n'),
      };
    }
    const board = tradeBoard(pressed.trade, deps.i18n.for(resolveLocale(pressed.trade.locale)));
    return { ...board, buttons: board.buttons ?? [], update: true };
  },
});

export const cancelButtonHandler = defineComponentHandler(cancelButton, {
  sanctionScope: 'economy',
  async run({ deps, actor }, { trade: tradeId }) {
    const trade = await deps.services.trades.cancel({ tradeId, userId: actor.id });
    const board = tradeBoard(trade, deps.i18n.for(resolveLocale(trade.locale)));
    return { ...board, buttons: board.buttons ?? [], update: true };
  },
});
