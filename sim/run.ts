import { randomBytes } from 'node:crypto';
import type { Db } from 'mongodb';
import { prepareBotDeps } from '../app/botDeps.js';
import type { AppDeps } from '../app/openApp.js';
import { appCollections, ensureAppIndexes } from '../app/openApp.js';
import { ASSEMBLY } from '../commands/index.js';
import { ManualClock, systemClock } from '../src/clock.js';
import { loadConfig } from '../src/config.js';
import { ConsoleRoles } from '../src/console/consoleRoles.js';
import { connectDatabase, startDatabaseServer } from '../src/db/connect.js';
import { type AppError, isAppError } from '../src/errors.js';
import { createLogger } from '../src/logger.js';
import type { PostTransport } from '../src/posting/channelPoster.js';
import { planRetention } from '../src/retention.js';
import { seededRng } from '../src/rng.js';
import { Ledger } from '../utils/money/ledger/ledger.js';
import type { GreedyFloor } from './agent.js';
import type { Behaviours } from './behaviours.js';
import type { DayStats } from './dayStats.js';
import { type DayProfile, DbProfile } from './dbProfile.js';
import type { SimResult } from './simResult.js';
import { simulateEconomy } from './simulation.js';

/** The simulation posts nowhere: the channel posts of timers are Discord's part, not the economy's. */
const NO_POSTS: PostTransport = {
  send: async () => {},
  edit: async () => {},
};

/** The socket's backstop in a simulation: ten minutes (see `connectDatabase` below). */
const END_OF_RUN_READ_MS = 600_000;

/** A `--set` the bot refused (an unknown key, a value out of range), with what it said. */
export class SettingRefused extends Error {
  constructor(readonly refusal: AppError) {
    super(refusal.message);
  }
}

/**
 * One simulation on a fresh in-memory database of its own (the embedded server), with a bot
 * configured as an operator would (the reserve from the behaviours file, everything else the
 * defaults under test). The bot's randomness and the members' choices both come from `seed`.
 */
export async function runSimulation(options: {
  behaviours: Behaviours;
  days: number;
  agents: number;
  seed: number;
  /** At least so many members per greedy strategy (sim/agent.ts, `GreedyFloor`). */
  greedyFloor?: GreedyFloor;
  env?: Record<string, string>;
  /** Runtime settings an operator changes before the run (`--set key=value`): candidate defaults. */
  settings?: [string, string][];
  /**
   * Also hands `onDay` the day's slowest database commands (the driver's command monitoring)
   * and, on the embedded server, the reads no index narrowed.
   */
  profileDb?: boolean;
  onDay?: (day: DayStats, profile: DayProfile | null) => void;
  /** Reads the database as the run left it, before it is dropped (`npm run bench:storage`). */
  inspect?: (db: Db) => Promise<void>;
}): Promise<SimResult> {
  const config = loadConfig({
    ...process.env,
    LOG_LEVEL: 'error',
    HOUSE_MIN_RESERVE_COOKIES: String(options.behaviours.operator.reserve),
    // The timers due at one moment (a step's poker turns, collects, rounds) run side by side.
    SCHEDULER_CONCURRENCY: '8',
    ...options.env,
  });
  // Timers retried later (a pot whose markers are still being swept) are normal here: errors only.
  const log = createLogger('error');
  // MONGODB_URI when set (a database of its own there, dropped after), else the embedded server.
  const server = await startDatabaseServer(config.mongo, { persistent: false }, log);
  const { client, db } = await connectDatabase(server.uri, `sim_economy_${randomBytes(4).toString('hex')}`, {
    monitorCommands: options.profileDb === true,
    // The run ends with reads of its whole history (the full check, each member's totals):
    // a month of 50 members is over a million events, which the embedded server reads for
    // longer than the bot's 30-second backstop, and on a busy machine it may not answer the
    // driver's 10-second heartbeat meanwhile (a 50-member month of a matrix died so at its
    // end). Money paths have their own timeout (ledger).
    patientMs: END_OF_RUN_READ_MS,
  });
  await ensureAppIndexes(db);
  const profile = options.profileDb ? new DbProfile(client, db) : null;
  try {
    const clock = new ManualClock(new Date('2026-01-05T00:00:00Z'));
    const rng = seededRng(`bot:${options.seed}`);
    const cols = appCollections(db);
    const ledger = new Ledger({ cols, clock, rng, log, config: config.ledger });
    const app: AppDeps = { config, log, clock, wallClock: systemClock, rng, db, cols, ledger };
    // Roles the shop sells are kept in memory, as the console keeps them: no Discord in a run.
    const deps = await prepareBotDeps(app, ASSEMBLY, { transport: NO_POSTS, roles: new ConsoleRoles() });
    // As a bot does: the hourly retention keeps state from growing with the days.
    await planRetention(deps);
    for (const [key, value] of options.settings ?? []) {
      await deps.runtimeConfig.set(key, value, 'operator').catch((error: unknown) => {
        throw isAppError(error) ? new SettingRefused(error) : error;
      });
    }
    const result = await simulateEconomy({
      deps,
      clock,
      db,
      cols,
      assembly: ASSEMBLY,
      behaviours: options.behaviours,
      days: options.days,
      agents: options.agents,
      ...(options.greedyFloor ? { greedyFloor: options.greedyFloor } : {}),
      rng: seededRng(`members:${options.seed}`),
      ...(options.onDay
        ? { onDay: async (day) => options.onDay?.(day, profile ? await profile.take(80) : null) }
        : {}),
    });
    await options.inspect?.(db);
    return result;
  } finally {
    if (server.persistent) await db.dropDatabase().catch(() => {});
    await client.close();
    await server.stop();
  }
}
