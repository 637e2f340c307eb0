import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { PermissionFlagsBits } from 'discord.js';
import { type WebSocket, WebSocketServer } from 'ws';
import {
  DISCORD_ERRORS,
  describeRefusal,
  type FormErrors,
  fieldError,
  invalidFormBody,
  type Refusal,
} from './discordErrors.js';
import { type MatchedRoute, matchRoute } from './discordRoutes.js';
import {
  type AttachmentDownload,
  apiAttachment,
  attachmentRefusal,
  boundsRefusal,
  type FakeAttachment,
  type RegisteredCommand,
  serveAttachment,
} from './fakeAttachments.js';
import {
  APP_ID,
  apiUser,
  BOT_PERMISSIONS,
  BOT_ROLE_ID,
  BOT_USER,
  BOT_USER_ID,
  CHANNEL_ID,
  FakeGuild,
  type FakeRole,
  type FakeUser,
  GUILD_ID,
  type PermissionName,
} from './fakeGuild.js';
import { INTERACTION, InteractionLifecycle } from './interactionLifecycle.js';
import {
  apiMessage,
  buttonData,
  channelSelectData,
  commandData,
  mentionableSelectData,
  messageCommandData,
  modalSubmitData,
  roleSelectData,
  snowflake,
  stringSelectData,
  userCommandData,
  userSelectData,
} from './interactionPayloads.js';
import { guardRefusals } from './refusalGuard.js';

/**
 * A test-only Discord on loopback: the REST API the bot calls and a WebSocket gateway.
 * The real discord.js Client connects to it (REST `api` option; the gateway URL comes
 * from `GET /gateway/bot`), completes the handshake, receives INTERACTION_CREATE for
 * slash commands, clicks, forms and context menus, and every REST call it makes is recorded.
 *
 * It refuses what Discord refuses, as Discord answers: bodies against Discord's published
 * schema and documented limits (`discordRoutes`), the interaction's lifecycle
 * (`interactionLifecycle`), the bot's permissions in the server (`fakeGuild`). A refused
 * request changes nothing a member sees and lands in `refusals`; under vitest a test fails
 * when the bot made one the test neither arranged (`refuseNext`, `forbiddenChannels`,
 * `denyBot`) nor declared (`expectRefusals()`, or the `refusals: 'expected'` option).
 */

export type { AttachmentDownload, FakeAttachment } from './fakeAttachments.js';
export type { FakeRole, FakeUser, PermissionName } from './fakeGuild.js';
export { APP_ID, BOT_ROLE_ID, BOT_ROLE_POSITION, BOT_USER_ID, CHANNEL_ID, GUILD_ID } from './fakeGuild.js';

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
  /** What the bot wrote for the server's audit log (`X-Audit-Log-Reason`), decoded. */
  auditLogReason?: string;
}

/** What a member sees of one message the bot produced for an interaction. */
export interface VisibleMessage {
  via: 'reply' | 'deferred' | 'update' | 'edit' | 'followup' | 'suggestions' | 'modal' | 'post' | 'dm';
  /** Autocomplete suggestions (via 'suggestions'). */
  choices?: unknown[];
  /** The form the member was shown (via 'modal'): its custom id, title and components. */
  modal?: { custom_id: string; title: string; components: unknown[] };
  content: string;
  ephemeral: boolean;
  embeds: {
    title?: string;
    description?: string;
    fields?: { name: string; value: string }[];
    image?: { url: string };
  }[];
  components: {
    components: {
      custom_id: string;
      label?: string;
      /** 5 is a Link button: it carries a `url` and no custom id. */
      style?: number;
      url?: string;
      options?: { label: string; value: string }[];
    }[];
  }[];
  files: RecordedFile[];
  id: string;
  /** When the fake received it (performance.now()). */
  at: number;
}

/** A request the fake answered as Discord refuses one. */
export interface RefusedRequest {
  method: string;
  path: string;
  status: number;
  code: number;
  message: string;
  errors?: FormErrors;
  /**
   * The test set it up (`refuseNext`, `forbiddenChannels`, `denyBot`, `removeBotPermission`, a role
   * above the bot's or managed, `failRoleRequests`): expected by construction.
   */
  arranged: boolean;
  /** What the request answered, when the fake knows: "/cookies give", "click cookies.bakery", "#9000…77". */
  about?: string;
}

/** Which requests `refuseNext` refuses: a predicate, or a method and a path (a fragment, or a pattern). */
export type RequestMatch =
  | ((request: { method: string; path: string; body: unknown }) => boolean)
  | { method?: string; path?: string | RegExp };

export interface FakeDiscordOptions {
  /** How long after the dispatch Discord takes an interaction's callback (Discord: 3,000 ms). */
  callbackDeadlineMs?: number;
  /** How long an interaction token works for follow-ups and edits (Discord: 15 minutes). */
  tokenLifetimeMs?: number;
  /** The largest file Discord takes (a server without boosts: 10 MiB). */
  uploadLimitBytes?: number;
  /** 'expected': every refusal in this suite is expected (tests of the fake itself). Default: each fails its test. */
  refusals?: 'fail' | 'expected';
}

/** The answer `refuseNext` gives unless told another: Discord refusing the reply's body. */
const DEFAULT_REFUSAL = invalidFormBody([fieldError.maxLength(['data', 'content'], 2_000)]);
const EPHEMERAL = 1 << 6;

/** The fake's knowledge of one message, for edits through the channel and clicks on it. */
interface KnownMessage {
  channelId: string;
  ephemeral: boolean;
  message: VisibleMessage;
  /** The interaction whose reply or follow-up it is. */
  token?: string;
}

/** `held`: answered once it settles, true; false drops the connection unanswered. */
type Answer = { status: number; body?: unknown; held?: Promise<boolean> };

/** How role requests fail (`failRoleRequests`, `holdRoleRequests`): `status` answers, none holds. */
interface RoleFault {
  status?: number;
  times: number;
  applied: boolean;
}

const ROLE_ROUTES = new Set<MatchedRoute['name']>(['addMemberRole', 'removeMemberRole']);

/** How long Discord keeps a message's enforced nonce ("the past few minutes"). */
const NONCE_KEPT_MS = 5 * 60_000;

export function buttonId(message: VisibleMessage | undefined, label: string): string {
  const found = message?.components.flatMap((row) => row.components).find((c) => c.label === label);
  if (!found) throw new Error(`no button ${label} on ${JSON.stringify(message)}`);
  return found.custom_id;
}

export class FakeDiscord {
  readonly calls: RecordedCall[] = [];
  /** Messages the bot posted to channels on its own, by channel id. */
  readonly channelPosts = new Map<string, VisibleMessage[]>();
  /** Edits the bot made to messages through their channel (`PATCH /channels/…/messages/…`), by channel id. */
  readonly channelEdits = new Map<string, VisibleMessage[]>();
  /** Direct messages the bot sent, by the member's user id (what they received). */
  readonly directMessages = new Map<string, VisibleMessage[]>();
  /** Channels where every channel route answers 403 Missing Permissions (`denyBot` denies one permission). */
  readonly forbiddenChannels = new Set<string>();
  /** Every request the fake refused, in order. */
  readonly refusals: RefusedRequest[] = [];
  /** When each interaction was sent on the gateway (performance.now()), by token. */
  readonly dispatchedAt = new Map<string, number>();
  /** The server's preferred language, sent as every interaction's `guild_locale`. */
  guildLocale = 'en-US';
  /** Every download of a member's attachment from the fake's CDN (`GET /attachments/<id>/<filename>`), in order. */
  readonly attachmentDownloads: AttachmentDownload[] = [];

  readonly #options: Required<FakeDiscordOptions>;
  readonly #guild = new FakeGuild();
  readonly #lifecycle: InteractionLifecycle;
  readonly #http: Server;
  readonly #gateway: WebSocketServer;
  readonly #sockets = new Set<WebSocket>();
  readonly #messagesByToken = new Map<string, VisibleMessage[]>();
  readonly #originals = new Map<string, string>();
  readonly #known = new Map<string, KnownMessage>();
  readonly #waiters = new Set<() => void>();
  readonly #arranged: { match: RequestMatch; refusal: Refusal }[] = [];
  readonly #held = new Set<() => void>();
  /** Direct channels the bot opened: channel id → the member's user id (one channel per member). */
  readonly #dmChannels = new Map<string, string>();
  /** Members whose privacy settings refuse direct messages from the bot (`closeDms`). */
  readonly #closedDms = new Set<string>();
  /** The app's slash commands as registered (`registerCommands`, or a deploy's PUT), by name. */
  readonly #registered = new Map<string, RegisteredCommand>();
  /** The files members attached to commands, by attachment id: what the CDN serves. */
  readonly #uploads = new Map<string, FakeAttachment>();
  #roleFault: RoleFault | null = null;
  /** The channel posts' fault (`failPosts`), like the role requests'. */
  #postFault: RoleFault | null = null;
  /** Messages created with `enforce_nonce`, by channel and nonce, with when. */
  readonly #nonces = new Map<string, { message: VisibleMessage; at: number }>();
  #expecting = false;
  #checked = 0;
  #seq = 0;
  #port = 0;

  constructor(options: FakeDiscordOptions = {}) {
    this.#options = {
      callbackDeadlineMs: options.callbackDeadlineMs ?? 3_000,
      tokenLifetimeMs: options.tokenLifetimeMs ?? 15 * 60_000,
      uploadLimitBytes: options.uploadLimitBytes ?? 10 * 1024 * 1024,
      refusals: options.refusals ?? 'fail',
    };
    this.#lifecycle = new InteractionLifecycle(this.#options);
    this.#http = createServer((req, res) => {
      this.#handle(req, res).catch((error: unknown) => {
        res.writeHead(500, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ message: String(error), code: 0 }));
      });
    });
    this.#gateway = new WebSocketServer({ server: this.#http, path: '/gateway' });
    this.#gateway.on('connection', (socket) => this.#onGatewayConnection(socket));
    guardRefusals(() => this.checkRefusals());
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
    this.restoreRoleRequests();
    for (const socket of this.#sockets) socket.terminate();
    this.#gateway.close();
    this.#http.closeAllConnections();
    await new Promise<void>((resolve) => this.#http.close(() => resolve()));
  }

  // ── What the test expects of Discord's answers ──────────────────────────────────────────

  /** The current test means the bot to be refused: its refusals do not fail it. */
  expectRefusals(): void {
    this.#expecting = true;
  }

  /** Refuses the next request matching `match` (default: an interaction callback) with `refusal` (default: 400 50035). */
  refuseNext(
    match: RequestMatch = { method: 'POST', path: /\/callback$/ },
    refusal: Refusal = DEFAULT_REFUSAL,
  ): void {
    this.#arranged.push({ match, refusal });
  }

  /** Throws when the bot was refused since the last check, unless the test arranged or expected it. */
  checkRefusals(): void {
    const fresh = this.refusals.slice(this.#checked);
    this.#checked = this.refusals.length;
    const expecting = this.#expecting || this.#options.refusals === 'expected';
    this.#expecting = false;
    const unexpected = fresh.filter((r) => !r.arranged);
    if (unexpected.length === 0 || expecting) return;
    const lines = unexpected.map(
      (r) => `  ${r.method} ${r.path}${r.about ? ` (${r.about})` : ''} → ${r.status} ${describeRefusal(r)}`,
    );
    throw new Error(
      `the bot made ${unexpected.length} request(s) Discord would have refused (a test that means it calls fake.expectRefusals()):\n${lines.join('\n')}`,
    );
  }

  // ── The server ──────────────────────────────────────────────────────────────────────────

  /** A channel of the server (announced on the gateway when the bot is connected). */
  addChannel(id: string, name = `channel-${id.slice(-4)}`): void {
    const created = !this.#guild.hasChannel(id);
    this.#guild.addChannel(id, name);
    this.#send({ op: 0, t: created ? 'CHANNEL_CREATE' : 'CHANNEL_UPDATE', d: this.#guild.apiChannel(id) });
  }

  /** Denies the bot `permissions` in channel `id` (a member overwrite, as a server admin would set). */
  denyBot(channelId: string, permissions: PermissionName[]): void {
    this.#guild.denyBot(channelId, permissions);
    this.#send({ op: 0, t: 'CHANNEL_UPDATE', d: this.#guild.apiChannel(channelId) });
  }

  /** Takes back every denial of the bot in channel `id`. */
  restoreBot(channelId: string): void {
    this.#guild.restoreBot(channelId);
    this.#send({ op: 0, t: 'CHANNEL_UPDATE', d: this.#guild.apiChannel(channelId) });
  }

  /** A role of the server (announced on the gateway when the bot is connected). */
  addRole(role: FakeRole): void {
    const created = !this.#guild.role(role.id);
    this.#guild.addRole(role);
    this.#send({
      op: 0,
      t: created ? 'GUILD_ROLE_CREATE' : 'GUILD_ROLE_UPDATE',
      d: { guild_id: GUILD_ID, role: this.#guild.apiRole(role) },
    });
  }

  /** An admin deletes the role; members who held it no longer do. */
  removeRole(roleId: string): void {
    this.#guild.removeRole(roleId);
    this.#send({ op: 0, t: 'GUILD_ROLE_DELETE', d: { guild_id: GUILD_ID, role_id: roleId } });
  }

  /** Takes `permission` from the bot's role in the server (Manage Roles, say), as an admin would. */
  removeBotPermission(permission: PermissionName): void {
    this.#guild.setBotRolePermissions((bits) => bits & ~PermissionFlagsBits[permission]);
    this.#announceBotRole();
  }

  /** Gives the bot's role back every permission it started with. */
  restoreBotPermissions(): void {
    this.#guild.setBotRolePermissions(() => BOT_PERMISSIONS);
    this.#announceBotRole();
  }

  #announceBotRole(): void {
    const role = this.#guild.role(BOT_ROLE_ID) as FakeRole;
    this.#send({ op: 0, t: 'GUILD_ROLE_UPDATE', d: { guild_id: GUILD_ID, role: this.#guild.apiRole(role) } });
  }

  /** A member of the server the bot may look up (members who used the bot are known already). */
  addMember(user: FakeUser): void {
    this.#guild.addMember(user);
  }

  /** The member leaves the server (their roles go with them); an interaction of theirs brings them back. */
  removeMember(userId: string): void {
    this.#guild.removeMember(userId);
  }

  /** The roles the member holds now (without @everyone); none for who is not in the server. */
  memberRoles(userId: string): string[] {
    return (this.#guild.member(userId)?.roles ?? []).filter((id) => id !== GUILD_ID);
  }

  /**
   * The member refuses direct messages from the bot (their privacy settings): Discord still opens
   * the direct channel, and refuses each message in it with 403 50007, an arranged refusal.
   */
  closeDms(userId: string): void {
    this.#closedDms.add(userId);
  }

  /** The member takes direct messages again. */
  openDms(userId: string): void {
    this.#closedDms.delete(userId);
  }

  // ── Role requests that go wrong ─────────────────────────────────────────────────────────

  /**
   * The next `times` role requests (give or take; default: until `restoreRoleRequests`) answer
   * `status` (default 500). discord.js retries a 5xx three times, so one call is four requests.
   * `applied`: Discord made the change and only its answer failed (default: it did not).
   */
  failRoleRequests(options: { status?: number; times?: number; applied?: boolean } = {}): void {
    this.#roleFault = {
      status: options.status ?? 500,
      times: options.times ?? Number.POSITIVE_INFINITY,
      applied: options.applied ?? false,
    };
  }

  /**
   * The next `times` role requests (default: until `restoreRoleRequests`) get no answer, so the
   * bot's deadline passes first. `applied`: the change lands as the request arrives and only the
   * answer is late (default: the request is lost and changes nothing).
   */
  holdRoleRequests(options: { times?: number; applied?: boolean } = {}): void {
    this.#roleFault = { times: options.times ?? Number.POSITIVE_INFINITY, applied: options.applied ?? false };
  }

  /**
   * The next `times` channel posts (`POST /channels/…/messages`) answer `status` (default 500)
   * after creating the message (`applied`, the default) or without. discord.js retries a 5xx
   * three times, so one call is four requests.
   */
  failPosts(options: { status?: number; times?: number; applied?: boolean } = {}): void {
    this.#postFault = {
      status: options.status ?? 500,
      times: options.times ?? 1,
      applied: options.applied ?? true,
    };
  }

  /** Role requests work again; held ones are answered (applied) or their connection closed (lost). */
  restoreRoleRequests(): void {
    this.#roleFault = null;
    for (const release of this.#held) release();
    this.#held.clear();
  }

  // ── What members do ─────────────────────────────────────────────────────────────────────

  /**
   * Dispatches a slash command as a member would run it; returns the interaction token. `files`:
   * what the member attached to its attachment options, by option name. Discord's client sends
   * a file only for an option the registered definition types as an attachment, and an
   * attachment option only with its file: anything else throws (see `attachmentRefusal`).
   */
  command(
    user: FakeUser,
    name: string,
    path: string[],
    options: Record<string, string | number | boolean> = {},
    users: FakeUser[] = [],
    files: Record<string, FakeAttachment> = {},
  ): string {
    const refusal =
      attachmentRefusal(this.#registered.get(name), path, options, files, this.#options.uploadLimitBytes) ??
      boundsRefusal(this.#registered.get(name), path, options);
    if (refusal) throw new Error(`Discord's client cannot send this: ${refusal}`);
    for (const u of users) this.#guild.addMember(u);
    const uploaded = Object.fromEntries(
      Object.entries(files).map(([option, file]) => {
        const id = snowflake();
        this.#uploads.set(id, file);
        return [option, apiAttachment(id, file, `http://127.0.0.1:${this.#port}`)];
      }),
    );
    return this.#dispatch(user, {
      type: INTERACTION.command,
      data: commandData(this.#guild, name, path, options, users, undefined, uploaded),
      label: `/${[name, ...path].join(' ')}`,
    });
  }

  /**
   * The app's slash commands as Discord knows them after a deploy (a PUT of the commands does the
   * same): what the member's client offers, and so which options take a file.
   */
  registerCommands(definitions: readonly RegisteredCommand[]): void {
    this.#registered.clear();
    for (const definition of definitions) this.#registered.set(definition.name, definition);
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
    return this.#dispatch(user, {
      type: INTERACTION.autocomplete,
      data: commandData(this.#guild, name, path, options, [], focused),
      label: `autocomplete /${[name, ...path].join(' ')} ${focused}`,
    });
  }

  async suggestions(token: string): Promise<{ name: string; value: string }[]> {
    const [message] = await this.waitFor(token, (m) => m.length > 0);
    return (message?.choices ?? []) as { name: string; value: string }[];
  }

  /** A user command (a member's menu › Apps › `name`) on `target`. */
  userCommand(user: FakeUser, name: string, target: FakeUser): string {
    this.#guild.addMember(target);
    return this.#dispatch(user, {
      type: INTERACTION.command,
      data: userCommandData(this.#guild, name, target),
      label: `user command ${name}`,
    });
  }

  /** A message command (a message's menu › Apps › `name`) on a message the bot sent. */
  messageCommand(user: FakeUser, name: string, target: VisibleMessage): string {
    const channelId = this.#known.get(target.id)?.channelId ?? CHANNEL_ID;
    return this.#dispatch(user, {
      type: INTERACTION.command,
      data: messageCommandData(name, target, channelId),
      label: `message command ${name}`,
      channelId,
    });
  }

  /** Clicks a button of a message the bot sent; returns the new interaction's token. */
  click(user: FakeUser, message: VisibleMessage, customId: string): string {
    return this.#component(user, message, buttonData(customId), `click ${customId}`);
  }

  /** Picks values in a select menu of a message the bot sent; returns the new interaction's token. */
  choose(user: FakeUser, message: VisibleMessage, customId: string, values: string[]): string {
    return this.#component(user, message, stringSelectData(customId, values), `choose ${customId}`);
  }

  /** Picks members in a user select menu. */
  chooseUsers(user: FakeUser, message: VisibleMessage, customId: string, users: FakeUser[]): string {
    for (const u of users) this.#guild.addMember(u);
    return this.#component(
      user,
      message,
      userSelectData(this.#guild, customId, users),
      `choose users ${customId}`,
    );
  }

  /** Picks roles in a role select menu. */
  chooseRoles(user: FakeUser, message: VisibleMessage, customId: string, roles: FakeRole[]): string {
    for (const role of roles) this.#guild.addRole(role);
    return this.#component(
      user,
      message,
      roleSelectData(this.#guild, customId, roles),
      `choose roles ${customId}`,
    );
  }

  /** Picks members and roles in a mentionable select menu. */
  chooseMentionables(
    user: FakeUser,
    message: VisibleMessage,
    customId: string,
    picked: { users?: FakeUser[]; roles?: FakeRole[] },
  ): string {
    for (const u of picked.users ?? []) this.#guild.addMember(u);
    for (const role of picked.roles ?? []) this.#guild.addRole(role);
    const data = mentionableSelectData(this.#guild, customId, picked);
    return this.#component(user, message, data, `choose mentionables ${customId}`);
  }

  /** Picks channels in a channel select menu. */
  chooseChannels(user: FakeUser, message: VisibleMessage, customId: string, channelIds: string[]): string {
    const data = channelSelectData(this.#guild, customId, channelIds, user);
    return this.#component(user, message, data, `choose channels ${customId}`);
  }

  /** Submits a form (`fields`: text input custom id → value); `message` when a component opened it. */
  submitModal(
    user: FakeUser,
    message: VisibleMessage | null,
    customId: string,
    fields: Record<string, string>,
  ): string {
    const known = message ? this.#known.get(message.id) : undefined;
    return this.#dispatch(user, {
      type: INTERACTION.modalSubmit,
      data: modalSubmitData(customId, fields),
      label: `submit ${customId}`,
      ...(message ? { message, channelId: known?.channelId ?? CHANNEL_ID } : {}),
    });
  }

  #component(user: FakeUser, message: VisibleMessage, data: Record<string, unknown>, label: string): string {
    const channelId = this.#known.get(message.id)?.channelId ?? CHANNEL_ID;
    return this.#dispatch(user, { type: INTERACTION.component, data, label, message, channelId });
  }

  // ── What members see ────────────────────────────────────────────────────────────────────

  /**
   * When Discord took the interaction's first callback (performance.now()): a reply, a deferral
   * or suggestions, whatever replaced it later (a deferral a follow-up removed included).
   */
  callbackAt(token: string): number | undefined {
    return this.#lifecycle.get(token)?.callback?.at;
  }

  /** The id Discord gave the interaction of `token` (its callback's path names both). */
  interactionId(token: string): string {
    const interaction = this.#lifecycle.get(token);
    if (!interaction) throw new Error(`no interaction ${token}`);
    return interaction.id;
  }

  /**
   * The bodies of every message the bot sent or edited since call `since` (replies, follow-ups,
   * edits, channel posts): what a test reads `allowed_mentions` from.
   */
  messageBodies(since = 0): Record<string, unknown>[] {
    return this.calls
      .slice(since)
      .filter((c) => c.method !== 'GET' && c.method !== 'DELETE' && c.body && !Array.isArray(c.body))
      .filter((c) => /\/callback$|\/webhooks\/|\/channels\/\d+\/messages/.test(c.path))
      .map((c) => {
        const body = c.body as Record<string, unknown>;
        return (c.path.endsWith('/callback') ? body.data : body) as Record<string, unknown>;
      })
      .filter((b) => b && ('content' in b || 'embeds' in b));
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
        const refused = this.refusals.filter((r) => r.path.includes(token));
        throw new Error(
          `no matching reply for interaction ${token} within ${timeoutMs} ms: ${JSON.stringify(this.messages(token))}${
            refused.length > 0
              ? `; Discord refused: ${refused.map((r) => describeRefusal(r)).join('; ')}`
              : ''
          }`,
        );
      }
      await new Promise<void>((resolve) => {
        this.#waiters.add(resolve);
        setTimeout(resolve, 50);
      });
    }
    return this.messages(token);
  }

  // ── The gateway ─────────────────────────────────────────────────────────────────────────

  #dispatch(
    user: FakeUser,
    what: {
      type: (typeof INTERACTION)[keyof typeof INTERACTION];
      data: unknown;
      label: string;
      message?: VisibleMessage;
      channelId?: string;
    },
  ): string {
    const id = snowflake();
    const token = `token-${id}`;
    const channelId = what.channelId ?? CHANNEL_ID;
    this.#guild.addMember(user);
    this.#messagesByToken.set(token, []);
    this.#send({
      op: 0,
      t: 'INTERACTION_CREATE',
      d: {
        id,
        application_id: APP_ID,
        type: what.type,
        token,
        version: 1,
        guild_id: GUILD_ID,
        channel_id: channelId,
        channel: { id: channelId, type: 0, guild_id: GUILD_ID, name: this.#guild.channel(channelId).name },
        member: this.#guild.apiMember(user, channelId),
        data: what.data,
        ...(what.message ? { message: apiMessage(what.message, channelId) } : {}),
        app_permissions: this.#guild.botPermissions(channelId).toString(),
        locale: user.locale ?? 'en-US',
        guild_locale: this.guildLocale,
        entitlements: [],
        authorizing_integration_owners: { '0': GUILD_ID },
        context: 0,
        attachment_size_limit: this.#options.uploadLimitBytes,
      },
    });
    const at = performance.now();
    this.dispatchedAt.set(token, at);
    this.#lifecycle.dispatched({
      id,
      token,
      type: what.type,
      channelId,
      label: what.label,
      dispatchedAt: at,
      ...(what.message ? { messageId: what.message.id } : {}),
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
        user: { ...apiUser(BOT_USER), global_name: null },
        guilds: [{ id: GUILD_ID, unavailable: true }],
        session_id: 'fake-session',
        resume_gateway_url: `ws://127.0.0.1:${this.#port}/gateway`,
        application: { id: APP_ID, flags: 0 },
        shard: [0, 1],
      }),
    );
    socket.send(frame('GUILD_CREATE', this.#guild.apiGuild()));
  }

  // ── The REST API ────────────────────────────────────────────────────────────────────────

  async #handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', `http://127.0.0.1:${this.#port}`);
    if (req.method === 'GET' && url.pathname.startsWith('/attachments/')) {
      this.#serveUpload(url, res);
      return;
    }
    const path = url.pathname.replace(/^\/api\/v\d+/, '');
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const method = req.method ?? 'GET';
    const parsed = await parseBody(req, Buffer.concat(chunks), url).catch(() => null);
    const reason = req.headers['x-audit-log-reason'];
    const call: RecordedCall = {
      method,
      path,
      query: url.searchParams,
      body: parsed?.body ?? null,
      files: parsed?.files ?? [],
      ...(typeof reason === 'string' ? { auditLogReason: decodeURIComponent(reason) } : {}),
    };
    this.calls.push(call);
    const answer = parsed
      ? this.#answer(call, url)
      : this.#refuse(call, { status: 400, code: 50109, message: 'The request body contains invalid JSON.' });
    if (answer.held && !(await answer.held)) {
      res.destroy();
      return;
    }
    if (res.destroyed) return;
    res.writeHead(answer.status, answer.body === undefined ? {} : { 'content-type': 'application/json' });
    res.end(answer.body === undefined ? undefined : JSON.stringify(answer.body));
  }

  /** Discord's CDN: the bytes of a file a member attached, at its attachment's `url`. */
  #serveUpload(url: URL, res: ServerResponse): void {
    const [, , id = '', name = ''] = url.pathname.split('/');
    const file = this.#uploads.get(id);
    if (!file || decodeURIComponent(name) !== file.filename) {
      res.writeHead(404, { 'content-type': 'text/plain' });
      res.end('This content is no longer available.');
      return;
    }
    const download: AttachmentDownload = { id, size: file.data.length, sent: 0, state: 'sending' };
    this.attachmentDownloads.push(download);
    serveAttachment(res, file, download, () => this.#notify());
  }

  #answer(call: RecordedCall, url: URL): Answer {
    const route = matchRoute(call.method, call.path);
    if (!route)
      return this.#refuse(call, {
        status: 404,
        code: 0,
        message: `fake Discord has no route ${call.method} ${call.path}`,
      });
    if (this.#roleFault && ROLE_ROUTES.has(route.name)) return this.#faultyRoleAnswer(route, call, url);
    if (this.#postFault && route.name === 'createMessage') return this.#faultyPostAnswer(route, call, url);
    return this.#answerAsDiscord(route, call, url);
  }

  #faultyPostAnswer(route: MatchedRoute, call: RecordedCall, url: URL): Answer {
    const fault = this.#postFault as RoleFault;
    fault.times -= 1;
    if (fault.times <= 0) this.#postFault = null;
    if (fault.applied) this.#answerAsDiscord(route, call, url);
    const status = fault.status ?? 500;
    return this.#refuse(
      call,
      { status, code: 0, message: `${status}: Internal Server Error` },
      { arranged: true },
    );
  }

  #answerAsDiscord(route: MatchedRoute, call: RecordedCall, url: URL): Answer {
    const arranged = this.#takeArranged(call);
    if (arranged) return this.#refuse(call, arranged, { arranged: true });
    const gate = this.#gate(route, call);
    if (gate) return this.#refuse(call, gate.refusal, { arranged: gate.arranged });
    return this.#perform(route, call, url);
  }

  #faultyRoleAnswer(route: MatchedRoute, call: RecordedCall, url: URL): Answer {
    const fault = this.#roleFault as RoleFault;
    fault.times -= 1;
    if (fault.times <= 0) this.#roleFault = null;
    const done = fault.applied ? this.#answerAsDiscord(route, call, url) : null;
    if (fault.status !== undefined) {
      const failure = { status: fault.status, code: 0, message: `${fault.status}: Internal Server Error` };
      return this.#refuse(call, failure, { arranged: true });
    }
    const held = new Promise<boolean>((resolve) => this.#held.add(() => resolve(done !== null)));
    return { ...(done ?? { status: 204 }), held };
  }

  #takeArranged(call: RecordedCall): Refusal | undefined {
    const index = this.#arranged.findIndex(({ match }) =>
      typeof match === 'function'
        ? match({ method: call.method, path: call.path, body: call.body })
        : (match.method === undefined || match.method === call.method) &&
          (match.path === undefined ||
            (typeof match.path === 'string' ? call.path.includes(match.path) : match.path.test(call.path))),
    );
    if (index < 0) return undefined;
    const [taken] = this.#arranged.splice(index, 1);
    return taken?.refusal;
  }

  /** What Discord checks before it acts: the upload, the interaction's state, permissions, the body. */
  #gate(route: MatchedRoute, call: RecordedCall): { refusal: Refusal; arranged: boolean } | null {
    if (call.files.some((f) => f.data.length > this.#options.uploadLimitBytes))
      return { refusal: DISCORD_ERRORS.entityTooLarge, arranged: false };
    const state = this.#stateRefusal(route, call);
    if (state) return state;
    if (!route.check) return null;
    const { problems, empty } = route.check(call.body, call.files.length);
    if (problems.length > 0) return { refusal: invalidFormBody(problems), arranged: false };
    if (empty) return { refusal: DISCORD_ERRORS.emptyMessage, arranged: false };
    return null;
  }

  #stateRefusal(route: MatchedRoute, call: RecordedCall): { refusal: Refusal; arranged: boolean } | null {
    const p = route.params;
    const refused = (refusal: Refusal | null | undefined, arranged = false) =>
      refusal ? { refusal, arranged } : null;
    switch (route.name) {
      case 'callback':
        return refused(
          this.#lifecycle.refuseCallback(
            p.interaction_id ?? '',
            p.interaction_token ?? '',
            Number(call.body?.type),
          ),
        );
      case 'followUp':
        return refused(this.#lifecycle.refuseWebhook(p.webhook_id ?? '', p.webhook_token ?? '', APP_ID));
      case 'getWebhookMessage':
      case 'editWebhookMessage':
      case 'deleteWebhookMessage': {
        const token = p.webhook_token ?? '';
        const webhook = this.#lifecycle.refuseWebhook(p.webhook_id ?? '', token, APP_ID);
        if (webhook) return refused(webhook);
        return this.#webhookMessageId(token, p.message_id ?? '')
          ? null
          : refused(DISCORD_ERRORS.unknownMessage);
      }
      case 'getChannel':
      case 'createMessage':
      case 'editMessage': {
        const dmUser = this.#dmChannels.get(p.channel_id ?? '');
        if (dmUser === undefined) return this.#channelRefusal(route, call);
        if (route.name === 'editMessage') return refused(DISCORD_ERRORS.unknownMessage);
        return route.name === 'createMessage' && this.#closedDms.has(dmUser)
          ? refused(DISCORD_ERRORS.cannotMessageUser, true)
          : null;
      }
      case 'createDm': {
        // Without a recipient the body's check answers (50035).
        const recipient = call.body?.recipient_id;
        if (recipient === undefined || recipient === null) return null;
        return this.#guild.user(String(recipient)) ? null : refused(DISCORD_ERRORS.invalidRecipients);
      }
      case 'addMemberRole':
      case 'removeMemberRole':
        return this.#roleRefusal(p.guild_id ?? '', p.user_id ?? '', p.role_id ?? '');
      default:
        return null;
    }
  }

  /** The bot's permissions where it acts: a denial the test set up is an arranged refusal. */
  #channelRefusal(route: MatchedRoute, call: RecordedCall): { refusal: Refusal; arranged: boolean } | null {
    const channelId = route.params.channel_id ?? '';
    if (this.forbiddenChannels.has(channelId))
      return { refusal: DISCORD_ERRORS.missingPermissions, arranged: true };
    const may = (permission: PermissionName) => this.#guild.botMay(channelId, permission);
    if (!may('ViewChannel')) return { refusal: DISCORD_ERRORS.missingAccess, arranged: true };
    if (route.name === 'createMessage') {
      // Embeds without Embed Links: dropped from a message that has content, refused from one that has not.
      const onlyEmbeds =
        Array.isArray(call.body?.embeds) && call.body.embeds.length > 0 && !call.body?.content;
      const denied =
        !may('SendMessages') ||
        (call.files.length > 0 && !may('AttachFiles')) ||
        (onlyEmbeds && !may('EmbedLinks')) ||
        (call.body?.message_reference != null && !may('ReadMessageHistory'));
      if (denied) return { refusal: DISCORD_ERRORS.missingPermissions, arranged: true };
    }
    if (route.name === 'editMessage') {
      const known = this.#known.get(route.params.message_id ?? '');
      if (!known || known.channelId !== channelId || known.ephemeral)
        return { refusal: DISCORD_ERRORS.unknownMessage, arranged: false };
    }
    return null;
  }

  /** Discord's checks of a role change; the bot's lack of rank or permission is the test's doing. */
  #roleRefusal(
    guildId: string,
    userId: string,
    roleId: string,
  ): { refusal: Refusal; arranged: boolean } | null {
    if (guildId !== GUILD_ID) return { refusal: DISCORD_ERRORS.unknownGuild, arranged: false };
    if ((this.#guild.guildPermissions(BOT_USER) & PermissionFlagsBits.ManageRoles) === 0n)
      return { refusal: DISCORD_ERRORS.missingPermissions, arranged: true };
    if (!this.#guild.role(roleId)) return { refusal: DISCORD_ERRORS.unknownRole, arranged: false };
    if (!this.#guild.member(userId)) return { refusal: DISCORD_ERRORS.unknownMember, arranged: false };
    if (this.#guild.botMayNotManage(roleId))
      return { refusal: DISCORD_ERRORS.missingPermissions, arranged: true };
    return null;
  }

  #refuse(call: RecordedCall, refusal: Refusal, options: { arranged?: boolean } = {}): Answer {
    const token = /\/(?:interactions\/\d+|webhooks\/\d+)\/([^/]+)/.exec(call.path)?.[1];
    const channelId = /^\/channels\/(\d+)/.exec(call.path)?.[1];
    const about = token ? this.#lifecycle.get(token)?.label : channelId ? `#${channelId}` : undefined;
    this.refusals.push({
      method: call.method,
      path: call.path,
      status: refusal.status,
      code: refusal.code,
      message: refusal.message,
      ...(refusal.errors ? { errors: refusal.errors } : {}),
      arranged: options.arranged ?? false,
      ...(about ? { about } : {}),
    });
    this.#notify();
    const { status, ...body } = refusal;
    return { status, body };
  }

  #perform(route: MatchedRoute, call: RecordedCall, url: URL): Answer {
    const p = route.params;
    const body = call.body ?? {};
    switch (route.name) {
      case 'gatewayBot':
        return {
          status: 200,
          body: {
            url: `ws://127.0.0.1:${this.#port}/gateway`,
            shards: 1,
            session_start_limit: { total: 1000, remaining: 1000, reset_after: 0, max_concurrency: 1 },
          },
        };
      case 'callback':
        return this.#callback(p.interaction_token ?? '', body, call.files, url);
      case 'followUp':
        return this.#followUp(p.webhook_token ?? '', body, call.files);
      case 'getWebhookMessage': {
        const token = p.webhook_token ?? '';
        const id = this.#webhookMessageId(token, p.message_id ?? '') ?? '';
        const known = this.#known.get(id);
        return { status: 200, body: apiMessage(known?.message, known?.channelId) };
      }
      case 'editWebhookMessage':
        return this.#editWebhookMessage(p.webhook_token ?? '', p.message_id ?? '', body, call.files);
      case 'deleteWebhookMessage':
        return this.#deleteWebhookMessage(p.webhook_token ?? '', p.message_id ?? '');
      case 'getChannel': {
        const dmUser = this.#dmChannels.get(p.channel_id ?? '');
        if (dmUser !== undefined)
          return { status: 200, body: this.#apiDmChannel(p.channel_id ?? '', dmUser) };
        return { status: 200, body: this.#guild.apiChannel(p.channel_id ?? '') };
      }
      case 'createDm':
        return this.#createDm(String(body.recipient_id));
      case 'createMessage':
        return this.#createMessage(p.channel_id ?? '', body, call.files);
      case 'editMessage':
        return this.#editMessage(p.channel_id ?? '', p.message_id ?? '', body, call.files);
      case 'putCommands':
      case 'putGuildCommands':
        if (Array.isArray(call.body))
          this.registerCommands((call.body as RegisteredCommand[]).filter((c) => typeof c.name === 'string'));
        return {
          status: 200,
          body: (Array.isArray(call.body) ? call.body : []).map((c: object) => ({
            ...c,
            id: snowflake(),
            application_id: APP_ID,
            version: '1',
          })),
        };
      case 'getMember': {
        // An unknown member is Discord's answer to a lookup, not a refusal of the request.
        const member = this.#guild.member(p.user_id ?? '');
        return member
          ? { status: 200, body: this.#guild.apiMember(member) }
          : this.#miss(DISCORD_ERRORS.unknownMember);
      }
      case 'addMemberRole':
      case 'removeMemberRole':
        this.#guild.setMemberRole(p.user_id ?? '', p.role_id ?? '', route.name === 'addMemberRole');
        return { status: 204 };
      case 'getUser': {
        const user = this.#guild.user(p.user_id === '@me' ? BOT_USER_ID : (p.user_id ?? ''));
        return user ? { status: 200, body: apiUser(user) } : this.#miss(DISCORD_ERRORS.unknownUser);
      }
    }
  }

  #miss(refusal: Refusal): Answer {
    const { status, ...body } = refusal;
    return { status, body };
  }

  #callback(token: string, body: Record<string, unknown>, files: RecordedFile[], url: URL): Answer {
    const interaction = this.#lifecycle.get(token);
    const type = Number(body.type);
    this.#lifecycle.answered(token, type);
    const data = (body.data ?? {}) as Record<string, unknown>;
    const channelId = interaction?.channelId ?? CHANNEL_ID;
    let message: VisibleMessage | undefined;
    if (type === 8)
      message = this.#record(token, 'suggestions', data, files, { id: snowflake(), ephemeral: true });
    if (type === 9) message = this.#record(token, 'modal', data, files, { id: snowflake(), ephemeral: true });
    if (type === 4 || type === 5) {
      const id = snowflake();
      this.#originals.set(token, id);
      const ephemeral = (Number(data.flags ?? 0) & EPHEMERAL) !== 0;
      message = this.#record(token, type === 4 ? 'reply' : 'deferred', data, files, {
        id,
        ephemeral,
        channelId,
      });
    }
    if (type === 6 || type === 7) {
      // The original reply of a component's interaction is the message the component is on.
      const id = interaction?.messageId ?? snowflake();
      this.#originals.set(token, id);
      const ephemeral = this.#known.get(id)?.ephemeral ?? false;
      message = this.#record(token, type === 7 ? 'update' : 'deferred', data, files, {
        id,
        ephemeral,
        channelId,
      });
    }
    if (url.searchParams.get('with_response') !== 'true') return { status: 204 };
    return {
      status: 200,
      body: {
        interaction: {
          id: interaction?.id,
          type: interaction?.type,
          response_message_id: message?.id,
          response_message_loading: type === 5,
          response_message_ephemeral: message?.ephemeral ?? false,
        },
        resource: { type, ...(type === 8 || type === 9 ? {} : { message: apiMessage(message, channelId) }) },
      },
    };
  }

  #followUp(token: string, body: Record<string, unknown>, files: RecordedFile[]): Answer {
    const channelId = this.#lifecycle.get(token)?.channelId ?? CHANNEL_ID;
    const ephemeral = (Number(body.flags ?? 0) & EPHEMERAL) !== 0;
    const message = this.#record(token, 'followup', body, files, { id: snowflake(), ephemeral, channelId });
    return { status: 200, body: apiMessage(message, channelId) };
  }

  /** The message a webhook route names (`@original` or a follow-up of the token); undefined when none. */
  #webhookMessageId(token: string, messageId: string): string | undefined {
    if (messageId === '@original') return this.#originals.get(token);
    return this.#known.get(messageId)?.token === token ? messageId : undefined;
  }

  #editWebhookMessage(
    token: string,
    messageId: string,
    body: Record<string, unknown>,
    files: RecordedFile[],
  ): Answer {
    const id = this.#webhookMessageId(token, messageId) ?? snowflake();
    const known = this.#known.get(id);
    const channelId = known?.channelId ?? CHANNEL_ID;
    const message = this.#record(token, 'edit', body, files, {
      id,
      ephemeral: known?.ephemeral ?? false,
      channelId,
    });
    return { status: 200, body: apiMessage(message, channelId) };
  }

  #deleteWebhookMessage(token: string, messageId: string): Answer {
    const id = this.#webhookMessageId(token, messageId);
    const list = this.#messagesByToken.get(token) ?? [];
    // What the member saw of the original (its placeholder and edits) is gone; follow-ups stay.
    const kept =
      messageId === '@original'
        ? list.filter((m) => m.via !== 'deferred' && m.via !== 'edit')
        : list.filter((m) => m.id !== id);
    this.#messagesByToken.set(token, kept);
    if (id) this.#known.delete(id);
    if (messageId === '@original') this.#originals.delete(token);
    this.#notify();
    return { status: 204 };
  }

  /** Discord's answer to opening a direct channel: the member's one channel with the bot, made once. */
  #createDm(userId: string): Answer {
    let channelId = [...this.#dmChannels].find(([, user]) => user === userId)?.[0];
    if (!channelId) {
      channelId = snowflake();
      this.#dmChannels.set(channelId, userId);
    }
    return { status: 200, body: this.#apiDmChannel(channelId, userId) };
  }

  /** A direct channel as the spec's PrivateChannelResponse shapes it. */
  #apiDmChannel(channelId: string, userId: string) {
    const user = this.#guild.user(userId);
    return {
      id: channelId,
      type: 1,
      last_message_id: null,
      flags: 0,
      recipients: user ? [apiUser(user)] : [],
    };
  }

  /**
   * A message created with `enforce_nonce`: another with its nonce in the channel within
   * Discord's minutes is not created again, and the first is the answer.
   */
  #createMessage(channelId: string, body: Record<string, unknown>, files: RecordedFile[]): Answer {
    const nonce = body.enforce_nonce === true && body.nonce != null ? `${channelId}:${body.nonce}` : null;
    const seen = nonce ? this.#nonces.get(nonce) : undefined;
    if (seen && performance.now() - seen.at < NONCE_KEPT_MS)
      return { status: 200, body: apiMessage(seen.message, channelId) };
    const answer = this.#createNewMessage(channelId, body, files);
    const created = this.#known.get((answer.body as { id: string }).id)?.message;
    if (nonce && created) this.#nonces.set(nonce, { message: created, at: performance.now() });
    return answer;
  }

  #createNewMessage(channelId: string, body: Record<string, unknown>, files: RecordedFile[]): Answer {
    const dmUser = this.#dmChannels.get(channelId);
    if (dmUser !== undefined) {
      const message = this.#record(`dm:${dmUser}`, 'dm', body, files, {
        id: snowflake(),
        ephemeral: false,
        channelId,
      });
      this.directMessages.set(dmUser, this.messages(`dm:${dmUser}`));
      return { status: 200, body: apiMessage(message, channelId) };
    }
    // Without Embed Links Discord takes a message with content and drops its embeds.
    const shown = this.#guild.botMay(channelId, 'EmbedLinks') ? body : { ...body, embeds: [] };
    const message = this.#record(`channel:${channelId}`, 'post', shown, files, {
      id: snowflake(),
      ephemeral: false,
      channelId,
    });
    this.channelPosts.set(channelId, this.messages(`channel:${channelId}`));
    return { status: 200, body: apiMessage(message, channelId) };
  }

  #editMessage(
    channelId: string,
    messageId: string,
    body: Record<string, unknown>,
    files: RecordedFile[],
  ): Answer {
    const known = this.#known.get(messageId) as KnownMessage;
    const edit = this.#visible('edit', body, files, { id: messageId, ephemeral: false });
    const merged: VisibleMessage = {
      ...known.message,
      ...('content' in body ? { content: edit.content } : {}),
      ...('embeds' in body ? { embeds: edit.embeds } : {}),
      ...('components' in body ? { components: edit.components } : {}),
      ...(files.length > 0 ? { files } : {}),
    };
    this.#known.set(messageId, { ...known, message: merged });
    this.channelEdits.set(channelId, [...(this.channelEdits.get(channelId) ?? []), edit]);
    this.#notify();
    return { status: 200, body: apiMessage(merged, channelId) };
  }

  #visible(
    via: VisibleMessage['via'],
    data: Record<string, unknown>,
    files: RecordedFile[],
    where: { id: string; ephemeral: boolean },
  ): VisibleMessage {
    return {
      via,
      id: where.id,
      content: String(data.content ?? ''),
      ephemeral: where.ephemeral,
      embeds: (data.embeds as VisibleMessage['embeds']) ?? [],
      components: (data.components as VisibleMessage['components']) ?? [],
      files,
      at: performance.now(),
      ...(Array.isArray(data.choices) ? { choices: data.choices } : {}),
      ...(via === 'modal' ? { modal: data as unknown as NonNullable<VisibleMessage['modal']> } : {}),
    };
  }

  #record(
    key: string,
    via: VisibleMessage['via'],
    data: Record<string, unknown>,
    files: RecordedFile[],
    where: { id: string; ephemeral: boolean; channelId?: string },
  ): VisibleMessage {
    const message = this.#visible(via, data, files, where);
    this.#messagesByToken.set(key, [...(this.#messagesByToken.get(key) ?? []), message]);
    if (where.channelId && via !== 'suggestions' && via !== 'modal') {
      const token = key.startsWith('channel:') ? undefined : key;
      this.#known.set(message.id, {
        channelId: where.channelId,
        ephemeral: where.ephemeral,
        message,
        ...(token ? { token } : {}),
      });
    }
    this.#notify();
    return message;
  }

  #notify(): void {
    for (const wake of this.#waiters) wake();
    this.#waiters.clear();
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
