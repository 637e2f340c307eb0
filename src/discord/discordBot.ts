import { Client, Events, GatewayIntentBits } from 'discord.js';
import type { InteractionRuntime } from '../interactions/runtime.js';
import type { Logger } from '../logger.js';
import { DiscordResponder } from './discordResponder.js';
import { INVITE_PERMISSIONS, inviteUrl, permissionInteger } from './permissions.js';
import { toInvocation } from './toInvocation.js';

export interface DiscordBot {
  client: Client;
  /** Stops taking interactions, finishes those in flight, disconnects. */
  stop(): Promise<void>;
}

/**
 * Connects the bot to Discord and feeds every interaction to the runtime. Only the Guilds
 * intent: slash commands, components and forms need nothing privileged. Nothing the bot sends
 * notifies anyone unless a message names them in its `ping` (`toPayload`).
 */
export function createDiscordClient(options: { apiUrl?: string | undefined }): Client {
  return new Client({
    intents: [GatewayIntentBits.Guilds],
    allowedMentions: { parse: [], repliedUser: false },
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
      // Inside the chain: a payload discord.js cannot read fails this interaction, not the process.
      void Promise.resolve()
        .then(() => runtime.complete(toInvocation(interaction)))
        .then((choices) => interaction.respond(choices))
        .catch((error: unknown) => {
          log.warn(
            { event: 'interaction.autocomplete_reply_failed', err: error },
            'could not send suggestions',
          );
        });
      return;
    }
    // Every other kind gets an answer, a refusal at least: Discord shows a member whose
    // interaction nobody answered only "This interaction failed".
    const responder = new DiscordResponder(interaction);
    void Promise.resolve()
      .then(() => runtime.dispatch(toInvocation(interaction), responder))
      .catch((error: unknown) => {
        log.error({ event: 'interaction.unreadable', err: error }, 'could not read an interaction');
      });
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
  const applicationId = client.application?.id ?? client.user?.id;
  if (applicationId) {
    const url = inviteUrl(applicationId, INVITE_PERMISSIONS);
    log.info(
      { event: 'discord.invite', url, permissions: permissionInteger(INVITE_PERMISSIONS).toString() },
      `add the bot to a server with: ${url}`,
    );
  }

  return {
    client,
    async stop() {
      await runtime.drain();
      await client.destroy();
    },
  };
}
