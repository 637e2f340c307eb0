import { COMMANDS } from '../../commands/index.js';
import { openApp } from '../app.js';
import { createBotDeps } from '../botDeps.js';
import type { Config } from '../config.js';
import { InteractionRuntime } from '../interactions/runtime.js';
import type { Logger } from '../logger.js';
import { startDiscordBot } from './discordBot.js';

/**
 * The bot on Discord until SIGINT/SIGTERM; then it stops taking interactions, finishes
 * those in flight, flushes the ledger and closes the database.
 */
export async function runDiscordBot(config: Config, log: Logger, token: string): Promise<number> {
  const app = await openApp(config, log);
  let closed = false;
  try {
    await app.startLedgerRecovery();
    const runtime = new InteractionRuntime(createBotDeps(app), COMMANDS);
    const bot = await startDiscordBot(runtime, log, { token, apiUrl: config.discord.apiUrl });
    const signal = await new Promise<NodeJS.Signals>((resolve) => {
      process.once('SIGINT', () => resolve('SIGINT'));
      process.once('SIGTERM', () => resolve('SIGTERM'));
    });
    log.info({ event: 'shutdown.started', signal }, 'shutting down: finishing interactions in flight');
    await bot.stop();
    await app.close();
    closed = true;
    log.info({ event: 'shutdown.finished' }, 'stopped cleanly');
    return 0;
  } finally {
    if (!closed) await app.close();
  }
}
