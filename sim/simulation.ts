import type { Db } from 'mongodb';
import type { ManualClock } from '../src/clock.js';
import { runPool } from '../src/concurrency.js';
import type { Collections } from '../src/db/collections.js';
import { isAppError } from '../src/errors.js';
import type { Assembly } from '../src/features/assemble.js';
import type { BotDeps } from '../src/interactions/types.js';
import type { Rng } from '../src/rng.js';
import { advanceRunningTasks } from '../src/scheduler/scheduler.js';
import { checkInvariants } from '../utils/ledger/invariants.js';
import type { KindTotal } from '../utils/ledger/ledger.js';
import { legalActions, type PokerAction } from '../utils/poker/engine.js';
import { seatOf } from '../utils/poker/pokerService.js';
import type { TableDoc } from '../utils/poker/tableStore.js';
import { ACTIONS, type Action, type Archetype, type Behaviours, type Strategy } from './behaviours.js';

/** Simulated time moves in steps of two minutes: the active-time reward's largest gap. */
export const STEP_MS = 2 * 60_000;
const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
const STEPS_PER_HOUR = HOUR_MS / STEP_MS;
/** How many members act at once (as many interactions in flight). */
const IN_FLIGHT = 16;
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

export interface SimResult {
  agents: Agent[];
  days: DayStats[];
  /** The vault's lowest balance, checked every simulated hour, and the reserve. */
  vaultMin: number;
  reserve: number;
  /** Refusals by code (expected: cooldowns, limits, a poor member's bet). */
  refusals: Map<string, number>;
  actions: Map<string, number>;
  /** Each member's Cookie and Place totals by kind over the whole run. */
  cookieTotals: Map<string, Map<string, KindTotal>>;
  placeTotals: Map<string, Map<string, KindTotal>>;
}

export interface SimOptions {
  deps: BotDeps;
  clock: ManualClock;
  db: Db;
  cols: Collections;
  assembly: Assembly;
  behaviours: Behaviours;
  days: number;
  agents: number;
  /** The simulation's own choices (who acts, what they bet); the bot has its own Rng. */
  rng: Rng;
  onDay?: (day: DayStats) => void;
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
  readonly #agents: Agent[];
  readonly #byId = new Map<string, Agent>();
  readonly #refusals = new Map<string, number>();
  readonly #actions = new Map<string, number>();
  #openHeist: { id: string; closesAt: number } | null = null;
  #table: string | null = null;
  #counter = 0;
  /** When day 1 began. */
  #start = 0;
  #vaultMin = Number.POSITIVE_INFINITY;
  #pixelsToday = 0;
  /** The settings the members' choices depend on, read again every simulated hour. */
  #settings = {
    collectCooldownMs: 0,
    stealCooldownMs: 0,
    minBet: 0,
    maxBet: 0,
    pixelCost: 0,
    paths: 1,
    minBuyIn: 0,
    heistMinStake: 0,
    heistWindowMs: 0,
  };
  /** The hunt's open window (until it closes) and target (until the day ends). */
  #window: { _id: string; closesAt: Date } | null = null;
  #target: number[] | null = null;
  /** When the next durable timer is due (read again after every step with actions). */
  #nextDue: number | null = null;

  constructor(options: SimOptions) {
    this.#o = options;
    this.#agents = this.#makeAgents();
    for (const agent of this.#agents) this.#byId.set(agent.id, agent);
  }

  get #deps() {
    return this.#o.deps;
  }

  #uniform([low, high]: [number, number]): number {
    return low + (this.#o.rng.int(0, 1_000_000) / 1_000_000) * (high - low);
  }

  #chance(p: number): boolean {
    return this.#o.rng.int(0, 1_000_000) < p * 1_000_000;
  }

  #pick<T>(list: readonly T[]): T {
    return list[this.#o.rng.int(0, list.length)] as T;
  }

  #makeAgents(): Agent[] {
    const { archetypes } = this.#o.behaviours;
    const agents: Agent[] = [];
    // Largest remainder: every archetype with a share gets its members, the counts add up.
    const exact = archetypes.map((a) => a.share * this.#o.agents);
    const counts = exact.map(Math.floor);
    const order = exact.map((e, i) => [e - Math.floor(e), i] as const).sort((a, b) => b[0] - a[0]);
    for (let k = 0; counts.reduce((s, c) => s + c, 0) < this.#o.agents; k++) {
      const index = order[k % order.length]?.[1] as number;
      counts[index] = (counts[index] ?? 0) + 1;
    }
    archetypes.forEach((archetype, a) => {
      for (let i = 0; i < (counts[a] ?? 0); i++) {
        agents.push({
          id: `7${String(agents.length).padStart(17, '0')}`,
          archetype,
          strategy: archetype.strategy,
          skill: this.#uniform(archetype.skill),
          sessionHours: this.#uniform(archetype.sessionHours),
          startHour: this.#uniform(archetype.startHour),
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

  async run(): Promise<SimResult> {
    const { deps, clock, behaviours } = this.#o;
    await this.#openingBalances();
    // Day 1 starts after the opening balances, so its flows are the members' own.
    clock.advance(HOUR_MS);
    const start = clock.now().getTime();
    this.#start = start;
    await deps.services.vault.fund({
      opId: 'sim.vault.fund',
      adminId: 'operator',
      amount: behaviours.operator.vaultFund,
      reason: 'the operator funds the vault',
    });
    for (const agent of this.#agents.filter((a) => a.strategy === 'worker_farmer')) {
      for (let w = 0; w < Math.min(MAX_WORKERS, agent.archetype.workers); w++) {
        agent.workers.push((await deps.services.workers.link(agent.id, `farm ${w}`))._id);
      }
    }
    const days: DayStats[] = [];
    for (let day = 0; day < this.#o.days; day++) {
      const dayStart = start + day * DAY_MS;
      this.#planDay(dayStart);
      this.#pixelsToday = 0;
      for (let step = 0; step < DAY_MS / STEP_MS; step++) {
        const now = dayStart + step * STEP_MS;
        await this.#advanceTo(now);
        if (step % STEPS_PER_HOUR === 0) await this.#hourly(now, dayStart);
        await this.#step(now, step === 0);
      }
      await this.#advanceTo(dayStart + DAY_MS);
      const stats = await this.#endOfDay(day, dayStart);
      days.push(stats);
      this.#o.onDay?.(stats);
    }
    await this.#closeTable();
    await deps.ledger.flush();
    const cookieTotals = new Map<string, Map<string, KindTotal>>();
    const placeTotals = new Map<string, Map<string, KindTotal>>();
    // Since day 1 began: the opening savings are not something the run earned.
    const since = new Date(start);
    for (const agent of this.#agents) {
      cookieTotals.set(agent.id, await deps.ledger.queries.totalsByKind('cookies', agent.id, since));
      placeTotals.set(agent.id, await deps.ledger.queries.totalsByKind('place', agent.id, since));
    }
    return {
      agents: this.#agents,
      days,
      vaultMin: this.#vaultMin,
      reserve: deps.config.ledger.houseMinReserve,
      refusals: this.#refusals,
      actions: this.#actions,
      cookieTotals,
      placeTotals,
    };
  }

  /** What members hold when the run starts (a mature server), granted as a moderator would. */
  async #openingBalances(): Promise<void> {
    for (const agent of this.#agents) {
      const amount = Math.round(this.#uniform(agent.archetype.startingCookies));
      if (amount === 0) continue;
      await this.#deps.profiles.touch({ id: agent.id, name: agent.archetype.name });
      await this.#deps.services.cookies.grant({
        opId: `sim.opening:${agent.id}`,
        adminId: 'operator',
        to: agent.id,
        amount,
        reason: 'savings of a mature server',
      });
    }
  }

  /** Who plays today, and when. */
  #planDay(dayStart: number): void {
    for (const agent of this.#agents) {
      const plays = this.#chance(agent.archetype.daysPerWeek / 7);
      agent.huntsToday = agent.archetype.hunts && this.#chance(agent.archetype.huntShare);
      const from = dayStart + Math.floor(agent.startHour * HOUR_MS);
      agent.session = plays ? [from, Math.min(from + agent.sessionHours * HOUR_MS, dayStart + DAY_MS)] : null;
    }
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

  async #readSettings(): Promise<void> {
    const c = this.#deps.runtimeConfig;
    this.#settings = {
      collectCooldownMs: (await c.get('cookies.collect_cooldown_s')) * 1000,
      stealCooldownMs: (await c.get('cookies.steal_cooldown_s')) * 1000,
      minBet: await c.get('games.min_bet'),
      maxBet: await c.get('games.max_bet'),
      pixelCost: await this.#deps.services.place.pixelCost(),
      paths: await c.get('hunt_paths'),
      minBuyIn: (await c.get('poker.small_blind')) * 2 * (await c.get('poker.min_buy_in_bb')),
      heistMinStake: await c.get('vault.heist_min_stake'),
      heistWindowMs: (await c.get('vault.heist_window_s')) * 1000,
    };
  }

  async #hourly(now: number, dayStart: number): Promise<void> {
    const { deps, behaviours } = this.#o;
    await this.#readSettings();
    if (now === dayStart) {
      this.#target = null;
      const every = behaviours.operator.huntRerollEveryDays;
      const day = Math.round((dayStart - this.#start) / DAY_MS);
      if (every > 0 && day > 0 && day % every === 0) {
        const { hunt } = deps.services;
        await this.#try('hunt reroll', async () => hunt.reroll((await hunt.task()).revision));
        this.#window = null;
      }
    }
    this.#vaultMin = Math.min(
      this.#vaultMin,
      await deps.ledger.balanceOf('cookies', deps.ledger.houseAccountId),
    );
    if (now !== dayStart + 12 * HOUR_MS) return;
    // Moderators' prizes at noon, to members who play today.
    const today = this.#agents.filter((a) => a.session);
    if (today.length === 0) return;
    const { cookieGrantsPerDay: cookies, placeGrantsPerDay: place } = behaviours.operator;
    for (let i = 0; i < cookies.count; i++) {
      await this.#try('grant cookies', () =>
        deps.services.cookies.grant({
          opId: `sim.grant.cookies:${now}:${i}`,
          adminId: 'moderator',
          to: this.#pick(today).id,
          amount: cookies.amount,
          reason: 'event prize',
        }),
      );
    }
    for (let i = 0; i < place.count; i++) {
      await this.#try('grant points', () =>
        deps.services.place.grant({
          opId: `sim.grant.place:${now}:${i}`,
          moderatorId: 'moderator',
          to: this.#pick(today).id,
          amount: place.points * 1000,
          reason: 'event prize',
        }),
      );
    }
  }

  /** One step of every member in session; `newDay`: yesterday's sessions were just replaced. */
  async #step(now: number, newDay: boolean): Promise<void> {
    const active = this.#agents.filter((a) => a.session && now >= a.session[0] && now < a.session[1]);
    // Members get up when their session ended since the last step (at a new day, yesterday's).
    const gone =
      newDay || this.#agents.some((a) => a.session && a.session[1] <= now && a.session[1] > now - STEP_MS);
    if (gone) await this.#leaveTableIfGone(active);
    if (active.length === 0) return;
    const hunt = active.some((a) => a.huntsToday) ? await this.#huntNow(now) : null;
    const results = await runPool(active.length, IN_FLIGHT, async (i) => {
      const agent = active[i] as Agent;
      if (agent.activeMs === 0 || now === agent.session?.[0]) {
        await this.#deps.profiles.touch({ id: agent.id, name: agent.archetype.name });
      }
      agent.activeMs += STEP_MS;
      await this.#act(agent, active, now, hunt);
    });
    for (const r of results) if (r.status === 'rejected') throw r.reason;
    await this.#playPoker(active);
    // The members' actions may have planned timers (a heist's close, a window's draw).
    this.#nextDue = null;
  }

  async #huntNow(now: number): Promise<{ window: { _id: string }; target: number[] }> {
    const { hunt } = this.#deps.services;
    if (!this.#window || this.#window.closesAt.getTime() <= now) this.#window = await hunt.currentWindow();
    this.#target ??= (await hunt.task()).target;
    return { window: this.#window, target: this.#target };
  }

  /** Counts an action; a refusal (an AppError) is counted by its code, anything else is a bug. */
  async #try<T>(name: string, action: () => Promise<T>): Promise<T | null> {
    try {
      const result = await action();
      this.#actions.set(name, (this.#actions.get(name) ?? 0) + 1);
      return result;
    } catch (error) {
      if (!isAppError(error)) throw error;
      this.#refusals.set(error.code, (this.#refusals.get(error.code) ?? 0) + 1);
      return null;
    }
  }

  #rolls(agent: Agent, action: Action): boolean {
    return this.#chance((agent.archetype.rates[action] ?? 0) / STEPS_PER_HOUR);
  }

  #id(kind: string): string {
    return `sim.${kind}:${++this.#counter}`;
  }

  async #act(
    agent: Agent,
    active: Agent[],
    now: number,
    hunt: { window: { _id: string }; target: number[] } | null,
  ): Promise<void> {
    const { services, ledger } = this.#deps;
    if (now >= agent.nextCollectAt) {
      const collected = await this.#try('collect', () => services.collect.collect(agent.id, 'command'));
      agent.nextCollectAt = now + (collected ? this.#settings.collectCooldownMs : 10 * 60_000);
    }
    if (hunt && agent.huntsToday) {
      agent.huntMs += STEP_MS;
      await this.#hunt(agent, hunt, now);
    }
    // What the member does this step is decided first: only one about to act reads its balance.
    const does = new Set(ACTIONS.filter((action) => this.#rolls(agent, action)));
    if (agent.strategy === 'richest_thief') return this.#stealFromTheRichest(agent, now, does);
    if (does.size === 0) return;
    const balance = await ledger.balanceOf('cookies', agent.id);
    if (agent.strategy === 'martingale') return this.#martingale(agent, balance);
    const others = active.filter((a) => a !== agent);

    const bet = this.#bet(agent, balance);
    if (bet !== null) {
      if (does.has('coinflip')) {
        await this.#try('coinflip', () =>
          services.games.playInstant('coinflip', {
            roundId: this.#id('coinflip'),
            userId: agent.id,
            bet,
            params: { side: this.#chance(0.5) ? 'heads' : 'tails' },
          }),
        );
      }
      if (does.has('dice')) {
        await this.#try('dice', () =>
          services.games.playInstant('dice', {
            roundId: this.#id('dice'),
            userId: agent.id,
            bet,
            params: { target: 10 + this.#o.rng.int(0, 81) },
          }),
        );
      }
      if (does.has('slots')) {
        await this.#try('slots', () =>
          services.games.playInstant('slots', { roundId: this.#id('slots'), userId: agent.id, bet }),
        );
      }
      if (does.has('blackjack')) {
        const roundId = this.#id('blackjack');
        const hand = await this.#try('blackjack', () =>
          services.games.startBlackjack({ roundId, userId: agent.id, bet }),
        );
        if (hand?.status === 'playing') {
          await this.#try('blackjack stand', () =>
            services.games.blackjack(roundId, agent.id, 'stand', hand.step),
          );
        }
      }
    }
    if (others.length > 0 && balance > 20 && does.has('give')) {
      const promptId = this.#id('give');
      const to = this.#pick(others).id;
      await this.#try('give', async () => {
        await services.cookies.openGive({ promptId, from: agent.id, to, amount: Math.ceil(balance * 0.05) });
        return services.cookies.confirmGive(promptId, agent.id);
      });
    }
    if (others.length > 0 && does.has('steal')) {
      const victim = this.#pick(others).id;
      await this.#try('steal', () =>
        services.steal.steal({ opId: this.#id('steal'), thief: agent.id, victim }),
      );
    }
    if (does.has('heist')) await this.#heist(agent, now, balance);
    if (does.has('poker')) await this.#sitDown(agent, balance);
  }

  /** A bet of the member's usual share of its balance, within the games' limits; null if too poor. */
  #bet(agent: Agent, balance: number): number | null {
    const { minBet: min, maxBet: max } = this.#settings;
    const bet = Math.min(max, Math.max(min, Math.floor((balance * agent.archetype.betPct) / 100)));
    return balance >= bet && balance >= min ? bet : null;
  }

  /** Doubles the coin-flip bet after every loss, back to its usual bet after a win. */
  async #martingale(agent: Agent, balance: number): Promise<void> {
    const base = this.#bet(agent, balance);
    if (base === null) return;
    if (agent.martingaleBet === 0 || agent.martingaleBet > balance) agent.martingaleBet = base;
    const bet = agent.martingaleBet;
    const round = await this.#try('coinflip', () =>
      this.#deps.services.games.playInstant('coinflip', {
        roundId: this.#id('coinflip'),
        userId: agent.id,
        bet,
        params: { side: 'heads' },
      }),
    );
    if (!round) {
      agent.martingaleBet = 0;
      return;
    }
    agent.martingaleBet = (round.payout ?? 0) > bet ? base : bet * 2;
  }

  async #stealFromTheRichest(agent: Agent, now: number, does: Set<Action>): Promise<void> {
    if (now < agent.nextStealAt || !does.has('steal')) return;
    const richest = (await this.#deps.ledger.queries.topBalances('cookies', 12)).filter(
      (row) => row.account !== agent.id && this.#byId.has(row.account),
    );
    // The richest it may rob: a protected or exhausted victim refuses, and it tries the next.
    for (const { account } of richest.slice(0, 4)) {
      const done = await this.#try('steal', () =>
        this.#deps.services.steal.steal({ opId: this.#id('steal'), thief: agent.id, victim: account }),
      );
      if (done) break;
    }
    agent.nextStealAt = now + this.#settings.stealCooldownMs;
  }

  async #hunt(agent: Agent, hunt: { window: { _id: string }; target: number[] }, now: number): Promise<void> {
    const { services } = this.#deps;
    for (const identity of [agent.id, ...agent.workers]) {
      await this.#try('hunt activity', () => services.hunt.activity(identity));
      if (agent.strategy === 'time_farmer' || agent.tipped.get(identity) === hunt.window._id) continue;
      // Skill pulls each guess towards the target: 1 guesses it, 0 guesses at random.
      const guess = hunt.target.map((t) =>
        Math.round(t * agent.skill + this.#o.rng.int(0, 100) * (1 - agent.skill)),
      );
      const tipped = await this.#try('hunt tip', () =>
        services.hunt.tip(identity, guess, this.#o.rng.int(0, this.#settings.paths)),
      );
      if (tipped) agent.tipped.set(identity, hunt.window._id);
    }
    // Points are for pixels: every few minutes a hunter paints what its wallet buys.
    if ((now / STEP_MS) % 3 !== 0) return;
    const { place } = services;
    const cost = this.#settings.pixelCost;
    let wallet = (await place.wallet(agent.id)).balance;
    for (let n = 0; n < 10 && wallet >= cost; n++) {
      const placed = await this.#try('place pixel', () =>
        place.place({
          opId: this.#id('pixel'),
          userId: agent.id,
          x: this.#o.rng.int(0, 64),
          y: this.#o.rng.int(0, 64),
          color: this.#o.rng.int(0, 32),
        }),
      );
      if (!placed) break;
      agent.pixels++;
      this.#pixelsToday++;
      wallet -= cost;
    }
  }

  async #heist(agent: Agent, now: number, balance: number): Promise<void> {
    const { vault } = this.#deps.services;
    if (this.#openHeist && now < this.#openHeist.closesAt) {
      const id = this.#openHeist.id;
      await this.#try('heist join', () => vault.joinHeist(id, agent.id));
      return;
    }
    const stake = Math.max(this.#settings.heistMinStake, Math.floor(balance * 0.02));
    if (balance < stake) return;
    const heistId = this.#id('heist');
    const started = await this.#try('heist start', () =>
      vault.startHeist({ heistId, leader: agent.id, stake, locale: 'en' }),
    );
    if (started) this.#openHeist = { id: heistId, closesAt: now + this.#settings.heistWindowMs };
  }

  async #sitDown(agent: Agent, balance: number): Promise<void> {
    const { poker } = this.#deps.services;
    if (!this.#table) {
      // Only a member who can afford a seat opens a table.
      if (balance * 0.2 < this.#settings.minBuyIn) return;
      const tableId = this.#id('table');
      const created = await this.#try('poker table', () =>
        poker.create({ tableId, hostId: agent.id, channelId: null, locale: 'en' }),
      );
      if (!created) return;
      this.#table = tableId;
    }
    const table = await poker.get(this.#table);
    if (!table || table.status === 'closed') {
      this.#table = null;
      return;
    }
    if (seatOf(table, agent.id) !== null) return;
    const buyIn = Math.min(table.maxBuyIn, Math.floor(balance * 0.2));
    if (buyIn < table.minBuyIn) return;
    const id = this.#table;
    await this.#try('poker buy-in', () => poker.join(id, agent.id, buyIn));
  }

  /** The members to act at the table act (a simple, sound player); absent ones time out. */
  async #playPoker(active: Agent[]): Promise<void> {
    if (!this.#table) return;
    const { poker } = this.#deps.services;
    const here = new Set(active.map((a) => a.id));
    // Each move answers the table as it is after it; it is read again only after a refusal.
    let table = await poker.get(this.#table);
    for (let moves = 0; moves < 60; moves++) {
      if (!table || table.status === 'closed') {
        this.#table = null;
        return;
      }
      const seated = table.game.seats.filter((s) => s && s.stack > 0).length;
      const hand = table.game.hand;
      let next: TableDoc | null;
      if (!hand || hand.street === 'done') {
        if (seated < 2 || table.game.handsPlayed !== 0) return;
        const { _id, hostId } = table;
        next = await this.#try('poker start', () => poker.start(_id, hostId));
      } else {
        if (hand.toAct === null) return;
        const seat = table.game.seats[hand.toAct];
        if (!seat || !here.has(seat.userId)) return;
        const legal = legalActions(table.game, hand.toAct);
        const roll = this.#o.rng.int(0, 100);
        let action: PokerAction;
        if (legal.canCheck) {
          action = legal.canRaise && roll < 15 ? { type: 'raise', to: legal.minRaiseTo } : { type: 'check' };
        } else if (legal.toCall <= seat.stack * 0.25 || roll < 30) {
          action = { type: 'call' };
        } else {
          action = { type: 'fold' };
        }
        const { _id, step } = table;
        next = await this.#try(`poker ${action.type}`, () => poker.act(_id, seat.userId, action, step));
      }
      table = next ?? (await poker.get(this.#table));
    }
  }

  /** Members whose session ended get up (cashing out); an empty table closes. */
  async #leaveTableIfGone(active: Agent[]): Promise<void> {
    if (!this.#table) return;
    const { poker } = this.#deps.services;
    const table = await poker.get(this.#table);
    if (!table || table.status === 'closed') {
      this.#table = null;
      return;
    }
    const here = new Set(active.map((a) => a.id));
    for (const seat of table.game.seats) {
      if (seat && !here.has(seat.userId)) {
        const id = this.#table;
        await this.#try('poker leave', () => poker.leave(id, seat.userId));
      }
    }
    const after = await poker.get(this.#table);
    if (after && after.game.seats.filter((s) => s).length === 0) await this.#closeTable();
  }

  async #closeTable(): Promise<void> {
    if (!this.#table) return;
    const id = this.#table;
    this.#table = null;
    await this.#try('poker close', () => this.#deps.services.poker.close(id, null));
  }

  async #endOfDay(day: number, dayStart: number): Promise<DayStats> {
    const { deps, db, assembly } = this.#o;
    await deps.ledger.flush();
    const balances = await Promise.all(this.#agents.map((a) => deps.ledger.balanceOf('cookies', a.id)));
    const report = await checkInvariants(this.#o.cols);
    const features = await assembly.checkInvariants(db, deps.config, deps.ledger, deps.clock.now());
    const since = new Date(dayStart);
    const until = new Date(dayStart + DAY_MS);
    const cookies = await deps.ledger.queries.flowsByKind('cookies', since, until);
    const place = await deps.ledger.queries.flowsByKind('place', since, until);
    const today = this.#agents.filter((a) => a.session);
    return {
      day: day + 1,
      supply: balances.reduce((s, b) => s + b, 0),
      vault: await deps.ledger.balanceOf('cookies', deps.ledger.houseAccountId),
      gini: gini(balances),
      activeAgents: today.length,
      activeHours: today.reduce((s, a) => s + ((a.session?.[1] ?? 0) - (a.session?.[0] ?? 0)) / HOUR_MS, 0),
      pixels: this.#pixelsToday,
      cookieFlows: cookies.members,
      houseFlows: cookies.house,
      placeFlows: place.members,
      violations: [...report.problems, ...features],
    };
  }
}

/** The Gini coefficient of non-negative values: 0 when all are equal, towards 1 when one holds all. */
export function gini(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const total = sorted.reduce((s, v) => s + v, 0);
  if (sorted.length === 0 || total === 0) return 0;
  const weighted = sorted.reduce((s, v, i) => s + (i + 1) * v, 0);
  return (2 * weighted) / (sorted.length * total) - (sorted.length + 1) / sorted.length;
}
