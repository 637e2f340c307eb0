/**
 * Child process of the hunt crash test: closes a window through the real service and
 * SIGKILLs itself when a reward of the named kind reaches the named ledger step.
 * Input (JSON in argv[2]): { uri, dbName, windowId, kind, step, advanceMs }.
 */
import { MongoClient } from 'mongodb';
import { collections } from '../../src/db/collections.js';
import { cryptoRng } from '../../src/rng.js';
import { makeBotDeps } from './botHarness.js';

const plan = JSON.parse(process.argv[2] ?? '{}') as {
  uri: string;
  dbName: string;
  windowId: string;
  kind: string;
  step: string;
  advanceMs: number;
};
const client = new MongoClient(plan.uri);
await client.connect();
const db = client.db(plan.dbName);
const { deps, clock } = makeBotDeps(
  { db, cols: collections(db) },
  {
    rng: { ...cryptoRng, int: (min: number) => min },
    hooks: {
      step(step, spec) {
        if (step === plan.step && spec.kind === plan.kind) {
          process.stdout.write(`REACHED ${spec.kind} ${step}\n`);
          process.kill(process.pid, 'SIGKILL');
        }
      },
    },
  },
);
clock.advance(plan.advanceMs);
await deps.services.hunt
  .closeWindow(plan.windowId)
  .catch((e: unknown) => process.stdout.write(`FAILED ${String(e)}\n`));
process.stdout.write('FINISHED without reaching the kill point\n');
await client.close();
