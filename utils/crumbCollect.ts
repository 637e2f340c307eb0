import { z } from 'zod';
import type { Clock } from '../src/clock.js';
import type { Rng } from '../src/rng.js';
import type { RuntimeConfig } from '../src/runtimeConfig/runtimeConfig.js';
import { defineTask, type Scheduler, type TaskHandler } from '../src/scheduler/scheduler.js';
import { COOKIE_KINDS, type CookieEconomy } from './cookieEconomy.js';
import type { CollectDoc, CollectStore, PendingCollect } from './cookies/collectStore.js';
import { AppError, featureDisabled } from './errors.js';
import { balanceAfter } from './ledger/ledger.js';

/** Where a collect came from; both run exactly the same code. */
export type CollectVia = 'command' | 'bakery';

export interface Collected {
  amount: number;
  base: number;
  bonus: number;
  streak: number;
  bestStreak: number;
  /** When the member may collect again. */
  nextAt: Date;
  /** Balance right after the reward (null when it is not known: the reply was lost). */
  balance: number | null;
}

/** How long after a claim an uncredited reward is finished by its timer. */
const FINISH_AFTER_MS = 60_000;
const FINISH_TASK = 'cookies.collect.finish';
const DAY_MS = 86_400_000;

/** The collect rules at the current settings (COOKIE_LOGIC.md, "Collecting"). */
export interface CollectRules {
  cooldownMs: number;
  min: number;
  max: number;
  streakBonusPct: number;
  streakMaxDays: number;
}

/**
 * A streak counts UTC days in a row with at least one collect: a collect on the day after the
 * last one adds a day, a collect on the same day keeps it, and a whole day without one starts
 * again at 1.
 */
export function nextStreak(last: { lastAt: Date; streak: number } | null, now: Date): number {
  if (!last) return 1;
  const days = Math.floor(now.getTime() / DAY_MS) - Math.floor(last.lastAt.getTime() / DAY_MS);
  if (days <= 0) return last.streak;
  return days === 1 ? last.streak + 1 : 1;
}

/** The streak a member still holds now: it lives while the last collect was today or yesterday (UTC). */
export function liveStreak(last: { lastAt: Date; streak: number } | null, now: Date): number {
  if (!last) return 0;
  const days = Math.floor(now.getTime() / DAY_MS) - Math.floor(last.lastAt.getTime() / DAY_MS);
  return days <= 1 ? last.streak : 0;
}

/** The reward for one collect: a base drawn from [min, max], plus the streak bonus on it. */
export function collectReward(
  rules: CollectRules,
  streak: number,
  rng: Rng,
): { base: number; bonus: number } {
  const base = rng.int(rules.min, rules.max + 1);
  const days = Math.min(streak - 1, rules.streakMaxDays);
  return { base, bonus: Math.floor((base * rules.streakBonusPct * days) / 100) };
}

interface CrumbCollectDeps {
  economy: CookieEconomy;
  store: CollectStore;
  runtimeConfig: RuntimeConfig;
  scheduler: Scheduler;
  clock: Clock;
  rng: Rng;
}

/**
 * Collecting Cookies (PRODUCT.md §1): `/cookies collect` and the Crumb Saucer Bakery's button
 * both call `collect`, so they share the cooldown, the reward, the credit and the streak.
 *
 * 1. a timer is scheduled that would finish the reward if this process died (below);
 * 2. one atomic write claims the cooldown and records the streak and the reward decided now;
 * 3. the reward is minted with the operation id the claim recorded;
 * 4. the pending reward is cleared.
 * A crash after 2 leaves a pending reward that the timer, or the member's next collect,
 * credits with the same operation id: it is neither lost nor paid twice.
 */
export class CrumbCollect {
  constructor(private readonly deps: CrumbCollectDeps) {}

  async rules(): Promise<CollectRules> {
    const c = this.deps.runtimeConfig;
    const [cooldownS, min, max, streakBonusPct, streakMaxDays] = await Promise.all([
      c.get('cookies.collect_cooldown_s'),
      c.get('cookies.collect_min'),
      c.get('cookies.collect_max'),
      c.get('cookies.collect_streak_bonus_pct'),
      c.get('cookies.collect_streak_max_days'),
    ]);
    return {
      cooldownMs: cooldownS * 1000,
      min: Math.min(min, max),
      max: Math.max(min, max),
      streakBonusPct,
      streakMaxDays,
    };
  }

  async collect(userId: string, via: CollectVia): Promise<Collected> {
    if (!(await this.deps.runtimeConfig.get('cookies.collect_enabled'))) {
      throw featureDisabled('cookies:errors.collectDisabled', 'cookies.collect_enabled');
    }
    const rules = await this.rules();
    for (let tries = 0; tries < 5; tries++) {
      const previous = await this.deps.store.get(userId);
      if (previous?.pending) await this.#finish(userId, previous.pending);
      const now = this.deps.clock.now();
      if (previous && previous.until > now) throw collectCooldown(previous.until);
      const claimed = await this.#claim(userId, previous, now, rules, via);
      if (claimed) return claimed;
    }
    const held = await this.deps.store.get(userId);
    throw collectCooldown(held?.until ?? this.deps.clock.now());
  }

  /** Timers: finishing a reward whose collect did not get to clear it. */
  tasks(): TaskHandler[] {
    return [
      defineTask(
        FINISH_TASK,
        z.object({ userId: z.string(), opId: z.string() }),
        async ({ userId, opId }) => {
          const doc = await this.deps.store.get(userId);
          if (doc?.pending?.opId === opId) await this.#finish(userId, doc.pending);
        },
      ),
    ];
  }

  async #claim(
    userId: string,
    previous: CollectDoc | null,
    now: Date,
    rules: CollectRules,
    via: CollectVia,
  ): Promise<Collected | null> {
    const streak = nextStreak(previous, now);
    const { base, bonus } = collectReward(rules, streak, this.deps.rng);
    const pending: PendingCollect = {
      // One claim per member and instant: the id a retry of this very reward would carry.
      opId: `cookies.collect:${userId}:${now.getTime()}`,
      amount: base + bonus,
      base,
      bonus,
      streak,
      via,
      at: now,
    };
    await this.deps.scheduler.schedule({
      id: `${FINISH_TASK}:${pending.opId}`,
      kind: FINISH_TASK,
      dueAt: new Date(now.getTime() + FINISH_AFTER_MS),
      payload: { userId, opId: pending.opId },
    });
    const until = new Date(now.getTime() + rules.cooldownMs);
    const ok = await this.deps.store.claim(userId, previous?.until ?? null, {
      until,
      lastAt: now,
      streak,
      pending,
    });
    if (!ok) return null;
    const balance = await this.#finish(userId, pending);
    return {
      amount: pending.amount,
      base,
      bonus,
      streak,
      bestStreak: Math.max(streak, previous?.bestStreak ?? 0),
      nextAt: until,
      balance,
    };
  }

  async #finish(userId: string, pending: PendingCollect): Promise<number | null> {
    const outcome = await this.deps.economy.mint(userId, {
      opId: pending.opId,
      amount: pending.amount,
      kind: COOKIE_KINDS.collect,
      source: userId,
      reason: pending.via,
    });
    await this.deps.store.clearPending(userId, pending.opId);
    return balanceAfter(outcome, userId);
  }
}

function collectCooldown(until: Date): AppError {
  return new AppError('COOLDOWN_ACTIVE', `collect again at ${until.toISOString()}`, {
    action: 'cookies.collect',
    retryAt: until.getTime(),
  });
}
