import {
  type ClientSession,
  type Db,
  type Document,
  type Long,
  MongoCompatibilityError,
  type Timestamp,
} from 'mongodb';

/**
 * A read of a whole database as it was at one instant: MongoDB's read concern `snapshot`
 * (a replica set, MongoDB 5.0 or later: every find names the cluster time the first one was
 * given) and the embedded server's copy of the database under its write gate
 * (tools/mongo-java-server, `PointInTime`). Without multi-document transactions, only such a
 * read is a state the database was really in; one collection read after another under load
 * would hold half of a transfer (docs/operating.md, "Backups").
 */
export interface PointInTimeRead {
  /** The instant, as the server named it. */
  at: Timestamp;
  /** When the read began, by the clock it was given (the archive's "taken at"). */
  takenAt: Date;
  /** How long the embedded server held writes back to copy the database (absent on MongoDB). */
  pauseMs: number | undefined;
  /** Every collection the database had at the instant (listed after it), `system.*` apart. */
  collections: string[];
  /** One collection's documents at the instant, with their BSON types kept (Int32, Long, Double). */
  read(collection: string): AsyncGenerator<Document>;
  close(): Promise<void>;
}

/** What the server answered when it cannot read at one instant (a standalone mongod, an old one). */
export class PointInTimeUnavailable extends Error {
  constructor(cause: unknown) {
    const reason = cause instanceof Error ? cause.message : String(cause);
    super(
      `this MongoDB cannot read the database at one instant (${reason}). A backup needs a replica set (MongoDB 5.0 or later; one member is enough: start mongod with --replSet and run rs.initiate()) or the embedded server`,
    );
    this.name = 'PointInTimeUnavailable';
  }
}

const BATCH = 1_000;
/** MongoDB's answer for a collection created after the instant: it had none then. */
const SNAPSHOT_UNAVAILABLE = 246;
/** Types as stored: a balance written as a 64-bit integer is restored as one. */
const AS_STORED = { promoteValues: false, promoteLongs: false, promoteBuffers: false } as const;

interface CursorReply {
  cursor: { id: Long | number; firstBatch?: Document[]; nextBatch?: Document[]; atClusterTime?: Timestamp };
  launcherPauseMillis?: unknown;
}

/**
 * Opens a point-in-time read of `db`; each collection may then be read once. `now` dates it
 * (the bot's clock: the books are judged by the time they were written in).
 */
export async function openPointInTime(db: Db, now: () => Date = () => new Date()): Promise<PointInTimeRead> {
  const session = await cursorSession(db);
  try {
    const before = await collectionNames(db, session);
    const takenAt = now();
    // The first snapshot read picks the instant; its documents are the first collection's.
    const opener = before[0] ?? 'system.none';
    const first = await snapshotFind(db, session, opener, undefined).catch((error: unknown) => {
      throw new PointInTimeUnavailable(error);
    });
    const at = first?.cursor.atClusterTime;
    if (!at) throw new PointInTimeUnavailable('the server named no instant (atClusterTime)');
    const pause = (first.cursor as { launcherPauseMillis?: unknown }).launcherPauseMillis;
    // Listed after the instant: every collection that existed then is named.
    const collections = await collectionNames(db, session);
    const opened = new Map<string, CursorReply | null>([[opener, first]]);
    return {
      at,
      takenAt,
      pauseMs: pause === undefined ? undefined : Number(pause),
      collections,
      async *read(collection) {
        const reply = opened.has(collection)
          ? opened.get(collection)
          : await snapshotFind(db, session, collection, at);
        opened.delete(collection);
        if (reply) yield* drain(db, session, collection, reply);
      },
      close: async () => session?.endSession(),
    };
  } catch (error) {
    await session?.endSession();
    throw error;
  }
}

/**
 * MongoDB continues a cursor only in the session that opened it, so every request of the read
 * goes in one explicit session; the embedded server keeps no sessions (the driver refuses
 * one), and its cursors need none.
 */
async function cursorSession(db: Db): Promise<ClientSession | undefined> {
  const session = db.client.startSession({ causalConsistency: false });
  try {
    await db.command({ ping: 1 }, { session });
    return session;
  } catch (error) {
    await session.endSession();
    if (error instanceof MongoCompatibilityError) return undefined;
    throw error;
  }
}

async function collectionNames(db: Db, session: ClientSession | undefined): Promise<string[]> {
  const list = await db.listCollections({}, { nameOnly: true, session }).toArray();
  return list
    .map((c) => c.name)
    .filter((name) => !name.startsWith('system.'))
    .sort();
}

/** A snapshot `find` of a whole collection; null for one created after the instant. */
async function snapshotFind(
  db: Db,
  session: ClientSession | undefined,
  collection: string,
  at: Timestamp | undefined,
): Promise<CursorReply | null> {
  const readConcern = at === undefined ? { level: 'snapshot' } : { level: 'snapshot', atClusterTime: at };
  try {
    return (await db.command(
      { find: collection, filter: {}, batchSize: BATCH, readConcern },
      { session, ...AS_STORED },
    )) as CursorReply;
  } catch (error) {
    if (at !== undefined && (error as { code?: number }).code === SNAPSHOT_UNAVAILABLE) return null;
    throw error;
  }
}

async function* drain(
  db: Db,
  session: ClientSession | undefined,
  collection: string,
  first: CursorReply,
): AsyncGenerator<Document> {
  let reply = first;
  let id = reply.cursor.id;
  try {
    for (;;) {
      yield* reply.cursor.firstBatch ?? reply.cursor.nextBatch ?? [];
      if (Number(id) === 0) return;
      reply = (await db.command(
        { getMore: id, collection, batchSize: BATCH },
        { session, ...AS_STORED },
      )) as CursorReply;
      id = reply.cursor.id;
    }
  } finally {
    // A reader that stopped early frees the server's cursor.
    if (Number(id) !== 0)
      await db.command({ killCursors: collection, cursors: [id] }, { session }).catch(() => {});
  }
}
