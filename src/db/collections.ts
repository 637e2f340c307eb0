import type { Collection, Db, WriteConcernSettings } from 'mongodb';

/**
 * The kernel's own collections, named once: cooldowns, runtime settings, profiles, durable
 * timers, channel states. Each feature's store names its own, and the ledger its books and
 * events (utils/money/ledger/documents.ts).
 */
export const COLLECTION_NAMES = {
  cooldowns: 'cooldown_cookies',
  runtimeConfig: 'runtime_config',
  profiles: 'profiles',
  dueTasks: 'due_tasks',
  channelStates: 'channel_states',
  serverLanguages: 'server_languages',
  serverMembers: 'server_members',
} as const;

export interface RuntimeConfigDoc {
  _id: string;
  value: unknown;
  updatedBy: string;
  updatedAt: Date;
  /** Counts the changes (migration 001 gave settings written before it a 0). */
  revision: number;
  /** A server's own value (`<guildId>:<key>`): its server and setting; absent on the default layer. */
  guildId?: string;
  key?: string;
  /** The id of the request that made the last change (a web form's), so its repeat is known. */
  opId?: string;
  /** When the value last became what it is (a change to the same value keeps it); absent before it was kept. */
  valueSince?: Date;
}

export interface CooldownDoc {
  _id: string;
  userId: string;
  action: string;
  until: Date;
}

/**
 * Who a member is, for names in images and lists (refreshed at most every few minutes), and
 * what the bot may notify them of.
 */
export interface ProfileDoc {
  _id: string;
  name: string;
  firstSeenAt: Date;
  lastSeenAt: Date;
  /** The kinds of message that notify the member when they mention them (`feature.kind`); none when absent. */
  notify?: string[];
  /** The reminders among `notify` the member takes as a mention in a channel rather than a direct message. */
  remindInChannel?: string[];
}

/** A durable timer (src/scheduler): runs once at or after `dueAt`, by whoever claims it. */
export interface DueTaskDoc {
  _id: string;
  kind: string;
  payload: unknown;
  dueAt: Date;
  status: 'due' | 'done' | 'failed';
  attempts: number;
  leaseOwner: string | null;
  leaseUntil: Date | null;
  createdAt: Date;
  endedAt: Date | null;
  lastError: string | null;
}

/** A posting channel that failed for good (missing permission, deleted): posts stop until reset. */
export interface ChannelStateDoc {
  /** The runtime setting that names the channel, e.g. `admin.audit_channel`. */
  _id: string;
  channelId: string;
  /** The setting's revision the failure happened under; setting it again makes a new one. */
  revision: number;
  reason: string;
  failedAt: Date;
}

/** A Discord server's preferred language, as its interactions last reported it (src/i18n/serverLanguage.ts). */
export interface ServerLanguageDoc {
  _id: string;
  locale: string;
  seenAt: Date;
}

/**
 * A member the bot has seen in a server (src/profiles/serverMembers.ts): one document per
 * server and member, `_id` `<guildId>:<userId>`, so the one Cookie economy can be read per server.
 */
export interface ServerMemberDoc {
  _id: string;
  guildId: string;
  userId: string;
  /** The member's display name in that server, as Discord last sent it. */
  name: string;
  /** When they joined the server: Discord's `joined_at` when it sent one, else when the bot first saw them there. */
  joinedAt: Date;
  joinedFrom: 'discord' | 'firstSeen';
  firstSeenAt: Date;
  /** When they last used the bot there (or, for a member only named in an option, when first named). */
  lastSeenAt: Date;
  /** Their roles there as Discord sent them with their last interaction (absent: none sent yet). */
  roleIds?: string[];
}

export interface KernelCollections {
  cooldowns: Collection<CooldownDoc>;
  runtimeConfig: Collection<RuntimeConfigDoc>;
  profiles: Collection<ProfileDoc>;
  dueTasks: Collection<DueTaskDoc>;
  channelStates: Collection<ChannelStateDoc>;
  serverLanguages: Collection<ServerLanguageDoc>;
  serverMembers: Collection<ServerMemberDoc>;
}

/**
 * Every collection in `deps.cols`: the kernel's, and those the money layer adds by declaration
 * merging (the ledger's books and events, utils/money/ledger/documents.ts). The composition root
 * builds the whole set (`appCollections` in app/openApp.ts).
 */
export interface Collections extends KernelCollections {}

/** Money writes wait for the journal: an acknowledged balance change survives a server crash. */
export const JOURNALED: WriteConcernSettings = { w: 1, journal: true };

/** The kernel's collections. */
export function collections(db: Db): KernelCollections {
  const journaled = { writeConcern: JOURNALED };
  return {
    cooldowns: db.collection<CooldownDoc>(COLLECTION_NAMES.cooldowns, journaled),
    runtimeConfig: db.collection<RuntimeConfigDoc>(COLLECTION_NAMES.runtimeConfig, journaled),
    profiles: db.collection<ProfileDoc>(COLLECTION_NAMES.profiles),
    dueTasks: db.collection<DueTaskDoc>(COLLECTION_NAMES.dueTasks, journaled),
    channelStates: db.collection<ChannelStateDoc>(COLLECTION_NAMES.channelStates),
    serverLanguages: db.collection<ServerLanguageDoc>(COLLECTION_NAMES.serverLanguages),
    serverMembers: db.collection<ServerMemberDoc>(COLLECTION_NAMES.serverMembers),
  };
}

/**
 * Drops an index a later version no longer wants (e.g. `guard_status`, whose job the embedded
 * server's launcher does now: tools/mongo-java-server). Safe when it is already gone, also
 * when another process starting at the same moment dropped it first.
 */
export async function dropRetiredIndex(db: Db, collection: string, name: string): Promise<void> {
  const absent = (error: unknown, codeName: string) => {
    if ((error as { codeName?: string }).codeName !== codeName) throw error;
    return false;
  };
  const target = db.collection(collection);
  // A collection not created yet has no index to drop.
  if (!(await target.indexExists(name).catch((error) => absent(error, 'NamespaceNotFound')))) return;
  await target.dropIndex(name).catch((error) => absent(error, 'IndexNotFound'));
}

/** Creates the kernel's indexes; safe to run at every start-up (createIndex is idempotent). */
export async function ensureIndexes(db: Db): Promise<void> {
  const c = collections(db);
  await Promise.all([
    c.cooldowns.createIndex({ userId: 1 }, { name: 'by_user' }),
    c.profiles.createIndex({ lastSeenAt: 1 }, { name: 'by_last_seen' }),
    // A layer's settings: the default's (no guildId) or one server's.
    c.runtimeConfig.createIndex({ guildId: 1 }, { name: 'by_server' }),
    c.dueTasks.createIndex({ status: 1, dueAt: 1 }, { name: 'due_first' }),
    c.dueTasks.createIndex({ status: 1, endedAt: 1 }, { name: 'ended_first' }),
    c.serverMembers.createIndex({ guildId: 1, userId: 1 }, { name: 'by_guild' }),
    // A role's holders in a server, paged by member (role income).
    c.serverMembers.createIndex({ guildId: 1, roleIds: 1, userId: 1 }, { name: 'by_guild_role' }),
    c.serverMembers.createIndex({ userId: 1 }, { name: 'by_user' }),
    c.serverMembers.createIndex({ lastSeenAt: 1 }, { name: 'by_last_seen' }),
  ]);
}
