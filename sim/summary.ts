import { COOKIE_KINDS } from '../utils/money/cookieEconomy.js';
import type { KindTotal } from '../utils/money/ledger/ledger.js';
import { PLACE_KINDS } from '../utils/money/placeEconomy.js';
import type { Agent } from './agent.js';
import type { Strategy } from './behaviours.js';
import type { DayStats } from './dayStats.js';
import type { SimResult } from './simResult.js';

/** Not earnings of a strategy: gifts between members and moderators' prizes. */
const NOT_EARNED = new Set<string>([COOKIE_KINDS.give, COOKIE_KINDS.grant]);
/** What the hunt pays (pixels bought are spending, grants are prizes). */
const HUNT_KINDS = new Set<string>([PLACE_KINDS.progress, PLACE_KINDS.draw, PLACE_KINDS.time]);

export interface StrategyFigure {
  strategy: Strategy;
  currency: 'cookies' | 'place';
  members: number;
  activeHours: number;
  /** Cookies (or Place points) earned per active hour, without gifts and prizes. */
  perHour: number;
  /** Against the honest members' `perHour` in the same currency. */
  ratio: number;
  /** Each member's own earnings per hour against the same baseline (members with hours only). */
  memberRatios: number[];
}

export interface Summary {
  days: number;
  agents: number;
  /** Mean daily growth of the members' Cookies over the mature half of the run. */
  supplyGrowthPctPerDay: number;
  vaultMinOverReserve: number;
  gini: number;
  strategies: StrategyFigure[];
  bestStrategyOverBaseline: number;
  /** Pixels placed per hour of hunting. */
  pixelsPerActiveHour: number;
  /** Cookies per active hour of the honest members, by the kind of ledger change. */
  cookiesPerHourByPath: Map<string, number>;
  violations: number;
}

/** What a strategy competes on: the greedy hunters on Place points, the others on Cookies. */
const CURRENCY: Record<Strategy, 'cookies' | 'place'> = {
  honest: 'cookies',
  richest_thief: 'cookies',
  martingale: 'cookies',
  time_farmer: 'place',
  worker_farmer: 'place',
};

const hours = (agents: Agent[]) => agents.reduce((s, a) => s + a.activeMs / 3_600_000, 0);
const huntingHours = (agents: Agent[]) => agents.reduce((s, a) => s + a.huntMs / 3_600_000, 0);
/** Place points are earned while hunting: per hunting hour; Cookies per active hour. */
const hoursFor = (agents: Agent[], currency: 'cookies' | 'place') =>
  currency === 'place' ? huntingHours(agents) : hours(agents);

function earned(totals: Map<string, KindTotal> | undefined, currency: 'cookies' | 'place'): number {
  let sum = 0;
  for (const [kind, t] of totals ?? []) {
    if (currency === 'cookies' && !NOT_EARNED.has(kind)) sum += t.in - t.out;
    if (currency === 'place' && HUNT_KINDS.has(kind)) sum += t.in;
  }
  return sum;
}

/**
 * The path a kind of Cookie change belongs to: a game's, a heist's or a table's stakes and
 * payouts net into one path (what playing it cost or paid); other kinds are their own path.
 */
export function pathOf(kind: string): string {
  const feature = kind.split('.')[0] as string;
  return ['games', 'heist', 'poker'].includes(feature) ? `${feature} (net)` : kind;
}

/** The figures of the report's last line, from a finished run. */
export function summarize(result: SimResult): Summary {
  const { agents, days } = result;
  // A young server grows fast from nothing; its growth once mature is what matters.
  const mature = days.slice(Math.floor(days.length / 2));
  const growth = mature
    .map((d) => {
      const before = days[d.day - 2]?.supply ?? 0;
      return before > 0 ? (d.supply / before - 1) * 100 : null;
    })
    .filter((g): g is number => g !== null);
  const perHour = (group: Agent[], currency: 'cookies' | 'place') => {
    const totals = currency === 'cookies' ? result.cookieTotals : result.placeTotals;
    const sum = group.reduce((s, a) => s + earned(totals.get(a.id), currency), 0);
    const h = hoursFor(group, currency);
    // Place points are counted in thousandths by the ledger.
    return h > 0 ? sum / h / (currency === 'place' ? 1000 : 1) : 0;
  };
  const honest = agents.filter((a) => a.strategy === 'honest');
  const honestHunters = honest.filter((a) => a.huntMs > 0);
  // Honest play's Cookie income is collecting and the bakery's share (what the honest members
  // did at the games is spending: with a house edge it averages below zero, and would make any
  // strategy look good against a negative baseline). Its Place income is what the hunt paid them.
  const honestHours = hours(honest);
  const collected = honest.reduce((s, a) => {
    const totals = result.cookieTotals.get(a.id);
    // The bakery's share goes to every collector alike: honest income, as collecting is.
    return (
      s + (totals?.get(COOKIE_KINDS.collect)?.in ?? 0) + (totals?.get(COOKIE_KINDS.bakeryShare)?.in ?? 0)
    );
  }, 0);
  const baseline = {
    cookies: honestHours > 0 ? collected / honestHours : 0,
    place: perHour(honestHunters, 'place'),
  };
  const strategies = strategyFigures(agents, baseline, perHour);
  const greedy = strategies.filter((s) => s.strategy !== 'honest');
  const hunters = agents.filter((a) => a.huntMs > 0);
  const hunting = huntingHours(hunters);
  const byPath = new Map<string, number>();
  for (const a of honest) {
    for (const [kind, t] of result.cookieTotals.get(a.id) ?? []) {
      const path = pathOf(kind);
      byPath.set(path, (byPath.get(path) ?? 0) + (t.in - t.out) / honestHours);
    }
  }
  const last = days[days.length - 1];
  return {
    days: days.length,
    agents: agents.length,
    supplyGrowthPctPerDay: growth.length > 0 ? growth.reduce((s, g) => s + g, 0) / growth.length : 0,
    vaultMinOverReserve: result.reserve > 0 ? result.vaultMin / result.reserve : Number.POSITIVE_INFINITY,
    gini: last?.gini ?? 0,
    strategies,
    bestStrategyOverBaseline: Math.max(0, ...greedy.map((s) => s.ratio)),
    pixelsPerActiveHour: hunting > 0 ? hunters.reduce((s, a) => s + a.pixels, 0) / hunting : 0,
    cookiesPerHourByPath: byPath,
    violations: days.reduce((s, d) => s + d.violations.length, 0),
  };
}

/** Each strategy's earnings per hour against the honest baseline, as a group and member by member. */
function strategyFigures(
  agents: Agent[],
  baseline: Record<'cookies' | 'place', number>,
  perHour: (group: Agent[], currency: 'cookies' | 'place') => number,
): StrategyFigure[] {
  const honestHunters = agents.filter((a) => a.strategy === 'honest' && a.huntMs > 0);
  const strategies: StrategyFigure[] = [];
  for (const strategy of new Set(agents.map((a) => a.strategy))) {
    const group = agents.filter((a) => a.strategy === strategy);
    const currency = CURRENCY[strategy];
    const value = perHour(group, currency);
    const against = (v: number) => (baseline[currency] > 0 ? v / baseline[currency] : 0);
    strategies.push({
      strategy,
      currency,
      members: group.length,
      activeHours: hoursFor(group, currency),
      perHour: value,
      ratio: against(value),
      memberRatios: group
        .filter((a) => hoursFor([a], currency) > 0)
        .map((a) => against(perHour([a], currency))),
    });
    if (strategy === 'honest') {
      strategies.push({
        strategy,
        currency: 'place',
        members: honestHunters.length,
        activeHours: huntingHours(honestHunters),
        perHour: baseline.place,
        ratio: 1,
        memberRatios: [],
      });
    }
  }
  return strategies;
}

/** A day as a run prints it, with its wall time `ms` (play and checks). */
export function dayLine(d: DayStats, ms: number): string {
  return (
    `day ${d.day}: supply ${d.supply} vault ${d.vault} gini ${d.gini.toFixed(3)} active ${d.activeAgents} ` +
    `pixels ${d.pixels} violations ${d.violations.length} (${(ms / 1000).toFixed(1)} s, checks ${(d.checkMs / 1000).toFixed(1)} s${d.checkReread ? ', read all again' : ''})`
  );
}

/** The report's last line. */
export function summaryLine(s: Summary): string {
  return (
    `economy: days=${s.days} agents=${s.agents} supply_growth_pct_per_day=${s.supplyGrowthPctPerDay.toFixed(2)} ` +
    `vault_min_over_reserve=${s.vaultMinOverReserve.toFixed(2)} gini=${s.gini.toFixed(3)} ` +
    `best_strategy/baseline=${s.bestStrategyOverBaseline.toFixed(2)} ` +
    `pixels_per_active_hour=${s.pixelsPerActiveHour.toFixed(1)} violations=${s.violations}`
  );
}

/**
 * How the cost of a day moved over the run: day 1 and the last day, and the mean of the last
 * three days over the first three (one day's activity varies; three smooth it). `label`
 * `play`: the days without their end-of-day checks, what the bot itself did.
 */
export function speedLine(dayMs: readonly number[], label = 'speed'): string {
  const s = (ms: number) => (ms / 1000).toFixed(1);
  const mean = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length);
  const first = dayMs[0] ?? 0;
  const last = dayMs.at(-1) ?? 0;
  const ratio = (a: number, b: number) => (b > 0 ? (a / b).toFixed(2) : '–');
  return (
    `${label}: day1=${s(first)} s day${dayMs.length}=${s(last)} s ratio=${ratio(last, first)} ` +
    `last3/first3=${ratio(mean(dayMs.slice(-3)), mean(dayMs.slice(0, 3)))} total=${s(dayMs.reduce((a, b) => a + b, 0))} s`
  );
}
