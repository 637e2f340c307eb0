import type { RESTPostAPIChatInputApplicationCommandsJSONBody } from 'discord.js';
import type { AppDeps } from '../app.js';
import type { ProfileDirectory } from '../profiles/profileDirectory.js';
import type { RuntimeConfig } from '../runtimeConfig/runtimeConfig.js';

/**
 * The runtime speaks this transport-neutral model. The discord.js adapter and the local
 * console both turn what they receive into an `Invocation` and render a `Reply`, so one
 * command module serves both.
 */
export interface Invocation {
  kind: 'command' | 'button' | 'select';
  /** Unique per slash command or click (Discord's interaction id). */
  id: string;
  commandName: string;
  group: string | null;
  subcommand: string | null;
  /** Option values by name; user options hold the user id. */
  options: Record<string, string | number | boolean>;
  /** Display names of users named in options, by id. */
  users: Record<string, string>;
  /** For buttons and select menus: the custom id, and the message the component is on. */
  customId: string | null;
  messageId: string | null;
  /** For select menus: the values picked. */
  values: string[];
  user: { id: string; name: string };
  roleIds: string[];
  guildId: string | null;
}

export type ButtonStyleName = 'primary' | 'secondary' | 'success' | 'danger';

export interface ButtonSpec {
  customId: string;
  label: string;
  style: ButtonStyleName;
  disabled?: boolean;
}

export interface SelectSpec {
  customId: string;
  placeholder: string;
  options: { label: string; value: string; description?: string }[];
}

export interface EmbedSpec {
  title?: string;
  description?: string;
  color?: number;
  fields?: { name: string; value: string; inline?: boolean }[];
  footer?: string;
  /** Name of an attached file to show as the embed's image. */
  imageFile?: string;
}

export interface FileSpec {
  name: string;
  data: Buffer;
}

export interface Reply {
  content?: string;
  embeds?: EmbedSpec[];
  files?: FileSpec[];
  buttons?: ButtonSpec[];
  /** One select menu under the message. */
  select?: SelectSpec;
  ephemeral?: boolean;
  /** For components: replace the message the component is on instead of sending a new one. */
  update?: boolean;
}

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
  send(reply: Reply): Promise<void>;
}

export type Access = 'everyone' | 'moderator' | 'admin';

export interface Actor {
  id: string;
  name: string;
  isModerator: boolean;
  isAdmin: boolean;
}

export interface BotDeps extends AppDeps {
  runtimeConfig: RuntimeConfig;
  profiles: ProfileDirectory;
}

export interface CommandContext {
  deps: BotDeps;
  invocation: Invocation;
  actor: Actor;
  /** Every command module (for /help). */
  commands: readonly CommandModule[];
  /** Defers the reply (idempotent); use before slow work when `defer` is not declared. */
  defer(): Promise<void>;
}

/** Runs a button click or a select-menu choice; the values picked are in `ctx.invocation.values`. */
export interface ComponentHandler {
  /** Access needed to use it (default: that of the command). */
  access?: Access;
  /** Slow components declare it, so the runtime defers before running them. */
  defer?: boolean;
  run(ctx: CommandContext, args: string[]): Promise<Reply>;
}

export interface CommandModule {
  data: RESTPostAPIChatInputApplicationCommandsJSONBody;
  /** Who may run it; a function when subcommands differ. Re-checked on every interaction. */
  access: Access | ((invocation: Invocation) => Access);
  /** Help group the command is listed under. */
  category: string;
  /** Defer before running (rendering, slow queries); `ephemeral` decides the deferred reply's visibility. */
  defer?: (invocation: Invocation) => { ephemeral: boolean } | null;
  execute(ctx: CommandContext): Promise<Reply>;
  /** Buttons and select menus whose custom id is `<command name>:<action>[:args...]`. */
  components?: Record<string, ComponentHandler>;
}
