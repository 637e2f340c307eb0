import { z } from 'zod';
import { type Clock, DAY_MS, startOfUtcDay, utcDay } from '../../src/clock.js';
import type { Locale } from '../../src/i18n/i18n.js';
import type { Logger } from '../../src/logger.js';
import { isPseudonym } from '../../src/privacy/pseudonym.js';
import type { RuntimeConfig } from '../../src/runtimeConfig/runtimeConfig.js';
import { defineTask, type Scheduler, type TaskHandler } from '../../src/scheduler/scheduler.js';
import { COOKIE_KINDS, type CookieEconomy } from '../money/cookieEconomy.js';
import type { BakeryShareDoc, BakeryShareStore } from './bakeryShareStore.js';

declare module '../../src/features/services.js' {
  interface FeatureServices {
    bakery: BakeryShare;
  }
}

export const BAKERY_SHARE_TASK = 'cookies.bakery_share';
/** A day is shared this long after it ended: every collect and round of it is recorded by then. */
const SHARE_AFTER_MS = 10 * 60_000;
/** Flows into and out of the vault that are not the members' play: funding and the share itself. */
const NOT_TAKEN = new Set<string>([COOKIE_KINDS.vaultFund, COOKIE_KINDS.bakeryShare]);

interface BakeryShareDeps {
  economy: CookieEconomy;
  store: BakeryShareStore;
  runtimeConfig: RuntimeConfig;
  scheduler: Scheduler;
  clock: Clock;
  log: Logger;
  /** The vault's minimum reserve (HOUSE_MIN_RESERVE_COOKIES). */
  reserve: number;
}

/**
 * What the bakery shares out of one day (COOKIE_LOGIC.md, "The bakery's share"): `pct` % of
 * what the vault took from the members that day, never more than the vault holds above its
 * target, split in whole equal parts between the members who collected.
 */
export function bakeryPool(input: {
  houseTake: number;
  vault: number;
  target: number;
  pct: number;
  recipients: number;
}): { pool: number; share: number } {
  const surplus = Math.max(0, input.vault - input.target);
  const pool = Math.min(surplus, Math.floor((Math.max(0, input.houseTake) * input.pct) / 100));
  const share = input.recipients > 0 ? Math.floor(pool / input.recipients) : 0;
  return { pool: share * input.recipients, share };
}

/** How many points a collect's rate moves a day per percentage point of growth off the target. */
export const RATE_STEP_PER_POINT = 4;
/** The rule measures the supply once the members hold this much per member who collected that day. */
export const RULE_FROM_PER_COLLECTOR = 1_000;
/** The growth is measured over the week before a day (from the decision of 7–14 days earlier). */
const WEEK_DAYS = 7;
/** A collect reads the decided rate again this often: a decision made elsewhere is seen by then. */
const RATE_READ_EVERY_MS = 10 * 60_000;

/**
 * Following the supply (COOKIE_LOGIC.md): each day the members' Cookies are measured against
 * the week before. Growing faster than the target, collects pay a few points less each day
 * (down to `minPct`) and the bakery does not share; slower, the rate recovers the same way and
 * the bakery shares. `targetBp` 0 turns the rule off: collects pay in full, the bakery shares.
 */
export function supplyRule(input: {
  supply: number;
  /** The decision of 7–14 days before, if any, and how many days before. */
  reference: { supply: number; daysBefore: number } | null;
  previousRatePct: number;
  collectors: number;
  targetBp: number;
  minPct: number;
}): { growthPct: number | null; collectRatePct: number; share: boolean } {
  const { reference, targetBp, minPct } = input;
  if (targetBp === 0) return { growthPct: null, collectRatePct: 100, share: true };
  const measured =
    reference !== null && reference.supply >= RULE_FROM_PER_COLLECTOR * Math.max(1, input.collectors);
  const growthPct = measured
    ? ((input.supply / reference.supply) ** (1 / reference.daysBefore) - 1) * 100
    : null;
  if (growthPct === null) {
    return { growthPct, collectRatePct: Math.max(minPct, input.previousRatePct), share: true };
  }
  const off = growthPct - targetBp / 100;
  const rate = Math.round(input.previousRatePct - RATE_STEP_PER_POINT * off);
  return { growthPct, collectRatePct: Math.min(100, Math.max(minPct, rate)), share: off < 0 };
}

/**
 * The bakery's share: the vault gives back to the community what it won above its target, so
 * the house games cannot drain a small community's Cookies into a vault that grows and grows.
 * Once a day (ten minutes after UTC midnight), a durable task decides the share of the day
 * before, records the decision, then pays each collector with an operation id of its own.
 * A collect plans the task of its day; the task, like every durable timer, runs once.
 */
export class BakeryShare {
  /** The day this process planned the task for already (a collect each hour asks again). */
  #planned: string | null = null;
  /** The decided collect rate as last read, and when (by the clock). */
  #rate: { pct: number; readAt: number } | null = null;

  constructor(private readonly deps: BakeryShareDeps) {}

  /**
   * Plans the share of the day of `now`, once per day and process, announced in `locale` (the
   * server's language of the collect that planned it). Never fails a collect: a share that
   * could not be planned is planned by the next collect.
   */
  async plan(now: Date, locale: Locale): Promise<void> {
    const day = utcDay(now);
    if (this.#planned === day) return;
    const dayEnd = startOfUtcDay(day).getTime() + DAY_MS;
    try {
      await this.deps.scheduler.schedule({
        id: `${BAKERY_SHARE_TASK}:${day}`,
        kind: BAKERY_SHARE_TASK,
        dueAt: new Date(dayEnd + SHARE_AFTER_MS),
        payload: { day, locale },
      });
      this.#planned = day;
    } catch (error) {
      this.deps.log.warn(
        { event: 'cookies.bakery_share.plan_failed', day, err: error },
        'could not plan the bakery share',
      );
    }
  }

  /**
   * What a collect pays now, in % of its figure: the newest decision's rate (100 before any,
   * or with the rule off), never under the current minimum.
   */
  async collectRatePct(): Promise<number> {
    const c = this.deps.runtimeConfig;
    const [targetBp, minPct] = await Promise.all([
      c.get('cookies.supply_growth_target_bp'),
      c.get('cookies.collect_rate_min_pct'),
    ]);
    if (targetBp === 0) return 100;
    const now = this.deps.clock.now().getTime();
    if (this.#rate === null || now - this.#rate.readAt >= RATE_READ_EVERY_MS) {
      const newest = await this.deps.store.newest();
      this.#rate = { pct: newest?.collectRatePct ?? 100, readAt: now };
    }
    return Math.min(100, Math.max(minPct, this.#rate.pct));
  }

  /** Where the supply rule stands, for moderators: the newest night's measure and the rate now. */
  async supplyState(): Promise<{
    targetBp: number;
    growthPct: number | null;
    ratePct: number;
    shares: boolean;
  }> {
    const [targetBp, newest, ratePct] = await Promise.all([
      this.deps.runtimeConfig.get('cookies.supply_growth_target_bp'),
      this.deps.store.newest(),
      this.collectRatePct(),
    ]);
    const growthPct = targetBp === 0 ? null : (newest?.growthPct ?? null);
    return { targetBp, growthPct, ratePct, shares: growthPct === null || growthPct < targetBp / 100 };
  }

  /** Decides the share of `day` (or reads the decision already made) and pays what is unpaid. */
  async share(day: string): Promise<BakeryShareDoc> {
    const decision =
      (await this.deps.store.get(day)) ?? (await this.deps.store.decide(await this.#decide(day)));
    if (decision.paidAt !== null) return decision;
    let paid = 0;
    for (const member of decision.recipients) {
      if (decision.share <= 0) break;
      // A collector forgotten since: their account is closed, their share stays in the vault.
      if (isPseudonym(member)) continue;
      const ok = await this.deps.economy.tryFromHouse(member, {
        opId: `${BAKERY_SHARE_TASK}:${day}:${member}`,
        amount: decision.share,
        kind: COOKIE_KINDS.bakeryShare,
        source: 'system',
      });
      // The vault reached its reserve meanwhile (a big win): what is left stays in it.
      if (!ok) break;
      paid++;
    }
    await this.deps.store.markPaid(day, paid, this.deps.clock.now());
    this.deps.log.info(
      { event: 'cookies.bakery_share', day, share: decision.share, paid },
      'bakery share paid',
    );
    return { ...decision, paid, paidAt: this.deps.clock.now() };
  }

  async #decide(day: string): Promise<BakeryShareDoc> {
    const since = startOfUtcDay(day);
    const until = new Date(since.getTime() + DAY_MS);
    const c = this.deps.runtimeConfig;
    const dayBefore = (days: number) => utcDay(since.getTime() - days * DAY_MS);
    const [pct, targetX, targetBp, minPct, flows, recipients, vault, supply, previous, reference] =
      await Promise.all([
        c.get('cookies.bakery_share_pct'),
        c.get('cookies.bakery_share_above_reserve_x'),
        c.get('cookies.supply_growth_target_bp'),
        c.get('cookies.collect_rate_min_pct'),
        this.deps.economy.flows(since, until),
        this.deps.economy.membersWith(COOKIE_KINDS.collect, since, until),
        this.deps.economy.balance(this.deps.economy.house),
        this.deps.economy.supply(),
        this.deps.store.newest(dayBefore(1)),
        this.deps.store.newest(dayBefore(WEEK_DAYS)),
      ]);
    const referenceDays = reference
      ? Math.round((since.getTime() - startOfUtcDay(reference._id).getTime()) / DAY_MS)
      : 0;
    const rule = supplyRule({
      supply,
      reference:
        reference?.supply !== undefined && referenceDays <= 2 * WEEK_DAYS
          ? { supply: reference.supply, daysBefore: referenceDays }
          : null,
      previousRatePct: previous?.collectRatePct ?? 100,
      collectors: recipients.length,
      targetBp,
      minPct,
    });
    let houseTake = 0;
    for (const [kind, t] of flows.house) if (!NOT_TAKEN.has(kind)) houseTake += t.in - t.out;
    const target = this.deps.reserve * targetX;
    const { pool, share } = bakeryPool({
      houseTake,
      vault,
      target,
      pct: rule.share ? pct : 0,
      recipients: recipients.length,
    });
    return {
      _id: day,
      houseTake,
      vault,
      target,
      pool,
      share,
      recipients: share > 0 ? recipients : [],
      decidedAt: this.deps.clock.now(),
      paidAt: null,
      paid: 0,
      supply,
      growthPct: rule.growthPct,
      collectRatePct: rule.collectRatePct,
    };
  }

  /** The daily task; `onShared` tells the community (the bakery's channel), in `locale`. */
  tasks(onShared: (shared: BakeryShareDoc, locale: string) => Promise<void>): TaskHandler[] {
    const payload = z.object({ day: z.string(), locale: z.string().default('en') });
    return [
      defineTask(BAKERY_SHARE_TASK, payload, async ({ day, locale }) => {
        const before = await this.deps.store.get(day);
        const shared = await this.share(day);
        // Told once: by the run that paid. A run after a crash past the payments tells nobody.
        if (before?.paidAt == null && shared.paid > 0) await onShared(shared, locale);
      }),
    ];
  }
}
