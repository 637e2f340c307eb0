/**
 * Child process of the Cookie economy crash tests: runs one member action through the real
 * services and SIGKILLs itself when a ledger operation of the named kind reaches the named
 * step, like a bot process dying between two steps of a settlement.
 * Input (JSON in argv[2]): { uri, dbName, action, kind, step, ids }.
 */
import { MongoClient } from 'mongodb';
import { collections } from '../../src/db/collections.js';
import { cryptoRng } from '../../src/rng.js';
import type { LedgerStep } from '../../utils/ledger/ledger.js';
import { makeBotDeps } from './botHarness.js';

export interface EconomyCrashPlan {
  uri: string;
  dbName: string;
  action: 'collect' | 'coinflip' | 'blackjack' | 'heist-close';
  /** The movement to die in (`games.payout`, `cookies.collect`, ...) and the step there. */
  kind: string;
  step: LedgerStep;
  /** Die the nth time that point is reached (default 1): a double is a round's second stake. */
  nth?: number;
  /** The member, and the round or heist id. */
  userId: string;
  id: string;
  /** How far the child's clock is ahead of the harness's start (a heist closes later). */
  advanceMs?: number;
}

const plan = JSON.parse(process.argv[2] ?? '{}') as EconomyCrashPlan;
const client = new MongoClient(plan.uri);
await client.connect();
const db = client.db(plan.dbName);
// Heads every time: the coinflip wins, so its settlement pays the member out of the pot.
const rng = { ...cryptoRng, int: (min: number) => min };
let reached = 0;
const { deps, clock } = makeBotDeps(
  { db, cols: collections(db) },
  {
    rng,
    hooks: {
      step(step, spec) {
        if (step === plan.step && spec.kind === plan.kind && ++reached === (plan.nth ?? 1)) {
          process.stdout.write(`REACHED ${spec.kind} ${step}\n`);
          process.kill(process.pid, 'SIGKILL');
        }
      },
    },
  },
);
clock.advance(plan.advanceMs ?? 0);
const run = {
  collect: () => deps.services.collect.collect(plan.userId, 'bakery'),
  coinflip: () =>
    deps.services.games.playInstant('coinflip', {
      roundId: plan.id,
      userId: plan.userId,
      bet: 100,
      params: { side: 'heads' },
    }),
  blackjack: async () => {
    const round = await deps.services.games.startBlackjack({
      roundId: plan.id,
      userId: plan.userId,
      bet: 100,
    });
    if (round.status === 'playing')
      await deps.services.games.blackjack(plan.id, plan.userId, 'double', round.step);
  },
  'heist-close': () => deps.services.vault.closeHeist(plan.id),
}[plan.action];
await run().catch((error: unknown) => process.stdout.write(`FAILED ${String(error)}\n`));
process.stdout.write('FINISHED without reaching the kill point\n');
await client.close();
