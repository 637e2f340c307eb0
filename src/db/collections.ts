import type { Collection, Db, WriteConcernSettings } from 'mongodb';

/**
 * Every collection the bot uses, named once. Documents are typed here so each
 * repository and the ledger agree on their shape.
 */
export const COLLECTION_NAMES = {
  cookies: 'items_cookies',
  cooldowns: 'cooldown_cookies',
  placeWallets: 'place_wallets',
  placeState: 'place_state',
  placePixels: 'place_pixels',
  placePixelEvents: 'place_pixel_events',
  placeProgressEvents: 'place_progress_events',
  placeBonusEvents: 'place_bonus_events',
  identityDelegations: 'identity_delegations',
  ledgerEvents: 'ledger_events',
  ledgerStuckOps: 'ledger_stuck_ops',
  runtimeConfig: 'runtime_config',
  profiles: 'profiles',
  dueTasks: 'due_tasks',
  channelStates: 'channel_states',
} as const;

export type Currency = 'cookies' | 'place';
export type LegSide = 'debit' | 'credit';
export type OperationType = 'debit' | 'credit' | 'transfer';

/** What a value-moving call asked for; stored on markers so recovery can finish it alone. */
export interface OperationSpec {
  opId: string;
  type: OperationType;
  currency: Currency;
  /** Account debited (debit, transfer). */
  from: string | null;
  /** Account credited (credit, transfer). */
  to: string | null;
  amount: number;
  kind: string;
  reason: string;
  /** Identity that caused the change (a user, a worker, an admin, the system). */
  source: string;
  /** Pixels paid for by a Place debit; counted on the wallet. */
  placements: number;
  /** Extra reserve the debited account must keep (the house vault's minimum). */
  reserve: number;
}

/** Marker of an operation in flight on a balance document (the marker pattern). */
export interface PendingOp {
  op: string;
  att: string;
  leg: LegSide;
  at: Date;
  /**
   * The OperationSpec as JSON (`encodeSpec`). Never queried inside, so it is one opaque
   * value: a document holding hundreds of markers (one member paying 500 times at once) is
   * matched and rewritten about three times faster than with a subdocument (ECONOMY.md).
   * Markers written before this change hold the object itself; `decodeSpec` reads both.
   */
  spec: string;
}

/**
 * A leg that can never apply: the attempt `att` of operation `op` was decided "not applied"
 * on this document, and every apply filter excludes its own attempt's fence. Pruned by the
 * recovery pass after `LEDGER_FENCE_RETENTION_MS`.
 */
export interface Fence {
  op: string;
  att: string;
  at: Date;
}

export interface CookieAccountDoc {
  _id: string;
  cookies: number;
  pendingOps?: PendingOp[];
  fences?: Fence[];
}

export interface PlaceWalletDoc {
  _id: string;
  balance: number;
  earned: number;
  spent: number;
  placements: number;
  pendingOps?: PendingOp[];
  fences?: Fence[];
}

/** One immutable audit event per balance change (one per leg of an operation). */
export interface LedgerEventDoc {
  _id: string;
  opId: string;
  attempt: string;
  fingerprint: string;
  type: OperationType;
  leg: LegSide;
  currency: Currency;
  kind: string;
  account: string;
  counterparty: string | null;
  delta: number;
  amount: number;
  placements: number;
  /** Balance of `account` right after this change; null when recovery finished the change later. */
  balanceAfter: number | null;
  source: string;
  beneficiary: string;
  reason: string;
  at: Date;
  recovered: boolean;
}

export interface StuckOpDoc {
  _id: string;
  opId: string;
  attempt: string;
  spec: OperationSpec;
  problem: string;
  at: Date;
  resolvedAt: Date | null;
  resolution: string | null;
}

export interface RuntimeConfigDoc {
  _id: string;
  value: unknown;
  updatedBy: string;
  updatedAt: Date;
  /** Counts the changes; absent on documents written before it existed. */
  revision?: number;
}

export interface CooldownDoc {
  _id: string;
  userId: string;
  action: string;
  until: Date;
}

/** Who a member is, for names in images and lists; refreshed at most every few minutes. */
export interface ProfileDoc {
  _id: string;
  name: string;
  firstSeenAt: Date;
  lastSeenAt: Date;
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

export interface Collections {
  cookies: Collection<CookieAccountDoc>;
  cooldowns: Collection<CooldownDoc>;
  placeWallets: Collection<PlaceWalletDoc>;
  ledgerEvents: Collection<LedgerEventDoc>;
  ledgerStuckOps: Collection<StuckOpDoc>;
  runtimeConfig: Collection<RuntimeConfigDoc>;
  profiles: Collection<ProfileDoc>;
  dueTasks: Collection<DueTaskDoc>;
  channelStates: Collection<ChannelStateDoc>;
}

/** Money writes wait for the journal: an acknowledged balance change survives a server crash. */
export const JOURNALED: WriteConcernSettings = { w: 1, journal: true };

export function collections(db: Db): Collections {
  const journaled = { writeConcern: JOURNALED };
  return {
    cookies: db.collection<CookieAccountDoc>(COLLECTION_NAMES.cookies, journaled),
    cooldowns: db.collection<CooldownDoc>(COLLECTION_NAMES.cooldowns, journaled),
    placeWallets: db.collection<PlaceWalletDoc>(COLLECTION_NAMES.placeWallets, journaled),
    ledgerEvents: db.collection<LedgerEventDoc>(COLLECTION_NAMES.ledgerEvents, journaled),
    ledgerStuckOps: db.collection<StuckOpDoc>(COLLECTION_NAMES.ledgerStuckOps, journaled),
    runtimeConfig: db.collection<RuntimeConfigDoc>(COLLECTION_NAMES.runtimeConfig, journaled),
    profiles: db.collection<ProfileDoc>(COLLECTION_NAMES.profiles),
    dueTasks: db.collection<DueTaskDoc>(COLLECTION_NAMES.dueTasks, journaled),
    channelStates: db.collection<ChannelStateDoc>(COLLECTION_NAMES.channelStates),
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

/** Creates every index; safe to run at every start-up (createIndex is idempotent). */
export async function ensureIndexes(db: Db): Promise<void> {
  const c = collections(db);
  await Promise.all([
    c.ledgerEvents.createIndex({ opId: 1 }, { name: 'by_op' }),
    c.ledgerEvents.createIndex({ currency: 1, account: 1, at: -1 }, { name: 'by_account' }),
    c.ledgerStuckOps.createIndex({ resolvedAt: 1 }, { name: 'open_first' }),
    c.cookies.createIndex({ 'pendingOps.op': 1 }, { name: 'pending_ops', sparse: true }),
    c.placeWallets.createIndex({ 'pendingOps.op': 1 }, { name: 'pending_ops', sparse: true }),
    // The recovery pass looks for markers and old fences every interval: only documents that hold some.
    c.cookies.createIndex({ 'fences.at': 1 }, { name: 'fences', sparse: true }),
    c.placeWallets.createIndex({ 'fences.at': 1 }, { name: 'fences', sparse: true }),
    c.cooldowns.createIndex({ userId: 1 }, { name: 'by_user' }),
    c.profiles.createIndex({ lastSeenAt: 1 }, { name: 'by_last_seen' }),
    c.dueTasks.createIndex({ status: 1, dueAt: 1 }, { name: 'due_first' }),
    db
      .collection(COLLECTION_NAMES.placePixelEvents)
      .createIndex({ revision: 1 }, { name: 'by_revision', unique: true }),
    db
      .collection(COLLECTION_NAMES.placeProgressEvents)
      .createIndex({ clientId: 1, at: -1 }, { name: 'by_client' }),
    db
      .collection(COLLECTION_NAMES.placeBonusEvents)
      .createIndex({ ownerId: 1, at: -1 }, { name: 'by_owner' }),
    db.collection(COLLECTION_NAMES.identityDelegations).createIndex({ ownerId: 1 }, { name: 'by_owner' }),
  ]);
}
