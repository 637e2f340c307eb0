import { createHash, randomBytes } from 'node:crypto';
import type { Collection } from 'mongodb';
import type { Clock } from '../clock.js';
import type { ChannelStateDoc } from '../db/collections.js';
import { layOut, layOutOne } from '../interactions/layout.js';
import type { ButtonSpec, EmbedSpec, FileSpec } from '../interactions/reply.js';
import type { Logger } from '../logger.js';
import type { RuntimeConfig } from '../runtimeConfig/runtimeConfig.js';
import { currentServer, inServer } from '../runtimeConfig/serverContext.js';
import type { SettingKey, SettingTypes } from '../runtimeConfig/settings.js';

/** A message the bot sends on its own (not as a reply): bakery, canvas, hunt results, audit. */
export interface ChannelPost {
  content?: string;
  embeds?: EmbedSpec[];
  files?: FileSpec[];
  /** The members it notifies (see Reply's `notify`); nobody else's mention notifies. */
  notify?: readonly string[];
  /**
   * The post's own name, the same however often it is sent (its task's id, its alert's): each of
   * its messages carries a nonce made from it that Discord enforces, so a post sent again after
   * an answer that never came is one message, not two (within Discord's few minutes).
   */
  once?: string;
  /** The message's nonce (the poster sets it: from `once`, else fresh for each message). */
  nonce?: string;
}

/**
 * A message's nonce: 22 characters of the digest of the post's name and channel, then the
 * message's number (Discord takes 25 at most).
 */
function nonceOf(once: string | undefined, channelId: string, message: number): string {
  const name =
    once === undefined ? randomBytes(16) : createHash('sha256').update(`${once}\n${channelId}`).digest();
  return `${name.toString('base64url').slice(0, 22)}${message}`;
}

/** A failure that will repeat until someone acts: missing permission, unknown channel. */
export class PostRefused extends Error {
  override readonly name = 'PostRefused';
}

/** The message to edit is gone (someone deleted it): what it would have shown needs a post. */
export class MessageGone extends Error {
  override readonly name = 'MessageGone';
}

/** How an edit went: done, its message gone (tell it another way), or failed (logged). */
export type EditResult = 'edited' | 'gone' | 'failed';

/** The member takes no direct messages from the bot (Discord's 50007): asking again changes nothing. */
export class DmClosed extends Error {
  override readonly name = 'DmClosed';
}

/** How a direct message went: sent, refused for good by the member's settings, or failed (logged). */
export type DmResult = 'sent' | 'closed' | 'failed';

/** Where posts go: discord.js in the bot, printed lines in the console. */
export interface PostTransport {
  /** Throws PostRefused for a lasting failure; anything else is treated as passing. */
  send(channelId: string, post: ChannelPost): Promise<void>;
  /**
   * Sends a direct message to a member; throws DmClosed when the member takes none from the bot
   * (absent where there are no members to write to: the simulation, the web-only process).
   */
  sendDm?(userId: string, post: ChannelPost): Promise<void>;
  /** Replaces a message the bot sent (a game board a timer moved on). */
  edit(channelId: string, messageId: string, post: ChannelPost & { buttons?: ButtonSpec[] }): Promise<void>;
  /** The permissions the bot lacks to post in a channel, by Discord's names (none where it cannot tell). */
  missingPermissions?(channelId: string): Promise<string[]>;
  /** The server's text channels the bot may post in, in the server's order (absent without Discord). */
  postableChannels?(): Promise<PostableChannel[]>;
}

/** A channel an admin may choose for a setting. */
export interface PostableChannel {
  id: string;
  name: string;
}

/** The settings that name a channel (their values are a channel id or null). */
export type ChannelSettingKey = {
  [K in SettingKey]: SettingTypes[K] extends string | null
    ? null extends SettingTypes[K]
      ? K
      : never
    : never;
}[SettingKey];

export type PostResult =
  | { status: 'posted'; channelId: string }
  | { status: 'skipped'; why: 'not_configured' | 'stopped' }
  | { status: 'failed'; channelId: string; lasting: boolean; reason: string };

export interface ChannelStatus {
  channelId: string | null;
  /** Set when posts stopped after a lasting failure; cleared by setting the channel again. */
  stopped: { reason: string; at: Date } | null;
}

/**
 * Sends posts to the channel a feature's setting names, one at a time per channel and at
 * least `minIntervalMs` apart (discord.js's REST queue handles Discord's own rate limits).
 * A lasting failure is logged with the channel id and stops that setting's posts until an
 * admin sets the channel again; `/settings show` says so.
 */
export class ChannelPoster {
  readonly #queues = new Map<string, Promise<unknown>>();
  readonly #lastSent = new Map<string, number>();

  constructor(
    private readonly deps: {
      transport: PostTransport;
      runtimeConfig: RuntimeConfig;
      states: Collection<ChannelStateDoc>;
      clock: Clock;
      log: Logger;
    },
    private readonly options: { minIntervalMs: number },
  ) {}

  /**
   * Posts to the channel `setting` names. In a server (`inServer`: an interaction, a timer of
   * that server) it is that server's channel. Outside one (a timer of the whole bot: a draw,
   * the day's share, the canvas's report) it is every channel the setting names: the default's
   * and each server's own, once each. The result is the default's, else the first server's.
   */
  async post(setting: ChannelSettingKey, post: ChannelPost): Promise<PostResult> {
    if (currentServer() !== null) return this.#postHere(setting, post);
    const servers = await this.deps.runtimeConfig.serverValues(setting);
    const results = [await this.#postHere(setting, post)];
    const sent = new Set([results[0]?.status === 'posted' ? results[0].channelId : null]);
    for (const { guildId, value } of servers) {
      if (typeof value !== 'string' || sent.has(value)) continue;
      sent.add(value);
      results.push(await inServer(guildId, () => this.#postHere(setting, post)));
    }
    return results.find((r) => r.status === 'posted') ?? (results[0] as PostResult);
  }

  /** Whether a post would reach a channel: here, or outside a server any server's or the default's. */
  async takesPosts(setting: ChannelSettingKey): Promise<boolean> {
    const here = await this.status(setting);
    if (here.channelId !== null && !here.stopped) return true;
    if (currentServer() !== null) return false;
    for (const { guildId } of await this.deps.runtimeConfig.serverValues(setting)) {
      const there = await inServer(guildId, () => this.status(setting));
      if (there.channelId !== null && !there.stopped) return true;
    }
    return false;
  }

  async #postHere(setting: ChannelSettingKey, post: ChannelPost): Promise<PostResult> {
    const { channelId, stopped } = await this.status(setting);
    if (channelId === null) return { status: 'skipped', why: 'not_configured' };
    if (stopped) return { status: 'skipped', why: 'stopped' };
    const state = await this.#stateId(setting);
    return this.#enqueue(channelId, () => this.#send(setting, state, channelId, post));
  }

  /** Where a channel's failure is kept: per setting, and per server for a server's own channel. */
  async #stateId(setting: ChannelSettingKey): Promise<string> {
    const layer = await this.deps.runtimeConfig.layerOf(setting);
    return layer ? `${layer}:${setting}` : setting;
  }

  /**
   * Posts in a channel a member acted in (a timed outcome told where it began, when no
   * setting names a channel for it), in that channel's queue. A failure is logged and
   * returned, never thrown, and stops no setting's posts.
   */
  async postIn(channelId: string, post: ChannelPost): Promise<PostResult> {
    return this.#enqueue(channelId, async (): Promise<PostResult> => {
      try {
        await this.#sendLaidOut(channelId, post);
        return { status: 'posted', channelId };
      } catch (error) {
        const lasting = error instanceof PostRefused;
        const reason = error instanceof Error ? error.message : String(error);
        this.deps.log.warn(
          { event: 'post.in_channel_failed', channelId, reason },
          `a post to channel ${channelId} failed`,
        );
        return { status: 'failed', channelId, lasting, reason };
      }
    });
  }

  /**
   * Sends a member a direct message (a reminder they asked for), one at a time per member. A
   * failure is logged and returned, never thrown: `closed` when the member takes no direct
   * messages from the bot, which only they can change, so a caller does not try it again.
   */
  async dm(userId: string, post: ChannelPost): Promise<DmResult> {
    return this.#enqueue(`dm:${userId}`, async (): Promise<DmResult> => {
      try {
        const { transport } = this.deps;
        if (!transport.sendDm) throw new DmClosed('this process sends no direct messages');
        for (const message of layOut(post)) await transport.sendDm(userId, message);
        return 'sent';
      } catch (error) {
        const closed = error instanceof DmClosed;
        const reason = error instanceof Error ? error.message : String(error);
        this.deps.log.warn(
          { event: closed ? 'post.dm_closed' : 'post.dm_failed', userId, reason },
          closed
            ? `member ${userId} takes no direct messages from the bot`
            : `a direct message to ${userId} failed`,
        );
        return closed ? 'closed' : 'failed';
      }
    });
  }

  /**
   * Brings a message the bot sent up to date (a board whose game a timer moved on), in the
   * channel's queue. A failure is logged, never thrown: the next press updates the board anyway.
   * A message someone deleted answers `gone`: an outcome only it would have told needs a post.
   */
  async edit(
    channelId: string,
    messageId: string,
    post: ChannelPost & { buttons?: ButtonSpec[] },
  ): Promise<EditResult> {
    return this.#enqueue(channelId, async (): Promise<EditResult> => {
      try {
        await this.deps.transport.edit(channelId, messageId, layOutOne(post));
        return 'edited';
      } catch (error) {
        const reason = error instanceof Error ? error.message : String(error);
        this.deps.log.warn(
          { event: 'post.edit_failed', channelId, messageId, reason },
          'a message edit failed',
        );
        return error instanceof MessageGone ? 'gone' : 'failed';
      }
    });
  }

  /** What the bot lacks to post in the channel `setting` names: none when no channel is set. */
  async missingPermissions(setting: ChannelSettingKey): Promise<string[]> {
    const channelId = (await this.deps.runtimeConfig.get(setting)) as string | null;
    if (channelId === null || !this.deps.transport.missingPermissions) return [];
    return this.deps.transport.missingPermissions(channelId).catch((error: unknown) => {
      this.deps.log.warn(
        { event: 'post.permissions_unknown', setting, channelId, err: error },
        "could not read the bot's permissions in a channel",
      );
      return [];
    });
  }

  /**
   * The channels an admin may pick for a channel setting: the server's text channels the bot can
   * post in, in their order; null where there is no Discord to ask (the console, the web-only
   * process) or Discord did not answer, so a page asks for a channel id instead.
   */
  async postableChannels(): Promise<PostableChannel[] | null> {
    if (!this.deps.transport.postableChannels) return null;
    return this.deps.transport.postableChannels().catch((error: unknown) => {
      this.deps.log.warn(
        { event: 'post.channels_unknown', err: error },
        "could not list the server's channels",
      );
      return null;
    });
  }

  /**
   * Checks every channel a setting names and logs what the bot lacks in each: at start-up, so
   * an operator reads it before the first post fails. Returns the settings that lack something.
   */
  async checkChannels(): Promise<{ setting: string; channelId: string; missing: string[] }[]> {
    const lacking: { setting: string; channelId: string; missing: string[] }[] = [];
    for (const view of await this.deps.runtimeConfig.list()) {
      if (view.kind !== 'channel') continue;
      const setting = view.key as ChannelSettingKey;
      // The default's channel, and each server's own.
      const layers = [{ guildId: null as string | null, value: view.value }];
      layers.push(...(await this.deps.runtimeConfig.serverValues(setting)));
      for (const { guildId, value } of layers) {
        if (typeof value !== 'string') continue;
        const missing = await inServer(guildId, () => this.missingPermissions(setting));
        if (missing.length === 0) continue;
        lacking.push({ setting, channelId: value, missing });
        this.deps.log.warn(
          { event: 'post.permissions_missing', setting, guildId, channelId: value, missing },
          `the bot lacks ${missing.join(', ')} in channel ${value} (${setting}): its posts there will fail`,
        );
      }
    }
    return lacking;
  }

  async status(setting: ChannelSettingKey): Promise<ChannelStatus> {
    const channelId = (await this.deps.runtimeConfig.get(setting)) as string | null;
    if (channelId === null) return { channelId, stopped: null };
    const state = await this.deps.states.findOne({ _id: await this.#stateId(setting) });
    if (!state) return { channelId, stopped: null };
    // An admin set the channel again after it failed: try it again.
    if (state.revision !== (await this.deps.runtimeConfig.revision(setting))) {
      return { channelId, stopped: null };
    }
    return { channelId, stopped: { reason: state.reason, at: state.failedAt } };
  }

  async #send(
    setting: ChannelSettingKey,
    stateId: string,
    channelId: string,
    post: ChannelPost,
  ): Promise<PostResult> {
    const { log } = this.deps;
    try {
      await this.#sendLaidOut(channelId, post);
      await this.deps.states.deleteOne({ _id: stateId });
      return { status: 'posted', channelId };
    } catch (error) {
      const lasting = error instanceof PostRefused;
      const reason = error instanceof Error ? error.message : String(error);
      if (lasting) {
        const revision = await this.deps.runtimeConfig.revision(setting);
        await this.deps.states.updateOne(
          { _id: stateId },
          { $set: { channelId, revision, reason, failedAt: this.deps.clock.now() } },
          { upsert: true },
        );
      }
      log.error(
        { event: lasting ? 'post.channel_stopped' : 'post.failed', setting, channelId, reason },
        lasting
          ? `posts to channel ${channelId} stopped until an admin sets ${setting} again`
          : `a post to channel ${channelId} failed`,
      );
      return { status: 'failed', channelId, lasting, reason };
    }
  }

  /** A post as the messages Discord takes (`layOut`), in order. */
  async #sendLaidOut(channelId: string, post: ChannelPost): Promise<void> {
    const messages = layOut(post);
    for (const [i, message] of messages.entries())
      await this.deps.transport.send(channelId, { ...message, nonce: nonceOf(post.once, channelId, i) });
  }

  /** One post at a time per channel (and per member's direct messages), `minIntervalMs` apart. */
  #enqueue<T>(channelId: string, task: () => Promise<T>): Promise<T> {
    const previous = this.#queues.get(channelId) ?? Promise.resolve();
    const next = previous.then(async () => {
      const wait = (this.#lastSent.get(channelId) ?? 0) + this.options.minIntervalMs - performance.now();
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      try {
        return await task();
      } finally {
        this.#lastSent.set(channelId, performance.now());
      }
    });
    const settled = next.catch(() => undefined);
    this.#queues.set(channelId, settled);
    void settled.then(() => {
      if (this.#queues.get(channelId) === settled) this.#queues.delete(channelId);
    });
    return next;
  }
}
