/**
 * The balancing of `/cookies steal`, as pure functions of the settings and the balances.
 * COOKIE_LOGIC.md gives the same formulas with worked examples; keep them in step.
 */
export interface StealRules {
  baseChancePct: number;
  minChancePct: number;
  maxChancePct: number;
  wealthWeightPct: number;
  heatPenaltyPct: number;
  heatWindowMs: number;
  lootPct: number;
  maxLoot: number;
  hourlyBudget: number;
  finePct: number;
  fineMin: number;
  fineMax: number;
  minVictimBalance: number;
  protectionMs: number;
  /** Share of each collect that goes into the thief's loot bag, in % (the bag bounds every loot). */
  allowancePct: number;
}

const clamp = (value: number, low: number, high: number) => Math.min(high, Math.max(low, value));

/**
 * How much richer the victim is than the thief, softened by the weight: (victim+1)/(thief+1)
 * to the power weight/100. Above 1 robbing is easier and pays more; below 1 harder and less.
 */
export function wealthFactor(rules: StealRules, thief: number, victim: number): number {
  return ((victim + 1) / (thief + 1)) ** (rules.wealthWeightPct / 100);
}

/** The chance of success in percent: base × wealth (0.5–2) × (1 − heat penalty)^recent robberies, clamped. */
export function stealChancePct(rules: StealRules, thief: number, victim: number, heat: number): number {
  const wealth = clamp(wealthFactor(rules, thief, victim), 0.5, 2);
  const cooled = (1 - rules.heatPenaltyPct / 100) ** heat;
  return clamp(rules.baseChancePct * wealth * cooled, rules.minChancePct, rules.maxChancePct);
}

/** The loot of a success: loot % of the victim's balance × wealth (0.5–1.5), at least 1, at most the per-hit cap. */
export function stealLoot(rules: StealRules, thief: number, victim: number): number {
  const wealth = clamp(wealthFactor(rules, thief, victim), 0.5, 1.5);
  const loot = Math.floor((victim * rules.lootPct * wealth) / 100);
  return clamp(loot, 1, Math.min(rules.maxLoot, victim));
}

/** The fine of a failure, paid into the vault: fine % of the thief's balance within [min, max], never more than they have. */
export function stealFine(rules: StealRules, thief: number): number {
  const fine = clamp(Math.floor((thief * rules.finePct) / 100), rules.fineMin, rules.fineMax);
  return Math.min(fine, thief);
}

/** A roll in [0, 10000) succeeds below the chance in hundredths of a percent. */
export function stealSucceeds(chancePct: number, roll: number): boolean {
  return roll < Math.round(chancePct * 100);
}
