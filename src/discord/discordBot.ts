import { Client, Events, GatewayIntentBits } from 'discord.js';
import type { InteractionRuntime } from '../interactions/runtime.js';
import type { Logger } from '../logger.js';
import { DiscordResponder } from './discordResponder.js';
import { toInvocation } from './toInvocation.js';

export interface DiscordBot {
  client: Client;
  /** Stops taking interactions, finishes those in flight, disconnects. */
  stop(): Promise<void>;
}

/**
 * Connects the bot to Discord and feeds every slash command and button click to the
 * runtime. Only the Guilds intent: slash commands and components need nothing privileged.
 */
export function createDiscordClient(options: { apiUrl?: string | undefined }): Client {
  return new Client({
    intents: [GatewayIntentBits.Guilds],
    ...(options.apiUrl ? { rest: { api: options.apiUrl } } : {}),
  });
}

export async function startDiscordBot(
  client: Client,
  runtime: InteractionRuntime,
  log: Logger,
  options: { token: string },
): Promise<DiscordBot> {
  client.on(Events.InteractionCreate, (interaction) => {
    if (interaction.isAutocomplete()) {
      void runtime
        .complete(toInvocation(interaction))
        .then((choices) => interaction.respond(choices))
        .catch((error: unknown) => {
          log.warn(
            { event: 'interaction.autocomplete_reply_failed', err: error },
            'could not send suggestions',
          );
        });
      return;
    }
    if (!interaction.isChatInputCommand() && !interaction.isButton() && !interaction.isStringSelectMenu())
      return;
    void runtime.dispatch(toInvocation(interaction), new DiscordResponder(interaction));
  });
  client.on(Events.Error, (error) =>
    log.error({ event: 'discord.error', err: error }, 'discord client error'),
  );
  client.on(Events.ShardError, (error, shardId) =>
    log.error({ event: 'discord.shard_error', shardId, err: error }, 'shard connection error'),
  );

  const ready = new Promise<void>((resolve) => client.once(Events.ClientReady, () => resolve()));
  await client.login(options.token);
  await ready;
  log.info(
    {
      event: 'discord.ready',
      user: client.user?.tag,
      guilds: client.guilds.cache.size,
      shards: client.shard?.ids ?? [0],
    },
    'connected to Discord',
  );

  return {
    client,
    async stop() {
      await runtime.drain();
      await client.destroy();
    },
  };
}
