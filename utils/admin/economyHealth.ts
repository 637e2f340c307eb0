import { type Clock, DAY_MS, startOfUtcDay, utcDay } from '../../src/clock.js';
import { COOKIE_KINDS } from '../money/cookieEconomy.js';
import type { KindTotal, Ledger } from '../money/ledger/ledger.js';
import { PLACE_KINDS } from '../money/placeEconomy.js';
import type { EconomyDayDoc, EconomyStore, KindRow } from './economyStore.js';

declare module '../../src/features/services.js' {
  interface FeatureServices {
    economy: EconomyHealth;
  }
}

/** What the hunt pays (the Place points members earn by playing, not prizes or refunds). */
const HUNT_KINDS = new Set<string>([PLACE_KINDS.progress, PLACE_KINDS.draw, PLACE_KINDS.time]);
/** Funding the vault is the operator's, not the economy's: it is not a faucet members see. */
const NOT_A_FLOW = new Set<string>([COOKIE_KINDS.vaultFund]);

/** One day of the report: where the supply and the vault stood at its end, and what moved. */
export interface EconomyDay {
  day: string;
  /** Members' Cookies and the vault's at the end of the day (now, for today). */
  supply: number;
  vault: number;
  /** Members' Cookies in and out that day, by kind. */
  flows: Map<string, KindTotal>;
  /** Place points the hunt paid (whole points) and pixels painted. */
  placeEarned: number;
  pixels: number;
}

export interface EconomyReport {
  /** Oldest first; the last one is today so far. */
  days: EconomyDay[];
  reserve: number;
  /** Of the members' Cookies now: 0 when all hold the same, near 1 when one holds all. */
  gini: number;
  members: number;
}

/** The Gini coefficient of `values` (0: all equal). */
export function gini(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const n = sorted.length;
  const total = sorted.reduce((s, v) => s + v, 0);
  if (n === 0 || total === 0) return 0;
  const weighted = sorted.reduce((s, v, i) => s + (i + 1) * v, 0);
  return (2 * weighted) / (n * total) - (n + 1) / n;
}

/** Growth of `to` over `from` in % a day, compounded over `days`. */
export function growthPctPerDay(from: number, to: number, days: number): number | null {
  if (from <= 0 || days <= 0) return null;
  return ((to / from) ** (1 / days) - 1) * 100;
}

/**
 * The economy's health for moderators (`/admin economy health`): the last days' supply, vault,
 * faucets and sinks, Gini and Place points. Each closed day is summed from the ledger's events
 * once and kept (economyStore.ts); a report reads the kept days by id, sums today so far, and
 * walks the supply and the vault back from today's balances through each day's net flows.
 */
export class EconomyHealth {
  constructor(
    private readonly deps: {
      ledger: Pick<Ledger, 'queries' | 'balanceOf' | 'houseAccountId'>;
      store: EconomyStore;
      clock: Clock;
      reserve: number;
    },
  ) {}

  async report(days: number): Promise<EconomyReport> {
    const now = this.deps.clock.now();
    const todayStart = Math.floor(now.getTime() / DAY_MS) * DAY_MS;
    const ids = Array.from({ length: days - 1 }, (_, i) => utcDay(todayStart - (days - 1 - i) * DAY_MS));
    const kept = await this.deps.store.days(ids);
    const closed: EconomyDayDoc[] = [];
    for (const id of ids) closed.push(kept.get(id) ?? (await this.#sumAndKeep(id, now)));
    // Today so far, the present millisecond included.
    const today = await this.#sum(utcDay(todayStart), new Date(now.getTime() + 1), now);
    const { queries } = this.deps.ledger;
    const [balances, vault] = await Promise.all([
      queries.memberBalances('cookies'),
      this.deps.ledger.balanceOf('cookies', this.deps.ledger.houseAccountId),
    ]);
    return {
      days: walkBack([...closed, today], sum(balances), vault),
      reserve: this.deps.reserve,
      gini: gini(balances),
      members: balances.length,
    };
  }

  async #sumAndKeep(id: string, now: Date): Promise<EconomyDayDoc> {
    const day = await this.#sum(id, new Date(startOfUtcDay(id).getTime() + DAY_MS), now);
    await this.deps.store.keep(day);
    return day;
  }

  async #sum(id: string, until: Date, now: Date): Promise<EconomyDayDoc> {
    const since = startOfUtcDay(id);
    const { queries } = this.deps.ledger;
    const [cookies, place] = await Promise.all([
      queries.flowsByKind('cookies', since, until),
      queries.flowsByKind('place', since, until),
    ]);
    return {
      _id: id,
      cookies: { members: rows(cookies.members), house: rows(cookies.house) },
      place: { members: rows(place.members) },
      computedAt: now,
    };
  }
}

function rows(totals: Map<string, KindTotal>): KindRow[] {
  return [...totals].map(([kind, t]) => ({ kind, ...t }));
}

function net(list: KindRow[], skip: ReadonlySet<string> = new Set()): number {
  return list.filter((r) => !skip.has(r.kind)).reduce((s, r) => s + r.in - r.out, 0);
}

/** Each day's end-of-day supply and vault, from today's balances back through each day's net flows. */
function walkBack(days: EconomyDayDoc[], supplyNow: number, vaultNow: number): EconomyDay[] {
  const out: EconomyDay[] = [];
  let supply = supplyNow;
  let vault = vaultNow;
  for (let i = days.length - 1; i >= 0; i--) {
    const d = days[i] as EconomyDayDoc;
    out.unshift({
      day: d._id,
      supply,
      vault,
      flows: new Map(d.cookies.members.filter((r) => !NOT_A_FLOW.has(r.kind)).map((r) => [r.kind, r])),
      placeEarned: d.place.members.filter((r) => HUNT_KINDS.has(r.kind)).reduce((s, r) => s + r.in, 0) / 1000,
      pixels: d.place.members.find((r) => r.kind === PLACE_KINDS.pixel)?.count ?? 0,
    });
    supply -= net(d.cookies.members);
    vault -= net(d.cookies.house);
  }
  return out;
}

function sum(values: readonly number[]): number {
  return values.reduce((s, v) => s + v, 0);
}
