import { z } from 'zod';
import { type Clock, DAY_MS } from '../../src/clock.js';
import type { Cooldowns } from '../../src/cooldowns/cooldowns.js';
import { AppError, featureDisabled, isAppError } from '../../src/errors.js';
import type { FeatureInfra } from '../../src/features/feature.js';
import type { Rng } from '../../src/rng.js';
import type { RuntimeConfig } from '../../src/runtimeConfig/runtimeConfig.js';
import { currentServer } from '../../src/runtimeConfig/serverContext.js';
import { defineTask, type Scheduler, type TaskHandler } from '../../src/scheduler/scheduler.js';
import { COOKIE_KINDS, type CookieEconomy } from '../money/cookieEconomy.js';
import type { HoldDoc, HoldOwner, Holds, ReserveRequest } from '../money/holds/holds.js';
import { insufficientFunds } from '../money/ledger/errors.js';
import type { Ledger } from '../money/ledger/ledger.js';
import { heistNotYet, heistStakeTooSmall } from './errors.js';
import { type VaultFlow, vaultFlows } from './flows.js';
import type { HeistDoc, HeistResult, HeistStore } from './heistStore.js';
import { type VaultLiquidity, vaultLiquidity } from './liquidity.js';

declare module '../../src/features/services.js' {
  interface FeatureServices {
    vault: VaultService;
  }
}

export interface VaultStatus extends VaultLiquidity {
  flows: VaultFlow[];
  lastHeist: HeistDoc | null;
}

export type JoinResult =
  | { status: 'joined'; heist: HeistDoc }
  | { status: 'already'; heist: HeistDoc }
  | { status: 'closed'; heist: HeistDoc }
  | { status: 'full'; heist: HeistDoc };

interface VaultDeps {
  economy: CookieEconomy;
  /** Read only: the members' and the vault's flows by kind (`/vault show`). */
  ledger: Pick<Ledger, 'queries'>;
  holds: Holds;
  heists: HeistStore;
  runtimeConfig: RuntimeConfig;
  scheduler: Scheduler;
  cooldowns: Cooldowns;
  clock: Clock;
  rng: Rng;
  reserve: number;
}

export const HEIST_CLOSE_TASK = 'vault.heist.close';
/** A heist's holds outlive its window by this much: its close timer ends them, their own timers are the backstop. */
const HOLD_TTL_AFTER_CLOSE_MS = 600_000;

/** The heist's odds: base + per extra member, capped (COOKIE_LOGIC.md, "The vault heist"). */
export function heistChancePct(
  crew: number,
  rules: { base: number; perMember: number; max: number },
): number {
  return Math.min(rules.max, rules.base + rules.perMember * Math.max(0, crew - 1));
}

/**
 * The loot: the smallest of loot % of the vault above its reserve, the per-heist cap, and the
 * crew's stakes times the stake multiplier; paid in whole equal shares.
 */
export function heistLoot(
  free: number,
  crew: number,
  stake: number,
  rules: { lootPct: number; maxLoot: number; stakeMultiplier: number },
): { loot: number; share: number } {
  const loot = Math.min(
    rules.maxLoot,
    Math.floor((free * rules.lootPct) / 100),
    crew * stake * rules.stakeMultiplier,
  );
  const share = Math.floor(loot / Math.max(1, crew));
  return { loot: share * crew, share };
}

/**
 * The house vault (ECONOMY.md, "The vault and its liquidity"): what it holds and may pay out, its last day of flows, and
 * the heist — a group attempt against the house, not PvP. A heist's money path, each step with
 * an operation id derived from the heist's id:
 * 1. each member's stake goes into the heist's pot, then they are added to the crew;
 * 2. at `closesAt` a durable timer fixes the result once (`settling`), from the crew whose
 *    stakes the ledger recorded;
 * 3. on success the loot moves from the vault into the pot and each member gets stake + share;
 *    on failure the stakes go to the vault; a crew below the minimum is refunded.
 * Two processes running the timer, or a restart in the middle, finish the same payouts once.
 */
export class VaultService {
  constructor(private readonly deps: VaultDeps) {
    // A heist's hold past its deadline: the heist is closed first; a stake it never counted goes back.
    deps.holds.own('heist', {
      onExpiry: async (hold) => {
        await this.closeHeist(hold.owner.id);
        return (await deps.holds.get(hold._id))?.state === 'held' ? 'void' : 'handled';
      },
    });
  }

  /** For the games: what the vault may pay out now, read fresh for every bet. */
  static liquidityReader(infra: FeatureInfra, economy: CookieEconomy): () => Promise<VaultLiquidity> {
    return () =>
      readLiquidity({
        economy,
        runtimeConfig: infra.runtimeConfig,
        reserve: infra.config.ledger.houseMinReserve,
      });
  }

  liquidity(): Promise<VaultLiquidity> {
    return readLiquidity(this.deps);
  }

  async status(): Promise<VaultStatus> {
    const now = this.deps.clock.now().getTime();
    const [liquidity, flows, lastHeist] = await Promise.all([
      this.liquidity(),
      this.deps.ledger.queries.flowsByKind('cookies', new Date(now - DAY_MS), new Date(now + 1)),
      this.deps.heists.latest(),
    ]);
    return { ...liquidity, flows: vaultFlows(flows), lastHeist };
  }

  /** New Cookies for the vault, by an admin (event budgets, the first bankroll). */
  fund(fund: { opId: string; adminId: string; amount: number; reason: string }) {
    return this.deps.economy.mint(this.deps.economy.house, {
      opId: fund.opId,
      amount: fund.amount,
      kind: COOKIE_KINDS.vaultFund,
      source: fund.adminId,
      reason: fund.reason,
    });
  }

  /** Opens a heist with the leader as its first member; one heist per cooldown, server-wide. */
  async startHeist(start: {
    heistId: string;
    leader: string;
    stake: number;
    locale: string;
    channelId?: string | null;
  }): Promise<HeistDoc> {
    const c = this.deps.runtimeConfig;
    if (!(await c.get('vault.heist_enabled')))
      throw featureDisabled('vault:errors.heistDisabled', 'vault.heist_enabled');
    const [minStake, windowS, cooldownS] = await Promise.all([
      c.get('vault.heist_min_stake'),
      c.get('vault.heist_window_s'),
      c.get('vault.heist_cooldown_s'),
    ]);
    if (start.stake < minStake) throw heistStakeTooSmall(start.stake, minStake);
    const balance = await this.deps.economy.balance(start.leader);
    if (balance < start.stake) throw insufficientFunds('cookies', start.leader, balance, start.stake);
    const now = this.deps.clock.now();
    // The whole server shares one heist cooldown; it also keeps two heists from being open at once.
    await this.deps.cooldowns
      .claim('vault.heist', this.deps.economy.house, Math.max(cooldownS, windowS) * 1000)
      .catch((error: unknown) => {
        if (isAppError(error) && error.code === 'COOLDOWN_ACTIVE') {
          throw heistNotYet(Number(error.context.retryAt));
        }
        throw error;
      });
    const heist: HeistDoc = {
      _id: start.heistId,
      leader: start.leader,
      stake: start.stake,
      crew: [],
      status: 'open',
      locale: start.locale,
      channelId: start.channelId ?? null,
      messageId: null,
      guildId: currentServer(),
      createdAt: now,
      closesAt: new Date(now.getTime() + windowS * 1000),
    };
    await this.deps.heists.create(heist);
    await this.deps.scheduler.schedule({
      id: `${HEIST_CLOSE_TASK}:${heist._id}`,
      kind: HEIST_CLOSE_TASK,
      dueAt: heist.closesAt,
      payload: { heistId: heist._id },
    });
    const joined = await this.joinHeist(heist._id, start.leader);
    return joined.heist;
  }

  /** The Join button: the stake goes into the pot first, then the member into the crew. */
  async joinHeist(heistId: string, userId: string): Promise<JoinResult> {
    const heist = await this.#heist(heistId);
    const now = this.deps.clock.now();
    if (heist.crew.some((m) => m.userId === userId)) return { status: 'already', heist };
    if (heist.status !== 'open' || heist.closesAt <= now) return { status: 'closed', heist };
    const maxCrew = await this.deps.runtimeConfig.get('vault.heist_max_crew');
    if (heist.crew.length >= maxCrew) return { status: 'full', heist };
    const held = await this.deps.holds
      .reserve(this.#stakeHold(heist, userId))
      .catch(async (error: unknown) => {
        // The timer decided this stake "never arrived" while it was on its way: the ledger turned
        // the late reserve down and gave it back. The member hears that the heist set off.
        const hold = await this.deps.holds.get(this.#stakeHold(heist, userId).id);
        if (hold?.state === 'refused' && (await this.#heist(heistId)).status !== 'open') return hold;
        throw error;
      });
    if (held.state !== 'held') return { status: 'closed', heist: await this.#heist(heistId) };
    const joined = await this.deps.heists.join(heistId, userId, now, maxCrew);
    if (joined) return { status: 'joined', heist: joined };
    // Closed, full or joined meanwhile: a stake that is not in the crew goes back.
    const after = await this.#heist(heistId);
    if (after.crew.some((m) => m.userId === userId)) return { status: 'already', heist: after };
    await this.deps.holds.void(held._id);
    return { status: after.crew.length >= maxCrew ? 'full' : 'closed', heist: after };
  }

  /** The message a Join button was pressed on: the heist's end is told there. */
  async rememberMessage(heist: HeistDoc, messageId: string | null): Promise<void> {
    if (messageId && heist.messageId !== messageId) await this.deps.heists.setMessage(heist._id, messageId);
  }

  getHeist(heistId: string): Promise<HeistDoc | null> {
    return this.deps.heists.get(heistId);
  }

  /**
   * Closes a heist and pays it out (its timer; safe to run twice, in two processes, or after a
   * crash). Stakes still on their way are decided first (holds.ts): arrived, or never will.
   */
  async closeHeist(heistId: string): Promise<HeistDoc> {
    return (await this.#close(heistId)).heist;
  }

  /** Closes a heist; `settledNow` when this call was the one that ended it (only that one tells it). */
  async #close(heistId: string): Promise<{ heist: HeistDoc; settledNow: boolean }> {
    let heist = await this.#heist(heistId);
    if (heist.status === 'settled') return { heist, settledNow: false };
    if (heist.closesAt > this.deps.clock.now()) throw new Error(`heist ${heistId} is still open`);
    let payers = await this.#payers(heist);
    while (heist.status === 'open') {
      // Drawn for the crew as read; a Join that landed since makes the fix miss: read, draw again.
      const fixed = await this.deps.heists.fix(heistId, await this.#result(heist, payers), heist.crew.length);
      heist = fixed ?? (await this.#heist(heistId));
      if (!fixed) payers = await this.#payers(heist);
    }
    const result = heist.result as HeistResult;
    if (result.outcome === 'success' && result.loot > 0) {
      const loot = await this.deps.holds
        .reserve(this.#lootHold(heist, result.loot))
        .catch((error: unknown) => {
          if (isAppError(error, 'HOUSE_VAULT_INSUFFICIENT')) return null;
          throw error;
        });
      if (loot?.state !== 'held' && loot?.state !== 'posting' && loot?.state !== 'posted') {
        await this.deps.heists.dropLoot(heistId);
        heist = await this.#heist(heistId);
      }
    }
    await this.#payOut(heist, payers);
    const settled = await this.deps.heists.markSettled(heistId, this.deps.clock.now());
    return { heist: settled ?? (await this.#heist(heistId)), settledNow: settled !== null };
  }

  /** The heist's timer; `onClosed` tells its end, once, from the run that ended it (two may run past a lease). */
  tasks(onClosed: (heist: HeistDoc) => Promise<void>): TaskHandler[] {
    return [
      defineTask(HEIST_CLOSE_TASK, z.object({ heistId: z.string() }), async ({ heistId }) => {
        const { heist, settledNow } = await this.#close(heistId);
        if (settledNow) await onClosed(heist);
      }),
    ];
  }

  async #result(heist: HeistDoc, payers: Set<string>): Promise<HeistResult> {
    const c = this.deps.runtimeConfig;
    const crew = heist.crew.map((m) => m.userId).filter((id) => payers.has(id));
    const [minCrew, base, perMember, max, lootPct, maxLoot, stakeMultiplier] = await Promise.all([
      c.get('vault.heist_min_crew'),
      c.get('vault.heist_base_chance_pct'),
      c.get('vault.heist_chance_per_member_pct'),
      c.get('vault.heist_max_chance_pct'),
      c.get('vault.heist_loot_pct'),
      c.get('vault.heist_max_loot'),
      c.get('vault.heist_stake_multiplier'),
    ]);
    const chancePct = heistChancePct(crew.length, { base, perMember, max });
    if (crew.length < minCrew) return { outcome: 'too_small', crew, chancePct, share: 0, loot: 0, minCrew };
    if (this.deps.rng.int(0, 100) >= chancePct)
      return { outcome: 'failure', crew, chancePct, share: 0, loot: 0 };
    const { free } = await this.liquidity();
    return {
      outcome: 'success',
      crew,
      chancePct,
      ...heistLoot(free, crew.length, heist.stake, { lootPct, maxLoot, stakeMultiplier }),
    };
  }

  /**
   * Stakes come back to the crew on a success (with their share of the loot) and to every
   * member a result does not count; on a failure the crew's stakes go to the vault.
   */
  async #payOut(heist: HeistDoc, payers: Set<string>): Promise<void> {
    const result = heist.result as HeistResult;
    const crew = new Set(result.outcome === 'too_small' ? [] : result.crew);
    for (const userId of payers) {
      const stake = this.#stakeHold(heist, userId).id;
      if (crew.has(userId) && result.outcome === 'failure') {
        await this.deps.holds.post(stake, [
          { to: this.deps.economy.house, amount: heist.stake, kind: COOKIE_KINDS.heistReturn },
        ]);
      } else await this.deps.holds.void(stake);
    }
    if (result.outcome === 'success' && result.loot > 0) {
      await this.deps.holds.post(
        this.#lootHold(heist, result.loot).id,
        result.crew.map((userId) => ({ to: userId, amount: result.share, kind: COOKIE_KINDS.heistPayout })),
      );
    }
  }

  /**
   * Who really paid a stake: the heist's stake holds that arrived. One still on its way is
   * decided now (arrived, or closed out so that it never will).
   */
  async #payers(heist: HeistDoc): Promise<Set<string>> {
    const payers = new Set<string>();
    for (const hold of await this.deps.holds.ofOwner(this.#owner(heist._id))) {
      if (hold.kind !== COOKIE_KINDS.heistStake || !hold.from) continue;
      const decided: HoldDoc =
        hold.state === 'reserving' ? await this.deps.holds.decide(this.#stakeHold(heist, hold.from)) : hold;
      if (decided.state !== 'refused') payers.add(hold.from);
    }
    return payers;
  }

  #stakeHold(heist: HeistDoc, userId: string): ReserveRequest {
    return {
      id: `heist:${heist._id}:stake:${userId}`,
      currency: 'cookies',
      from: userId,
      amount: heist.stake,
      kind: COOKIE_KINDS.heistStake,
      returnKind: COOKIE_KINDS.heistPayout,
      source: userId,
      owner: this.#owner(heist._id),
      ttlMs: heist.closesAt.getTime() - this.deps.clock.now().getTime() + HOLD_TTL_AFTER_CLOSE_MS,
    };
  }

  #lootHold(heist: HeistDoc, loot: number): ReserveRequest {
    return {
      id: `heist:${heist._id}:loot`,
      currency: 'cookies',
      from: this.deps.economy.house,
      amount: loot,
      kind: COOKIE_KINDS.heistLoot,
      source: heist.leader,
      owner: this.#owner(heist._id),
      ttlMs: HOLD_TTL_AFTER_CLOSE_MS,
    };
  }

  #owner(heistId: string): HoldOwner {
    return { kind: 'heist', id: heistId };
  }

  async #heist(heistId: string): Promise<HeistDoc> {
    const heist = await this.deps.heists.get(heistId);
    if (!heist) throw new AppError('STALE_CONTROL', `heist ${heistId} is gone`, { heistId });
    return heist;
  }
}

async function readLiquidity(
  deps: Pick<VaultDeps, 'economy' | 'runtimeConfig' | 'reserve'>,
): Promise<VaultLiquidity> {
  const [balance, share] = await Promise.all([
    deps.economy.balance(deps.economy.house),
    deps.runtimeConfig.get('vault.payout_share_pct'),
  ]);
  return vaultLiquidity(balance, deps.reserve, share);
}
