import { ChannelType, type Client, DiscordAPIError, RESTJSONErrorCodes } from 'discord.js';
import {
  type ChannelPost,
  DmClosed,
  MessageGone,
  type PostableChannel,
  PostRefused,
  type PostTransport,
} from '../posting/channelPoster.js';
import { toPayload } from './discordResponder.js';
import { CHANNEL_PERMISSIONS, type PermissionName } from './permissions.js';

/** What a post needs; editing its own posts later (ReadMessageHistory) is said when it is set. */
const TO_POST: readonly PermissionName[] = ['ViewChannel', 'SendMessages', 'EmbedLinks', 'AttachFiles'];

/** Discord's answers that repeat until someone changes the channel or the bot's permissions. */
const LASTING = new Map<number, string>([
  [RESTJSONErrorCodes.UnknownChannel, 'the channel no longer exists'],
  [RESTJSONErrorCodes.MissingAccess, 'the bot cannot see the channel (Missing Access)'],
  [RESTJSONErrorCodes.MissingPermissions, 'the bot may not post there (Missing Permissions)'],
  [RESTJSONErrorCodes.CannotSendMessagesInNonTextChannel, 'the channel does not take messages'],
]);

function refusal(error: unknown): unknown {
  if (error instanceof DiscordAPIError && typeof error.code === 'number') {
    const reason = LASTING.get(error.code);
    if (reason) return new PostRefused(reason);
  }
  return error;
}

/** Posts through discord.js, whose REST queue waits out Discord's rate limits. */
export function discordPostTransport(client: Client): PostTransport {
  return {
    async send(channelId: string, post: ChannelPost) {
      const channel = await client.channels.fetch(channelId).catch((error: unknown) => {
        throw refusal(error);
      });
      if (!channel?.isSendable()) throw new PostRefused('the channel does not take messages');
      // Discord creates one message per nonce within minutes: discord.js's own retries of a
      // request whose answer was lost, and the poster's, post it once.
      const once = post.nonce ? { nonce: post.nonce, enforceNonce: true } : {};
      await channel.send({ ...toPayload(post), ...once }).catch((error: unknown) => {
        throw refusal(error);
      });
    },
    // Discord's way: open (or find) the direct channel with the member, then post in it.
    async sendDm(userId: string, post: ChannelPost) {
      const channel = await client.users.createDM(userId);
      await channel.send(toPayload(post)).catch((error: unknown) => {
        if (
          error instanceof DiscordAPIError &&
          error.code === RESTJSONErrorCodes.CannotSendMessagesToThisUser
        )
          throw new DmClosed('the member takes no direct messages from the bot');
        throw error;
      });
    },
    async missingPermissions(channelId) {
      const channel = await client.channels.fetch(channelId).catch(() => null);
      // A channel the bot cannot see is one it cannot view.
      if (!channel) return ['ViewChannel'];
      if (channel.isDMBased()) return [];
      const me = channel.guild.members.me ?? (await channel.guild.members.fetchMe());
      const has = channel.permissionsFor(me);
      return CHANNEL_PERMISSIONS.map((p) => p.name).filter((name) => !has.has(name));
    },
    async postableChannels() {
      const found: (PostableChannel & { order: [number, number] })[] = [];
      for (const guild of client.guilds.cache.values()) {
        const me = guild.members.me ?? (await guild.members.fetchMe());
        for (const channel of guild.channels.cache.values()) {
          if (channel.type !== ChannelType.GuildText && channel.type !== ChannelType.GuildAnnouncement)
            continue;
          if (!channel.permissionsFor(me).has(TO_POST)) continue;
          // As the server lists them: by category, then within it; channels outside one first.
          const order: [number, number] = [channel.parent?.rawPosition ?? -1, channel.rawPosition];
          found.push({ id: channel.id, name: channel.name, order });
        }
      }
      found.sort((a, b) => a.order[0] - b.order[0] || a.order[1] - b.order[1] || a.id.localeCompare(b.id));
      return found.map(({ id, name }) => ({ id, name }));
    },
    async edit(channelId, messageId, post) {
      const channel = await client.channels.fetch(channelId);
      if (!channel?.isTextBased()) throw new PostRefused('the channel has no messages');
      await channel.messages.edit(messageId, toPayload(post)).catch((error: unknown) => {
        if (error instanceof DiscordAPIError && error.code === RESTJSONErrorCodes.UnknownMessage)
          throw new MessageGone('the message was deleted');
        throw error;
      });
    },
  };
}
