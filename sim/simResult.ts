import type { BotDeps } from '../src/interactions/types.js';
import type { KindTotal } from '../utils/money/ledger/ledger.js';
import type { Agent } from './agent.js';
import type { DayStats } from './dayStats.js';

export interface SimResult {
  agents: Agent[];
  days: DayStats[];
  /** The vault's lowest balance, checked every simulated hour, and the reserve. */
  vaultMin: number;
  reserve: number;
  /** Wall time of the one full check at the end (what every day's check cost before checkpoints). */
  fullCheckMs: number;
  /** Refusals by code (expected: cooldowns, limits, a poor member's bet). */
  refusals: Map<string, number>;
  actions: Map<string, number>;
  /** Each member's Cookie and Place totals by kind over the whole run. */
  cookieTotals: Map<string, Map<string, KindTotal>>;
  placeTotals: Map<string, Map<string, KindTotal>>;
}

/** Each member's Cookie and Place totals by kind since `since`: one read of the history per currency. */
export async function memberTotals(
  deps: BotDeps,
  agents: Agent[],
  since: Date,
): Promise<Pick<SimResult, 'cookieTotals' | 'placeTotals'>> {
  const ids = agents.map((a) => a.id);
  const { queries } = deps.ledger;
  return {
    cookieTotals: await queries.totalsByAccountAndKind('cookies', ids, since),
    placeTotals: await queries.totalsByAccountAndKind('place', ids, since),
  };
}
