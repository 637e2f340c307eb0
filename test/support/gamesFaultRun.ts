import { MongoClient } from 'mongodb';
import { createBotDeps } from '../../app/botDeps.js';
import { appCollections, ensureAppIndexes } from '../../app/openApp.js';
import { ASSEMBLY } from '../../commands/index.js';
import { type Clock, ManualClock, systemClock } from '../../src/clock.js';
import { loadConfig } from '../../src/config.js';
import type { BotDeps } from '../../src/interactions/types.js';
import { silentLogger } from '../../src/logger.js';
import { seededRng } from '../../src/rng.js';
import { ENDED } from '../../utils/money/holds/holds.js';
import { holdsByOwner } from '../../utils/money/holds/invariants.js';
import { checkInvariants } from '../../utils/money/ledger/invariants.js';
import { Ledger } from '../../utils/money/ledger/ledger.js';
import { recoverLedger } from '../../utils/money/ledger/recovery.js';
import type { GamesFaultPlan } from './gamesFaultChild.js';
import { restRoles, SHOP_HOLD_KINDS, ShopFaults, type ShopRound } from './gamesFaultShop.js';
import { type NodeRun, runNode } from './nodeProcess.js';
import { playOut } from './sitAndGo.js';

export interface GamesFaultOptions {
  serverUri: string;
  dbName: string;
  seed: number;
  rounds: number;
  /** Member processes per round (a timekeeper runs beside them). */
  members?: number;
  /** Operations per member process and round. */
  ops?: number;
}

export interface GamesFaultResult {
  rounds: number;
  kills: number;
  races: number;
  ops: number;
  refused: number;
  /** Value held by an owner that ended (a closed table's pot, a hold left open or not emptied). */
  stranded: number;
  /** How often the fake Discord changed how it answers role changes. */
  discordTurns: number;
  /** The rounds' sit-and-gos: played to the end and their prizes paid, or called off before the start. */
  tournaments: { paid: number; calledOff: number };
  violations: string[];
}

const MEMBERS = Array.from({ length: 6 }, (_, i) => `8990000000000000${String(i + 10)}`);
const HOUR = 3_600_000;

/**
 * The crash and race suite of the layer above the ledger (`npm run test:games-faults`): each
 * round opens a poker table, a sit-and-go, a heist, a rollback and a shelf (gamesFaultShop.ts), lets member
 * processes play everything at once beside a timekeeper whose clock runs hours ahead (so every
 * timer races the operations it would finish) while the fake Discord turns between answering
 * role changes, failing them and not answering, kills one process at a random ledger step,
 * then recovers as a restarted bot would (the ledger's recovery, every timer, the table closed)
 * and checks the ledger, the books of every owner of money in play, what ended owners still
 * hold, and the shop: every purchase and trade ended, the roles on Discord, the stock.
 */
export async function runGamesFaults(options: GamesFaultOptions): Promise<GamesFaultResult> {
  const client = new MongoClient(options.serverUri, { maxPoolSize: 20 });
  await client.connect();
  const db = client.db(options.dbName);
  await db.dropDatabase();
  await ensureAppIndexes(db);
  await ASSEMBLY.ensureIndexes(db);
  const rng = seededRng(`games-faults:${options.seed}`);
  const result: GamesFaultResult = {
    rounds: 0,
    kills: 0,
    races: 0,
    ops: 0,
    refused: 0,
    stranded: 0,
    discordTurns: 0,
    tournaments: { paid: 0, calledOff: 0 },
    violations: [],
  };
  const shop = new ShopFaults(MEMBERS, MEMBERS[0] as string);
  await shop.start();
  try {
    const recovery = recoveryDeps(db, shop.discord.apiUrl, new ManualClock(new Date(Date.now() + HOUR)));
    // A moderator at the machine's time: what it plans falls due for the timekeeper.
    const moderator = recoveryDeps(db, shop.discord.apiUrl, systemClock).deps;
    const seen = new Set<string>();
    await setUp(recovery.deps);
    await shop.setUp(recovery.deps);
    for (let round = 1; round <= options.rounds; round++) {
      const owners = {
        ...(await openRound(recovery.deps, round)),
        shop: await shop.openRound(recovery.deps, moderator, round),
      };
      const plans = planRound(options, rng, round, owners);
      const victim = rng.int(0, 10) < 7 ? rng.int(0, plans.length) : -1;
      const killAt = victim >= 0 ? 1 + rng.int(0, 120) : null;
      const t0 = performance.now();
      const playing = Promise.all(
        plans.map((p, i) => runChild({ ...p, killAtStep: i === victim ? killAt : null })),
      );
      result.discordTurns += await shop.turnDiscord(`games-faults:discord:${options.seed}:${round}`, playing);
      const runs = await playing;
      for (const [i, run] of runs.entries()) {
        if (run.signal === 'SIGKILL') result.kills++;
        else if (run.code !== 0)
          result.violations.push(
            `round ${round}: ${plans[i]?.role} process ended with ${run.signal ?? `exit ${run.code}`}: ${run.stderr.slice(-600)}`,
          );
        const counts = /OPS (\d+) REFUSED (\d+) RACES (\d+)/.exec(run.stdout);
        result.ops += Number(counts?.[1] ?? 0);
        result.refused += Number(counts?.[2] ?? 0);
        result.races += Number(counts?.[3] ?? 0);
      }
      const t1 = performance.now();
      const ended = await recover(recovery, owners);
      result.tournaments[ended] += 1;
      if (process.env.GAMES_FAULTS_DEBUG)
        console.error(
          `round ${round}: play ${Math.round(t1 - t0)} ms, recover ${Math.round(performance.now() - t1)} ms`,
          runs.map((r) => r.stdout.trim()),
        );
      // A problem stays in the books once found: each is counted in the round it appeared.
      const problems = [
        ...(await booksProblems(recovery.deps, db)),
        ...(await shop.problems(db, recovery.clock.now())),
      ];
      for (const problem of problems) {
        if (seen.has(problem)) continue;
        seen.add(problem);
        result.violations.push(`round ${round}: ${problem}`);
      }
      result.stranded += await stranded(recovery.deps, db);
      result.rounds = round;
    }
  } finally {
    await client.close();
    await shop.stop();
  }
  return result;
}

interface RoundOwners {
  table: string;
  /** The round's sit-and-go: members register, play and give up while timers deal and raise blinds. */
  sng: string;
  heist: string;
  rollback: string;
}

/** A bot process of the run's own, on its database: the restarted bot that recovers, or a moderator. */
function recoveryDeps<C extends Clock>(db: ReturnType<MongoClient['db']>, discordApi: string, clock: C) {
  const config = loadConfig({
    ...process.env,
    HTTP_PORT: '0',
    RUNTIME_CONFIG_TTL_MS: '0',
    ADMIN_USER_IDS: MEMBERS[0],
  });
  const cols = appCollections(db);
  const rng = seededRng('games-faults:recovery');
  const ledger = new Ledger({ cols, clock, rng, log: silentLogger, config: config.ledger });
  const deps = createBotDeps(
    { config, log: silentLogger, clock, wallClock: systemClock, rng, db, cols, ledger },
    ASSEMBLY,
    {
      transport: { send: async () => {}, edit: async () => {} },
      roles: restRoles(discordApi, 2_000).roles,
    },
  );
  return { deps, clock, cols };
}

async function setUp(deps: BotDeps): Promise<void> {
  const settings: Record<string, string> = {
    'poker.start_delay_s': '0',
    'poker.next_hand_s': '0',
    'poker.idle_close_s': String(7 * 86_400),
    'poker.turn_s': '10',
    'vault.heist_cooldown_s': '0',
    'vault.heist_window_s': '10',
    'vault.heist_min_stake': '10',
  };
  for (const [key, value] of Object.entries(settings))
    await deps.runtimeConfig.set(key, value, 'games-faults');
  await deps.services.vault.fund({ opId: 'faults:fund', adminId: 'ops', amount: 5_000_000, reason: '' });
  for (const m of MEMBERS) {
    await deps.services.cookies.grant({
      opId: `faults:grant:${m}`,
      adminId: 'ops',
      to: m,
      amount: 50_000,
      reason: '',
    });
    await deps.services.place.grant({
      opId: `faults:points:${m}`,
      moderatorId: 'ops',
      to: m,
      amount: 100_000_000,
      reason: '',
    });
  }
}

/** A fresh table, heist and rollback for the round, opened by the (recovery) process. */
async function openRound(deps: BotDeps, round: number): Promise<RoundOwners> {
  const host = MEMBERS[0] as string;
  const owners = { table: `t${round}`, sng: `s${round}`, heist: `h${round}`, rollback: `rb${round}` };
  await deps.services.poker.create({ tableId: owners.table, hostId: host, channelId: null, locale: 'en' });
  await deps.services.poker.create({
    tableId: owners.sng,
    hostId: host,
    channelId: null,
    locale: 'en',
    sng: { buyIn: 100, players: 4, stack: 1_000, smallBlind: 10, levelS: 60, payouts: [65, 35] },
  });
  await deps.services.vault.startHeist({
    heistId: owners.heist,
    leader: MEMBERS[1] as string,
    stake: 50,
    locale: 'en',
  });
  const vandal = MEMBERS[2] as string;
  for (let i = 0; i < 3; i++)
    await deps.services.place.place({
      opId: `v${round}:${i}`,
      userId: vandal,
      x: 100 + i,
      y: round,
      color: 7,
    });
  await deps.services.place.rollbacks.plan({ id: owners.rollback, adminId: host, target: vandal });
  return owners;
}

function planRound(
  options: GamesFaultOptions,
  rng: ReturnType<typeof seededRng>,
  round: number,
  owners: RoundOwners & { shop: ShopRound },
): Omit<GamesFaultPlan, 'killAtStep'>[] {
  const common = {
    uri: options.serverUri,
    dbName: options.dbName,
    ops: options.ops ?? 30,
    durationMs: 2_500,
    members: MEMBERS,
    host: MEMBERS[0] as string,
    ...owners,
  };
  const members = Array.from({ length: options.members ?? 2 }, (_, i) => ({
    ...common,
    role: 'member' as const,
    seed: `${options.seed}:${round}:${i}:${rng.int(0, 1_000_000)}`,
    clockAheadMs: 0,
  }));
  return [
    ...members,
    { ...common, role: 'timekeeper', seed: `${options.seed}:${round}:time`, clockAheadMs: 2 * HOUR },
  ];
}

/** One process of the round; a process that hangs is a finding too: it is stopped after two minutes. */
function runChild(plan: GamesFaultPlan): Promise<NodeRun> {
  return runNode(['test/support/gamesFaultChild.ts', JSON.stringify(plan)], {
    captureStderr: true,
    killAfterMs: 120_000,
  });
}

/** What a restarted bot does, hours later: the ledger's recovery, every timer, the table closed. */
async function recover(
  r: ReturnType<typeof recoveryDeps<ManualClock>>,
  owners: RoundOwners,
): Promise<'paid' | 'calledOff'> {
  const { deps, clock, cols } = r;
  for (let pass = 0; pass < 8; pass++) {
    clock.advance(15 * 60_000);
    await recoverLedger({ cols, clock, log: silentLogger }, { graceMs: 0, fenceRetentionMs: 86_400_000 });
    await deps.scheduler.runDue();
    if (pass === 2) {
      await deps.services.poker.close(owners.table, null).catch(() => undefined);
      await deps.services.vault.closeHeist(owners.heist).catch(() => undefined);
    }
  }
  const ended = await endTournament(deps, owners.sng);
  await deps.ledger.flush();
  return ended;
}

/**
 * The round's sit-and-go brought to its end, so its pool must be paid out in full: one under way
 * is played out (its prizes paid), one that never started is called off (its buy-ins paid back).
 */
async function endTournament(deps: BotDeps, sng: string): Promise<'paid' | 'calledOff'> {
  const poker = deps.services.poker;
  const table = await poker.finishMoves(sng);
  if (table.status !== 'closed') {
    if (table.sng?.startedAt) await playOut(poker, sng);
    else await poker.close(sng, null);
  }
  const ended = await poker.finishMoves(sng);
  return ended.sng?.prizes ? 'paid' : 'calledOff';
}

async function booksProblems(deps: BotDeps, db: ReturnType<MongoClient['db']>): Promise<string[]> {
  const ledger = await checkInvariants(appCollections(db));
  const features = await ASSEMBLY.checkInvariants(db, deps.config, deps.ledger, deps.clock.now());
  const failed = await appCollections(db).dueTasks.find({ status: 'failed' }).toArray();
  return [
    ...ledger.problems,
    ...features,
    ...failed.map(
      (task) => `timer ${task._id} was set aside after ${task.attempts} attempts: ${task.lastError}`,
    ),
  ];
}

/** Cookies and points held by an owner that ended: a closed table's pot, a hold left open or not emptied. */
async function stranded(deps: BotDeps, db: ReturnType<MongoClient['db']>): Promise<number> {
  let held = 0;
  const emptied: { currency: 'cookies' | 'place'; account: string }[] = [];
  for (const kind of ['poker', 'game', 'heist', 'collect', 'rollback', 'hunt.time', ...SHOP_HOLD_KINDS]) {
    for (const holds of (await holdsByOwner(db, kind)).values()) {
      for (const hold of holds) {
        if (!ENDED.includes(hold.state)) held += hold.amount;
        else if (hold.from !== null) emptied.push(hold);
      }
    }
  }
  const closed = await db.collection('poker_tables').find({ status: 'closed' }).toArray();
  emptied.push(
    ...closed.map((t) => ({ currency: 'cookies' as const, account: `pot:poker:${String(t._id)}` })),
  );
  for (const currency of ['cookies', 'place'] as const) {
    const accounts = emptied.filter((e) => e.currency === currency).map((e) => e.account);
    for (const balance of (await deps.ledger.balancesOf(currency, accounts)).values()) held += balance;
  }
  return held;
}
