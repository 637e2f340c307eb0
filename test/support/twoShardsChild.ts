/**
 * One shard of the two-shard race (test/ledger/twoShards.test.ts): the bot's deps over the
 * test's database, as a shard builds them, running one member's actions all at once. Every
 * Cookie debit of that member waits at `debit.applied`, its marker on the member's document,
 * until the parent has seen both shards hold debits there, more than one process's gate
 * admits, and lets both run on until the balance runs out.
 * Lines on stdout: `READY`, `HOLDING <opId>` (the first debit of the member waits), `RESULT <json>`.
 * Lines on stdin: `GO` (start), `RELEASE` (let the held debits go on).
 * Input (JSON in argv[2]): TwoShardsPlan.
 */
import { createInterface } from 'node:readline';
import { isAppError } from '../../src/errors.js';
import { seededRng } from '../../src/rng.js';
import { makeBotDeps } from './botHarness.js';
import { type ChildDatabase, openChild } from './nodeProcess.js';

export type ShardAction =
  | { kind: 'give'; id: string; to: string; amount: number; opened: boolean }
  | { kind: 'coinflip' | 'dice'; id: string; bet: number }
  | { kind: 'collect'; id: string }
  | { kind: 'place'; id: string; x: number; y: number; color: number };

export interface TwoShardsPlan extends ChildDatabase {
  shard: number;
  seed: string;
  member: string;
  actions: ShardAction[];
}

/** What one action answered: done (`replayed` when the ledger answered a recorded id), or a code. */
export interface ShardAnswer {
  id: string;
  kind: ShardAction['kind'];
  ok: boolean;
  code?: string;
  /** A give's answer (`given`, `already_given`, `closed`); a round's status. */
  status?: string;
  replayed?: boolean;
}

export interface ShardResult {
  shard: number;
  startedAt: number;
  endedAt: number;
  held: number;
  answers: ShardAnswer[];
}

const { plan, client, db, cols } = await openChild<TwoShardsPlan>({ maxPoolSize: 50 });
const lines = createInterface({ input: process.stdin });
const waiting = new Map<string, () => void>();
lines.on('line', (line) => waiting.get(line.trim())?.());
const heard = (word: string) => new Promise<void>((resolve) => waiting.set(word, resolve));
const released = heard('RELEASE');
let held = 0;

const { deps } = makeBotDeps(
  { db, cols },
  {
    rng: seededRng(`${plan.seed}:${plan.shard}`),
    // A transfer held for the other shard checks its deadline after; on a busy machine the
    // other shard may take longer than a live attempt's 10 s to hold its own.
    env: { LEDGER_ATTEMPT_DEADLINE_MS: '120000' },
    hooks: {
      async step(step, spec) {
        if (step !== 'debit.applied' || spec.currency !== 'cookies' || spec.from !== plan.member) return;
        if (held++ === 0) process.stdout.write(`HOLDING ${spec.opId}\n`);
        await released;
      },
    },
  },
);
const s = deps.services;

async function act(action: ShardAction): Promise<Omit<ShardAnswer, 'id' | 'kind'>> {
  switch (action.kind) {
    case 'give': {
      if (!action.opened)
        await s.cookies.openGive({
          promptId: action.id,
          from: plan.member,
          to: action.to,
          amount: action.amount,
        });
      const given = await s.cookies.confirmGive(action.id, plan.member);
      return {
        ok: true,
        status: given.status,
        ...(given.status === 'given' ? { replayed: given.outcome.replayed } : {}),
      };
    }
    case 'coinflip':
    case 'dice': {
      const params: Record<string, string | number> =
        action.kind === 'coinflip' ? { side: 'heads' } : { target: 50 };
      const round = await s.games.playInstant(action.kind, {
        roundId: action.id,
        userId: plan.member,
        bet: action.bet,
        params,
      });
      return { ok: true, status: round.status };
    }
    case 'collect':
      await s.collect.collect(plan.member, 'command');
      return { ok: true };
    case 'place': {
      const { x, y, color } = action;
      const placed = await s.place.place({ opId: action.id, userId: plan.member, x, y, color });
      return { ok: true, replayed: placed.replayed };
    }
  }
}

process.stdout.write('READY\n');
await heard('GO');
const startedAt = Date.now();
const answers = await Promise.all(
  plan.actions.map(async (action): Promise<ShardAnswer> => {
    const head = { id: action.id, kind: action.kind };
    try {
      return { ...head, ...(await act(action)) };
    } catch (error) {
      if (!isAppError(error)) throw error;
      return { ...head, ok: false, code: error.code };
    }
  }),
);
const endedAt = Date.now();
await deps.ledger.flush();
const result: ShardResult = { shard: plan.shard, startedAt, endedAt, held, answers };
process.stdout.write(`RESULT ${JSON.stringify(result)}\n`);
lines.close();
await client.close();
