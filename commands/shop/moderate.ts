import { ApplicationCommandOptionType } from 'discord.js';
import { z } from 'zod';
import { localized } from '../../src/i18n/definitions.js';
import type { Translator } from '../../src/i18n/i18n.js';
import { lookup } from '../../src/i18n/i18n.js';
import type { CommandContext, Subcommand } from '../../src/interactions/types.js';
import { SNOWFLAKE_PATTERN } from '../../src/snowflake.js';
import { EFFECT_NAMES } from '../../utils/shop/effects/registry.js';
import { describeChanges } from '../../utils/shop/itemChanges.js';
import type { ItemFields, ShopItemDoc } from '../../utils/shop/itemStore.js';
import { SHOP_MESSAGES } from '../../utils/shop/messages.js';
import { parseOptions } from '../options.js';
import { ITEM_OPTION, itemAutocomplete } from './shelf.js';

const roleId = z
  .string()
  .transform((text) => text.replace(/^<@&(\d+)>$/, '$1'))
  .pipe(z.string().regex(SNOWFLAKE_PATTERN));

const opt = (key: string) => localized(SHOP_MESSAGES, `commands.${key}`);
const NAME = { type: ApplicationCommandOptionType.String, ...opt('name'), max_length: 40 } as const;
const PRICE = { type: ApplicationCommandOptionType.Integer, ...opt('price'), min_value: 1 } as const;
/** A whole number a moderator may leave out, or give as -1 for "no limit". */
const upTo = (key: string, max: number) =>
  ({ type: ApplicationCommandOptionType.Integer, ...opt(key), min_value: -1, max_value: max }) as const;
const HOURS = upTo('hours', 8_760);
const STOCK = upTo('stock', 10_000);
const LIMIT = upTo('limit', 1_000);
const NEEDS = { type: ApplicationCommandOptionType.Role, ...opt('requiredRole') } as const;
const DESCRIPTION = {
  type: ApplicationCommandOptionType.String,
  ...opt('description'),
  max_length: 200,
} as const;
/** What a new item may set beyond its price, in the order Discord shows the options. */
const TERMS = [NAME, HOURS, STOCK, LIMIT, NEEDS, DESCRIPTION];

/** An optional whole number of a moderator's: empty or -1 is "no limit". */
const limitOf = (value: number | undefined): number | null =>
  value === undefined || value < 0 ? null : value;

const terms = z.object({
  name: z.string().optional(),
  price: z.number().int().optional(),
  hours: z.number().int().optional(),
  stock: z.number().int().optional(),
  limit: z.number().int().optional(),
  'required-role': roleId.optional(),
  description: z.string().optional(),
});

/** What a new item's options say, with the defaults of what they leave out. */
function newFields(o: z.output<typeof terms>, fallbackName: string): ItemFields {
  return {
    name: o.name ?? fallbackName,
    description: o.description ?? '',
    price: o.price ?? 0,
    stockLeft: limitOf(o.stock),
    perMember: limitOf(o.limit),
    requiredRoleId: o['required-role'] ?? null,
    durationH: limitOf(o.hours),
  };
}

async function audit(
  ctx: CommandContext,
  kind: 'shop.add' | 'shop.edit' | 'shop.remove',
  key: string,
  item: ShopItemDoc,
  extra = {},
) {
  const { deps, invocation, actor, serverI18n } = ctx;
  await deps.services.admin.record({
    id: `${kind}:${invocation.id}`,
    kind,
    actorId: actor.id,
    text: serverI18n.t(`shop:audit.${key}`, {
      actor: actor.id,
      name: item.name,
      price: serverI18n.cookies(item.price),
      ...extra,
    }),
  });
}

function addedReply(i18n: Translator, item: ShopItemDoc): string {
  const added = i18n.t('shop:moderation.added', { name: item.name, price: i18n.cookies(item.price) });
  return item.roleId ? `${added}\n${i18n.t('shop:moderation.roleCheck', { role: item.roleId })}` : added;
}

export const addRole: Subcommand = {
  access: 'moderator',
  definition: {
    type: ApplicationCommandOptionType.Subcommand,
    ...opt('addRole'),
    options: [
      { type: ApplicationCommandOptionType.Role, ...opt('role'), required: true },
      { ...PRICE, required: true },
      ...TERMS,
    ],
  },
  async run(ctx) {
    const o = parseOptions(terms.extend({ role: roleId }), ctx.invocation);
    const item = await ctx.deps.services.shop.addItem({
      guildId: ctx.invocation.guildId,
      actorId: ctx.actor.id,
      kind: 'role',
      effect: null,
      roleId: o.role,
      // A role item without a name is named after its role, as members see it.
      fields: newFields(o, ctx.invocation.roleNames?.[o.role] ?? `@${o.role}`),
    });
    await audit(ctx, 'shop.add', 'addedRole', item, { role: item.roleId });
    return { ephemeral: true, content: addedReply(ctx.i18n, item) };
  },
};

export const addItem: Subcommand = {
  access: 'moderator',
  definition: {
    type: ApplicationCommandOptionType.Subcommand,
    ...opt('addItem'),
    options: [
      {
        type: ApplicationCommandOptionType.String,
        ...opt('effect'),
        required: true,
        choices: EFFECT_NAMES.map((effect) => ({
          name: lookup(SHOP_MESSAGES.en, `effects.${effect}.name`) ?? effect,
          name_localizations: { de: lookup(SHOP_MESSAGES.de, `effects.${effect}.name`) ?? effect },
          value: effect,
        })),
      },
      { ...PRICE, required: true },
      ...TERMS,
    ],
  },
  async run(ctx) {
    const o = parseOptions(
      terms.extend({ effect: z.enum(EFFECT_NAMES as [string, ...string[]]) }),
      ctx.invocation,
    );
    const effect = o.effect as (typeof EFFECT_NAMES)[number];
    const item = await ctx.deps.services.shop.addItem({
      guildId: ctx.invocation.guildId,
      actorId: ctx.actor.id,
      kind: 'item',
      effect,
      roleId: null,
      fields: newFields(o, ctx.serverI18n.t(`shop:effects.${effect}.name`)),
    });
    await audit(ctx, 'shop.add', 'addedItem', item);
    return { ephemeral: true, content: addedReply(ctx.i18n, item) };
  },
};

export const edit: Subcommand = {
  access: 'moderator',
  definition: {
    type: ApplicationCommandOptionType.Subcommand,
    ...opt('edit'),
    options: [ITEM_OPTION, NAME, PRICE, HOURS, STOCK, LIMIT, NEEDS, DESCRIPTION],
  },
  autocomplete: { item: itemAutocomplete },
  async run(ctx) {
    const { i18n } = ctx;
    const o = parseOptions(terms.extend({ item: z.string().min(1) }), ctx.invocation);
    const fields: Partial<ItemFields> = {
      ...(o.name !== undefined ? { name: o.name } : {}),
      ...(o.description !== undefined ? { description: o.description } : {}),
      ...(o.price !== undefined ? { price: o.price } : {}),
      ...(o.stock !== undefined ? { stockLeft: limitOf(o.stock) } : {}),
      ...(o.limit !== undefined ? { perMember: limitOf(o.limit) } : {}),
      ...(o.hours !== undefined ? { durationH: limitOf(o.hours) } : {}),
      ...(o['required-role'] !== undefined ? { requiredRoleId: o['required-role'] } : {}),
    };
    const before = await ctx.deps.services.shop.find(ctx.invocation.guildId, o.item);
    const after = await ctx.deps.services.shop.editItem({
      guildId: ctx.invocation.guildId,
      item: before._id,
      fields,
    });
    const changes = describeChanges(before, after, i18n);
    if (changes.length === 0)
      return { ephemeral: true, content: i18n.t('shop:moderation.unchanged', { name: after.name }) };
    await audit(ctx, 'shop.edit', 'edited', after, {
      changes: describeChanges(before, after, ctx.serverI18n).join(', '),
    });
    return {
      ephemeral: true,
      content: i18n.t('shop:moderation.edited', { name: after.name, changes: changes.join(', ') }),
    };
  },
};

export const remove: Subcommand = {
  access: 'moderator',
  definition: { type: ApplicationCommandOptionType.Subcommand, ...opt('remove'), options: [ITEM_OPTION] },
  autocomplete: { item: itemAutocomplete },
  async run(ctx) {
    const { item } = parseOptions(z.object({ item: z.string().min(1) }), ctx.invocation);
    const removed = await ctx.deps.services.shop.removeItem({ guildId: ctx.invocation.guildId, item });
    await audit(ctx, 'shop.remove', 'removed', removed);
    return { ephemeral: true, content: ctx.i18n.t('shop:moderation.removed', { name: removed.name }) };
  },
};
