import { ApplicationCommandOptionType } from 'discord.js';
import { z } from 'zod';
import { invalidInputText } from '../../src/errors.js';
import { localized } from '../../src/i18n/definitions.js';
import type { Translator } from '../../src/i18n/i18n.js';
import type { CommandContext, Subcommand } from '../../src/interactions/types.js';
import { SNOWFLAKE_PATTERN } from '../../src/snowflake.js';
import type { IncomeTerms, RoleIncomeDoc } from '../../utils/shop/incomeStore.js';
import { SHOP_MESSAGES } from '../../utils/shop/messages.js';
import { INCOME_BOUNDS, periodEnd, periodOf } from '../../utils/shop/roleIncome.js';
import { parseOptions } from '../options.js';

const opt = (key: string) => localized(SHOP_MESSAGES, `commands.income.${key}`);
const ROLE = { type: ApplicationCommandOptionType.Role, ...opt('role'), required: true } as const;
const whole = (key: keyof typeof INCOME_BOUNDS, name: string) =>
  ({
    type: ApplicationCommandOptionType.Integer,
    ...opt(name),
    min_value: INCOME_BOUNDS[key][0],
    max_value: INCOME_BOUNDS[key][1],
  }) as const;

const roleId = z
  .string()
  .transform((text) => text.replace(/^<@&(\d+)>$/, '$1'))
  .pipe(z.string().regex(SNOWFLAKE_PATTERN));

const setOptions = z.object({
  role: roleId,
  every: z.number().int(),
  amount: z.number().int().optional(),
  share_pct: z.number().int().optional(),
  max: z.number().int().optional(),
});

/** A fixed amount, or a share with its cap: one of the two, never both. */
function termsOf(o: z.output<typeof setOptions>): IncomeTerms {
  if ((o.amount === undefined) === (o.share_pct === undefined))
    throw invalidInputText('amount or share_pct', 'shop:income.errors.amountOrShare');
  if (o.amount !== undefined) {
    if (o.max !== undefined)
      throw invalidInputText('max without share_pct', 'shop:income.errors.maxOnlyShare');
    return { kind: 'fixed', amount: o.amount };
  }
  if (o.max === undefined) throw invalidInputText('share without max', 'shop:income.errors.maxNeeded');
  return { kind: 'share', pct: o.share_pct as number, max: o.max };
}

/** "100 Cookies" or "2 % of the balance, at most 500 Cookies", in the reader's words. */
export function payText(terms: IncomeTerms, i18n: Translator): string {
  return terms.kind === 'fixed'
    ? i18n.cookies(terms.amount)
    : i18n.t('shop:income.share', { pct: i18n.number(terms.pct), max: i18n.cookies(terms.max) });
}

async function audit(ctx: CommandContext, key: 'set' | 'removed', income: RoleIncomeDoc) {
  const { deps, invocation, actor, serverI18n } = ctx;
  await deps.services.admin.record({
    id: `shop.income:${invocation.id}`,
    kind: 'shop.income',
    actorId: actor.id,
    text: serverI18n.t(`shop:income.audit.${key}`, {
      actor: actor.id,
      role: income.roleId,
      pay: payText(income.terms, serverI18n),
      hours: serverI18n.number(income.everyH),
    }),
  });
}

export const setIncome: Subcommand = {
  access: 'moderator',
  definition: {
    type: ApplicationCommandOptionType.Subcommand,
    ...opt('set'),
    options: [
      ROLE,
      { ...whole('everyH', 'every'), required: true },
      whole('amount', 'amount'),
      whole('pct', 'sharePct'),
      whole('max', 'max'),
    ],
  },
  async run(ctx) {
    const o = parseOptions(setOptions, ctx.invocation);
    const { income } = await ctx.deps.services.shop.setIncome({
      guildId: ctx.invocation.guildId,
      roleId: o.role,
      actorId: ctx.actor.id,
      terms: termsOf(o),
      everyH: o.every,
    });
    await audit(ctx, 'set', income);
    const next = periodEnd(periodOf(income.setAt, income.everyH), income.everyH);
    return {
      ephemeral: true,
      content: ctx.i18n.t('shop:income.set', {
        role: income.roleId,
        pay: payText(income.terms, ctx.i18n),
        hours: ctx.i18n.number(income.everyH),
        nextSeconds: Math.floor(next.getTime() / 1000),
      }),
    };
  },
};

export const removeIncome: Subcommand = {
  access: 'moderator',
  definition: { type: ApplicationCommandOptionType.Subcommand, ...opt('remove'), options: [ROLE] },
  async run(ctx) {
    const { role } = parseOptions(z.object({ role: roleId }), ctx.invocation);
    const removed = await ctx.deps.services.shop.removeIncome(ctx.invocation.guildId, role);
    await audit(ctx, 'removed', removed);
    return { ephemeral: true, content: ctx.i18n.t('shop:income.removed', { role }) };
  },
};

export const listIncomes: Subcommand = {
  access: 'moderator',
  definition: { type: ApplicationCommandOptionType.Subcommand, ...opt('list') },
  async run(ctx) {
    const { i18n } = ctx;
    const incomes = await ctx.deps.services.shop.incomes(ctx.invocation.guildId);
    if (incomes.length === 0) return { ephemeral: true, content: i18n.t('shop:income.empty') };
    const lines = incomes.map(({ income, nextAt }) =>
      i18n.t('shop:income.line', {
        role: income.roleId,
        pay: payText(income.terms, i18n),
        hours: i18n.number(income.everyH),
        nextSeconds: Math.floor(nextAt.getTime() / 1000),
      }),
    );
    return {
      ephemeral: true,
      content: [i18n.t('shop:income.title'), ...lines, '', i18n.t('shop:income.rule')].join('\n'),
    };
  },
};

export const incomeGroup = {
  ...localized(SHOP_MESSAGES, 'commands.income.group'),
  subcommands: [setIncome, removeIncome, listIncomes],
};
