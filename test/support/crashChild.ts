/**
 * Child process of the crash-point tests: runs one ledger operation and SIGKILLs itself
 * when the operation reaches the named step, like a process dying mid-operation.
 * Input (JSON in argv[2]): { uri, dbName, op, input, killAt, failCredit }.
 */
import { MongoClient } from 'mongodb';
import { collections } from '../../src/db/collections.js';
import type { LedgerStep } from '../../utils/ledger/ledger.js';
import { callLedger, type LedgerCall, makeLedger } from './ledgerHarness.js';

type CrashPlan = LedgerCall & {
  uri: string;
  dbName: string;
  killAt: LedgerStep;
  failCredit: boolean;
};

const plan = JSON.parse(process.argv[2] ?? '{}') as CrashPlan;
const client = new MongoClient(plan.uri);
await client.connect();
const ledger = makeLedger(collections(client.db(plan.dbName)), {
  hooks: {
    step(step) {
      if (step === plan.killAt) {
        process.stdout.write(`REACHED ${step}\n`);
        process.kill(process.pid, 'SIGKILL');
      }
      if (step === 'credit.before' && plan.failCredit) throw new Error('injected credit failure');
    },
  },
});
await callLedger(ledger, plan).catch(() => undefined);
process.stdout.write('FINISHED without reaching the kill point\n');
await client.close();
