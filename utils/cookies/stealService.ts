import type { Clock } from '../../src/clock.js';
import { featureDisabled, invalidInputText, isAppError } from '../../src/errors.js';
import type { Hooks } from '../../src/features/hooks.js';
import type { ProfileDirectory } from '../../src/profiles/profileDirectory.js';
import type { ServerMembers } from '../../src/profiles/serverMembers.js';
import type { Rng } from '../../src/rng.js';
import type { RuntimeConfig } from '../../src/runtimeConfig/runtimeConfig.js';
import { COOKIE_KINDS, type CookieEconomy } from '../money/cookieEconomy.js';
import type { CollectStore } from './collectStore.js';
import { stealBagEmpty, stealPassive, stealTargetTooPoor } from './errors.js';
import type { ExposureStore } from './exposureStore.js';
import type { PassiveMode } from './passiveMode.js';
import { stealStopped } from './protections.js';
import { checkStealGate, type StealPlace } from './stealGate.js';
import { type StealRules, stealChancePct, stealFine, stealLoot, stealSucceeds } from './stealRules.js';

export type StealResult =
  | {
      status: 'stolen';
      amount: number;
      chancePct: number;
      victimLostThisHour: number;
      /** The loot bag held less than the roll allowed: the thief carried off all it held. */
      bagFull: boolean;
    }
  /** The roll succeeded but the victim already lost their hourly budget: nothing moved. */
  | { status: 'shielded'; chancePct: number; freesAt: Date | null }
  /** The roll succeeded but the victim spent the Cookies first: nothing moved. */
  | { status: 'escaped'; chancePct: number }
  | { status: 'caught'; fine: number; chancePct: number }
  /** Something of the victim's (a padlock from the shop) stopped the steal before the roll: the thief pays the fine. */
  | { status: 'locked'; fine: number; chancePct: number };

interface StealDeps {
  economy: CookieEconomy;
  exposure: ExposureStore;
  /** The thieves' loot bags, filled by their collects. */
  bags: Pick<CollectStore, 'get' | 'takeAllowance' | 'returnAllowance'>;
  /** Members in passive mode neither steal nor are robbed. */
  passive: Pick<PassiveMode, 'among'>;
  runtimeConfig: RuntimeConfig;
  profiles: ProfileDirectory;
  serverMembers: Pick<ServerMembers, 'joinedAt'>;
  clock: Clock;
  rng: Rng;
  /** What protects a victim (the shop's padlock). */
  featureHooks: Pick<Hooks, 'of'>;
}

/**
 * `/cookies steal` (PvP; the vault heist is a different thing). The thief's cooldown is
 * claimed by the runtime before this runs. Balancing: COOKIE_LOGIC.md.
 */
export class StealService {
  constructor(private readonly deps: StealDeps) {}

  async rules(): Promise<StealRules> {
    const c = this.deps.runtimeConfig;
    const [
      baseChancePct,
      minChancePct,
      maxChancePct,
      wealthWeightPct,
      heatPenaltyPct,
      heatWindowMin,
      lootPct,
      maxLoot,
      hourlyBudget,
      finePct,
      fineMin,
      fineMax,
      minVictimBalance,
      protectionH,
      allowancePct,
    ] = await Promise.all([
      c.get('cookies.steal_base_chance_pct'),
      c.get('cookies.steal_min_chance_pct'),
      c.get('cookies.steal_max_chance_pct'),
      c.get('cookies.steal_wealth_weight_pct'),
      c.get('cookies.steal_heat_penalty_pct'),
      c.get('cookies.steal_heat_window_min'),
      c.get('cookies.steal_loot_pct'),
      c.get('cookies.steal_max_loot'),
      c.get('cookies.steal_hourly_budget'),
      c.get('cookies.steal_fine_pct'),
      c.get('cookies.steal_fine_min'),
      c.get('cookies.steal_fine_max'),
      c.get('cookies.steal_min_victim_balance'),
      c.get('cookies.steal_protection_h'),
      c.get('cookies.steal_allowance_pct'),
    ]);
    return {
      baseChancePct,
      minChancePct: Math.min(minChancePct, maxChancePct),
      maxChancePct: Math.max(minChancePct, maxChancePct),
      wealthWeightPct,
      heatPenaltyPct,
      heatWindowMs: heatWindowMin * 60_000,
      lootPct,
      maxLoot,
      hourlyBudget,
      finePct,
      fineMin: Math.min(fineMin, fineMax),
      fineMax: Math.max(fineMin, fineMax),
      minVictimBalance,
      protectionMs: protectionH * 3_600_000,
      allowancePct,
    };
  }

  /**
   * One attempt; `opId` is the interaction's id, so a retried request moves nothing twice.
   * `place`: the server it is made in (its start delay and both members' time there count).
   */
  async steal(attempt: {
    opId: string;
    thief: string;
    victim: string;
    place?: StealPlace;
  }): Promise<StealResult> {
    const { opId, thief, victim } = attempt;
    const rules = await this.#checked(attempt);
    const now = this.deps.clock.now();
    const [thiefBalance, victimBalance, heat] = await Promise.all([
      this.deps.economy.balance(thief),
      this.deps.economy.balance(victim),
      this.deps.exposure.hitsSince(victim, new Date(now.getTime() - rules.heatWindowMs)),
    ]);
    if (victimBalance < rules.minVictimBalance)
      throw stealTargetTooPoor(victim, victimBalance, rules.minVictimBalance);
    const chancePct = stealChancePct(rules, thiefBalance, victimBalance, heat.length);
    const guards = this.deps.featureHooks.of('cookies.steal_guard');
    if (await stealStopped(guards, victim, opId, attempt.place?.guildId ?? null))
      return this.#caught(opId, thief, thiefBalance, rules, chancePct, 'locked');
    if (!stealSucceeds(chancePct, this.deps.rng.int(0, 10_000)))
      return this.#caught(opId, thief, thiefBalance, rules, chancePct);

    // The bag first: what the thief may carry bounds what the victim's budget is asked for.
    const rolled = stealLoot(rules, thiefBalance, victimBalance);
    const carried = await this.deps.bags.takeAllowance(thief, rolled);
    if (carried === 0) throw stealBagEmpty(rules.allowancePct);
    const claim = await this.deps.exposure.reserve(
      victim,
      { id: opId, thief },
      carried,
      rules.hourlyBudget,
      now,
      rules.heatWindowMs,
    );
    await this.deps.bags.returnAllowance(thief, carried - claim.granted);
    if (claim.granted === 0) return { status: 'shielded', chancePct, freesAt: claim.freesAt };
    // Checked again right before the Cookies move: a victim who went passive meanwhile keeps them.
    if ((await this.deps.passive.among([victim])).has(victim)) {
      await this.deps.exposure.release(victim, opId);
      await this.deps.bags.returnAllowance(thief, claim.granted);
      throw stealPassive('victim', victim);
    }
    try {
      await this.deps.economy.transfer(victim, thief, {
        opId: `steal:${opId}`,
        amount: claim.granted,
        kind: COOKIE_KINDS.stealLoot,
        source: thief,
      });
    } catch (error) {
      if (!isAppError(error, 'INSUFFICIENT_COOKIES')) throw error;
      await this.deps.exposure.release(victim, opId);
      await this.deps.bags.returnAllowance(thief, claim.granted);
      return { status: 'escaped', chancePct };
    }
    return {
      status: 'stolen',
      amount: claim.granted,
      chancePct,
      victimLostThisHour: claim.lostThisHour + claim.granted,
      bagFull: carried < rolled && claim.granted === carried,
    };
  }

  async #checked(attempt: { thief: string; victim: string; place?: StealPlace }): Promise<StealRules> {
    const { thief, victim } = attempt;
    if (!(await this.deps.runtimeConfig.get('cookies.steal_enabled'))) {
      throw featureDisabled('cookies:errors.stealingDisabled', 'cookies.steal_enabled');
    }
    if (thief === victim) throw invalidInputText('you cannot rob yourself', 'cookies:errors.stealFromSelf');
    if (this.deps.economy.isSystemAccount(victim)) {
      throw invalidInputText('the vault is robbed with /vault heist', 'cookies:errors.stealFromHouse');
    }
    const passive = await this.deps.passive.among([thief, victim]);
    if (passive.has(thief)) throw stealPassive('thief', victim);
    if (passive.has(victim)) throw stealPassive('victim', victim);
    const rules = await this.rules();
    await checkStealGate(this.deps, attempt, rules.protectionMs);
    // An empty bag is refused before the roll: no fine for an attempt that could carry nothing.
    if (((await this.deps.bags.get(thief))?.stealAllowance ?? 0) <= 0)
      throw stealBagEmpty(rules.allowancePct);
    return rules;
  }

  async #caught(
    opId: string,
    thief: string,
    balance: number,
    rules: StealRules,
    chancePct: number,
    status: 'caught' | 'locked' = 'caught',
  ): Promise<StealResult> {
    const fine = stealFine(rules, balance);
    if (fine > 0) {
      try {
        await this.deps.economy.toHouse(thief, {
          opId: `steal:${opId}:fine`,
          amount: fine,
          kind: COOKIE_KINDS.stealFine,
          source: thief,
        });
      } catch (error) {
        // The thief spent their Cookies meanwhile: they are caught, with nothing left to fine.
        if (!isAppError(error, 'INSUFFICIENT_COOKIES')) throw error;
        return { status, fine: 0, chancePct };
      }
    }
    return { status, fine, chancePct };
  }
}
