/**
 * One bot process of the games fault suite (gamesFaultRun.ts), on the suite's database with its
 * timers running and members' roles given through the fake Discord's REST. A `member` process
 * plays: poker (sit, act, leave, close; a sit-and-go's registrations, play and giving up), blackjack, instant games, heist joins, placements and
 * rollbacks, and the shop and its trades (gamesFaultShopOps.ts), and fires the presses that conflict at once
 * (Close against Sit, two Sits, two registrations for one place, Start against Close, Rotate against an open hand, two rollbacks, two Buys, a rush for
 * the last units, a sale against a gift or a steal, two Confirms of a trade). A `timekeeper` runs
 * with its clock hours ahead: every timer is due for it the moment it is scheduled, so timers
 * and the ledger's recovery race the members' operations in flight. Either may be SIGKILLed at
 * the nth ledger step it reaches. Prints `OPS <done> REFUSED <n> RACES <n>` when it ends alive.
 * Input (JSON in argv[2]): GamesFaultPlan.
 */

import { createBotDeps } from '../../app/botDeps.js';
import { runLedgerRecovery } from '../../app/openApp.js';
import { ASSEMBLY } from '../../commands/index.js';
import { systemClock } from '../../src/clock.js';
import { loadConfig } from '../../src/config.js';
import { isAppError } from '../../src/errors.js';
import { silentLogger } from '../../src/logger.js';
import { seededRng } from '../../src/rng.js';
import { Ledger } from '../../utils/money/ledger/ledger.js';
import { restRoles, type ShopRound } from './gamesFaultShop.js';
import { shopOps } from './gamesFaultShopOps.js';
import { type ChildDatabase, dieAt, openChild } from './nodeProcess.js';

export interface GamesFaultPlan extends ChildDatabase {
  role: 'member' | 'timekeeper';
  seed: string;
  /** How far this process's clock is ahead of the machine's. */
  clockAheadMs: number;
  /** Die at this ledger step (counting every step of every operation); null: live to the end. */
  killAtStep: number | null;
  /** Operations a member process runs (a timekeeper runs as long as `durationMs`). */
  ops: number;
  durationMs: number;
  members: string[];
  table: string;
  sng: string;
  host: string;
  heist: string;
  rollback: string;
  shop: ShopRound;
}

const { plan, client, db, cols } = await openChild<GamesFaultPlan>({ maxPoolSize: 20 });
const config = loadConfig({ ...process.env, HTTP_PORT: '0', RUNTIME_CONFIG_TTL_MS: '0' });
const clock = { now: () => new Date(Date.now() + plan.clockAheadMs) };
const rng = seededRng(plan.seed);
let steps = 0;
const ledger = new Ledger({
  cols,
  clock,
  rng,
  log: silentLogger,
  config: config.ledger,
  hooks: {
    step() {
      if (plan.killAtStep !== null && ++steps === plan.killAtStep) dieAt(`step ${steps}`);
    },
  },
});
const discord = restRoles(plan.shop.discordApi);
const deps = createBotDeps(
  { config, log: silentLogger, clock, wallClock: systemClock, rng, db, cols, ledger },
  ASSEMBLY,
  {
    transport: { send: async () => {}, edit: async () => {} },
    roles: discord.roles,
  },
);
const s = deps.services;
const pick = <T>(items: readonly T[]): T => items[rng.int(0, items.length)] as T;
let done = 0;
let refused = 0;
let races = 0;

/** An operation a member may be refused (not enough Cookies, a closed table, a timer first): fine. */
async function attempt(run: () => Promise<unknown>, what = run.toString().slice(0, 80)): Promise<void> {
  if (process.env.GAMES_FAULTS_DEBUG)
    process.stderr.write(`${plan.role} ${new Date().toISOString()} ${what}\n`);
  try {
    await run();
  } catch (error) {
    if (!isAppError(error) && !(error instanceof Error && /still|in flight|gone/.test(error.message)))
      throw error;
    refused++;
  }
  done++;
}

async function race(...runs: (() => Promise<unknown>)[]): Promise<void> {
  races++;
  await Promise.all(runs.map((run) => attempt(run)));
}

const poker = {
  sit: () => s.poker.join(plan.table, pick(plan.members), 200 + rng.int(0, 5) * 100),
  act: async (tableId = plan.table) => {
    const table = await s.poker.get(tableId);
    const hand = table?.game.hand;
    const player = hand?.players.find((p) => p.seat === hand.toAct);
    if (!table || !player) return s.poker.start(tableId, null);
    const action = pick(['fold', 'check', 'call', 'call', 'raise', 'allin'] as const);
    const move =
      action === 'raise'
        ? { type: 'raise' as const, to: hand?.currentBet ? hand.currentBet * 2 : table.game.bigBlind * 2 }
        : action === 'allin'
          ? { type: 'raise' as const, to: player.committed + (table.game.seats[player.seat]?.stack ?? 0) }
          : { type: action };
    return s.poker.act(tableId, player.userId, move, table.step);
  },
  leave: async (tableId = plan.table) => {
    const table = await s.poker.get(tableId);
    const seated = table?.game.seats.filter((x) => x !== null) ?? [];
    if (seated.length > 0) await s.poker.leave(tableId, pick(seated)?.userId ?? '');
  },
};

/** The round's sit-and-go: registrations (two at once for one place), play, giving up, Start against Close. */
function tournamentOp(op: number, member: string, n: number): Promise<void> {
  switch (op) {
    case 0:
      return race(
        () => s.poker.join(plan.sng, member, 100),
        () => s.poker.join(plan.sng, pick(plan.members), 100),
      );
    case 1:
      return attempt(() => poker.act(plan.sng));
    case 2:
      // Giving up (or taking a registration back) is rare: it would end the tournament early.
      return attempt(() => (rng.int(0, 3) === 0 ? poker.leave(plan.sng) : poker.act(plan.sng)));
    default:
      if (n < plan.ops * 0.5) return attempt(() => poker.act(plan.sng));
      return race(
        () => s.poker.start(plan.sng, plan.host),
        () => s.poker.close(plan.sng, plan.host),
        () => s.poker.join(plan.sng, member, 100),
      );
  }
}

const shop = shopOps(deps, discord.rest, plan.shop, rng, { attempt, race });

async function memberOp(n: number): Promise<void> {
  const member = pick(plan.members);
  const id = `${plan.seed}:${n}`;
  const op = rng.int(0, 26);
  if (op >= 22) return tournamentOp(op - 22, member, n);
  if (op >= 20) return shop.trade(member, pick(plan.members.filter((m) => m !== member)), id);
  if (op >= 12) return shop.shopOp(op - 12, member, plan.members, id);
  switch (op) {
    case 0:
    case 1:
      return attempt(poker.sit);
    case 2:
      return race(
        () => s.poker.join(plan.table, member, 300),
        () => s.poker.join(plan.table, member, 300),
      );
    case 3:
    case 4:
      return attempt(poker.act);
    case 5:
      return attempt(poker.leave);
    case 6:
      // Close against Sit: late in a process's run, so the table is played first.
      if (n < plan.ops * 0.8) return attempt(poker.act);
      return race(
        () => s.poker.close(plan.table, plan.host),
        () => s.poker.join(plan.table, member, 400),
      );
    case 7: {
      const round = await s.games
        .startBlackjack({ roundId: `bj:${id}`, userId: member, bet: 50 })
        .catch(() => null);
      done++;
      if (round?.status !== 'playing') return;
      // Rotate against an open hand, and a press.
      return race(
        () => s.games.rotateSeed(member),
        () => s.games.blackjack(round._id, member, pick(['hit', 'stand', 'double'] as const), round.step),
      );
    }
    case 8:
      return attempt(() =>
        s.games.playInstant(pick(['coinflip', 'dice', 'slots'] as const), {
          roundId: `g:${id}`,
          userId: member,
          bet: 10 + rng.int(0, 200),
          params: { side: 'heads', target: 50 },
        }),
      );
    case 9:
      return attempt(() => s.vault.joinHeist(plan.heist, member));
    case 10:
      return attempt(() =>
        s.place.place({
          opId: `px:${id}`,
          userId: member,
          x: rng.int(0, 64),
          y: rng.int(0, 64),
          color: rng.int(0, 32),
        }),
      );
    default:
      return race(
        () => s.place.rollbacks.apply(plan.rollback, true),
        () => s.place.rollbacks.apply(plan.rollback, true),
      );
  }
}

if (plan.role === 'member') {
  await shop.prepare(plan.members);
  deps.scheduler.start(100);
  for (let n = 0; n < plan.ops; n++) await memberOp(n);
  await deps.scheduler.stop();
} else {
  // Hours ahead: every timer is due at once, and recovery finds every attempt old. Timers that
  // follow each other at once (a poker hand played out by its turn timers) could keep one pass
  // busy for good: the timekeeper stops hard at the end of its time, mid-task, as a process
  // that stops does (its leases run out; a later process takes the tasks over). This timer is
  // the timekeeper's run length, by design; it waits for nothing.
  setTimeout(() => {
    process.stdout.write(`OPS ${done} REFUSED ${refused} RACES ${races}\n`);
    process.exit(0);
  }, plan.durationMs + 1_000).unref();
  const until = Date.now() + plan.durationMs;
  let passes = 0;
  while (Date.now() < until) {
    await attempt(() => deps.scheduler.runDue());
    if (passes++ % 5 === 0) await attempt(() => runLedgerRecovery({ ...deps, db, cols }));
    // The interval between passes of a loop that runs until its end time.
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
await ledger.flush();
process.stdout.write(`OPS ${done} REFUSED ${refused} RACES ${races}\n`);
await client.close();
