/**
 * `npm start`: the bot on Discord when DISCORD_TOKEN is set; otherwise the local console
 * (`npm start -- --script FILE` runs a file of console lines). Both use the database chosen
 * as README describes and run the ledger recovery pass first.
 */
import { runCli } from '../src/cli.js';
import { runDiscordBot } from './runBot.js';
import { runLocalConsole } from './runConsole.js';

await runCli(async (config, log) => {
  const token = config.discord.token;
  return token ? runDiscordBot(config, log, token) : runLocalConsole(config, process.argv.slice(2));
});
