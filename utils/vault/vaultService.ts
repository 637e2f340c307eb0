import { z } from 'zod';
import type { Clock } from '../../src/clock.js';
import type { Cooldowns } from '../../src/cooldowns/cooldowns.js';
import type { FeatureInfra } from '../../src/features/feature.js';
import type { Rng } from '../../src/rng.js';
import type { RuntimeConfig } from '../../src/runtimeConfig/runtimeConfig.js';
import { defineTask, type Scheduler, type TaskHandler } from '../../src/scheduler/scheduler.js';
import { COOKIE_KINDS, type CookieEconomy } from '../cookieEconomy.js';
import { AppError, featureDisabled } from '../errors.js';
import { insufficientFunds } from '../ledger/errors.js';
import type { KindTotal } from '../ledger/ledger.js';
import { heistStakeTooSmall } from './errors.js';
import type { HeistDoc, HeistResult, HeistStore } from './heistStore.js';
import { type VaultLiquidity, vaultLiquidity } from './liquidity.js';

declare module '../../src/features/feature.js' {
  interface FeatureServices {
    vault: VaultService;
  }
}

/** The vault's last day, folded by what moved the Cookies. */
export interface VaultFlow {
  group: 'games' | 'heists' | 'steal' | 'funding' | 'other';
  in: number;
  out: number;
  count: number;
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
  heists: HeistStore;
  runtimeConfig: RuntimeConfig;
  scheduler: Scheduler;
  cooldowns: Cooldowns;
  clock: Clock;
  rng: Rng;
  reserve: number;
}

export const HEIST_CLOSE_TASK = 'vault.heist.close';
const DAY_MS = 86_400_000;

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
 * The house vault (PRODUCT.md §1): what it holds and may pay out, its last day of flows, and
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
  constructor(private readonly deps: VaultDeps) {}

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
    const since = new Date(this.deps.clock.now().getTime() - DAY_MS);
    const [liquidity, totals, lastHeist] = await Promise.all([
      this.liquidity(),
      this.deps.economy.totalsByKind(this.deps.economy.house, since),
      this.deps.heists.latest(),
    ]);
    return { ...liquidity, flows: foldFlows(totals), lastHeist };
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
    await this.deps.cooldowns.claim(
      'vault.heist',
      this.deps.economy.house,
      Math.max(cooldownS, windowS) * 1000,
    );
    const heist: HeistDoc = {
      _id: start.heistId,
      leader: start.leader,
      stake: start.stake,
      crew: [],
      status: 'open',
      locale: start.locale,
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
    const pot = this.#pot(heistId);
    await this.deps.economy.transfer(userId, pot, {
      opId: `heist:${heistId}:stake:${userId}`,
      amount: heist.stake,
      kind: COOKIE_KINDS.heistStake,
      source: userId,
    });
    const joined = await this.deps.heists.join(heistId, userId, now, maxCrew);
    if (joined) return { status: 'joined', heist: joined };
    // Closed, full or joined meanwhile: a stake that is not in the crew goes back.
    const after = await this.#heist(heistId);
    if (!after.crew.some((m) => m.userId === userId)) await this.#refund(heistId, userId, heist.stake);
    if (after.crew.some((m) => m.userId === userId)) return { status: 'already', heist: after };
    return { status: after.crew.length >= maxCrew ? 'full' : 'closed', heist: after };
  }

  getHeist(heistId: string): Promise<HeistDoc | null> {
    return this.deps.heists.get(heistId);
  }

  /** Closes a heist and pays it out (its timer; safe to run twice, in two processes, or after a crash). */
  async closeHeist(heistId: string): Promise<HeistDoc> {
    const pot = this.#pot(heistId);
    if (await this.deps.economy.ledger.hasPendingOps('cookies', pot)) {
      throw new Error(`heist ${heistId}: its pot has operations in flight; retrying later`);
    }
    let heist = await this.#heist(heistId);
    if (heist.status === 'settled') return heist;
    if (heist.closesAt > this.deps.clock.now()) throw new Error(`heist ${heistId} is still open`);
    const payers = await this.#payers(heistId);
    if (heist.status === 'open')
      heist =
        (await this.deps.heists.fix(heistId, await this.#result(heist, payers))) ??
        (await this.#heist(heistId));
    const result = heist.result as HeistResult;
    if (result.outcome === 'success' && result.loot > 0) {
      const paid = await this.deps.economy.tryFromHouse(pot, {
        opId: `heist:${heistId}:loot`,
        amount: result.loot,
        kind: COOKIE_KINDS.heistLoot,
        source: heist.leader,
      });
      if (!paid && !(await this.deps.economy.ledger.outcomeOf(`heist:${heistId}:loot`))) {
        await this.deps.heists.dropLoot(heistId);
        heist = await this.#heist(heistId);
      }
    }
    await this.#payOut(heist, payers);
    return (await this.deps.heists.markSettled(heistId, this.deps.clock.now())) ?? this.#heist(heistId);
  }

  tasks(onClosed: (heist: HeistDoc) => Promise<void>): TaskHandler[] {
    return [
      defineTask(HEIST_CLOSE_TASK, z.object({ heistId: z.string() }), async ({ heistId }) => {
        const before = await this.#heist(heistId);
        const heist = await this.closeHeist(heistId);
        if (before.status !== 'settled') await onClosed(heist);
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
    if (crew.length < minCrew) return { outcome: 'too_small', crew, chancePct, share: 0, loot: 0 };
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

  async #payOut(heist: HeistDoc, payers: Set<string>): Promise<void> {
    const result = heist.result as HeistResult;
    const crew = new Set(result.crew);
    for (const userId of payers) {
      if (!crew.has(userId) || result.outcome === 'too_small')
        await this.#refund(heist._id, userId, heist.stake);
    }
    if (result.outcome === 'success') {
      for (const userId of result.crew) {
        await this.deps.economy.transfer(this.#pot(heist._id), userId, {
          opId: `heist:${heist._id}:payout:${userId}`,
          amount: heist.stake + result.share,
          kind: COOKIE_KINDS.heistPayout,
          source: heist.leader,
        });
      }
    } else if (result.outcome === 'failure' && result.crew.length > 0) {
      await this.deps.economy.toHouse(this.#pot(heist._id), {
        opId: `heist:${heist._id}:lost`,
        amount: heist.stake * result.crew.length,
        kind: COOKIE_KINDS.heistReturn,
        source: heist.leader,
      });
    }
  }

  async #refund(heistId: string, userId: string, stake: number): Promise<void> {
    await this.deps.economy.transfer(this.#pot(heistId), userId, {
      opId: `heist:${heistId}:refund:${userId}`,
      amount: stake,
      kind: COOKIE_KINDS.heistPayout,
      source: userId,
    });
  }

  /** Who really paid a stake: the ledger's events on the pot are the truth, not the crew list. */
  async #payers(heistId: string): Promise<Set<string>> {
    const events = await this.deps.economy.ledger.history('cookies', this.#pot(heistId), 1_000);
    return new Set(
      events
        .filter((e) => e.kind === COOKIE_KINDS.heistStake && e.delta > 0 && e.counterparty)
        .map((e) => e.counterparty as string),
    );
  }

  async #heist(heistId: string): Promise<HeistDoc> {
    const heist = await this.deps.heists.get(heistId);
    if (!heist) throw new AppError('STALE_CONTROL', `heist ${heistId} is gone`, { heistId });
    return heist;
  }

  #pot(heistId: string): string {
    return this.deps.economy.pot('heist', heistId);
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

function foldFlows(totals: Map<string, KindTotal>): VaultFlow[] {
  const groups = new Map<VaultFlow['group'], VaultFlow>();
  for (const [kind, total] of totals) {
    const group = groupOf(kind);
    const flow = groups.get(group) ?? { group, in: 0, out: 0, count: 0 };
    flow.in += total.in;
    flow.out += total.out;
    flow.count += total.count;
    groups.set(group, flow);
  }
  return [...groups.values()];
}

function groupOf(kind: string): VaultFlow['group'] {
  if (kind.startsWith('games.')) return 'games';
  if (kind.startsWith('heist.')) return 'heists';
  if (kind.startsWith('steal.')) return 'steal';
  if (kind === COOKIE_KINDS.vaultFund || kind === COOKIE_KINDS.grant) return 'funding';
  return 'other';
}
