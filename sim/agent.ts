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

/**
 * Members per greedy strategy in one run when its share gives fewer: five in a single run; in
 * a matrix ⌈10 / seeds⌉, so that its figure over the seeds of a size rests on 10 members.
 * The greedy together never take more than half the community; the honest archetypes give up
 * members for them, the largest first.
 */
export interface GreedyFloor {
  perStrategy: number;
}

/** How many members follow each archetype: the shares by largest remainder, then the greedy floor. */
export function archetypeCounts(
  archetypes: readonly Archetype[],
  count: number,
  floor?: GreedyFloor,
): number[] {
  // Largest remainder: every archetype with a share gets its members, the counts add up.
  const exact = archetypes.map((a) => a.share * count);
  const counts = exact.map(Math.floor);
  const order = exact.map((e, i) => [e - Math.floor(e), i] as const).sort((a, b) => b[0] - a[0]);
  for (let k = 0; counts.reduce((s, c) => s + c, 0) < count; k++) {
    const index = order[k % order.length]?.[1] as number;
    counts[index] = (counts[index] ?? 0) + 1;
  }
  if (!floor) return counts;
  const greedy = archetypes.flatMap((a, i) => (a.strategy === 'honest' ? [] : [i]));
  const honest = archetypes.flatMap((a, i) => (a.strategy === 'honest' ? [i] : []));
  const greedyTotal = () => greedy.reduce((s, i) => s + (counts[i] ?? 0), 0);
  for (let raised = true; raised; ) {
    raised = false;
    for (const i of greedy) {
      if ((counts[i] ?? 0) >= floor.perStrategy || greedyTotal() + 1 > count / 2) continue;
      const donor = [...honest].sort((a, b) => (counts[b] ?? 0) - (counts[a] ?? 0))[0];
      if (donor === undefined || (counts[donor] ?? 0) <= 1) continue;
      counts[donor] = (counts[donor] ?? 0) - 1;
      counts[i] = (counts[i] ?? 0) + 1;
      raised = true;
    }
  }
  return counts;
}

/** The community: `count` members split between the archetypes by their shares (and the greedy floor). */
export function makeAgents(behaviours: Behaviours, count: number, rng: Rng, floor?: GreedyFloor): Agent[] {
  const { archetypes } = behaviours;
  const agents: Agent[] = [];
  const counts = archetypeCounts(archetypes, count, floor);
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
