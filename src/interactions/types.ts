import type {
  APIApplicationCommandSubcommandOption,
  RESTPostAPIChatInputApplicationCommandsJSONBody,
  RESTPostAPIContextMenuApplicationCommandsJSONBody,
} from 'discord.js';
import type { Cooldowns } from '../cooldowns/cooldowns.js';
import type { AppDeps, MoneyLayer } from '../deps.js';
import type { Hooks } from '../features/hooks.js';
import type { FeatureServices } from '../features/services.js';
import type { I18n, Translator } from '../i18n/i18n.js';
import type { ServerLanguage } from '../i18n/serverLanguage.js';
import type { ChannelPoster } from '../posting/channelPoster.js';
import type { ProfileDirectory } from '../profiles/profileDirectory.js';
import type { ServerMembers } from '../profiles/serverMembers.js';
import type { MemberLookup } from '../render/memberFaces.js';
import type { MemberRoles } from '../roles/memberRoles.js';
import type { RuntimeConfig } from '../runtimeConfig/runtimeConfig.js';
import type { Scheduler } from '../scheduler/scheduler.js';
import type { Reply, SentMessage } from './reply.js';

/**
 * The runtime speaks this transport-neutral model. The discord.js adapter and the local
 * console both turn what they receive into an `Invocation` and render a `Reply`, so one
 * command module serves both.
 */
export interface Invocation {
  /**
   * `modal`: a form submitted; `context`: an app command from a member's or message's context
   * menu; `other`: a kind this runtime does not know (answered with a refusal, never ignored).
   */
  kind: 'command' | 'button' | 'select' | 'autocomplete' | 'modal' | 'context' | 'other';
  /** Unique per slash command or click (Discord's interaction id). */
  id: string;
  /** The slash command; empty for components, which the runtime routes by their id's family. */
  commandName: string;
  group: string | null;
  subcommand: string | null;
  /** Option values by name; user options hold the user id. */
  options: Record<string, string | number | boolean>;
  /** Display names of users named in options, by id. */
  users: Record<string, string>;
  /** Which of those users are bots (apps): they hold no Cookies and cannot be robbed. */
  bots?: string[];
  /** The names of roles named in options, by id (`resolved.roles`). */
  roleNames?: Record<string, string>;
  /** When those users joined the server, by id, as Discord sent it (`resolved.members[id].joined_at`). */
  usersJoinedAt?: Record<string, Date>;
  /**
   * The files attached to attachment options, by option name (the option's value in `options`
   * stays what Discord sends: the attachment's id). Read their bytes with `deps.attachments`.
   */
  attachments?: Record<string, AttachmentRef>;
  /** For buttons and select menus: the custom id, and the message the component is on. */
  customId: string | null;
  messageId: string | null;
  /** For select menus: the values picked (for user, role and channel menus: their ids). */
  values: string[];
  /** For a submitted form: its inputs' values by custom id. */
  fields?: Record<string, string>;
  /** For a context-menu command: the member or message it was used on. */
  targetId?: string;
  /** For autocomplete: the option being typed and its text so far. */
  focused?: { name: string; value: string };
  user: { id: string; name: string };
  /** When the member acting joined this server (Discord's `member.joined_at`); null outside a server or when not sent. */
  joinedAt?: Date | null;
  roleIds: string[];
  /** Whether the member may manage this server (Discord's Manage Server): its own settings are theirs to change. */
  manageServer?: boolean;
  guildId: string | null;
  /** The channel it happened in, if known. */
  channelId?: string | null;
  /** The member's client language (Discord's `locale`, e.g. `de`, `en-US`), if known. */
  locale: string | null;
  /** The server's preferred language (Discord's `guild_locale`), if known. */
  guildLocale: string | null;
}

/** A file a member attached to an attachment option, as Discord resolved it (`resolved.attachments`). */
export interface AttachmentRef {
  id: string;
  filename: string;
  url: string;
  /** Bytes, as Discord reports them. */
  size: number;
  contentType: string | null;
  /** Pixels, for images. */
  width: number | null;
  height: number | null;
}

/** Why a file cannot be read: larger than the reader may take, or not to be fetched (gone, refused, too slow). */
export type AttachmentProblem = 'too_large' | 'unreachable';

/** An attachment the reader gave up on; `reason` says why, for the member's reply. */
export class AttachmentUnreadable extends Error {
  constructor(
    readonly reason: AttachmentProblem,
    message = `the attachment cannot be read: ${reason}`,
  ) {
    super(message);
    this.name = 'AttachmentUnreadable';
  }
}

/**
 * Reads the bytes of a member's attachment: over HTTP from Discord's CDN in the bot
 * (src/discord/attachmentReader.ts), from a local file in the console.
 */
export interface AttachmentReader {
  /**
   * The file's bytes. Rejects with `AttachmentUnreadable` (`reason: 'too_large' | 'unreachable'`)
   * when it is larger than `maxBytes` (checked against `size` first, then while reading) or cannot be fetched.
   */
  read(ref: AttachmentRef, maxBytes: number): Promise<Buffer>;
}

/**
 * What an invocation carries of a slash command's and a control's parts when it has none of
 * them (a form submitted, a menu entry used, a component before its own fields are set).
 */
export const BARE_INVOCATION = {
  commandName: '',
  group: null,
  subcommand: null,
  options: {},
  users: {},
  customId: null,
  messageId: null,
  values: [],
} satisfies Partial<Invocation>;

export type {
  ButtonSpec,
  ButtonStyleName,
  EmbedSpec,
  FileSpec,
  LinkSpec,
  ModalSpec,
  Reply,
  SelectSpec,
  SentMessage,
  TextInputSpec,
} from './reply.js';

/**
 * How to acknowledge before the real reply: a "thinking" placeholder (public or ephemeral),
 * or, for buttons and menus, a silent acknowledgement after which the reply may still
 * update the message the component is on.
 */
export interface DeferMode {
  ephemeral: boolean;
  update?: boolean;
}

/** Sends replies over one transport; tracks whether the interaction is fresh, deferred or replied. */
export interface Responder {
  readonly state: 'fresh' | 'deferred' | 'replied';
  defer(mode: DeferMode): Promise<void>;
  /** Sends the reply; returns the message a public reply became (null for an ephemeral one, or when unknown). */
  send(reply: Reply): Promise<SentMessage | null>;
}

/**
 * Who may use a command: anyone; whoever manages the server it is used in (Discord's Manage Server,
 * or the bot's moderators); the bot's moderators; its admins.
 */
export type Access = 'everyone' | 'serverManager' | 'moderator' | 'admin';

/**
 * What a moderator's ban may cover (`painting`, `games`, `economy`), named by the feature that
 * keeps the bans by declaration merging, so the kernel names none:
 *
 *   declare module '../../src/interactions/types.js' {
 *     interface SanctionScopes { painting: true }
 *   }
 */
// biome-ignore lint/suspicious/noEmptyInterface: filled by declaration merging, by the moderation feature
export interface SanctionScopes {}
export type SanctionScope = keyof SanctionScopes & string;

/** Refuses a member banned in a scope by a moderator (throws SANCTIONED): the moderation feature's bans. */
export interface SanctionCheck {
  refuse(member: string, scope: SanctionScope): Promise<void>;
}

export interface Actor {
  id: string;
  name: string;
  isModerator: boolean;
  isAdmin: boolean;
  /** May manage the server acting in (Discord's Manage Server there); a moderator of the bot does too. */
  managesServer?: boolean;
}

/**
 * What a command, component or task gets. No collections and no database: only the ledger
 * and each feature's store touch those; commands call the services in `services`.
 */
export interface BotDeps
  extends Omit<AppDeps, 'cols' | 'db'>,
    Pick<MoneyLayer, 'holds' | 'cookieEconomy' | 'placeEconomy'> {
  i18n: I18n;
  runtimeConfig: RuntimeConfig;
  profiles: ProfileDirectory;
  /** Who the bot has seen in which server, and since when: what per-server views read. */
  serverMembers: ServerMembers;
  /** The server's language where no interaction says it (the web portal's audit lines). */
  serverLanguage: ServerLanguage;
  cooldowns: Cooldowns;
  scheduler: Scheduler;
  poster: ChannelPoster;
  /** Gives and takes members' roles (Discord's REST in the bot, memory in the console). */
  roles: MemberRoles;
  /** The bytes of files members attach to attachment options (Discord's CDN in the bot, local files in the console). */
  attachments: AttachmentReader;
  /** What features built on others add inside their flows and views (src/features/hooks.ts). */
  featureHooks: Hooks;
  services: FeatureServices;
  /** Members' names and pictures from Discord (src/discord/discordMembers.ts); absent in the console and the web process. */
  members?: MemberLookup;
}

export interface CommandContext {
  deps: BotDeps;
  invocation: Invocation;
  actor: Actor;
  /** Every command module (for /help). */
  commands: readonly CommandModule[];
  /** Texts and numbers in the member's language (their `locale`, else the server's, else English). */
  i18n: Translator;
  /** In the server's language: for what the bot posts to a channel. */
  serverI18n: Translator;
  /** Defers the reply (idempotent); use before slow work when `defer` is not declared. */
  defer(): Promise<void>;
}

/**
 * A per-member cooldown, claimed atomically before the handler runs (any shard) and given
 * back when the handler fails; `ms` may read a runtime setting.
 */
export interface CooldownSpec {
  action: string;
  ms: number | ((deps: BotDeps) => Promise<number>);
}

export interface AutocompleteChoice {
  name: string;
  value: string;
}

/** Suggests values for one option while a member types (`typed` is the text so far). */
export type Autocomplete = (ctx: CommandContext, typed: string) => Promise<AutocompleteChoice[]>;

/** One slash command or subcommand: its handler and how the runtime treats it. */
export interface CommandHandler {
  /** Who may run it (default: the command's access). Re-checked on every interaction. */
  access?: Access;
  /** Defer before running (rendering, slow queries); `ephemeral` decides the deferred reply's visibility. */
  defer?: { ephemeral: boolean };
  cooldown?: CooldownSpec;
  /** What a ban in this scope refuses (default: the command's); none for reading and settings. */
  sanctionScope?: SanctionScope;
  /** Suggestions by option name. */
  autocomplete?: Record<string, Autocomplete>;
  run(ctx: CommandContext): Promise<Reply>;
}

/** A subcommand: its Discord definition and its handler, in one file. */
export interface Subcommand extends CommandHandler {
  definition: APIApplicationCommandSubcommandOption;
}

/** A button or menu family, routed by its id's family (see componentIds.ts). */
export interface ComponentHandler {
  family: string;
  /** Access needed to use it (default: that of the command). */
  access?: Access;
  /** Slow components declare it, so the runtime defers before running them. */
  defer?: boolean;
  cooldown?: CooldownSpec;
  /** What a ban in this scope refuses (default: the command's). */
  sanctionScope?: SanctionScope;
  /** Parses the custom id with the family's schema and runs. */
  run(ctx: CommandContext, customId: string): Promise<Reply>;
}

/**
 * An app command on a member's context menu (right click or long press › Apps): it runs a
 * handler of the command with the member it was used on as that handler's user option, so the
 * menu and the slash command share their access, cooldown and refusals.
 */
export interface UserMenuCommand {
  data: RESTPostAPIContextMenuApplicationCommandsJSONBody;
  handler: CommandHandler;
}

export interface CommandModule {
  data: RESTPostAPIChatInputApplicationCommandsJSONBody;
  /** Its entries on members' context menus (Discord allows an app five). */
  userMenus?: readonly UserMenuCommand[];
  /** Default access of its subcommands and components. */
  access: Access;
  /** Default sanction scope of its subcommands and components: a member banned there is refused. */
  sanctionScope?: SanctionScope;
  /** Help group the command is listed under: a catalog key such as `cookies:category`. */
  category: string;
  /** Handlers by path: '' for a command without subcommands, 'give', or 'runtime show'. */
  handlers: Readonly<Record<string, CommandHandler>>;
  components: readonly ComponentHandler[];
}
