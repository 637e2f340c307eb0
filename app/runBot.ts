import { ASSEMBLY } from '../commands/index.js';
import type { Config } from '../src/config.js';
import { httpAttachmentReader } from '../src/discord/attachmentReader.js';
import { createDiscordClient, startDiscordBot } from '../src/discord/discordBot.js';
import { discordMembers } from '../src/discord/discordMembers.js';
import { discordPostTransport } from '../src/discord/discordPostTransport.js';
import { discordRoles } from '../src/discord/discordRoles.js';
import { serveHttp } from '../src/http/serve.js';
import { InteractionRuntime } from '../src/interactions/runtime.js';
import type { Logger } from '../src/logger.js';
import { prepareBotDeps, startTimers } from './botDeps.js';
import { openApp } from './openApp.js';

/**
 * The bot on Discord until SIGINT/SIGTERM; then it stops taking interactions, finishes
 * those in flight and the task running, flushes the ledger and closes the database.
 */
export async function runDiscordBot(config: Config, log: Logger, token: string): Promise<number> {
  // Listened for from the start: a SIGTERM while the bot is still starting (a deploy that
  // restarts it at once) lets it finish starting and then stop cleanly, instead of ending
  // the process mid-way by the signal's default.
  const stopAsked = new Promise<NodeJS.Signals>((resolve) => {
    process.once('SIGINT', () => resolve('SIGINT'));
    process.once('SIGTERM', () => resolve('SIGTERM'));
  });
  const app = await openApp(config, log);
  let closed = false;
  try {
    await app.startLedgerRecovery();
    const client = createDiscordClient({ apiUrl: config.discord.apiUrl });
    const deps = await prepareBotDeps(app, ASSEMBLY, {
      transport: discordPostTransport(client),
      members: discordMembers(client),
      roles: discordRoles(client),
      attachments: httpAttachmentReader(),
    });
    const runtime = new InteractionRuntime(deps, ASSEMBLY);
    const bot = await startDiscordBot(client, runtime, log, { token });
    // Logged now, so an operator reads it before the first post to such a channel fails.
    await deps.poster.checkChannels();
    deps.scheduler.start(config.scheduler.pollMs);
    await startTimers(deps, app, ASSEMBLY);
    const http = await serveHttp(deps, ASSEMBLY, {
      db: app.db,
      gateway: () => (client.isReady() ? 'connected' : 'disconnected'),
    });
    const signal = await stopAsked;
    log.info({ event: 'shutdown.started', signal }, 'shutting down: finishing interactions in flight');
    await bot.stop();
    await http?.close();
    await deps.scheduler.stop();
    await app.close();
    closed = true;
    log.info({ event: 'shutdown.finished' }, 'stopped cleanly');
    return 0;
  } finally {
    if (!closed) await app.close();
  }
}
