import type { Db } from 'mongodb';
import type { Collections } from '../src/db/collections.js';
import type { Assembly } from '../src/features/assemble.js';
import type { BotDeps } from '../src/interactions/types.js';
import { gini } from '../utils/admin/economyHealth.js';
import type { InvariantCheckpoint } from '../utils/money/ledger/invariants.js';
import type { KindTotal } from '../utils/money/ledger/ledger.js';
import type { Agent } from './agent.js';
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
  /** Wall time of the day's end-of-day checks and reads, in ms (the rest of the day is play). */
  checkMs: number;
  /** The day's check read the whole history again (InvariantCheckpoint: a difference to explain). */
  checkReread: boolean;
}

/** The economy at the end of day `day` (from 0), with the ledger's and every feature's invariants checked. */
export async function endOfDay(
  bot: { deps: BotDeps; db: Db; cols: Collections; assembly: Assembly; checkpoint: InvariantCheckpoint },
  agents: Agent[],
  hunting: HuntSide,
  day: number,
  dayStart: number,
): Promise<DayStats> {
  const { deps, db, assembly } = bot;
  const started = performance.now();
  await deps.ledger.flush();
  const balances = await Promise.all(agents.map((a) => deps.ledger.balanceOf('cookies', a.id)));
  // From the last checkpoint: only the day's events are read (a full check ends the run).
  const rereads = bot.checkpoint.rereads;
  const report = await bot.checkpoint.check(new Date(deps.clock.now().getTime() + 1));
  // Each feature's books for what ended today and what is still open.
  const features = await assembly.checkInvariants(
    db,
    deps.config,
    deps.ledger,
    deps.clock.now(),
    new Date(dayStart),
  );
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
    checkMs: performance.now() - started,
    checkReread: bot.checkpoint.rereads > rereads,
  };
}
