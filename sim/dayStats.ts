import type { Db } from 'mongodb';
import type { Collections } from '../src/db/collections.js';
import type { Assembly } from '../src/features/assemble.js';
import type { BotDeps } from '../src/interactions/types.js';
import { checkInvariants } from '../utils/ledger/invariants.js';
import type { KindTotal } from '../utils/ledger/ledger.js';
import type { Agent } from './agent.js';
import { gini } from './gini.js';
import type { HuntSide } from './huntSide.js';
import { DAY_MS, HOUR_MS } from './time.js';

export interface DayStats {
  day: number;
  /** Cookies held by members at the end of the day. */
  supply: number;
  vault: number;
  gini: number;
  activeAgents: number;
  activeHours: number;
  pixels: number;
  cookieFlows: Map<string, KindTotal>;
  houseFlows: Map<string, KindTotal>;
  placeFlows: Map<string, KindTotal>;
  violations: string[];
}

/** The economy at the end of day `day` (from 0), with the ledger's and every feature's invariants checked. */
export async function endOfDay(
  bot: { deps: BotDeps; db: Db; cols: Collections; assembly: Assembly },
  agents: Agent[],
  hunting: HuntSide,
  day: number,
  dayStart: number,
): Promise<DayStats> {
  const { deps, db, assembly } = bot;
  await deps.ledger.flush();
  const balances = await Promise.all(agents.map((a) => deps.ledger.balanceOf('cookies', a.id)));
  const report = await checkInvariants(bot.cols);
  const features = await assembly.checkInvariants(db, deps.config, deps.ledger, deps.clock.now());
  const since = new Date(dayStart);
  const until = new Date(dayStart + DAY_MS);
  const cookies = await deps.ledger.queries.flowsByKind('cookies', since, until);
  const place = await deps.ledger.queries.flowsByKind('place', since, until);
  const today = agents.filter((a) => a.session);
  return {
    day: day + 1,
    supply: balances.reduce((s, b) => s + b, 0),
    vault: await deps.ledger.balanceOf('cookies', deps.ledger.houseAccountId),
    gini: gini(balances),
    activeAgents: today.length,
    activeHours: today.reduce((s, a) => s + ((a.session?.[1] ?? 0) - (a.session?.[0] ?? 0)) / HOUR_MS, 0),
    pixels: hunting.pixelsToday,
    cookieFlows: cookies.members,
    houseFlows: cookies.house,
    placeFlows: place.members,
    violations: [...report.problems, ...features],
  };
}
