/**
 * Child process of the poker crash tests: a buy-in or a leave (cash-out) through the real
 * service, SIGKILLed at a named step: one of the table's own (`intent.persisted`,
 * `state.absorbed`) or the ledger's, for the poker operation's kind.
 * Input (JSON in argv[2]): { uri, dbName, action, step, tableId, userId, amount }.
 */
import { MongoClient } from 'mongodb';
import { collections } from '../../src/db/collections.js';
import { CookieEconomy } from '../../utils/cookieEconomy.js';
import { PokerService } from '../../utils/poker/pokerService.js';
import { TableStore } from '../../utils/poker/tableStore.js';
import { makeBotDeps } from './botHarness.js';

export interface PokerCrashPlan {
  uri: string;
  dbName: string;
  action: 'buyin' | 'cashout';
  /** A PokerStep or a LedgerStep. */
  step: string;
  tableId: string;
  userId: string;
  amount: number;
}

const plan = JSON.parse(process.argv[2] ?? '{}') as PokerCrashPlan;
const client = new MongoClient(plan.uri);
await client.connect();
const db = client.db(plan.dbName);
const die = (where: string) => {
  process.stdout.write(`REACHED ${where}\n`);
  process.kill(process.pid, 'SIGKILL');
};
const kind = plan.action === 'buyin' ? 'poker.buyin' : 'poker.cashout';
const { deps } = makeBotDeps(
  { db, cols: collections(db) },
  { hooks: { step: (step, spec) => (step === plan.step && spec.kind === kind ? die(step) : undefined) } },
);
const poker = new PokerService({
  ...deps,
  economy: new CookieEconomy(deps.ledger),
  tables: new TableStore(db),
  hooks: { step: (step) => (step === plan.step ? die(step) : undefined) },
});
const run =
  plan.action === 'buyin'
    ? poker.join(plan.tableId, plan.userId, plan.amount)
    : poker.leave(plan.tableId, plan.userId);
await run.catch((error: unknown) => process.stdout.write(`FAILED ${String(error)}\n`));
process.stdout.write('FINISHED without reaching the kill point\n');
await client.close();
