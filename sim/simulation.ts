import type { Db } from 'mongodb';
import type { ManualClock } from '../src/clock.js';
import { runPool } from '../src/concurrency.js';
import type { Collections } from '../src/db/collections.js';
import type { Assembly } from '../src/features/assemble.js';
import type { BotDeps } from '../src/interactions/types.js';
import type { Rng } from '../src/rng.js';
import { advanceRunningTasks } from '../src/scheduler/scheduler.js';
import { checkInvariants, InvariantCheckpoint } from '../utils/money/ledger/invariants.js';
import { type Agent, type GreedyFloor, linkWorkers, makeAgents, planDay } from './agent.js';
import { Attempts } from './attempts.js';
import type { Behaviours } from './behaviours.js';
import { type DayStats, endOfDay } from './dayStats.js';
import { Heists } from './heists.js';
import { HuntSide } from './huntSide.js';
import { readMemberSettings, UNREAD_SETTINGS } from './memberSettings.js';
import { type MemberWorld, memberTurn } from './memberTurn.js';
import { fundVault, noonPrizes, openingBalances } from './operator.js';
import { PokerTable } from './pokerTable.js';
import { openShop } from './shopSide.js';
import type { SimContext } from './simContext.js';
import { memberTotals, type SimResult } from './simResult.js';
import { DAY_MS, HOUR_MS, STEP_MS, STEPS_PER_HOUR } from './time.js';

/** How many members act at once (as many interactions in flight). */
const IN_FLIGHT = 16;

export interface SimOptions {
  deps: BotDeps;
  clock: ManualClock;
  db: Db;
  cols: Collections;
  assembly: Assembly;
  behaviours: Behaviours;
  days: number;
  agents: number;
  /** At least so many members per greedy strategy (sim/agent.ts, `GreedyFloor`). */
  greedyFloor?: GreedyFloor;
  /** The simulation's own choices (who acts, what they bet); the bot has its own Rng. */
  rng: Rng;
  onDay?: (day: DayStats) => void | Promise<void>;
}

/**
 * Thirty days (or any number) of a community, through the bot's real services on the real
 * database, on a simulated clock whose durable timers run at their due times: hunt windows
 * are drawn, heists close, poker hands move on, blackjack hands time out. Members come and go
 * by their archetype's rhythm; at the end of every day the ledger and every feature's
 * invariants are checked and the economy's state is recorded.
 */
export async function simulateEconomy(options: SimOptions): Promise<SimResult> {
  const sim = new Simulation(options);
  return sim.run();
}

class Simulation {
  readonly #o: SimOptions;
  readonly #ctx: SimContext;
  readonly #agents: Agent[];
  readonly #world: MemberWorld;
  /** When day 1 began. */
  #start = 0;
  #vaultMin = Number.POSITIVE_INFINITY;
  readonly #checkpoint: InvariantCheckpoint;
  /** When the next durable timer is due (read again after every step with actions). */
  #nextDue: number | null = null;

  constructor(options: SimOptions) {
    this.#o = options;
    const ctx: SimContext = {
      deps: options.deps,
      rng: options.rng,
      attempts: new Attempts(),
      settings: UNREAD_SETTINGS,
    };
    this.#ctx = ctx;
    this.#checkpoint = new InvariantCheckpoint(options.cols);
    this.#agents = makeAgents(options.behaviours, options.agents, options.rng, options.greedyFloor);
    const members = new Map<string, Agent>();
    for (const agent of this.#agents) members.set(agent.id, agent);
    const hunting = new HuntSide(ctx);
    this.#world = { ctx, members, hunting, heists: new Heists(ctx), table: new PokerTable(ctx) };
  }

  async run(): Promise<SimResult> {
    const { deps, clock, behaviours } = this.#o;
    const { hunting, table } = this.#world;
    await openingBalances(this.#ctx, this.#agents);
    // Day 1 starts after the opening balances, so its flows are the members' own.
    clock.advance(HOUR_MS);
    const start = clock.now().getTime();
    this.#start = start;
    await fundVault(this.#ctx, behaviours.operator);
    await openShop(this.#ctx, behaviours.operator.shop);
    await linkWorkers(deps, this.#agents);
    const days: DayStats[] = [];
    for (let day = 0; day < this.#o.days; day++) {
      const dayStart = start + day * DAY_MS;
      planDay(this.#agents, dayStart, this.#o.rng);
      hunting.pixelsToday = 0;
      for (let step = 0; step < DAY_MS / STEP_MS; step++) {
        const now = dayStart + step * STEP_MS;
        await this.#advanceTo(now);
        if (step % STEPS_PER_HOUR === 0) await this.#hourly(now, dayStart);
        await this.#step(now, step === 0);
      }
      await this.#advanceTo(dayStart + DAY_MS);
      const stats = await endOfDay(
        { ...this.#o, checkpoint: this.#checkpoint },
        this.#agents,
        hunting,
        day,
        dayStart,
      );
      days.push(stats);
      await this.#o.onDay?.(stats);
    }
    await table.close();
    await deps.ledger.flush();
    // The daily checks read from a checkpoint; the run ends with one over the whole history.
    const fullStarted = performance.now();
    const full = await checkInvariants(this.#o.cols);
    const features = await this.#o.assembly.checkInvariants(
      this.#o.db,
      deps.config,
      deps.ledger,
      clock.now(),
    );
    const last = days.at(-1);
    if (last) last.violations.push(...[...full.problems, ...features].map((p) => `full check: ${p}`));
    const fullCheckMs = performance.now() - fullStarted;
    // Since day 1 began: the opening savings are not something the run earned.
    const totals = await memberTotals(deps, this.#agents, new Date(start));
    return {
      agents: this.#agents,
      days,
      vaultMin: this.#vaultMin,
      reserve: deps.config.ledger.houseMinReserve,
      fullCheckMs,
      refusals: this.#ctx.attempts.refusals,
      actions: this.#ctx.attempts.actions,
      ...totals,
    };
  }

  /** Moves the clock to `at`, running every durable timer at its due time on the way. */
  async #advanceTo(at: number): Promise<void> {
    const { clock, deps } = this.#o;
    if (this.#nextDue !== null && this.#nextDue > at) {
      clock.advanceTo(new Date(at));
      return;
    }
    const { nextDueAt } = await advanceRunningTasks(deps.scheduler, clock, new Date(at));
    this.#nextDue = nextDueAt?.getTime() ?? Number.POSITIVE_INFINITY;
  }

  async #hourly(now: number, dayStart: number): Promise<void> {
    const { deps, behaviours } = this.#o;
    this.#ctx.settings = await readMemberSettings(deps);
    if (now === dayStart) {
      this.#world.hunting.forgetTarget();
      const every = behaviours.operator.huntRerollEveryDays;
      const day = Math.round((dayStart - this.#start) / DAY_MS);
      if (every > 0 && day > 0 && day % every === 0) await this.#world.hunting.reroll();
    }
    this.#vaultMin = Math.min(
      this.#vaultMin,
      await deps.ledger.balanceOf('cookies', deps.ledger.houseAccountId),
    );
    if (now !== dayStart + 12 * HOUR_MS) return;
    await noonPrizes(this.#ctx, behaviours.operator, this.#agents, now);
  }

  /** One step of every member in session; `newDay`: yesterday's sessions were just replaced. */
  async #step(now: number, newDay: boolean): Promise<void> {
    const { hunting, table } = this.#world;
    const active = this.#agents.filter((a) => a.session && now >= a.session[0] && now < a.session[1]);
    // Members get up when their session ended since the last step (at a new day, yesterday's).
    const gone =
      newDay || this.#agents.some((a) => a.session && a.session[1] <= now && a.session[1] > now - STEP_MS);
    if (gone) await table.leaveIfGone(active);
    if (active.length === 0) return;
    const hunt = active.some((a) => a.huntsToday) ? await hunting.now(now) : null;
    const results = await runPool(active.length, IN_FLIGHT, async (i) => {
      const agent = active[i] as Agent;
      if (agent.activeMs === 0 || now === agent.session?.[0]) {
        await this.#o.deps.profiles.touch({ id: agent.id, name: agent.archetype.name });
      }
      agent.activeMs += STEP_MS;
      await memberTurn(this.#world, agent, active, now, hunt);
    });
    for (const r of results) if (r.status === 'rejected') throw r.reason;
    await table.play(active);
    // The members' actions may have planned timers (a heist's close, a window's draw).
    this.#nextDue = null;
  }
}
