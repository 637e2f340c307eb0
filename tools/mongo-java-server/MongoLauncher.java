import de.bwaldvogel.mongo.MongoBackend;
import de.bwaldvogel.mongo.MongoCollection;
import de.bwaldvogel.mongo.MongoDatabase;
import de.bwaldvogel.mongo.MongoServer;
import de.bwaldvogel.mongo.backend.ArrayFilters;
import de.bwaldvogel.mongo.backend.CollectionOptions;
import de.bwaldvogel.mongo.backend.CursorRegistry;
import de.bwaldvogel.mongo.backend.Index;
import de.bwaldvogel.mongo.backend.IndexKey;
import de.bwaldvogel.mongo.backend.QueryResult;
import de.bwaldvogel.mongo.backend.h2.H2Backend;
import de.bwaldvogel.mongo.backend.h2.H2Collection;
import de.bwaldvogel.mongo.backend.h2.H2Database;
import de.bwaldvogel.mongo.backend.memory.MemoryBackend;
import de.bwaldvogel.mongo.backend.memory.MemoryCollection;
import de.bwaldvogel.mongo.backend.memory.MemoryDatabase;
import de.bwaldvogel.mongo.bson.Document;
import de.bwaldvogel.mongo.bson.ObjectId;
import de.bwaldvogel.mongo.oplog.Oplog;
import java.net.InetSocketAddress;
import java.util.Date;
import java.util.List;
import java.util.function.Supplier;
import java.util.stream.Collectors;

/**
 * Starts mongo-java-server on a free loopback port and prints "LISTENING host:port".
 * The server lives exactly as long as its parent: when standard input closes (the Node
 * process exited or was killed), it shuts down, so no orphan keeps a port or a file lock.
 *
 * Both backends are wrapped so that reads see whole documents (Snapshots below) and a
 * filter that pins a unique index's keys uses that index (Narrowing below).
 *
 * Usage: java -cp <jars> MongoLauncher.java memory
 *        java -cp <jars> MongoLauncher.java h2 <file>
 */
public final class MongoLauncher {
    public static void main(String[] args) throws Exception {
        String kind = args.length > 0 ? args[0] : "memory";
        MongoBackend backend = switch (kind) {
            case "memory" -> new SnapshotMemoryBackend();
            case "h2" -> {
                if (args.length < 2) throw new IllegalArgumentException("h2 backend needs a file path");
                yield new SnapshotH2Backend(args[1]);
            }
            default -> throw new IllegalArgumentException("unknown backend " + kind);
        };
        MongoServer server = new MongoServer(backend);
        InetSocketAddress address = new InetSocketAddress("127.0.0.1", 0);
        server.bind(address);
        InetSocketAddress bound = server.getLocalAddress();
        System.out.println("LISTENING " + bound.getHostString() + ":" + bound.getPort());
        System.out.flush();
        Runtime.getRuntime().addShutdownHook(new Thread(server::shutdown));
        while (System.in.read() != -1) {
            // Parent keeps the pipe open; EOF means it is gone.
        }
        server.shutdown();
        System.exit(0);
    }
}

/**
 * mongo-java-server 1.47.0 updates a stored document in place and answers a query (and a
 * findAndModify's post-image) with the stored objects themselves, which it serializes after
 * the collection's lock is released. A read racing a write could therefore return half of one
 * version and half of the next, or a post-image that already shows a later write; MongoDB
 * never does either. The app's version-guarded read-modify-write (poker tables, rounds, hunt
 * windows) relies on whole documents, so reads here hand out deep copies taken under the lock.
 * The collection's own writes (update, delete, findAndModify) query the stored objects and
 * must keep doing so: they mark themselves, and their internal queries are not copied.
 * Checked by test/db/embeddedServer.test.ts.
 */
final class Snapshots {
    private static final ThreadLocal<int[]> WRITING = ThreadLocal.withInitial(() -> new int[1]);

    private Snapshots() {}

    static <T> T writing(Supplier<T> write) {
        int[] depth = WRITING.get();
        depth[0]++;
        try {
            return write.get();
        } finally {
            depth[0]--;
        }
    }

    static List<Document> forReader(List<Document> matched) {
        if (WRITING.get()[0] > 0) return matched;
        return matched.stream().map(Document::cloneDeeply).collect(Collectors.toList());
    }

    static Document withCopiedValue(Document findAndModifyResult) {
        if (findAndModifyResult.get("value") instanceof Document value) {
            findAndModifyResult.put("value", value.cloneDeeply());
        }
        return findAndModifyResult;
    }
}

/**
 * mongo-java-server 1.47.0 uses an index only when a filter names exactly the index's keys,
 * so `{ _id: x, balance: { $gte: n } }` (every guarded ledger write) scanned the whole
 * collection, under its lock, and got slower as the collection grew. MongoDB uses the `_id`
 * index for it. Here too: when no index handles the whole filter, a unique index whose keys
 * the filter pins to plain values gives the candidates (at most one), and the whole filter
 * is applied to them as before.
 */
record Narrowing<P>(Index<P> index, Document pinned) {
    static <P> Narrowing<P> of(List<Index<P>> indexes, Document query) {
        if (indexes.stream().anyMatch(index -> index.canHandle(query))) return null;
        for (Index<P> index : indexes) {
            if (!index.isUnique()) continue;
            Document pinned = new Document();
            for (IndexKey key : index.getKeys()) {
                Object value = query.get(key.getKey());
                if (!isPlain(value)) break;
                pinned.put(key.getKey(), value);
            }
            if (pinned.size() == index.getKeys().size() && index.canHandle(pinned)) return new Narrowing<>(index, pinned);
        }
        return null;
    }

    private static boolean isPlain(Object value) {
        return value instanceof String || value instanceof Number || value instanceof Boolean
            || value instanceof Date || value instanceof ObjectId;
    }

    Iterable<P> positions() {
        return index.getPositions(pinned);
    }
}

final class SnapshotMemoryBackend extends MemoryBackend {
    @Override
    public MemoryDatabase openOrCreateDatabase(String databaseName) {
        return new MemoryDatabase(databaseName, getCursorRegistry()) {
            @Override
            protected MemoryCollection openOrCreateCollection(String collectionName, CollectionOptions options) {
                return new SnapshotMemoryCollection(this, collectionName, options, cursorRegistry);
            }
        };
    }
}

final class SnapshotMemoryCollection extends MemoryCollection {
    SnapshotMemoryCollection(MongoDatabase database, String name, CollectionOptions options, CursorRegistry cursors) {
        super(database, name, options, cursors);
    }

    @Override
    protected QueryResult queryDocuments(Document query, Document orderBy, int skip, int limit, int batchSize,
                                         Document fields) {
        var narrowing = Narrowing.of(getIndexes(), query);
        if (narrowing == null) return super.queryDocuments(query, orderBy, skip, limit, batchSize, fields);
        return matchDocuments(query, narrowing.positions(), orderBy, skip, limit, batchSize, fields);
    }

    @Override
    protected QueryResult createQueryResult(List<Document> matched, int batchSize) {
        return super.createQueryResult(Snapshots.forReader(matched), batchSize);
    }

    @Override
    public synchronized Document findAndModify(Document query) {
        return Snapshots.withCopiedValue(Snapshots.writing(() -> super.findAndModify(query)));
    }

    @Override
    public synchronized Document updateDocuments(Document selector, Document update, ArrayFilters arrayFilters,
                                                 boolean isMulti, boolean isUpsert, Oplog oplog) {
        return Snapshots.writing(() -> super.updateDocuments(selector, update, arrayFilters, isMulti, isUpsert, oplog));
    }

    @Override
    public synchronized int deleteDocuments(Document selector, int limit, Oplog oplog) {
        return Snapshots.writing(() -> super.deleteDocuments(selector, limit, oplog));
    }
}

final class SnapshotH2Backend extends H2Backend {
    SnapshotH2Backend(String fileName) {
        super(fileName);
    }

    @Override
    protected MongoDatabase openOrCreateDatabase(String databaseName) {
        return new H2Database(databaseName, getMvStore(), getCursorRegistry()) {
            @Override
            protected MongoCollection<Object> openOrCreateCollection(String collectionName, CollectionOptions options) {
                // The map names H2Database itself uses ("databases." and "meta." + namespace).
                String namespace = getFullCollectionNamespace(collectionName);
                return new SnapshotH2Collection(this, collectionName, options,
                    getMvStore().openMap("databases." + namespace), getMvStore().openMap("meta." + namespace),
                    cursorRegistry);
            }
        };
    }
}

/**
 * The same five overrides as SnapshotMemoryCollection, each one line into Snapshots or
 * Narrowing: the two backends' collections have different superclasses and Java has no mixins.
 */
final class SnapshotH2Collection extends H2Collection {
    SnapshotH2Collection(MongoDatabase database, String name, CollectionOptions options,
                         org.h2.mvstore.MVMap<Object, Document> data, org.h2.mvstore.MVMap<String, Object> meta,
                         CursorRegistry cursors) {
        super(database, name, options, data, meta, cursors);
    }

    @Override
    protected QueryResult queryDocuments(Document query, Document orderBy, int skip, int limit, int batchSize,
                                         Document fields) {
        var narrowing = Narrowing.of(getIndexes(), query);
        if (narrowing == null) return super.queryDocuments(query, orderBy, skip, limit, batchSize, fields);
        return matchDocuments(query, narrowing.positions(), orderBy, skip, limit, batchSize, fields);
    }

    @Override
    protected QueryResult createQueryResult(List<Document> matched, int batchSize) {
        return super.createQueryResult(Snapshots.forReader(matched), batchSize);
    }

    @Override
    public synchronized Document findAndModify(Document query) {
        return Snapshots.withCopiedValue(Snapshots.writing(() -> super.findAndModify(query)));
    }

    @Override
    public synchronized Document updateDocuments(Document selector, Document update, ArrayFilters arrayFilters,
                                                 boolean isMulti, boolean isUpsert, Oplog oplog) {
        return Snapshots.writing(() -> super.updateDocuments(selector, update, arrayFilters, isMulti, isUpsert, oplog));
    }

    @Override
    public synchronized int deleteDocuments(Document selector, int limit, Oplog oplog) {
        return Snapshots.writing(() -> super.deleteDocuments(selector, limit, oplog));
    }
}
