/**
 * `npm run check:invariants`: recomputes every wallet from the audit events and the total
 * supply, compares them with the stored balances, lists every difference and exits 1 when
 * there is one. With `--recover` it first runs the recovery pass (`npm run ledger:recover`).
 */

import { ASSEMBLY } from '../commands/index.js';
import { runCli } from '../src/cli.js';
import { checkInvariants } from '../utils/money/ledger/invariants.js';
import { openApp, runLedgerRecovery } from './openApp.js';

await runCli(async (config, log) => {
  const app = await openApp(config, log);
  try {
    if (process.argv.includes('--recover')) {
      const report = await runLedgerRecovery(app);
      console.log(`recovery: ${JSON.stringify(report)}`);
      if (!process.argv.includes('--check')) return report.stuck.length > 0 ? 1 : 0;
    }
    const report = await checkInvariants(app.cols);
    // The features' own books (poker tables: chips conserved, no Cookie operation stuck).
    const featureProblems = await ASSEMBLY.checkInvariants(app.db, config, app.ledger);
    report.problems.push(...featureProblems);
    report.ok &&= featureProblems.length === 0;
    for (const [currency, t] of Object.entries(report.totals)) {
      console.log(
        `${currency}: ${t.accounts} accounts, balances ${t.balances}, minted ${t.minted}, burned ${t.burned}`,
      );
    }
    console.log(`${report.events} audit events checked, ${report.fences} fence(s) held`);
    for (const problem of report.problems) console.log(`DIFFERENCE ${problem}`);
    console.log(report.ok ? 'invariants: ok' : `invariants: ${report.problems.length} difference(s)`);
    return report.ok ? 0 : 1;
  } finally {
    await app.close();
  }
});
