import type { BotDeps } from '../src/interactions/types.js';
import type { Rng } from '../src/rng.js';
import type { Archetype, Behaviours, Strategy } from './behaviours.js';
import { chance, uniform } from './random.js';
import { DAY_MS, HOUR_MS } from './time.js';

/** The most workers a member may link (WorkerService). */
const MAX_WORKERS = 10;

export interface Agent {
  id: string;
  archetype: Archetype;
  strategy: Strategy;
  skill: number;
  sessionHours: number;
  startHour: number;
  /** Worker identities hunting for this member. */
  workers: string[];
  activeMs: number;
  /** Of that, hunting (a member hunts in some sessions, by `huntShare`). */
  huntMs: number;
  huntsToday: boolean;
  pixels: number;
  /** Today's session [start, end) in ms, or null on a day off. */
  session: [number, number] | null;
  nextCollectAt: number;
  nextStealAt: number;
  martingaleBet: number;
  tipped: Map<string, string>;
}

/** The community: `count` members split between the archetypes by their shares. */
export function makeAgents(behaviours: Behaviours, count: number, rng: Rng): Agent[] {
  const { archetypes } = behaviours;
  const agents: Agent[] = [];
  // Largest remainder: every archetype with a share gets its members, the counts add up.
  const exact = archetypes.map((a) => a.share * count);
  const counts = exact.map(Math.floor);
  const order = exact.map((e, i) => [e - Math.floor(e), i] as const).sort((a, b) => b[0] - a[0]);
  for (let k = 0; counts.reduce((s, c) => s + c, 0) < count; k++) {
    const index = order[k % order.length]?.[1] as number;
    counts[index] = (counts[index] ?? 0) + 1;
  }
  archetypes.forEach((archetype, a) => {
    for (let i = 0; i < (counts[a] ?? 0); i++) {
      agents.push({
        id: `7${String(agents.length).padStart(17, '0')}`,
        archetype,
        strategy: archetype.strategy,
        skill: uniform(rng, archetype.skill),
        sessionHours: uniform(rng, archetype.sessionHours),
        startHour: uniform(rng, archetype.startHour),
        workers: [],
        activeMs: 0,
        huntMs: 0,
        huntsToday: false,
        pixels: 0,
        session: null,
        nextCollectAt: 0,
        nextStealAt: 0,
        martingaleBet: 0,
        tipped: new Map(),
      });
    }
  });
  return agents;
}

/** The worker farmers link their workers before day 1. */
export async function linkWorkers(deps: BotDeps, agents: Agent[]): Promise<void> {
  for (const agent of agents.filter((a) => a.strategy === 'worker_farmer')) {
    for (let w = 0; w < Math.min(MAX_WORKERS, agent.archetype.workers); w++) {
      agent.workers.push((await deps.services.workers.link(agent.id, `farm ${w}`))._id);
    }
  }
}

/** Who plays today, and when. */
export function planDay(agents: Agent[], dayStart: number, rng: Rng): void {
  for (const agent of agents) {
    const plays = chance(rng, agent.archetype.daysPerWeek / 7);
    agent.huntsToday = agent.archetype.hunts && chance(rng, agent.archetype.huntShare);
    const from = dayStart + Math.floor(agent.startHour * HOUR_MS);
    agent.session = plays ? [from, Math.min(from + agent.sessionHours * HOUR_MS, dayStart + DAY_MS)] : null;
  }
}
