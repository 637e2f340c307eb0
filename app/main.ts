/**
 * `npm start`: the bot on Discord when DISCORD_TOKEN is set; otherwise the local console
 * (`npm start -- --script FILE` runs a file of console lines). Both use the database chosen
 * as docs/architecture.md, "The database", describes and run the ledger recovery pass first.
 */
import { runCli } from '../src/cli.js';
import { runDiscordBot } from './runBot.js';
import { consolePersistent, runLocalConsole } from './runConsole.js';
import { startupLine } from './startupLine.js';

await runCli(async (config, log, env) => {
  const token = config.discord.token;
  const argv = process.argv.slice(2);
  const line = startupLine(config, env, token ? true : consolePersistent(argv));
  log.info({ event: 'startup', mode: line.mode, envFile: env.file }, line.text);
  if (line.warning) log.warn({ event: 'startup.public_url_missing' }, line.warning);
  return token ? runDiscordBot(config, log, token) : runLocalConsole(config, argv);
});
