import { z } from 'zod';
import type { Clock } from '../../src/clock.js';
import { AppError, featureDisabled, invalidInputText, notYourButton } from '../../src/errors.js';
import type { FeatureInfra } from '../../src/features/feature.js';
import type { RuntimeConfig } from '../../src/runtimeConfig/runtimeConfig.js';
import { defineTask, type Scheduler, type TaskHandler } from '../../src/scheduler/scheduler.js';
import { COOKIE_KINDS, type CookieEconomy } from '../money/cookieEconomy.js';
import { insufficientFunds } from '../money/ledger/errors.js';
import type { Ledger, LedgerOutcome } from '../money/ledger/ledger.js';
import { liveStreak } from './collectService.js';
import type { CollectStore } from './collectStore.js';
import { giveAboveLimit } from './errors.js';
import type { GiveCap } from './giveCap.js';
import type { GivePromptDoc, GivePromptStore } from './givePromptStore.js';

declare module '../../src/features/services.js' {
  interface FeatureServices {
    cookies: CookieService;
  }
}

/** How long a Give prompt waits for its Give button. */
export const GIVE_PROMPT_TTL_MS = 10 * 60_000;
/** Closed prompts are kept this long after they expire (a late click still gets an answer), then purged. */
const PROMPT_KEPT_MS = 86_400_000;
const PURGE_TASK = 'cookies.give_prompt.purge';

export type GiveConfirmation =
  | { status: 'given'; prompt: GivePromptDoc; outcome: LedgerOutcome }
  | { status: 'already_given'; prompt: GivePromptDoc }
  | { status: 'closed'; prompt: GivePromptDoc; why: 'cancelled' | 'expired' };

export type GiveCancellation =
  | { status: 'cancelled'; prompt: GivePromptDoc }
  | { status: 'too_late'; prompt: GivePromptDoc; why: 'given' | 'pressed' | 'expired' | 'cancelled' };

export interface LeaderboardRow {
  rank: number;
  userId: string;
  cookies: number;
}

/** What `/cookies profile` shows besides games (from the ledger's events and the collect streak). */
export interface CookieProfile {
  userId: string;
  balance: number;
  /** 1 for the richest member; null for a member without Cookies. */
  rank: number | null;
  streak: number;
  bestStreak: number;
  collects: number;
  collected: number;
  stolen: number;
  lostToThieves: number;
  heists: number;
  heistNet: number;
}

export interface HistoryEntry {
  kind: string;
  delta: number;
  balanceAfter: number | null;
  at: Date;
  counterparty: string | null;
}

interface CookieDeps {
  ledger: Ledger;
  economy: CookieEconomy;
  collects: CollectStore;
  runtimeConfig: RuntimeConfig;
  scheduler: Scheduler;
  clock: Clock;
  prompts: GivePromptStore;
  /** The daily cap on what one member receives through gives. */
  giveCap: GiveCap;
}

/**
 * The Cookie economy as commands use it. Cookies move only through the ledger, each move
 * with an operation id (a give's is its prompt's id, so pressing Give twice moves once).
 */
export class CookieService {
  constructor(private readonly deps: CookieDeps) {}

  static create(
    infra: FeatureInfra,
    parts: { economy: CookieEconomy; prompts: GivePromptStore; collects: CollectStore; giveCap: GiveCap },
  ): CookieService {
    return new CookieService({ ...infra, ...parts });
  }

  balance(userId: string): Promise<number> {
    return this.deps.ledger.balanceOf('cookies', userId);
  }

  /** Checks a give and stores its prompt; the member confirms with the Give button. */
  async openGive(request: { promptId: string; from: string; to: string; amount: number }): Promise<{
    balance: number;
    prompt: GivePromptDoc;
  }> {
    await this.#assertGiveAllowed(request);
    await this.deps.giveCap.check(request.to, request.amount);
    const balance = await this.deps.ledger.balanceOf('cookies', request.from);
    if (balance < request.amount) throw insufficientFunds('cookies', request.from, balance, request.amount);
    const now = this.deps.clock.now();
    const prompt: GivePromptDoc = {
      _id: request.promptId,
      from: request.from,
      to: request.to,
      amount: request.amount,
      status: 'open',
      createdAt: now,
      expiresAt: new Date(now.getTime() + GIVE_PROMPT_TTL_MS),
    };
    await this.deps.prompts.create(prompt);
    await this.deps.scheduler.schedule({
      id: `${PURGE_TASK}:${prompt._id}`,
      kind: PURGE_TASK,
      dueAt: new Date(prompt.expiresAt.getTime() + PROMPT_KEPT_MS),
      payload: { promptId: prompt._id },
    });
    return { balance, prompt };
  }

  /** The Give button: moves the Cookies once, whatever the number of presses. */
  async confirmGive(promptId: string, actorId: string): Promise<GiveConfirmation> {
    const prompt = await this.#ownPrompt(promptId, actorId);
    if (prompt.status === 'given') return { status: 'already_given', prompt };
    if (prompt.status === 'cancelled') return { status: 'closed', prompt, why: 'cancelled' };
    await this.#assertGiveAllowed(prompt);
    // Counted against the receiver's day before anything else: what it refuses never moves.
    const counted = await this.deps.giveCap.count({ id: promptId, to: prompt.to, amount: prompt.amount });
    const accepted = await this.deps.prompts.accept(promptId, this.deps.clock.now());
    if (!accepted) {
      const now = await this.#ownPrompt(promptId, actorId);
      if (now.status === 'given') return { status: 'already_given', prompt: now };
      await counted.release();
      return { status: 'closed', prompt: now, why: now.status === 'cancelled' ? 'cancelled' : 'expired' };
    }
    // Once accepted the prompt cannot be cancelled: this transfer, or a retry of it by
    // pressing Give again, is the only thing that can still happen to it.
    const outcome = await this.deps.economy
      .transfer(accepted.from, accepted.to, {
        opId: `cookies.give:${promptId}`,
        amount: accepted.amount,
        kind: COOKIE_KINDS.give,
        source: accepted.from,
      })
      .catch(async (error: unknown) => {
        await counted.release();
        throw error;
      });
    await this.deps.prompts.markGiven(promptId);
    return { status: 'given', prompt: accepted, outcome };
  }

  /** The Cancel button: only a prompt nobody confirmed can be cancelled. */
  async cancelGive(promptId: string, actorId: string): Promise<GiveCancellation> {
    const prompt = await this.#ownPrompt(promptId, actorId);
    if (await this.deps.prompts.cancel(promptId, this.deps.clock.now())) {
      return { status: 'cancelled', prompt };
    }
    const now = await this.#ownPrompt(promptId, actorId);
    const why = now.status === 'open' ? 'expired' : now.status === 'accepted' ? 'pressed' : now.status;
    return { status: 'too_late', prompt: now, why };
  }

  /** Cookies created by an admin (event prizes); audited with the admin as the source. */
  grant(grant: {
    opId: string;
    adminId: string;
    to: string;
    amount: number;
    reason: string;
  }): Promise<LedgerOutcome> {
    return this.deps.economy.mint(grant.to, {
      opId: grant.opId,
      amount: grant.amount,
      kind: COOKIE_KINDS.grant,
      source: grant.adminId,
      reason: grant.reason,
    });
  }

  /**
   * Cookies a moderator takes back: at most the member's free balance (Cookies in play are not
   * theirs to take), burned. Returns what was taken and the balance after.
   */
  clawback(clawback: {
    opId: string;
    moderatorId: string;
    from: string;
    amount: number;
    reason: string;
  }): Promise<{ taken: number; balance: number }> {
    return this.deps.economy.clawBack(clawback.from, {
      opId: clawback.opId,
      amount: clawback.amount,
      source: clawback.moderatorId,
      reason: clawback.reason,
    });
  }

  /** The richest members (the house vault is not a member). */
  async leaderboard(size: number): Promise<LeaderboardRow[]> {
    const top = await this.deps.ledger.queries.topBalances('cookies', size);
    return top.map((row, i) => ({ rank: i + 1, userId: row.account, cookies: row.balance }));
  }

  /**
   * The members of `ids` who hold Cookies, richest first (ties by id), each ranked among them: a
   * server's leaderboard. One read of their balances, so it costs what the server's members the
   * bot has seen cost, whatever the size of the one economy.
   */
  async leaderboardAmong(ids: readonly string[]): Promise<LeaderboardRow[]> {
    const members = ids.filter((id) => !this.deps.ledger.isSystemAccount(id));
    const balances = await this.deps.ledger.balancesOf('cookies', members);
    return [...balances]
      .filter(([, cookies]) => cookies > 0)
      .sort(([a, x], [b, y]) => y - x || (a < b ? -1 : a > b ? 1 : 0))
      .map(([userId, cookies], i) => ({ rank: i + 1, userId, cookies }));
  }

  /** A member's balance and place among the members (null: holds nothing), without their history. */
  async standing(userId: string): Promise<{ balance: number; rank: number | null }> {
    const balance = await this.balance(userId);
    return { balance, rank: await this.#rankOf(balance) };
  }

  async #rankOf(balance: number): Promise<number | null> {
    return balance > 0 ? (await this.deps.ledger.queries.countRicherThan('cookies', balance)) + 1 : null;
  }

  /** A member's Cookie life at a glance (`/cookies profile`). */
  async profile(userId: string): Promise<CookieProfile> {
    const [balance, totals, collect] = await Promise.all([
      this.balance(userId),
      this.deps.ledger.queries.totalsByKind('cookies', userId),
      this.deps.collects.get(userId),
    ]);
    const of = (kind: string) => totals.get(kind) ?? { count: 0, in: 0, out: 0 };
    const heistIn = [...totals]
      .filter(([k]) => k.startsWith('heist.'))
      .reduce((n, [, t]) => n + t.in - t.out, 0);
    return {
      userId,
      balance,
      rank: await this.#rankOf(balance),
      streak: liveStreak(collect, this.deps.clock.now()),
      bestStreak: collect?.bestStreak ?? 0,
      collects: of(COOKIE_KINDS.collect).count,
      collected: of(COOKIE_KINDS.collect).in,
      stolen: of(COOKIE_KINDS.stealLoot).in,
      lostToThieves: of(COOKIE_KINDS.stealLoot).out,
      heists: of(COOKIE_KINDS.heistStake).count,
      heistNet: heistIn,
    };
  }

  /** The member's last balance changes, newest first (`/cookies history`). */
  async history(userId: string, limit: number): Promise<HistoryEntry[]> {
    const events = await this.deps.ledger.queries.history('cookies', userId, limit);
    return events.map((e) => ({
      kind: e.kind,
      delta: e.delta,
      balanceAfter: e.balanceAfter,
      at: e.at,
      counterparty: e.counterparty,
    }));
  }

  /** Timers of this service: purging old prompts. */
  tasks(): TaskHandler[] {
    return [
      defineTask(PURGE_TASK, z.object({ promptId: z.string() }), ({ promptId }) =>
        this.deps.prompts.delete(promptId),
      ),
    ];
  }

  async #ownPrompt(promptId: string, actorId: string): Promise<GivePromptDoc> {
    const prompt = await this.deps.prompts.get(promptId);
    if (!prompt) throw new AppError('STALE_CONTROL', `give prompt ${promptId} is gone`, { promptId });
    if (prompt.from !== actorId) throw notYourButton(prompt.from);
    return prompt;
  }

  async #assertGiveAllowed(request: { from: string; to: string; amount: number }): Promise<void> {
    if (!(await this.deps.runtimeConfig.get('cookies.give_enabled'))) {
      throw featureDisabled('cookies:errors.givingDisabled', 'cookies.give_enabled');
    }
    if (request.from === request.to) {
      throw invalidInputText('you cannot give Cookies to yourself', 'cookies:errors.giveToSelf');
    }
    if (this.deps.ledger.isSystemAccount(request.to)) {
      throw invalidInputText('the house vault does not take gifts', 'cookies:errors.giveToHouse');
    }
    const max = await this.deps.runtimeConfig.get('cookies.give_max');
    if (request.amount > max) throw giveAboveLimit(request.amount, max);
  }
}
