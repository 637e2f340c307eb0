import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type WebSocket, WebSocketServer } from 'ws';

/**
 * A test-only Discord on loopback: the REST API the bot calls and a WebSocket gateway.
 * The real discord.js Client connects to it (REST `api` option; the gateway URL comes
 * from `GET /gateway/bot`), completes the handshake, receives INTERACTION_CREATE for
 * slash commands and clicks, and every REST call it makes is recorded.
 */

export const GUILD_ID = '900000000000000001';
export const CHANNEL_ID = '900000000000000002';
export const APP_ID = '900000000000000003';
export const BOT_USER_ID = APP_ID;

export interface RecordedFile {
  name: string;
  data: Buffer;
}

export interface RecordedCall {
  method: string;
  path: string;
  query: URLSearchParams;
  body: Record<string, unknown> | null;
  files: RecordedFile[];
}

/** What a member sees of one message the bot produced for an interaction. */
export interface VisibleMessage {
  via: 'reply' | 'deferred' | 'update' | 'edit' | 'followup' | 'suggestions' | 'post';
  /** Autocomplete suggestions (via 'suggestions'). */
  choices?: unknown[];
  content: string;
  ephemeral: boolean;
  embeds: {
    title?: string;
    description?: string;
    fields?: { name: string; value: string }[];
    image?: { url: string };
  }[];
  components: {
    components: { custom_id: string; label?: string; options?: { label: string; value: string }[] }[];
  }[];
  files: RecordedFile[];
  id: string;
  /** When the fake received it (performance.now()). */
  at: number;
}

/** The custom id of the button labelled `label` on a message (throws when there is none). */
export function buttonId(message: VisibleMessage | undefined, label: string): string {
  const found = message?.components.flatMap((row) => row.components).find((c) => c.label === label);
  if (!found) throw new Error(`no button ${label} on ${JSON.stringify(message)}`);
  return found.custom_id;
}

export interface FakeUser {
  id: string;
  username: string;
  roles?: string[];
  /** The member's client language, sent as the interaction's `locale` (default en-US). */
  locale?: string;
  /** An app rather than a person. */
  bot?: boolean;
}

const EPHEMERAL = 1 << 6;

let snowflakeCounter = 1_000n;
function snowflake(): string {
  snowflakeCounter += 1n;
  return (1_300_000_000_000_000_000n + snowflakeCounter).toString();
}

function apiUser(user: FakeUser) {
  return {
    id: user.id,
    username: user.username,
    discriminator: '0',
    global_name: user.username,
    avatar: null,
    ...(user.bot ? { bot: true } : {}),
  };
}

function apiMember(user: FakeUser) {
  return {
    user: apiUser(user),
    roles: user.roles ?? [],
    nick: null,
    avatar: null,
    joined_at: '2025-01-01T00:00:00.000Z',
    deaf: false,
    mute: false,
    flags: 0,
    pending: false,
    permissions: '2248473465835073',
  };
}

export class FakeDiscord {
  readonly calls: RecordedCall[] = [];
  /** Messages the bot posted to channels on its own, by channel id. */
  readonly channelPosts = new Map<string, VisibleMessage[]>();
  /** Channels that answer like Discord does when the bot lacks a permission. */
  readonly forbiddenChannels = new Set<string>();
  readonly #http: Server;
  readonly #gateway: WebSocketServer;
  readonly #sockets = new Set<WebSocket>();
  readonly #messagesByToken = new Map<string, VisibleMessage[]>();
  readonly #waiters = new Set<() => void>();
  #seq = 0;
  #port = 0;

  constructor() {
    this.#http = createServer((req, res) => {
      this.#handle(req, res).catch((error: unknown) => {
        res.writeHead(500, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ message: String(error), code: 0 }));
      });
    });
    this.#gateway = new WebSocketServer({ server: this.#http, path: '/gateway' });
    this.#gateway.on('connection', (socket) => this.#onGatewayConnection(socket));
  }

  async start(): Promise<void> {
    this.#http.listen(0, '127.0.0.1');
    await once(this.#http, 'listening');
    this.#port = (this.#http.address() as AddressInfo).port;
  }

  get apiUrl(): string {
    return `http://127.0.0.1:${this.#port}/api`;
  }

  async stop(): Promise<void> {
    for (const socket of this.#sockets) socket.terminate();
    this.#gateway.close();
    this.#http.closeAllConnections();
    await new Promise<void>((resolve) => this.#http.close(() => resolve()));
  }

  /** Dispatches a slash command as a member would run it; returns the interaction token. */
  command(
    user: FakeUser,
    name: string,
    path: string[],
    options: Record<string, string | number | boolean> = {},
    users: FakeUser[] = [],
  ): string {
    return this.#dispatchInteraction(user, 2, this.#commandData(name, path, options, users));
  }

  /**
   * A member typing into option `focused` of a command; the bot's suggestions arrive as the
   * interaction's callback (type 8), read with `suggestions(token)`.
   */
  autocomplete(
    user: FakeUser,
    name: string,
    path: string[],
    options: Record<string, string>,
    focused: string,
  ): string {
    const data = this.#commandData(name, path, options, [], focused);
    return this.#dispatchInteraction(user, 4, data);
  }

  async suggestions(token: string): Promise<{ name: string; value: string }[]> {
    const [message] = await this.waitFor(token, (m) => m.length > 0);
    return (message?.choices ?? []) as { name: string; value: string }[];
  }

  #commandData(
    name: string,
    path: string[],
    options: Record<string, string | number | boolean>,
    users: FakeUser[],
    focused?: string,
  ) {
    const leaf = Object.entries(options).map(([optName, value]) => ({
      name: optName,
      type:
        typeof value === 'number'
          ? 4
          : typeof value === 'boolean'
            ? 5
            : users.some((u) => u.id === value)
              ? 6
              : 3,
      value,
      ...(optName === focused ? { focused: true } : {}),
    }));
    let tree: unknown[] = leaf;
    for (const part of [...path].reverse()) {
      tree = [{ name: part, type: part === path[path.length - 1] ? 1 : 2, options: tree }];
    }
    const resolved =
      users.length === 0
        ? undefined
        : {
            users: Object.fromEntries(users.map((u) => [u.id, apiUser(u)])),
            members: Object.fromEntries(users.map((u) => [u.id, { ...apiMember(u), user: undefined }])),
          };
    return { id: snowflake(), name, type: 1, options: tree, resolved };
  }

  /** Clicks a button of a message the bot sent; returns the new interaction's token. */
  click(user: FakeUser, message: VisibleMessage, customId: string): string {
    return this.#component(user, message, { custom_id: customId, component_type: 2 });
  }

  /** Picks values in a select menu of a message the bot sent; returns the new interaction's token. */
  choose(user: FakeUser, message: VisibleMessage, customId: string, values: string[]): string {
    return this.#component(user, message, { custom_id: customId, component_type: 3, values });
  }

  #component(user: FakeUser, message: VisibleMessage, data: Record<string, unknown>): string {
    return this.#dispatchInteraction(user, 3, data, this.#apiMessage(message));
  }

  /** Messages a member sees for one interaction, in order. */
  messages(token: string): VisibleMessage[] {
    return this.#messagesByToken.get(token) ?? [];
  }

  /** Waits until the interaction produced a message matching `done` (default: any final one). */
  async waitFor(
    token: string,
    done: (messages: VisibleMessage[]) => boolean = (m) => m.some((x) => x.via !== 'deferred'),
    timeoutMs = 15_000,
  ): Promise<VisibleMessage[]> {
    const started = Date.now();
    while (!done(this.messages(token))) {
      if (Date.now() - started > timeoutMs) {
        throw new Error(
          `no matching reply for interaction ${token} within ${timeoutMs} ms: ${JSON.stringify(this.messages(token))}`,
        );
      }
      await new Promise<void>((resolve) => {
        this.#waiters.add(resolve);
        setTimeout(resolve, 50);
      });
    }
    return this.messages(token);
  }

  /** The server's preferred language, sent as every interaction's `guild_locale`. */
  guildLocale = 'en-US';

  /** When each interaction was sent on the gateway (performance.now()), by token. */
  readonly dispatchedAt = new Map<string, number>();

  #dispatchInteraction(user: FakeUser, type: number, data: unknown, message?: unknown): string {
    const id = snowflake();
    const token = `token-${id}`;
    this.#messagesByToken.set(token, []);
    this.dispatchedAt.set(token, performance.now());
    this.#send({
      op: 0,
      t: 'INTERACTION_CREATE',
      d: {
        id,
        application_id: APP_ID,
        type,
        token,
        version: 1,
        guild_id: GUILD_ID,
        channel_id: CHANNEL_ID,
        channel: { id: CHANNEL_ID, type: 0, guild_id: GUILD_ID, name: 'general' },
        member: apiMember(user),
        data,
        message,
        app_permissions: '2248473465835073',
        locale: user.locale ?? 'en-US',
        guild_locale: this.guildLocale,
        entitlements: [],
        authorizing_integration_owners: { '0': GUILD_ID },
        context: 0,
        attachment_size_limit: 10_485_760,
      },
    });
    return token;
  }

  #send(payload: { op: number; t?: string; d: unknown }): void {
    const frame = JSON.stringify({
      ...payload,
      s: payload.op === 0 ? ++this.#seq : null,
      t: payload.t ?? null,
    });
    for (const socket of this.#sockets) socket.send(frame);
  }

  #onGatewayConnection(socket: WebSocket): void {
    this.#sockets.add(socket);
    socket.on('close', () => this.#sockets.delete(socket));
    socket.send(JSON.stringify({ op: 10, d: { heartbeat_interval: 41_250 }, s: null, t: null }));
    socket.on('message', (raw) => {
      const packet = JSON.parse(String(raw)) as { op: number; d: unknown };
      if (packet.op === 1) socket.send(JSON.stringify({ op: 11, d: null, s: null, t: null }));
      if (packet.op === 2) this.#ready(socket);
    });
  }

  #ready(socket: WebSocket): void {
    const frame = (t: string, d: unknown) => JSON.stringify({ op: 0, t, s: ++this.#seq, d });
    socket.send(
      frame('READY', {
        v: 10,
        user: {
          id: BOT_USER_ID,
          username: 'CookieBot',
          discriminator: '0',
          bot: true,
          avatar: null,
          global_name: null,
        },
        guilds: [{ id: GUILD_ID, unavailable: true }],
        session_id: 'fake-session',
        resume_gateway_url: `ws://127.0.0.1:${this.#port}/gateway`,
        application: { id: APP_ID, flags: 0 },
        shard: [0, 1],
      }),
    );
    socket.send(
      frame('GUILD_CREATE', {
        id: GUILD_ID,
        name: 'Cookie Test Server',
        owner_id: '900000000000000009',
        icon: null,
        features: [],
        roles: [
          {
            id: GUILD_ID,
            name: '@everyone',
            permissions: '0',
            position: 0,
            color: 0,
            hoist: false,
            managed: false,
            mentionable: false,
            flags: 0,
          },
        ],
        channels: [{ id: CHANNEL_ID, type: 0, name: 'general', position: 0, permission_overwrites: [] }],
        members: [],
        emojis: [],
        stickers: [],
        threads: [],
        presences: [],
        voice_states: [],
        stage_instances: [],
        guild_scheduled_events: [],
        member_count: 3,
        joined_at: '2025-01-01T00:00:00.000Z',
        large: false,
        unavailable: false,
        preferred_locale: 'en-US',
        premium_tier: 0,
        verification_level: 0,
        default_message_notifications: 0,
        explicit_content_filter: 0,
        mfa_level: 0,
        nsfw_level: 0,
        system_channel_flags: 0,
      }),
    );
  }

  async #handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', `http://127.0.0.1:${this.#port}`);
    const path = url.pathname.replace(/^\/api\/v\d+/, '');
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const { body, files } = await parseBody(req, Buffer.concat(chunks), url);
    const call: RecordedCall = { method: req.method ?? 'GET', path, query: url.searchParams, body, files };
    this.calls.push(call);

    const json = (status: number, value?: unknown) => {
      res.writeHead(status, value === undefined ? {} : { 'content-type': 'application/json' });
      res.end(value === undefined ? undefined : JSON.stringify(value));
    };

    if (call.method === 'GET' && path === '/gateway/bot') {
      return json(200, {
        url: `ws://127.0.0.1:${this.#port}/gateway`,
        shards: 1,
        session_start_limit: { total: 1000, remaining: 1000, reset_after: 0, max_concurrency: 1 },
      });
    }
    const callback = /^\/interactions\/(\d+)\/([^/]+)\/callback$/.exec(path);
    if (callback && call.method === 'POST') {
      const token = callback[2] as string;
      const type = Number(body?.type);
      const data = (body?.data ?? {}) as Record<string, unknown>;
      const via = type === 4 ? 'reply' : type === 7 ? 'update' : type === 8 ? 'suggestions' : 'deferred';
      const message = this.#record(token, via, data, files);
      if (url.searchParams.get('with_response') === 'true') {
        return json(200, {
          interaction: { id: callback[1], type: 2 },
          resource: { type, message: this.#apiMessage(message) },
        });
      }
      return json(204);
    }
    const webhook = /^\/webhooks\/(\d+)\/([^/]+)(?:\/messages\/([^/]+))?$/.exec(path);
    if (webhook) {
      const token = webhook[2] as string;
      const target = webhook[3];
      if (call.method === 'DELETE') {
        const list = this.#messagesByToken.get(token) ?? [];
        this.#messagesByToken.set(
          token,
          list.filter((m) => m.via !== 'deferred' && m.via !== 'edit'),
        );
        this.#notify();
        return json(204);
      }
      if (call.method === 'GET') return json(200, this.#apiMessage(this.messages(token)[0]));
      const via = target ? 'edit' : 'followup';
      const message = this.#record(token, via, body ?? {}, files);
      return json(200, this.#apiMessage(message));
    }
    const channel = /^\/channels\/(\d+)(\/messages)?$/.exec(path);
    if (channel) {
      const channelId = channel[1] as string;
      if (this.forbiddenChannels.has(channelId))
        return json(403, { message: 'Missing Permissions', code: 50013 });
      if (call.method === 'GET' && !channel[2]) {
        return json(200, {
          id: channelId,
          type: 0,
          guild_id: GUILD_ID,
          name: `channel-${channelId.slice(-4)}`,
          position: 1,
          permission_overwrites: [],
        });
      }
      if (call.method === 'POST' && channel[2]) {
        const message = this.#record(`channel:${channelId}`, 'post', body ?? {}, files);
        this.channelPosts.set(channelId, this.messages(`channel:${channelId}`));
        return json(200, { ...this.#apiMessage(message), channel_id: channelId });
      }
    }
    const commands = /^\/applications\/(\d+)(?:\/guilds\/(\d+))?\/commands$/.exec(path);
    if (commands && call.method === 'PUT') {
      return json(
        200,
        (Array.isArray(body) ? body : []).map((c: object) => ({
          ...c,
          id: snowflake(),
          application_id: APP_ID,
          version: '1',
        })),
      );
    }
    return json(404, { message: `fake Discord has no route ${call.method} ${path}`, code: 0 });
  }

  #record(
    token: string,
    via: VisibleMessage['via'],
    data: Record<string, unknown>,
    files: RecordedFile[],
  ): VisibleMessage {
    const list = this.#messagesByToken.get(token) ?? [];
    const previous = list[list.length - 1];
    const ephemeral =
      via === 'edit'
        ? (previous?.ephemeral ?? false)
        : (Number(data.flags ?? 0) & EPHEMERAL) !== 0 || (via === 'update' && !!previous?.ephemeral);
    const message: VisibleMessage = {
      via,
      id: via === 'edit' && previous ? previous.id : snowflake(),
      content: String(data.content ?? ''),
      ephemeral,
      embeds: (data.embeds as VisibleMessage['embeds']) ?? [],
      components: (data.components as VisibleMessage['components']) ?? [],
      files,
      at: performance.now(),
      ...(Array.isArray(data.choices) ? { choices: data.choices } : {}),
    };
    list.push(message);
    this.#messagesByToken.set(token, list);
    this.#notify();
    return message;
  }

  #notify(): void {
    for (const wake of this.#waiters) wake();
    this.#waiters.clear();
  }

  #apiMessage(message: VisibleMessage | undefined) {
    return {
      id: message?.id ?? snowflake(),
      channel_id: CHANNEL_ID,
      author: { id: BOT_USER_ID, username: 'CookieBot', discriminator: '0', bot: true, avatar: null },
      content: message?.content ?? '',
      embeds: message?.embeds ?? [],
      components: message?.components ?? [],
      attachments: (message?.files ?? []).map((f, i) => ({
        id: String(i),
        filename: f.name,
        size: f.data.length,
        url: `https://cdn.invalid/${f.name}`,
        proxy_url: '',
      })),
      flags: message?.ephemeral ? EPHEMERAL : 0,
      timestamp: new Date().toISOString(),
      edited_timestamp: null,
      type: 0,
      tts: false,
      mention_everyone: false,
      mentions: [],
      mention_roles: [],
      pinned: false,
    };
  }
}

/** JSON bodies, and multipart bodies (payload_json + files[n]) parsed by the platform's own FormData. */
async function parseBody(
  req: IncomingMessage,
  raw: Buffer,
  url: URL,
): Promise<{ body: Record<string, unknown> | null; files: RecordedFile[] }> {
  const type = req.headers['content-type'] ?? '';
  if (raw.length === 0) return { body: null, files: [] };
  if (!type.startsWith('multipart/form-data')) return { body: JSON.parse(raw.toString('utf8')), files: [] };
  const form = await new Request(url, {
    method: 'POST',
    headers: { 'content-type': type },
    body: raw,
  }).formData();
  const files: RecordedFile[] = [];
  let body: Record<string, unknown> | null = null;
  for (const [key, value] of form.entries()) {
    if (key === 'payload_json' && typeof value === 'string') body = JSON.parse(value);
    else if (typeof value !== 'string')
      files.push({ name: value.name, data: Buffer.from(await value.arrayBuffer()) });
  }
  return { body, files };
}
