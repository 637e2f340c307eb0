import type { Db } from 'mongodb';
import type { Config } from '../config.js';
import type { MoneyLayer } from '../deps.js';
import type { ErrorCode, ErrorMessage } from '../errors.js';
import type { HttpRoutes } from '../http/server.js';
import type { Locale, Messages } from '../i18n/i18n.js';
import type {
  BotDeps,
  CommandContext,
  CommandModule,
  ComponentHandler,
  SanctionScope,
  Subcommand,
} from '../interactions/types.js';
import type { Setting } from '../runtimeConfig/settings.js';
import type { TaskHandler } from '../scheduler/scheduler.js';
import type { FeatureServices } from './services.js';

export type { FeatureServices } from './services.js';

/** What a feature's services are built from: the database stays with its stores. */
export interface FeatureInfra extends Omit<BotDeps, 'services'> {
  db: Db;
  /** Every feature's `personalData`, combined by the assembly: the privacy feature reads it. */
  personalData: PersonalDataCatalog;
}

/** What stands in a member's export for a value that may not leave the bot (`privacy:export.hidden.<what>`). */
export type HiddenValue = 'token' | 'secret' | 'seed';

/** One of a feature's collections that keeps something about a member. */
export interface PersonalCollection {
  /** What it holds, as the member's export says it: a key of the feature's texts (`web:privacy.web_sessions`). */
  what: string;
  /**
   * How it is forgotten: `delete`, what is the member's alone and no book needs (a session, a
   * cooldown); `pseudonym` (the default), kept for the books or the canvas under the pseudonym.
   */
  forget?: 'delete' | 'pseudonym';
  /** Fields that never leave the bot, not even in the member's own export, and what stands there instead. */
  hidden?: Readonly<Record<string, HiddenValue>>;
}

/**
 * What a feature keeps about a member (docs/operating.md, "Privacy"). The privacy feature finds
 * every document that names the member, in any collection, and reads these declarations for what
 * each collection holds, what is deleted rather than kept under a pseudonym, what never leaves
 * the bot, which other ids stand for the member, and what they still have in play.
 */
export interface PersonalData {
  collections?: Readonly<Record<string, PersonalCollection>>;
  /** Other ids that stand for the member in its records (their workers): exported and forgotten with theirs. */
  aliases?(services: FeatureServices, member: string): Promise<readonly string[]>;
  /**
   * What the member still has in play here, by kind (`poker`: seats; `hunt.tip`), counted
   * once: forgetting is refused, then waits, until nothing is.
   */
  inPlay?(
    services: FeatureServices,
    member: string,
    aliases: readonly string[],
  ): Promise<Readonly<Record<string, number>>>;
}

/** Every feature's `personalData`, combined (`src/features/personalData.ts`). */
export interface PersonalDataCatalog {
  /** Each declared collection, by name. */
  collections: ReadonlyMap<string, PersonalCollection>;
  /** Every other id that stands for the member, in the registry's order. */
  aliases(services: FeatureServices, member: string): Promise<string[]>;
  /** What the member has in play across the features, by kind (counts of one kind added up). */
  inPlay(
    services: FeatureServices,
    member: string,
    aliases: readonly string[],
  ): Promise<Record<string, number>>;
}

/**
 * One subcommand group of `/admin` that a feature brings (`/admin <name> <subcommand>`): its
 * name and description as `localized(MESSAGES, 'admin.commands.<group>')` gives them, its
 * subcommands, and the buttons those subcommands answer with (a confirmation).
 */
export interface AdminGroup {
  name: string;
  description: string;
  name_localizations?: Partial<Record<Locale, string>>;
  description_localizations?: Partial<Record<Locale, string>>;
  subcommands: readonly Subcommand[];
  components?: readonly ComponentHandler[];
}

/**
 * A topic's explanation beyond the list of its commands: what a member must understand to
 * take part (the hunt's task, scoring and rewards). `/help topic:` and the topic menu show it
 * above the topic's commands.
 */
export interface HelpGuide {
  /** The help category it explains: the catalog key its commands are listed under (`hunt:category`). */
  category: string;
  /** The explanation in the member's language (`ctx.i18n`), from the settings as they are now. */
  explain(ctx: CommandContext): Promise<string>;
}

/**
 * One feature of the bot as the registry (`commands/index.ts`) sees it: its slash commands,
 * its groups of `/admin`, its runtime settings (keys start with its name), the messages of its
 * error codes, its collections' indexes, its services and its timers. Each part is optional.
 */
export interface Feature {
  /** Also the namespace of its texts: `cookies:give.prompt`. */
  name: string;
  /** Its texts in every language (`utils/<feature>/messages.<locale>.json`). */
  messages?: Messages;
  commands?: readonly CommandModule[];
  /** Its subcommand groups of `/admin`; the feature that builds `/admin` gathers them in `commandsFrom`. */
  adminGroups?: readonly AdminGroup[];
  /**
   * Commands built out of every feature's parts (all features in the registry's order, itself
   * included), listed in this feature's place: `/admin` from each feature's `adminGroups`.
   */
  commandsFrom?(features: readonly Feature[]): readonly CommandModule[];
  settings?: Readonly<Record<string, Setting<unknown>>>;
  /**
   * The kinds of message of this feature that may notify a member they mention, if the member
   * turns the kind on (`/notifications`): `feature.kind`, labelled by `<feature>:notify.<kind>`.
   * Every other mention the bot sends shows without a notification.
   */
  notifications?: readonly string[];
  /**
   * The reminders this feature sends on its own when a member turns them on (`/notifications`),
   * by direct message or, as the member chooses, a mention: `feature.kind`, labelled by
   * `<feature>:notify.<kind>` like a notification. Every reminder is off until its member turns it on.
   */
  reminders?: readonly string[];
  /** Defaults of its settings taken from the configuration (environment), by key. */
  settingDefaults?(config: Config): Readonly<Record<string, unknown>>;
  errors?: Readonly<Partial<Record<ErrorCode, ErrorMessage>>>;
  ensureIndexes?(db: Db): Promise<void>;
  /**
   * Collections whose records live minutes and are no loss to a restore (rate-limit windows,
   * which hold network addresses): backups leave them out, so no backup keeps an address.
   */
  transient?: readonly string[];
  /**
   * Checks of the feature's own books, run by `npm run check:invariants` (problems, or none):
   * what each owner of money in play recorded against what its holds and pot hold. `now` is
   * the clock the books were written by. With `since` (a checkpoint: the economy simulation's
   * daily check), only what ended or changed since then and what is still open: a check that
   * costs a day's activity, not the whole history.
   */
  checkInvariants?(
    db: Db,
    config: Config,
    ledger: MoneyLayer['ledger'],
    now: Date,
    since?: Date,
  ): Promise<string[]>;
  /** Its explanation in /help, gathered by the help feature (`commandsFrom`). */
  guide?: HelpGuide;
  createServices?(infra: FeatureInfra): Partial<FeatureServices>;
  /**
   * Routes on the bot's HTTP server (the hunt's worker API, the canvas's page and API). They
   * answer by the server's contract (`src/http/contract.ts`): throw `HttpError` or `AppError`.
   */
  httpRoutes?(deps: BotDeps): HttpRoutes;
  /** Task handlers; they get the full deps, services included. */
  tasks?(deps: BotDeps): readonly TaskHandler[];
  /**
   * Refuses a member before any interaction of theirs runs, by throwing an AppError (a member
   * whose data is being erased: the privacy feature; a member banned in the interaction's
   * `scope`: the moderation feature). Asked for every interaction: keep it cheap.
   */
  refuseActor?(deps: BotDeps, actorId: string, scope?: SanctionScope): Promise<void>;
  /** What it keeps about a member, for the privacy feature's export and erasure. */
  personalData?: PersonalData;
  /**
   * Removes what it keeps only for a while (docs/operating.md, "What is stored, and for how long"):
   * records that are state, not the books, once their retention is over. Called hourly by the
   * retention timer; returns how many of each kind went. The books (events, rounds) are never
   * pruned.
   */
  prune?(deps: BotDeps, now: Date): Promise<Record<string, number>>;
  /**
   * Plans its recurring timers when a process that runs timers starts (the privacy feature's
   * prune): a timer planned by its id is planned once, whichever process starts first.
   */
  start?(deps: BotDeps): Promise<void>;
}
