import { z } from 'zod';
import type { Clock } from '../../src/clock.js';
import { featureDisabled, invalidInputText, isAppError } from '../../src/errors.js';
import { LOCALES, type Locale } from '../../src/i18n/i18n.js';
import type { SanctionCheck } from '../../src/interactions/types.js';
import type { Rng } from '../../src/rng.js';
import type { RuntimeConfig } from '../../src/runtimeConfig/runtimeConfig.js';
import { defineTask, type Scheduler, type TaskHandler } from '../../src/scheduler/scheduler.js';
import type { Holds } from '../money/holds/holds.js';
import type { PlaceEconomy } from '../money/placeEconomy.js';
import { ActiveTimePay } from './activeTime.js';
import type { EarningsQuery } from './earningsStore.js';
import type { HuntStore, TaskDoc, WindowDoc } from './huntStore.js';
import type { RewardSettings } from './rewards.js';
import { MAX_WEIGHT, WEIGHTS } from './scoring.js';
import { TIPS_KEPT_MS, type TipDoc } from './tipStore.js';
import { type Drawn, targetOf, WindowDraw } from './windowDraw.js';

export type { Drawn } from './windowDraw.js';

declare module '../../src/features/services.js' {
  interface FeatureServices {
    hunt: HuntService;
  }
}

const CLOSE_TASK = 'hunt.window.close';
const OPENED_TASK = 'hunt.window.opened';
const REROLLED_TASK = 'hunt.rerolled';
/** Day-old tips are archived at most this often, by the clock (with a window's draw). */
const ARCHIVE_EVERY_MS = 3_600_000;
const REROLLED = z.object({ round: z.number().int(), locale: z.enum(LOCALES).optional() });

/** What the hunt's timers tell the channel (the feature posts them). */
export interface HuntAnnouncements {
  drawn(window: WindowDoc, drawn: Drawn[]): Promise<void>;
  opened(window: WindowDoc): Promise<void>;
  rerolled(ended: {
    round: number;
    target: number[];
    best: { identity: string; best: number } | null;
    locale: Locale | null;
  }): Promise<void>;
}

interface HuntDeps {
  store: HuntStore;
  economy: PlaceEconomy;
  holds: Holds;
  runtimeConfig: RuntimeConfig;
  scheduler: Scheduler;
  clock: Clock;
  rng: Rng;
  /** Who is paid for an identity's rewards, resolved at the moment of the reward (workers: their owner). */
  ownerOf?: (identity: string) => Promise<string>;
  /** The moderators' bans: an owner banned from the economy earns nothing here. */
  sanctions?: SanctionCheck;
}

/**
 * The hunt (docs/features.md, "The hunt: earning Place points"). Tips are collected per window; at the window's end a durable
 * timer (claimed by one process) draws some of them, weighted by path when the bonus path is on,
 * fixes the draw with one guarded update, and evaluates only the drawn tips. Each drawn tip
 * earns the draw bonus, and an improvement of the identity's best earns its progress reward:
 * the new best and its reward are written together (`pending`), then the ledger pays with the
 * operation id the write recorded, so a crash, a retry or two processes pay it once.
 */
/** How long a drawn window's record is kept (its draw is in the drawn tips for good). */
const WINDOWS_KEPT_MS = 7 * 86_400_000;

export class HuntService {
  readonly #activeTime: ActiveTimePay;

  /**
   * What of a member is still on its way (a member forgotten meanwhile would leave it without
   * an owner): their and their workers' tips waiting for a draw, rewards decided and unpaid.
   */
  async inPlay(owner: string, identities: readonly string[]): Promise<{ tips: number; rewards: number }> {
    const [tips, rewards] = await Promise.all([
      this.deps.store.tips.pendingOf([owner, ...identities]),
      this.deps.store.rewardsOwedTo(owner),
    ]);
    return { tips, rewards };
  }
  readonly #draw: WindowDraw;

  constructor(private readonly deps: HuntDeps) {
    this.#activeTime = new ActiveTimePay({ ...deps, settings: () => this.#rewardSettings() });
    this.#draw = new WindowDraw({
      ...deps,
      task: () => this.task(),
      settings: () => this.#rewardSettings(),
    });
  }

  /**
   * A valid hunt request of an identity: its active time, paid to its owner (activeTime.ts);
   * nothing while the owner is banned from the economy.
   */
  async activity(identity: string): Promise<number> {
    const banned = await this.#refuseBanned(identity).then(
      () => false,
      (error: unknown) => {
        if (isAppError(error, 'SANCTIONED')) return true;
        throw error;
      },
    );
    return banned ? 0 : this.#activeTime.activity(identity);
  }

  /** Refuses an identity whose owner (a worker's, or the member) is banned from the economy now. */
  async #refuseBanned(identity: string): Promise<void> {
    if (!this.deps.sanctions) return;
    const owner = this.deps.ownerOf ? await this.deps.ownerOf(identity) : identity;
    await this.deps.sanctions.refuse(owner, 'economy');
  }

  task(): Promise<TaskDoc> {
    return this.deps.store.task(() => ({
      _id: 'task',
      round: 1,
      target: this.#target(),
      since: this.deps.clock.now(),
    }));
  }

  /**
   * An admin's reroll of round `from`: a new round with a new target; bests and tip
   * sequences start again. Only one reroll of a round happens (a repeated or raced request
   * answers `rerolled: false`). Announced in the hunt channel by a timer, with the old target.
   */
  async reroll(from: number, locale?: Locale): Promise<{ rerolled: boolean; task: TaskDoc }> {
    const task = await this.task();
    const rerolled =
      task.round === from && (await this.deps.store.reroll(task, this.#target(), this.deps.clock.now()));
    if (rerolled) {
      await this.deps.scheduler.schedule({
        id: `${REROLLED_TASK}:${from}`,
        kind: REROLLED_TASK,
        dueAt: this.deps.clock.now(),
        payload: { round: from, ...(locale ? { locale } : {}) },
      });
    }
    return { rerolled, task: await this.task() };
  }

  /**
   * The window open now: its id, when it closes, and its bonus path (when on). It is
   * created on first use, with its close and its opening on timers.
   */
  async currentWindow(locale?: Locale): Promise<WindowDoc> {
    const [task, lengthS, bonusPathOn, paths] = await Promise.all([
      this.task(),
      this.deps.runtimeConfig.get('hunt_window_s'),
      this.deps.runtimeConfig.get('hunt_beacon_mode'),
      this.deps.runtimeConfig.get('hunt_paths'),
    ]);
    const length = lengthS * 1000;
    const index = Math.floor(this.deps.clock.now().getTime() / length);
    const window = await this.deps.store.window({
      _id: `${task.round}:${index}`,
      round: task.round,
      index,
      closesAt: new Date((index + 1) * length),
      bonusPath: bonusPathOn ? this.deps.rng.int(0, paths) : null,
      status: 'open',
      ...(locale ? { locale } : {}),
    });
    // Both timers are idempotent by window id: whoever comes first schedules them, so a process
    // that died right after creating the window leaves nothing unscheduled.
    await Promise.all(
      [
        { kind: CLOSE_TASK, dueAt: window.closesAt },
        { kind: OPENED_TASK, dueAt: this.deps.clock.now() },
      ].map(({ kind, dueAt }) =>
        this.deps.scheduler.schedule({
          id: `${kind}:${window._id}`,
          kind,
          dueAt,
          payload: { windowId: window._id },
        }),
      ),
    );
    return window;
  }

  /** Refuses while `hunt_enabled` is off (tips and joining; status and history stay readable). */
  async assertEnabled(): Promise<void> {
    if (!(await this.deps.runtimeConfig.get('hunt_enabled'))) {
      throw featureDisabled('hunt:errors.disabled', 'hunt_enabled');
    }
  }

  /**
   * A tip for the current window; a new tip in the same window replaces the pending one. A
   * member's tip records where it was made (`where`), so its draw can be told there.
   */
  async tip(
    identity: string,
    guess: number[],
    path: number | null,
    where?: { channelId: string | null; locale: Locale },
  ): Promise<{ tip: TipDoc; window: WindowDoc }> {
    if (guess.length !== WEIGHTS || guess.some((g) => !Number.isInteger(g) || g < 0 || g > MAX_WEIGHT)) {
      throw invalidInputText('not a guess', 'hunt:errors.guess', { weights: WEIGHTS, max: MAX_WEIGHT });
    }
    await this.assertEnabled();
    // A tip earns points: refused, recording nothing, while the owner is banned from the economy.
    await this.#refuseBanned(identity);
    const window = await this.currentWindow(where?.locale);
    // Its timer ran already (another process's clock is a little ahead): this window is drawn.
    if (window.status !== 'open') {
      throw invalidInputText('the window is drawing', 'hunt:errors.drawing', {
        atSeconds: Math.ceil(window.closesAt.getTime() / 1000),
      });
    }
    const paths = await this.deps.runtimeConfig.get('hunt_paths');
    if (window.bonusPath !== null && (path === null || path < 0 || path >= paths)) {
      throw invalidInputText('a path is needed', 'hunt:errors.path', { max: paths - 1 });
    }
    const tip: TipDoc = {
      _id: `${window._id}:${identity}`,
      round: window.round,
      window: window.index,
      identity,
      sequence: await this.deps.store.nextSequence(window.round, identity),
      guess,
      path: window.bonusPath === null ? null : path,
      at: this.deps.clock.now(),
      status: 'pending',
      ...(where ? { channelId: where.channelId, locale: where.locale } : {}),
    };
    await this.deps.store.tips.put(tip);
    return { tip, window };
  }

  /**
   * The hunt's timers: a window's close (its draw and rewards, then `drawn`), its opening
   * (`opened`: the bonus path is announced) and a reroll (`rerolled`: the ended
   * round's target and best). Each runs once per window or round.
   */
  tasks(announce: HuntAnnouncements): TaskHandler[] {
    const windowTask = z.object({ windowId: z.string() });
    return [
      defineTask(OPENED_TASK, windowTask, async ({ windowId }) => {
        const window = await this.deps.store.getWindow(windowId);
        if (window?.status === 'open') await announce.opened(window);
      }),
      defineTask(CLOSE_TASK, windowTask, async ({ windowId }) => {
        const result = await this.closeWindow(windowId);
        await this.#archiveTips();
        if (!result) return;
        await announce.drawn(result.window, result.drawn);
        // A hunt in progress goes on: the next window opens (and announces its bonus path)
        // without waiting for someone to ask. A window nobody tipped in lets the hunt rest.
        if (result.drawn.length > 0) await this.currentWindow(result.window.locale);
      }),
      ...this.#activeTime.tasks(),
      defineTask(REROLLED_TASK, REROLLED, async ({ round, locale }) => {
        const task = await this.task();
        const target = targetOf(task, round);
        if (!target) return;
        const [best] = await this.deps.store.leaderboard(round, 1);
        await announce.rerolled({ round, target, best: best ?? null, locale: locale ?? null });
      }),
    ];
  }

  /** Claims the hunt channel's first post of a round (its explanation): true once per round. */
  claimIntro(round: number): Promise<boolean> {
    return this.deps.store.claimIntro(round);
  }

  /** Removes windows drawn a week ago (the retention timer): their draws stay in the drawn tips. */
  async prune(now: Date): Promise<{ windows: number }> {
    return { windows: await this.deps.store.pruneWindows(new Date(now.getTime() - WINDOWS_KEPT_MS)) };
  }

  /** Draws a window (its timer; safe to run again): its draw and rewards (windowDraw.ts). */
  #archivedAt = Number.NEGATIVE_INFINITY;

  /** At most hourly, with a window's draw: tips a day old leave `hunt_tips` (tipStore.ts). */
  async #archiveTips(): Promise<void> {
    const now = this.deps.clock.now().getTime();
    if (now - this.#archivedAt < ARCHIVE_EVERY_MS) return;
    this.#archivedAt = now;
    await this.deps.store.tips.archive(new Date(now - TIPS_KEPT_MS));
  }

  closeWindow(windowId: string): Promise<{ window: WindowDoc; drawn: Drawn[] } | null> {
    return this.#draw.closeWindow(windowId);
  }

  /** An admin grant as an admin bonus event (the grant itself is the Place feature's). */
  async recordAdminGrant(grant: {
    opId: string;
    moderatorId: string;
    source: string;
    owner: string;
    milli: number;
    reason: string;
  }): Promise<void> {
    await this.deps.store.addBonus({
      _id: grant.opId,
      kind: 'admin',
      source: grant.source,
      owner: grant.owner,
      milli: grant.milli,
      multiplier: 1,
      units: 1,
      detail: `granted by <@${grant.moderatorId}>${grant.reason ? `: ${grant.reason}` : ''}`,
      grant: { moderatorId: grant.moderatorId, reason: grant.reason },
      at: this.deps.clock.now(),
    });
  }

  /**
   * A wallet's `recent_earnings` (docs/web.md, "The API"): its progress and bonus events merged,
   * newest first, with the identity that earned each (the owner or one of its workers).
   */
  async recentEarnings(
    owner: string,
    limit: number,
  ): Promise<{ kind: string; milli: number; source: string; at: Date }[]> {
    const [progress, bonus] = await Promise.all([
      this.deps.store.progressEvents(owner, limit),
      this.deps.store.bonusEvents(limit, owner),
    ]);
    return [
      ...progress.map((p) => ({ kind: 'progress', milli: p.milli, source: p.identity, at: p.at })),
      ...bonus.map((b) => ({ kind: b.kind, milli: b.milli, source: b.source, at: b.at })),
    ]
      .sort((a, b) => b.at.getTime() - a.at.getTime())
      .slice(0, limit);
  }

  /** Recent draw, time and admin bonus events, newest first (optionally of one owner). */
  earnings(limit: number, owner?: string) {
    return this.deps.store.bonusEvents(limit, owner);
  }

  /** Earnings of the chosen kinds (score progress included), newest first, a page at a time. */
  earningsPage(query: EarningsQuery) {
    return this.deps.store.earnings.page(query);
  }

  async status(identity: string) {
    const [task, window] = await Promise.all([this.task(), this.currentWindow()]);
    const [tip, best] = await Promise.all([
      this.deps.store.tips.get(`${window._id}:${identity}`),
      this.deps.store.best(task.round, identity),
    ]);
    return { round: task.round, window, tip, best: best?.best ?? null };
  }

  /** The round now and how many identities have a best in it. */
  async players(): Promise<{ round: number; players: number }> {
    const task = await this.task();
    return { round: task.round, players: await this.deps.store.players(task.round) };
  }

  async leaderboard(limit: number) {
    const task = await this.task();
    return { round: task.round, rows: await this.deps.store.leaderboard(task.round, limit) };
  }

  history(identity: string, limit: number): Promise<TipDoc[]> {
    return this.deps.store.tips.history(identity, limit);
  }

  async #rewardSettings(): Promise<RewardSettings> {
    const c = this.deps.runtimeConfig;
    const [pointsPerScore, drawPoints, multiplier, timePoints, intervalS, maxGapS] = await Promise.all([
      c.get('place_points_per_score'),
      c.get('place_draw_points'),
      c.get('place_draw_beacon_multiplier'),
      c.get('place_time_points'),
      c.get('place_time_interval_sec'),
      c.get('place_time_max_gap_sec'),
    ]);
    return {
      pointsPerScore,
      drawPoints,
      drawBonusPathMultiplier: multiplier === 1 ? 1 : 0,
      timePoints,
      intervalMs: intervalS * 1000,
      maxGapMs: maxGapS * 1000,
    };
  }

  #target(): number[] {
    return Array.from({ length: WEIGHTS }, () => this.deps.rng.int(0, MAX_WEIGHT + 1));
  }
}
