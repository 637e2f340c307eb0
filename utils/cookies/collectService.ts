import { type Clock, DAY_MS } from '../../src/clock.js';
import { AppError, featureDisabled } from '../../src/errors.js';
import type { Hooks } from '../../src/features/hooks.js';
import type { Locale } from '../../src/i18n/i18n.js';
import type { Logger } from '../../src/logger.js';
import { RECOVERY_GRACE_MS } from '../../src/recoveryGrace.js';
import type { Rng } from '../../src/rng.js';
import type { RuntimeConfig } from '../../src/runtimeConfig/runtimeConfig.js';
import { currentServer } from '../../src/runtimeConfig/serverContext.js';
import { COOKIE_KINDS, type CookieEconomy } from '../money/cookieEconomy.js';
import type { HoldDoc, Holds } from '../money/holds/holds.js';
import type { BakeryShare } from './bakeryShare.js';
import type { CollectPlace, CollectReminders } from './collectReminders.js';
import type { AllowanceRule, CollectDoc, CollectStore, PendingCollect } from './collectStore.js';
import { streakKept } from './protections.js';

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
  /** What collects pay while the supply grows too fast, in % of their figure (100: in full). */
  ratePct: number;
}

/** The collect rules at the current settings (COOKIE_LOGIC.md, "Collecting"). */
export interface CollectRules {
  cooldownMs: number;
  min: number;
  max: number;
  streakBonusPct: number;
  streakMaxDays: number;
  /** What each collect puts in the member's loot bag (stealing; collectStore.ts). */
  allowance: AllowanceRule;
  /** The share of its figure a collect pays now, in % (following the supply; bakeryShare.ts). */
  ratePct: number;
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

/**
 * The reward for one collect: a base drawn from [min, max], plus the streak bonus on it, both
 * at the rate the supply rule set (at least 1 Cookie).
 */
export function collectReward(
  rules: CollectRules,
  streak: number,
  rng: Rng,
): { base: number; bonus: number } {
  const drawn = rng.int(rules.min, rules.max + 1);
  const days = Math.min(streak - 1, rules.streakMaxDays);
  const bonus = Math.floor((drawn * rules.streakBonusPct * days) / 100);
  return {
    base: Math.max(1, Math.floor((drawn * rules.ratePct) / 100)),
    bonus: Math.floor((bonus * rules.ratePct) / 100),
  };
}

interface CollectServiceDeps {
  economy: CookieEconomy;
  /** The day's collectors get the bakery's share: a collect plans its day's (bakeryShare.ts). */
  bakery?: Pick<BakeryShare, 'plan' | 'collectRatePct'>;
  holds: Holds;
  store: CollectStore;
  runtimeConfig: RuntimeConfig;
  clock: Clock;
  rng: Rng;
  /** What keeps a streak over one missed day (the shop's streak shield). */
  featureHooks?: Pick<Hooks, 'of'>;
  /** Plans the reminders a member turned on, from each collect (collectReminders.ts). */
  reminders?: Pick<CollectReminders, 'plan'>;
  log?: Logger;
}

/**
 * Collecting Cookies (ECONOMY.md, "Collecting"): `/cookies collect` and the Crumb Saucer Bakery's button
 * both call `collect`, so they share the cooldown, the reward, the credit and the streak.
 *
 * 1. the reward is promised in a hold (utils/money/holds/), whose timer would finish it if this
 *    process died;
 * 2. one atomic write claims the cooldown and records the streak and the reward (its hold);
 * 3. the hold is posted: the reward is minted, once;
 * 4. the pending reward is cleared.
 * A crash after 2 leaves a pending reward that the hold's timer, or the member's next collect,
 * posts: it is neither lost nor paid twice. A promise whose claim lost (or never happened) is
 * voided by its timer: the claim is the only thing that makes a reward owed.
 */
export class CollectService {
  constructor(private readonly deps: CollectServiceDeps) {
    deps.holds.own('collect', {
      onExpiry: async (hold) => {
        const doc = await deps.store.get(hold.owner.id);
        return doc?.pending?.opId === hold._id
          ? { post: [{ to: hold.owner.id, amount: hold.amount, kind: COOKIE_KINDS.collect }] }
          : 'void';
      },
    });
  }

  async rules(): Promise<CollectRules> {
    const c = this.deps.runtimeConfig;
    const [cooldownS, min, max, streakBonusPct, streakMaxDays, allowancePct, allowanceMax, ratePct] =
      await Promise.all([
        c.get('cookies.collect_cooldown_s'),
        c.get('cookies.collect_min'),
        c.get('cookies.collect_max'),
        c.get('cookies.collect_streak_bonus_pct'),
        c.get('cookies.collect_streak_max_days'),
        c.get('cookies.steal_allowance_pct'),
        c.get('cookies.steal_allowance_max'),
        this.deps.bakery?.collectRatePct() ?? 100,
      ]);
    return {
      cooldownMs: cooldownS * 1000,
      min: Math.min(min, max),
      max: Math.max(min, max),
      streakBonusPct,
      streakMaxDays,
      allowance: { pct: allowancePct, max: allowanceMax },
      ratePct,
    };
  }

  /**
   * `serverLocale`: the language the bakery's share of the day is announced in; `place`: where
   * the member collected, where and in which language their reminders of it come.
   */
  async collect(
    userId: string,
    via: CollectVia,
    serverLocale: Locale = 'en',
    place?: CollectPlace,
  ): Promise<Collected> {
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
      if (claimed) {
        await this.deps.bakery?.plan(now, serverLocale);
        if (place)
          await this.#remind(
            userId,
            previous,
            { lastAt: now, until: claimed.nextAt, streak: claimed.streak },
            place,
          );
        return claimed;
      }
    }
    const held = await this.deps.store.get(userId);
    throw collectCooldown(held?.until ?? this.deps.clock.now());
  }

  /** Plans the collect's reminders; the Cookies are paid by now, so a failure here is logged, not shown. */
  async #remind(
    userId: string,
    previous: CollectDoc | null,
    mark: { lastAt: Date; until: Date; streak: number },
    place: CollectPlace,
  ): Promise<void> {
    try {
      await this.deps.reminders?.plan(userId, previous, mark, place);
    } catch (error) {
      this.deps.log?.warn(
        { event: 'cookies.reminder_plan_failed', userId, err: error },
        "could not plan a collect's reminders",
      );
    }
  }

  /** The streak this collect makes; one missed day is bridged when something keeps it (a streak shield). */
  async #streak(userId: string, previous: CollectDoc | null, now: Date): Promise<number> {
    const streak = nextStreak(previous, now);
    if (!previous || streak !== 1 || previous.streak < 1) return streak;
    const missed = Math.floor(now.getTime() / DAY_MS) - Math.floor(previous.lastAt.getTime() / DAY_MS) - 1;
    if (missed !== 1) return streak;
    const keepers = this.deps.featureHooks?.of('cookies.streak_keeper') ?? [];
    return (await streakKept(keepers, userId, previous.lastAt, currentServer()))
      ? previous.streak + 1
      : streak;
  }

  async #claim(
    userId: string,
    previous: CollectDoc | null,
    now: Date,
    rules: CollectRules,
    via: CollectVia,
  ): Promise<Collected | null> {
    const streak = await this.#streak(userId, previous, now);
    const { base, bonus } = collectReward(rules, streak, this.deps.rng);
    const pending: PendingCollect = {
      // Each try at a claim promises its own reward (racing presses draw different amounts);
      // the claim that wins names its promise, the others' promises are voided.
      opId: `cookies.collect:${userId}:${now.getTime()}:${this.deps.rng.uuid().slice(0, 8)}`,
      amount: base + bonus,
      base,
      bonus,
      streak,
      via,
      at: now,
    };
    await this.deps.holds.reserve({
      id: pending.opId,
      currency: 'cookies',
      from: null,
      amount: pending.amount,
      kind: COOKIE_KINDS.collect,
      source: userId,
      reason: via,
      owner: { kind: 'collect', id: userId },
      // Uncredited after the grace (its process died), the reward is finished by its hold's timer.
      ttlMs: RECOVERY_GRACE_MS,
    });
    const until = new Date(now.getTime() + rules.cooldownMs);
    const ok = await this.deps.store.claim(
      userId,
      previous,
      { until, lastAt: now, streak, pending },
      rules.allowance,
    );
    if (!ok) {
      await this.deps.holds.void(pending.opId);
      return null;
    }
    const balance = await this.#finish(userId, pending);
    return {
      amount: pending.amount,
      base,
      bonus,
      streak,
      bestStreak: Math.max(streak, previous?.bestStreak ?? 0),
      nextAt: until,
      balance,
      ratePct: rules.ratePct,
    };
  }

  async #finish(userId: string, pending: PendingCollect): Promise<number | null> {
    const hold: HoldDoc = await this.deps.holds.post(pending.opId, [
      { to: userId, amount: pending.amount, kind: COOKIE_KINDS.collect },
    ]);
    await this.deps.store.clearPending(userId, pending.opId);
    return hold.state === 'posted' ? this.deps.economy.balance(userId) : null;
  }
}

function collectCooldown(until: Date): AppError {
  return new AppError('COOLDOWN_ACTIVE', `collect again at ${until.toISOString()}`, {
    action: 'cookies.collect',
    retryAt: until.getTime(),
  });
}
