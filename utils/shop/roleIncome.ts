import { z } from 'zod';
import type { Clock } from '../../src/clock.js';
import { invalidInputText, isAppError } from '../../src/errors.js';
import type { FeatureServices } from '../../src/features/services.js';
import { isPseudonym } from '../../src/privacy/pseudonym.js';
import type { ServerMembers } from '../../src/profiles/serverMembers.js';
import type { RuntimeConfig } from '../../src/runtimeConfig/runtimeConfig.js';
import { defineTask, type Scheduler, type TaskHandler } from '../../src/scheduler/scheduler.js';
import { COOKIE_KINDS, type CookieEconomy } from '../money/cookieEconomy.js';
import type { IncomeStore, IncomeTerms, RoleIncomeDoc } from './incomeStore.js';
import type { InventoryStore } from './inventoryStore.js';

export const INCOME_TASK = 'shop.income';
const HOUR_MS = 3_600_000;
/** Holders read per page, and paid this many at a time. */
const PAGE = 100;
const AT_ONCE = 10;
/** One server's incomes fit one list reply. */
export const MAX_INCOMES = 25;
/** What a moderator may set, each within its bounds (a refusal names the field and its bounds). */
export const INCOME_BOUNDS = {
  amount: [1, 1_000_000],
  everyH: [1, 24 * 365],
  pct: [1, 100],
  max: [1, 1_000_000],
} as const;

export interface RoleIncomeDeps {
  incomes: IncomeStore;
  units: InventoryStore;
  serverMembers: ServerMembers;
  economy: CookieEconomy;
  scheduler: Scheduler;
  runtimeConfig: RuntimeConfig;
  clock: Clock;
}

/** Members who are not paid: forgotten or being forgotten on request, or banned from the economy. */
export type Barred = (member: string) => Promise<boolean>;

/** Periods are counted from the Unix epoch: every process, and a restarted one, agrees on them. */
export function periodOf(at: Date, everyH: number): number {
  return Math.floor(at.getTime() / (everyH * HOUR_MS));
}

export function periodEnd(period: number, everyH: number): Date {
  return new Date((period + 1) * everyH * HOUR_MS);
}

/** What one holder is paid for a period: the fixed amount, or the share of their balance up to its cap. */
export function incomeOf(terms: IncomeTerms, balance: number): number {
  if (terms.kind === 'fixed') return terms.amount;
  return Math.min(terms.max, Math.floor((Math.max(0, balance) * terms.pct) / 100));
}

/** The moderation and privacy services' word on a member, read at run time (they are other features). */
export function barredBy(services: FeatureServices): Barred {
  return async (member) => {
    if (isPseudonym(member)) return true;
    if ((await services.moderation.banOf(member, 'economy')) !== null) return true;
    return services.privacy.refuseErasing(member).then(
      () => false,
      (error: unknown) => {
        if (isAppError(error, 'PRIVACY_ERASING')) return true;
        throw error;
      },
    );
  };
}

/**
 * Roles that pay Cookies on a schedule (ECONOMY.md, "The shop", role income). One timer per server and
 * role runs at each period's end and pays every holder then: the members whose last
 * interaction showed the role, and those who own it from the shop. Each payment's operation id
 * names the role, the period and the member, so two processes, a restart or a run repeated
 * after a crash pay each holder once per period: the ledger replays the rest.
 */
export class RoleIncome {
  constructor(private readonly deps: RoleIncomeDeps) {}

  /** A moderator sets what a role pays (replacing what it paid), and its timer is planned. */
  async set(set: {
    guildId: string;
    roleId: string;
    actorId: string;
    terms: IncomeTerms;
    everyH: number;
  }): Promise<{ income: RoleIncomeDoc; replaced: RoleIncomeDoc | null }> {
    checkTerms(set.terms, set.everyH);
    const before = await this.deps.incomes.get(set.guildId, set.roleId);
    if (!before && (await this.deps.incomes.count(set.guildId)) >= MAX_INCOMES)
      throw invalidInputText('too many role incomes', 'shop:income.errors.tooMany', { max: MAX_INCOMES });
    const income: RoleIncomeDoc = {
      _id: `${set.guildId}:${set.roleId}`,
      guildId: set.guildId,
      roleId: set.roleId,
      terms: set.terms,
      everyH: set.everyH,
      setBy: set.actorId,
      setAt: this.deps.clock.now(),
    };
    const replaced = await this.deps.incomes.set(income);
    await this.#plan(income, periodOf(income.setAt, income.everyH));
    return { income, replaced };
  }

  /** A moderator ends a role's income: its timer is dropped, and one already running finds it gone. */
  async remove(guildId: string, roleId: string): Promise<RoleIncomeDoc> {
    const removed = await this.deps.incomes.remove(guildId, roleId);
    if (!removed) throw invalidInputText('no role income', 'shop:income.errors.unknown', { role: roleId });
    await this.deps.scheduler.cancel(timerId(removed, periodOf(this.deps.clock.now(), removed.everyH)));
    return removed;
  }

  /** The server's incomes, each with when it pays next. */
  async list(guildId: string): Promise<{ income: RoleIncomeDoc; nextAt: Date }[]> {
    const now = this.deps.clock.now();
    return (await this.deps.incomes.list(guildId)).map((income) => ({
      income,
      nextAt: periodEnd(periodOf(now, income.everyH), income.everyH),
    }));
  }

  task(barred: Barred): TaskHandler {
    return defineTask(
      INCOME_TASK,
      z.object({
        guildId: z.string(),
        roleId: z.string(),
        period: z.number().int(),
        everyH: z.number().int(),
      }),
      async ({ guildId, roleId, period, everyH }) => {
        const income = await this.deps.incomes.get(guildId, roleId);
        // Removed, or set again with another period, whose own timer runs: this one ends here.
        if (!income || income.everyH !== everyH) return;
        // The next period is planned first: a period that cannot be paid does not end the income.
        // After a long stop, the periods missed are not paid after the fact.
        await this.#plan(income, Math.max(period + 1, periodOf(this.deps.clock.now(), everyH)));
        await this.pay(income, period, barred);
      },
    );
  }

  /**
   * Pays every holder of the role for `period`, page by page; returns how many it paid (not
   * counting replays). A run stopped half-way (a crash, a failed payment) is run again by its
   * timer: those it paid replay, the rest are paid.
   */
  async pay(income: RoleIncomeDoc, period: number, barred: Barred): Promise<number> {
    if (!(await this.deps.runtimeConfig.get('shop.enabled', income.guildId))) return 0;
    const seen = new Set<string>();
    let paid = 0;
    for await (const page of this.#holders(income)) {
      const fresh = page.filter((member) => !seen.has(member));
      for (const member of fresh) seen.add(member);
      for (let i = 0; i < fresh.length; i += AT_ONCE) {
        // Every payment of the chunk ends before a failure ends the run: none is left in flight.
        const outcomes = await Promise.allSettled(
          fresh.slice(i, i + AT_ONCE).map((member) => this.#payOne(income, period, member, barred)),
        );
        const failed = outcomes.find((o) => o.status === 'rejected');
        if (failed) throw failed.reason;
        paid += outcomes.filter((o) => o.status === 'fulfilled' && o.value).length;
      }
    }
    return paid;
  }

  /** The role's holders, a page at a time: as their interactions showed them, then as the shop gave it. */
  async *#holders(income: RoleIncomeDoc): AsyncGenerator<string[]> {
    const { guildId, roleId } = income;
    const now = this.deps.clock.now();
    const sources = [
      (after: string) => this.deps.serverMembers.withRole(guildId, roleId, after, PAGE),
      (after: string) => this.deps.units.roleOwners(guildId, roleId, after, PAGE, now),
    ];
    for (const next of sources) {
      let after = '';
      for (let page = await next(after); page.length > 0; page = await next(after)) {
        yield page;
        if (page.length < PAGE) break;
        after = page.at(-1) as string;
      }
    }
  }

  /** Pays one holder; false when nothing new was paid (barred, nothing due, or paid already). */
  async #payOne(income: RoleIncomeDoc, period: number, member: string, barred: Barred): Promise<boolean> {
    if (await barred(member)) return false;
    const { terms } = income;
    const amount =
      terms.kind === 'fixed' ? terms.amount : incomeOf(terms, await this.deps.economy.balance(member));
    if (amount <= 0) return false;
    try {
      const outcome = await this.deps.economy.mint(member, {
        opId: `${timerId(income, period)}:${member}`,
        amount,
        kind: COOKIE_KINDS.roleIncome,
        source: 'system',
        reason: `<@&${income.roleId}>`,
      });
      return !outcome.replayed;
    } catch (error) {
      // A share is read from the balance, which its own payment raised: paid already, the same
      // id comes with another amount, and the ledger says it was used. That is the replay.
      if (isAppError(error, 'OPERATION_ID_REUSED') && terms.kind === 'share') return false;
      throw error;
    }
  }

  async #plan(income: RoleIncomeDoc, period: number): Promise<void> {
    await this.deps.scheduler.schedule({
      id: timerId(income, period),
      kind: INCOME_TASK,
      dueAt: periodEnd(period, income.everyH),
      payload: { guildId: income.guildId, roleId: income.roleId, period, everyH: income.everyH },
    });
  }
}

/**
 * The role's timer for one period, and the stem of its payments' ids. A timer that ran keeps its
 * id for a while (the scheduler's retention), so each period has its own.
 */
function timerId(income: Pick<RoleIncomeDoc, 'guildId' | 'roleId'>, period: number): string {
  return `${INCOME_TASK}:${income.guildId}:${income.roleId}:${period}`;
}

function checkTerms(terms: IncomeTerms, everyH: number): void {
  const fields: [keyof typeof INCOME_BOUNDS, number][] =
    terms.kind === 'fixed'
      ? [
          ['amount', terms.amount],
          ['everyH', everyH],
        ]
      : [
          ['pct', terms.pct],
          ['max', terms.max],
          ['everyH', everyH],
        ];
  for (const [field, value] of fields) {
    const [min, max] = INCOME_BOUNDS[field];
    if (!Number.isSafeInteger(value) || value < min || value > max)
      throw invalidInputText(`${field} out of bounds`, `shop:income.errors.outOfBounds.${field}`, {
        value: String(value),
        min,
        max,
      });
  }
}
