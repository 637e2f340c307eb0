import de.bwaldvogel.mongo.MongoBackend;
import de.bwaldvogel.mongo.MongoCollection;
import de.bwaldvogel.mongo.MongoDatabase;
import de.bwaldvogel.mongo.MongoServer;
import de.bwaldvogel.mongo.backend.ArrayFilters;
import de.bwaldvogel.mongo.backend.CollectionOptions;
import de.bwaldvogel.mongo.backend.CursorRegistry;
import de.bwaldvogel.mongo.backend.DatabaseResolver;
import de.bwaldvogel.mongo.backend.Index;
import de.bwaldvogel.mongo.backend.IndexKey;
import de.bwaldvogel.mongo.backend.KeyValue;
import de.bwaldvogel.mongo.backend.AbstractUniqueIndex;
import de.bwaldvogel.mongo.backend.Missing;
import de.bwaldvogel.mongo.backend.memory.index.MemoryUniqueIndex;
import de.bwaldvogel.mongo.backend.QueryResult;
import de.bwaldvogel.mongo.backend.h2.H2Backend;
import de.bwaldvogel.mongo.backend.h2.H2Collection;
import de.bwaldvogel.mongo.backend.h2.H2Database;
import de.bwaldvogel.mongo.backend.memory.MemoryBackend;
import de.bwaldvogel.mongo.backend.memory.MemoryCollection;
import de.bwaldvogel.mongo.backend.memory.MemoryDatabase;
import de.bwaldvogel.mongo.bson.BsonTimestamp;
import de.bwaldvogel.mongo.bson.Document;
import de.bwaldvogel.mongo.bson.ObjectId;
import de.bwaldvogel.mongo.exception.MongoServerError;
import de.bwaldvogel.mongo.oplog.Oplog;
import io.netty.channel.Channel;
import java.net.InetSocketAddress;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Date;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.stream.Collectors;

/**
 * Starts mongo-java-server on a free loopback port and prints "LISTENING host:port".
 * The server lives exactly as long as its parent: when standard input closes (the Node
 * process exited or was killed), it shuts down, so no orphan keeps a port or a file lock.
 *
 * Both backends are wrapped so that reads see whole documents (Snapshots below) and a
 * filter that pins a unique index's keys uses that index (Narrowing below). The memory
 * backend also keeps the indexes that are not unique, which the library only pretends to
 * create (OrderedIndex below). A cursor's batches are bounded as MongoDB bounds them
 * (Batches below). A `find` with read concern `snapshot` reads the whole database as it was
 * at one instant, as MongoDB's snapshot reads do on a replica set (PointInTime below): what
 * `npm run backup` copies.
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
        if (indexes.stream().anyMatch(index -> index.isUnique() && index.canHandle(query))) return null;
        for (Index<P> index : indexes) {
            if (!index.isUnique()) continue;
            Document pinned = new Document();
            for (IndexKey key : index.getKeys()) {
                Object value = query.get(key.getKey());
                if (!isPlain(value) && !(index.getKeys().size() == 1 && isPlainIn(value))) break;
                pinned.put(key.getKey(), value);
            }
            if (pinned.size() == index.getKeys().size() && index.canHandle(pinned)) return new Narrowing<>(index, pinned);
        }
        return null;
    }

    private static boolean isPlain(Object value) {
        return value instanceof String || value instanceof Number || value instanceof Boolean
            || value instanceof Instant || value instanceof Date || value instanceof ObjectId;
    }

    /** `{ $in: [plain values] }` and nothing else: a one-key unique index looks each value up. */
    private static boolean isPlainIn(Object value) {
        return value instanceof Document ops && ops.size() == 1 && ops.get("$in") instanceof List<?> in
            && in.stream().allMatch(Narrowing::isPlain);
    }

    Iterable<P> positions() {
        return index.getPositions(pinned);
    }

    /**
     * The candidates of a filter, from the best index for it: a unique index that handles it
     * whole, one whose keys it pins, else the ordered index that narrows it most. Null: none
     * helps, every document is read.
     */
    static <P> Iterable<P> candidates(List<Index<P>> indexes, Document query) {
        for (Index<P> index : indexes) {
            if (index.isUnique() && index.canHandle(query)) return index.getPositions(query);
        }
        var narrowing = of(indexes, query);
        if (narrowing != null) return narrowing.positions();
        Index<P> best = null;
        int bestScore = 0;
        for (Index<P> index : indexes) {
            int score = index instanceof OrderedIndex<?> ordered ? ordered.score(query)
                : index instanceof IdRanges.Ranged<?> ranged && ranged.ranges().serves(query) ? 1 : 0;
            if (score > bestScore) {
                best = index;
                bestScore = score;
            }
        }
        if (best instanceof IdRanges.Ranged<?>) {
            @SuppressWarnings("unchecked")
            var ranged = (IdRanges.Ranged<P>) best;
            return ranged.rangePositions(query);
        }
        if (best != null) return best.getPositions(query);
        return anyOf(indexes, query);
    }

    /**
     * A filter whose `$or` branches each have candidates (the rest of the filter joined to each
     * branch): the union of them, in position order. MongoDB plans each branch of a `$or` on its
     * own index; without this every `$or` read the whole collection.
     */
    private static <P> Iterable<P> anyOf(List<Index<P>> indexes, Document query) {
        if (!(query.get("$or") instanceof List<?> branches) || branches.isEmpty()) return null;
        Set<P> union = new LinkedHashSet<>();
        for (Object branch : branches) {
            if (!(branch instanceof Document b)) return null;
            Document joined = new Document();
            for (String key : query.keySet()) if (!key.equals("$or")) joined.put(key, query.get(key));
            for (String key : b.keySet()) {
                if (joined.containsKey(key)) return null;
                joined.put(key, b.get(key));
            }
            Iterable<P> part = candidates(indexes, joined);
            if (part == null) return null;
            for (P position : part) union.add(position);
        }
        return IdRanges.inPositionOrder(new ArrayList<>(union));
    }
}

/**
 * mongo-java-server 1.47.0 keeps no index that is not unique: it logs a warning and creates an
 * EmptyIndex, so every filter on such keys (a range of times, a member's history, the
 * scheduler's due tasks, a hold's owner) read the whole collection, and read more every day
 * the bot ran. The memory backend keeps them here: documents grouped by the values of the
 * index's keys but the last, ordered by the last (keys may be paths into subdocuments).
 *
 * A filter is served when it names every key but the last with a plain value or `$in` of
 * plain values, and the last with a value, `$in` of values, or a range of dates, numbers or
 * strings (or leaves the last out, with more than one key). It reads only those parts. The
 * candidates always hold every match, and the collection applies the whole filter to them,
 * as for a unique index:
 * - an array on a key's path (the filter may match one element), a NaN or a type the index
 *   does not order is a candidate of every filter the index serves;
 * - a key that is missing, null, a subdocument, a boolean or an ObjectId cannot equal or fall
 *   in the range of the values such a filter names, so it is read only for the keys a filter
 *   leaves out;
 * - a last key asked `$exists: true` (the ledger's recovery looks for accounts with operation
 *   markers so) reads every document of its groups but those whose key's path is missing.
 * Numbers compare as doubles (-0 as 0), dates by their milliseconds; bounds are read
 * inclusively (the filter drops the bound's own value when strict). Candidates come in
 * position order, the order a full read visits them. Checked against the same collection
 * without indexes by test/db/orderedIndex.test.ts; measured by `npm run bench:narrowing`.
 */
final class OrderedIndex<P> extends Index<P> {
    /** What a key's path meets that the index cannot order or group: an array. */
    private static final Object ARRAY = new Object();
    /** A path that does not exist in a document (unlike a null value, `$exists: true` skips it). */
    private static final Object MISSING = new Object();
    /** Filters naming more groups than this (many `$in` values) are not served. */
    private static final int MAX_GROUPS = 256;

    /** A last-key value in order: dates, then numbers, then strings, each by value. */
    record Ordered(int type, Comparable<Object> value) implements Comparable<Ordered> {
        @SuppressWarnings("unchecked")
        static Ordered of(Object raw) {
            // BSON dates arrive as Instant (Date in older versions of the library).
            if (raw instanceof Instant i) return new Ordered(0, (Comparable<Object>) (Object) i.toEpochMilli());
            if (raw instanceof Date d) return new Ordered(0, (Comparable<Object>) (Object) d.getTime());
            if (raw instanceof Number n && !Double.isNaN(n.doubleValue())) {
                return new Ordered(1, (Comparable<Object>) (Object) (n.doubleValue() + 0.0));
            }
            if (raw instanceof String s) return new Ordered(2, (Comparable<Object>) (Object) s);
            return null;
        }

        /** Within a type, a null value (the type's edge, in a range) comes before every value. */
        @Override
        public int compareTo(Ordered other) {
            if (type != other.type) return Integer.compare(type, other.type);
            if (value == null || other.value == null) return value == other.value ? 0 : value == null ? -1 : 1;
            return value.compareTo(other.value);
        }
    }

    /**
     * The part of the last key a filter asks for, bounds included; a bound with a null value is
     * its type's edge: an open side stops where its type ends, as MongoDB compares only values
     * of one type.
     */
    record Range(Ordered from, Ordered to) {
        static Range of(Document ops) {
            Ordered from = null, to = null;
            for (String op : ops.keySet()) {
                Ordered bound = Ordered.of(ops.get(op));
                if (bound == null) return null;
                switch (op) {
                    case "$gt", "$gte" -> from = bound;
                    case "$lt", "$lte" -> to = bound;
                    default -> { return null; }
                }
            }
            if (from != null && to != null && from.type != to.type) return null;
            int type = from != null ? from.type : to.type;
            return new Range(from != null ? from : new Ordered(type, null), to != null ? to : new Ordered(type + 1, null));
        }

        <V> Collection<V> in(TreeMap<Ordered, V> map) {
            Ordered first = from.value == null ? map.ceilingKey(from) : from;
            Ordered last = to.value == null ? map.lowerKey(to) : to;
            if (first == null || last == null || first.compareTo(last) > 0) return List.of();
            return map.subMap(first, true, last, true).values();
        }
    }

    /** The documents of one group (one set of values of the first keys), by `_id`. */
    private static final class Group<P> {
        final TreeMap<Ordered, Map<Object, P>> ordered = new TreeMap<>();
        /** The last key an array, a NaN or a type not ordered: a candidate of every filter. */
        final Map<Object, P> loose = new HashMap<>();
        /** The last key null or a value no served filter names: read only when left out or `$exists`. */
        final Map<Object, P> absent = new HashMap<>();
        /** The last key's path missing: read only when left out. */
        final Map<Object, P> missing = new HashMap<>();

        boolean isEmpty() {
            return ordered.isEmpty() && loose.isEmpty() && absent.isEmpty() && missing.isEmpty();
        }
    }

    /** Where one document is kept: its map, and (in a group) the group's name and its slot. */
    private record Place<P>(Map<Object, P> map, List<Object> group, Ordered slot) {}

    private final Map<List<Object>, Group<P>> groups = new HashMap<>();
    /** A first key with an array on its path: a candidate of every filter. */
    private final Map<Object, P> unplaced = new HashMap<>();
    /** A first key missing, null or a subdocument: no served filter can match it. */
    private final Map<Object, P> ungrouped = new HashMap<>();
    private long count;

    OrderedIndex(String name, List<IndexKey> keys, boolean sparse) {
        super(name, keys, sparse);
    }

    static boolean canKeep(List<IndexKey> keys) {
        return keys.stream().noneMatch(key -> key.getKey().startsWith("$") || key.getKey().contains(".$"));
    }

    private List<String> firstKeys() {
        return keys().subList(0, keys().size() - 1);
    }

    private String lastKey() {
        return keys().get(keys().size() - 1);
    }

    /** The value at a path of subdocuments; ARRAY when an array is on the way, MISSING when there is none. */
    private static Object valueAt(Document document, String path) {
        Object value = document;
        for (String part : path.split("\\.")) {
            if (value instanceof List<?>) return ARRAY;
            if (!(value instanceof Document d) || !d.containsKey(part)) return MISSING;
            value = d.get(part);
        }
        return value instanceof List<?> ? ARRAY : value;
    }

    /** A value as a group's name holds it (numbers as doubles, dates as Instant); null if not plain. */
    private static Object plain(Object value) {
        if (value instanceof Number n) return n.doubleValue() + 0.0;
        if (value instanceof Date d) return d.toInstant();
        if (value instanceof String || value instanceof Boolean || value instanceof Instant
            || value instanceof ObjectId) return value;
        return null;
    }

    private static boolean neverNamed(Object value) {
        return value == null || value instanceof Document || value instanceof Boolean || value instanceof ObjectId;
    }

    private Place<P> locate(Document document, boolean create) {
        List<Object> name = new ArrayList<>();
        for (String key : firstKeys()) {
            Object value = valueAt(document, key);
            Object plain = value == ARRAY || value == MISSING ? null : plain(value);
            boolean neverGrouped = value == null || value == MISSING || value instanceof Document;
            if (plain == null) return new Place<>(neverGrouped ? ungrouped : unplaced, null, null);
            name.add(plain);
        }
        Group<P> group = create ? groups.computeIfAbsent(name, n -> new Group<>()) : groups.get(name);
        if (group == null) return null;
        Object last = valueAt(document, lastKey());
        if (last == MISSING) return new Place<>(group.missing, name, null);
        Ordered slot = last == ARRAY ? null : Ordered.of(last);
        if (slot == null) return new Place<>(neverNamed(last) ? group.absent : group.loose, name, null);
        Map<Object, P> map = create ? group.ordered.computeIfAbsent(slot, o -> new HashMap<>()) : group.ordered.get(slot);
        return map == null ? null : new Place<>(map, name, slot);
    }

    /** The groups a filter names (each first key a plain value or `$in` of them); null if not served. */
    private List<List<Object>> groupsOf(Document query) {
        List<List<Object>> names = List.of(List.of());
        for (String key : firstKeys()) {
            List<Object> values = plainsOf(query.get(key));
            if (values == null || names.size() * values.size() > MAX_GROUPS) return null;
            List<List<Object>> longer = new ArrayList<>();
            for (List<Object> name : names) {
                for (Object value : values) {
                    List<Object> next = new ArrayList<>(name);
                    next.add(value);
                    longer.add(next);
                }
            }
            names = longer;
        }
        return names;
    }

    private static List<Object> plainsOf(Object condition) {
        if (condition instanceof Document ops) {
            if (ops.size() != 1 || !(ops.get("$in") instanceof List<?> in)) return null;
            List<Object> values = new ArrayList<>();
            for (Object v : in) {
                Object plain = plain(v);
                if (plain == null) return null;
                values.add(plain);
            }
            return values;
        }
        Object plain = plain(condition);
        return plain == null ? null : List.of(plain);
    }

    /** The last key asked to exist (`$exists: true`, whatever else it asks): every value but a missing one. */
    private static final List<Range> EXISTS = List.of();

    /**
     * The ranges of the last key a condition names (a value or `$in`: points); EXISTS for a
     * condition that holds `$exists: true`; null if not served.
     */
    private static List<Range> rangesOf(Object condition) {
        if (condition instanceof Document ops && Boolean.TRUE.equals(ops.get("$exists"))) return EXISTS;
        Ordered point = Ordered.of(condition);
        if (point != null) return List.of(new Range(point, point));
        if (!(condition instanceof Document ops) || ops.isEmpty()) return null;
        if (ops.size() == 1 && ops.get("$in") instanceof List<?> in) {
            List<Range> points = new ArrayList<>();
            for (Object v : in) {
                Ordered p = Ordered.of(v);
                if (p == null) return null;
                points.add(new Range(p, p));
            }
            return points;
        }
        Range range = Range.of(ops);
        return range == null ? null : List.of(range);
    }

    /** How many keys a filter names in a way this index serves (0: it cannot narrow it). */
    int score(Document query) {
        if (groupsOf(query) == null) return 0;
        if (!query.containsKey(lastKey())) return keys().size() > 1 ? keys().size() - 1 : 0;
        return rangesOf(query.get(lastKey())) == null ? 0 : keys().size();
    }

    @Override
    public synchronized boolean canHandle(Document query) {
        return score(query) > 0;
    }

    @Override
    public synchronized Iterable<P> getPositions(Document query) {
        List<P> positions = new ArrayList<>(unplaced.values());
        List<Range> ranges = query.containsKey(lastKey()) ? rangesOf(query.get(lastKey())) : null;
        for (List<Object> name : groupsOf(query)) {
            Group<P> group = groups.get(name);
            if (group == null) continue;
            positions.addAll(group.loose.values());
            if (ranges == null || ranges == EXISTS) {
                positions.addAll(group.absent.values());
                if (ranges == null) positions.addAll(group.missing.values());
                for (Map<Object, P> slot : group.ordered.values()) positions.addAll(slot.values());
            } else {
                for (Range range : ranges) for (Map<Object, P> slot : range.in(group.ordered)) positions.addAll(slot.values());
            }
        }
        // The memory backend's positions are list indexes (Integer); `$in` may name a part twice.
        IdRanges.inPositionOrder(positions);
        List<P> distinct = new ArrayList<>(positions.size());
        for (P position : positions) if (distinct.isEmpty() || !distinct.get(distinct.size() - 1).equals(position)) distinct.add(position);
        return distinct;
    }

    @Override
    public synchronized P getPosition(Document document) {
        return null; // the `_id` index answers where a document is
    }

    @Override
    public void checkAdd(Document document, MongoCollection<P> collection) {
        // Not unique: nothing refuses a document.
    }

    @Override
    public synchronized void add(Document document, P position, MongoCollection<P> collection) {
        locate(document, true).map().put(document.get("_id"), position);
        count++;
    }

    @Override
    public synchronized P remove(Document document) {
        Place<P> place = locate(document, false);
        P position = place == null ? null : place.map().remove(document.get("_id"));
        if (position == null) return null;
        count--;
        // Emptied parts go, so a range does not walk the slots of every value a key ever had.
        if (place.group() != null) {
            Group<P> group = groups.get(place.group());
            if (place.slot() != null && place.map().isEmpty()) group.ordered.remove(place.slot());
            if (group.isEmpty()) groups.remove(place.group());
        }
        return position;
    }

    @Override
    public void checkUpdate(Document oldDocument, Document newDocument, MongoCollection<P> collection) {
        // Not unique: nothing refuses a change.
    }

    @Override
    public synchronized void updateInPlace(Document oldDocument, Document newDocument, P position,
                                           MongoCollection<P> collection) {
        if (remove(oldDocument) != null) add(newDocument, position, collection);
    }

    @Override
    public synchronized long getCount() {
        return count;
    }

    @Override
    public long getDataSize() {
        return count * 16;
    }

    @Override
    public synchronized void drop() {
        groups.clear();
        unplaced.clear();
        ungrouped.clear();
        count = 0;
    }
}

/**
 * mongo-java-server 1.47.0 answers `{ _id: { $gt: a, $lte: b } }` by reading the whole
 * collection: its unique indexes look up values and `$in` lists, never a range. MongoDB reads
 * such a range from the `_id` index, and the code asks for ranges of `_id`s where they are
 * what it means (the canvas's events between two revisions, every 50 ms of a live feed). Here
 * the `_id` index of both backends also answers a range of dates, numbers or strings: the
 * first range asked of a collection orders its `_id`s once (from the index's entries), and
 * the index keeps that order through every later insert and delete. Only `_id`: it is never
 * an array, so a range of its values is exactly the documents that can match. The candidates
 * are read inclusively and the whole filter applied to them, as for every index here. Checked
 * by test/db/orderedIndex.test.ts.
 */
final class IdRanges<P> {
    private static final Set<String> BOUNDS = Set.of("$gt", "$gte", "$lt", "$lte");

    /** A unique index on `_id` that serves ranges too. */
    interface Ranged<P> {
        IdRanges<P> ranges();

        /** The positions of the documents whose `_id` may fall in the filter's range. */
        Iterable<P> rangePositions(Document query);
    }

    /** The `_id`s' positions by value, once a range was asked; null before. */
    private TreeMap<OrderedIndex.Ordered, List<P>> byValue;

    static boolean isId(List<IndexKey> keys) {
        return keys.size() == 1 && keys.get(0).getKey().equals("_id");
    }

    /** The filter asks a range of `_id` (only `$gt`, `$gte`, `$lt`, `$lte` of one type). */
    boolean serves(Document query) {
        return rangeOf(query) != null;
    }

    private static OrderedIndex.Range rangeOf(Document query) {
        if (!(query.get("_id") instanceof Document ops) || ops.isEmpty() || !BOUNDS.containsAll(ops.keySet())) return null;
        return OrderedIndex.Range.of(ops);
    }

    synchronized void added(Object id, P position) {
        if (byValue != null) put(id, position);
    }

    synchronized void removed(Object id, P position) {
        if (byValue == null || position == null) return;
        var value = OrderedIndex.Ordered.of(id);
        List<P> positions = value == null ? null : byValue.get(value);
        if (positions == null) return;
        positions.remove(position);
        if (positions.isEmpty()) byValue.remove(value);
    }

    synchronized void dropped() {
        byValue = null;
    }

    private void put(Object id, P position) {
        var value = OrderedIndex.Ordered.of(id);
        if (value != null) byValue.computeIfAbsent(value, v -> new ArrayList<>(1)).add(position);
    }

    /** The candidates of the filter's range of `_id`, in position order; `entries` fill the order the first time. */
    synchronized List<P> positions(Document query, Iterable<Map.Entry<KeyValue, P>> entries) {
        var range = rangeOf(query);
        if (range == null) throw new IllegalArgumentException("not a range of _id: " + query);
        if (byValue == null) {
            byValue = new TreeMap<>();
            for (var entry : entries) put(entry.getKey().get(0), entry.getValue());
        }
        List<P> positions = new ArrayList<>();
        for (List<P> part : range.in(byValue)) positions.addAll(part);
        return inPositionOrder(positions);
    }

    /** Positions as a full read visits them: list indexes (memory) by number, `_id`s (H2) as BSON orders them. */
    @SuppressWarnings({"unchecked", "rawtypes"})
    static <P> List<P> inPositionOrder(List<P> positions) {
        if (positions.stream().allMatch(p -> p instanceof Integer)) positions.sort(null);
        else positions.sort((java.util.Comparator) de.bwaldvogel.mongo.backend.ValueComparator.asc());
        return positions;
    }
}

/**
 * mongo-java-server 1.47.0 matches `{ _id: { $in: [...] } }` by comparing a document's `_id`
 * with every value of the list, and an update matches each document twice (to find it, then
 * for its positional `$`): `updateMany({ _id: { $in: ids }, ... })` over k accounts cost k²
 * comparisons, where MongoDB looks each `_id` up. Here a filter whose `_id` is `$in` of plain
 * values (strings, numbers, dates, ObjectIds) tests the `_id` against a set of them (numbers by
 * value, as MongoDB compares them; dates by their milliseconds), then matches the rest of the
 * filter as the library does. Any other filter is the library's alone. Checked by
 * test/db/orderedIndex.test.ts.
 */
final class SetMatcher implements de.bwaldvogel.mongo.backend.QueryMatcher {
    private final de.bwaldvogel.mongo.backend.QueryMatcher library = new de.bwaldvogel.mongo.backend.DefaultQueryMatcher();
    /** The last filter split, by identity: an update or a query tests one filter against many documents. */
    private Document lastQuery;
    private Split lastSplit;

    private record Split(Set<Object> ids, Document rest) {}

    /** Puts a set matcher into a collection of the library (its matcher is private). */
    static void into(de.bwaldvogel.mongo.backend.AbstractMongoCollection<?> collection) {
        try {
            var field = de.bwaldvogel.mongo.backend.AbstractMongoCollection.class.getDeclaredField("matcher");
            field.setAccessible(true);
            field.set(collection, new SetMatcher());
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("mongo-java-server's collection has no matcher field to replace", e);
        }
    }

    /** A plain `_id` as a set holds it; null: not plain, the library decides. */
    private static Object key(Object value) {
        if (value instanceof Long l) return Math.abs(l) <= 1L << 53 ? (double) l + 0.0 : null; // beyond: the library's
        if (value instanceof Number n) return Double.isNaN(n.doubleValue()) ? null : n.doubleValue() + 0.0;
        if (value instanceof Date d) return Instant.ofEpochMilli(d.getTime());
        if (value instanceof Instant i) return Instant.ofEpochMilli(i.toEpochMilli());
        if (value instanceof String || value instanceof ObjectId) return value;
        return null;
    }

    private synchronized Split split(Document query) {
        if (query == lastQuery) return lastSplit;
        Split split = null;
        if (query.get("_id") instanceof Document ops && ops.size() == 1 && ops.get("$in") instanceof List<?> in) {
            Set<Object> ids = new java.util.HashSet<>();
            for (Object value : in) {
                Object key = key(value);
                if (key == null) {
                    ids = null;
                    break;
                }
                ids.add(key);
            }
            if (ids != null) {
                Document rest = new Document();
                for (String k : query.keySet()) if (!k.equals("_id")) rest.put(k, query.get(k));
                split = new Split(ids, rest);
            }
        }
        lastQuery = query;
        lastSplit = split;
        return split;
    }

    @Override
    public boolean matches(Document document, Document query) {
        Split split = split(query);
        Object id = split == null ? null : key(document.get("_id"));
        if (id == null) return library.matches(document, query);
        return split.ids().contains(id) && library.matches(document, split.rest());
    }

    @Override
    public boolean matchesValue(Object queryValue, Object value) {
        return library.matchesValue(queryValue, value);
    }

    @Override
    public Integer matchPosition(Document document, Document query) {
        Split split = split(query);
        Object id = split == null ? null : key(document.get("_id"));
        if (id == null) return library.matchPosition(document, query);
        return split.ids().contains(id) ? library.matchPosition(document, split.rest()) : null;
    }
}

/** The memory backend's `_id` index, serving ranges too (IdRanges). */
final class RangedMemoryIdIndex extends MemoryUniqueIndex implements IdRanges.Ranged<Integer> {
    private final IdRanges<Integer> ranges = new IdRanges<>();

    RangedMemoryIdIndex(String name, List<IndexKey> keys, boolean sparse) {
        super(name, keys, sparse);
    }

    @Override
    public IdRanges<Integer> ranges() {
        return ranges;
    }

    @Override
    public Iterable<Integer> rangePositions(Document query) {
        return ranges.positions(query, getIterable());
    }

    @Override
    public synchronized boolean canHandle(Document query) {
        return super.canHandle(query) || (query.size() == 1 && ranges.serves(query));
    }

    @Override
    public synchronized Iterable<Integer> getPositions(Document query) {
        return super.canHandle(query) ? super.getPositions(query) : rangePositions(query);
    }

    @Override
    public synchronized void add(Document document, Integer position, MongoCollection<Integer> collection) {
        super.add(document, position, collection);
        ranges.added(document.get("_id"), position);
    }

    @Override
    public synchronized Integer remove(Document document) {
        Integer position = super.remove(document);
        ranges.removed(document.get("_id"), position);
        return position;
    }

    @Override
    public void drop() {
        super.drop();
        ranges.dropped();
    }
}

/**
 * The H2 file's `_id` index, serving ranges too (IdRanges): the library's H2UniqueIndex (its
 * constructor is not public) with the same map, under the same name.
 */
final class RangedH2IdIndex extends AbstractUniqueIndex<Object> implements IdRanges.Ranged<Object> {
    private final org.h2.mvstore.MVMap<KeyValue, Object> map;
    private final IdRanges<Object> ranges = new IdRanges<>();

    RangedH2IdIndex(org.h2.mvstore.MVMap<KeyValue, Object> map, String name, List<IndexKey> keys, boolean sparse) {
        super(name, keys, sparse);
        this.map = map;
    }

    @Override
    protected Object removeDocument(KeyValue keyValue) {
        return map.remove(keyValue);
    }

    @Override
    protected boolean putKeyPosition(KeyValue keyValue, Object position) {
        return map.putIfAbsent(keyValue, Missing.ofNullable(position)) == null;
    }

    @Override
    protected Iterable<Map.Entry<KeyValue, Object>> getIterable() {
        return map.entrySet();
    }

    @Override
    protected Object getPosition(KeyValue keyValue) {
        return map.get(keyValue);
    }

    @Override
    public long getCount() {
        return map.sizeAsLong();
    }

    @Override
    public boolean isEmpty() {
        return map.isEmpty();
    }

    @Override
    public long getDataSize() {
        return getCount();
    }

    @Override
    public IdRanges<Object> ranges() {
        return ranges;
    }

    @Override
    public Iterable<Object> rangePositions(Document query) {
        return ranges.positions(query, getIterable());
    }

    @Override
    public synchronized boolean canHandle(Document query) {
        return super.canHandle(query) || (query.size() == 1 && ranges.serves(query));
    }

    @Override
    public synchronized Iterable<Object> getPositions(Document query) {
        return super.canHandle(query) ? super.getPositions(query) : rangePositions(query);
    }

    @Override
    public synchronized void add(Document document, Object position, MongoCollection<Object> collection) {
        super.add(document, position, collection);
        ranges.added(document.get("_id"), position);
    }

    @Override
    public synchronized Object remove(Document document) {
        Object position = super.remove(document);
        ranges.removed(document.get("_id"), position);
        return position;
    }

    @Override
    public void drop() {
        super.drop();
        ranges.dropped();
    }
}

/**
 * mongo-java-server 1.47.0 runs every aggregation over the whole collection
 * (`queryAllAsStream`) and only then applies its first `$match`: the economy's figures by
 * day (`flowsByKind`), a member's totals, the vault's day read every ledger event. Here the
 * database remembers, for the command it is running, the pipeline's first `$match`, and the
 * collection reads only that filter's candidates from its indexes; the `$match` stage still
 * filters them. A pipeline that reads other collections (`$lookup`, `$unionWith`,
 * `$graphLookup`) is left as it was.
 */
final class Pushdown {
    private static final ThreadLocal<Document> MATCH = new ThreadLocal<>();
    private static final ThreadLocal<String> COLLECTION = new ThreadLocal<>();
    private static final Set<String> READS_OTHERS = Set.of("$lookup", "$unionWith", "$graphLookup");

    private Pushdown() {}

    static Document around(String command, Document query, Supplier<Document> run) {
        Document match = command.equalsIgnoreCase("aggregate") ? firstMatch(query) : null;
        if (match == null) return run.get();
        MATCH.set(match);
        COLLECTION.set((String) query.get("aggregate"));
        try {
            return run.get();
        } finally {
            MATCH.remove();
            COLLECTION.remove();
        }
    }

    private static Document firstMatch(Document query) {
        if (!(query.get("aggregate") instanceof String) || !(query.get("pipeline") instanceof List<?> stages)
            || stages.isEmpty()) return null;
        for (Object stage : stages) {
            if (!(stage instanceof Document d) || d.keySet().stream().anyMatch(READS_OTHERS::contains)) return null;
        }
        return ((Document) stages.get(0)).get("$match") instanceof Document match ? match : null;
    }

    /** The first `$match` of the aggregation running on this thread over `collection`, if any. */
    static Document matchFor(String collection) {
        return collection.equals(COLLECTION.get()) ? MATCH.get() : null;
    }
}

/**
 * The reads that no index narrowed (every document of the collection was read and matched),
 * by collection and filter shape: what `--profile-db` reports as the day's scans, so a query
 * that reads more every day the bot runs is named, not guessed at from times. Asked and
 * emptied by the command `{ launcherScans: 1 }` (the memory backend; the H2 file keeps no
 * index that is not unique, so every filtered read there is one).
 */
final class Scans {
    private static final Map<String, long[]> BY_SHAPE = new ConcurrentHashMap<>();

    private Scans() {}

    static void count(String how, String collection, Document filter, int documents) {
        long[] seen = BY_SHAPE.computeIfAbsent(how + " " + collection + " " + shapeOf(filter), k -> new long[2]);
        synchronized (seen) {
            seen[0]++;
            seen[1] += documents;
        }
    }

    /** The filter's fields, each with the operators it applies (`{_id: $in, state}`), not its values. */
    private static String shapeOf(Document filter) {
        if (filter == null) return "{}";
        List<String> fields = new ArrayList<>();
        for (String key : filter.keySet()) {
            Object value = filter.get(key);
            boolean operators = value instanceof Document d && !d.isEmpty() && d.keySet().iterator().next().startsWith("$");
            fields.add(operators ? key + ": " + String.join(" ", ((Document) value).keySet()) : key);
        }
        fields.sort(null);
        return "{" + String.join(", ", fields) + "}";
    }

    /** Every shape's reads and documents read since the last call, as the command's reply. */
    static Document take() {
        List<Document> list = new ArrayList<>();
        for (String shape : List.copyOf(BY_SHAPE.keySet())) {
            long[] seen = BY_SHAPE.remove(shape);
            if (seen != null) list.add(new Document("shape", shape).append("reads", seen[0]).append("documents", seen[1]));
        }
        return new Document("scans", list).append("ok", 1.0);
    }
}

/**
 * mongo-java-server 1.47.0 answers a `find` without `batchSize` with every match in its first
 * batch (200,000 documents read as one reply, measured), and a `getMore` without one with all
 * that is left, where MongoDB sends 101 documents first and then at most 16 MiB a batch. So a
 * cursor the bot reads as a stream (the full check's pass over a year of events and holds)
 * arrived whole and was held whole by the Node process. Here a `find` that names no batch
 * size gets MongoDB's first batch of 101 and a `getMore` that names none gets `MORE`
 * documents: a count, not bytes, as the library cannot size a batch without serializing it
 * (1,000 of the bot's largest documents, poker tables, stay far under 16 MiB). A find that
 * asks for one batch (`singleBatch`, as findOne does) is left as it is. Internal queries (an
 * update's matches) are not commands and are not touched. Checked by
 * test/db/embeddedServer.test.ts.
 */
final class Batches {
    static final int FIRST = 101;
    static final int MORE = 1_000;

    private Batches() {}

    static Document bounded(String command, Document query) {
        if (query.containsKey("batchSize")) return query;
        if (command.equalsIgnoreCase("find") && !Boolean.TRUE.equals(query.get("singleBatch"))) {
            query.put("batchSize", FIRST);
        } else if (command.equalsIgnoreCase("getMore")) {
            query.put("batchSize", MORE);
        }
        return query;
    }
}

/**
 * MongoDB reads a whole database as it was at one instant when a `find` carries read concern
 * `snapshot` on a replica set: the first read picks the instant and answers it as its cursor's
 * `atClusterTime`, and later reads name it. mongo-java-server ignores read concerns, so a copy
 * read collection after collection under load would hold half of a transfer. Here every
 * command that writes holds its database's gate shared, and a snapshot read that names no
 * instant takes the gate alone: it waits for the writes in flight, lists every collection's
 * documents, and lets the writes go on (the pause is answered as `launcherPauseMillis`). The
 * documents are copied on write after that (`InstantCopy`): the copy is the database at that
 * instant, what `npm run backup` writes. Each collection's copy is handed out once, batch by
 * batch, to the first `find` that names the instant and its `getMore`s (a second `find` fails
 * with SnapshotTooOld; a collection created after the instant is empty); an instant nobody read
 * for five minutes (MongoDB's default snapshot window) is dropped with what is left of its
 * copies, and a reader of it then fails with SnapshotTooOld, never with a copy cut short. Only
 * an empty filter is served: a
 * snapshot read here is a copy, not a query. Checked by test/db/pointInTime.test.ts.
 */
final class PointInTime {
    /** Commands that never write: they go on while a copy is taken. Everything else is gated. */
    private static final Set<String> READS = Set.of("find", "count", "distinct", "listCollections", "listIndexes",
        "dbStats", "collStats", "validate", "explain", "killCursors", "launcherScans", "getMore");
    private static final long WINDOW_MILLIS = 5 * 60_000;
    private static final int SNAPSHOT_TOO_OLD = 239;
    private static final Map<String, ReentrantReadWriteLock> GATES = new ConcurrentHashMap<>();
    private static final Map<String, Taken> TAKEN = new ConcurrentHashMap<>();
    private static final AtomicInteger INCREMENT = new AtomicInteger();

    /** One instant's copy of a database: what is left to hand out, by collection. */
    private static final class Taken {
        final BsonTimestamp at;
        final Map<String, InstantCopy> left;
        final Set<String> handedOut = ConcurrentHashMap.newKeySet();
        /** Copies handed out to cursors: dropped with the instant if a reader never finishes them. */
        final List<InstantCopy> reading = new java.util.concurrent.CopyOnWriteArrayList<>();
        final long pauseMillis;
        volatile long lastUsed = System.currentTimeMillis();

        Taken(BsonTimestamp at, Map<String, InstantCopy> left, long pauseMillis) {
            this.at = at;
            this.left = left;
            this.pauseMillis = pauseMillis;
        }
    }

    private PointInTime() {}

    /**
     * Runs a database command: a snapshot read from its copy, a read as it is, a write under the
     * gate. `copyAll` copies every collection of the database (called with the gate held alone).
     */
    static Document around(String database, String command, Document query, CursorRegistry cursors,
                           Supplier<Map<String, InstantCopy>> copyAll, Supplier<Document> run) {
        if (command.equals("find") && isSnapshot(query)) return read(database, query, cursors, copyAll);
        if (READS.contains(command) || (command.equals("aggregate") && !writesOut(query))) return run.get();
        var shared = GATES.computeIfAbsent(database, d -> new ReentrantReadWriteLock(true)).readLock();
        shared.lock();
        try {
            return run.get();
        } finally {
            shared.unlock();
        }
    }

    private static boolean isSnapshot(Document query) {
        return query.get("readConcern") instanceof Document concern && "snapshot".equals(concern.get("level"));
    }

    private static boolean writesOut(Document query) {
        if (!(query.get("pipeline") instanceof List<?> stages)) return false;
        return stages.stream().anyMatch(s -> s instanceof Document d && (d.containsKey("$out") || d.containsKey("$merge")));
    }

    private static Document read(String database, Document query, CursorRegistry cursors,
                                 Supplier<Map<String, InstantCopy>> copyAll) {
        if (query.get("filter") instanceof Document filter && !filter.isEmpty()) {
            throw new MongoServerError(2, "BadValue", "a snapshot read on the embedded server copies a whole collection: its filter must be empty");
        }
        Object at = ((Document) query.get("readConcern")).get("atClusterTime");
        Taken taken = at == null ? take(database, copyAll) : TAKEN.get(key(database, at));
        if (taken == null) {
            throw new MongoServerError(SNAPSHOT_TOO_OLD, "SnapshotTooOld",
                "the snapshot at " + at + " is no longer held (each collection is read once, within five minutes)");
        }
        taken.lastUsed = System.currentTimeMillis();
        String collection = (String) query.get("find");
        // A copy handed out is the cursor's to hold; a collection created after the instant had none.
        InstantCopy copy = taken.left.remove(collection);
        if (copy == null && !taken.handedOut.add(collection)) {
            throw new MongoServerError(SNAPSHOT_TOO_OLD, "SnapshotTooOld",
                "the collection " + collection + " was read at " + taken.at + " already: its copy is held by that cursor");
        }
        if (copy != null) {
            taken.handedOut.add(collection);
            taken.reading.add(copy);
        }
        int first = query.get("batchSize") instanceof Number n ? n.intValue() : Batches.FIRST;
        List<Document> firstBatch = copy == null ? List.of() : copy.take(first);
        long cursorId = 0;
        if (copy != null && !copy.isEmpty()) {
            var rest = new CopyCursor(cursors.generateCursorId(), copy, () -> taken.lastUsed = System.currentTimeMillis());
            cursors.add(rest);
            cursorId = rest.getId();
        }
        Document cursor = new Document("firstBatch", firstBatch)
            .append("id", cursorId)
            .append("ns", database + "." + collection)
            .append("atClusterTime", taken.at)
            .append("launcherPauseMillis", taken.pauseMillis);
        return new Document("cursor", cursor).append("ok", 1.0);
    }

    private static Taken take(String database, Supplier<Map<String, InstantCopy>> copyAll) {
        long now = System.currentTimeMillis();
        TAKEN.values().removeIf(t -> {
            if (now - t.lastUsed <= WINDOW_MILLIS) return false;
            t.left.values().forEach(InstantCopy::drop);
            t.reading.forEach(InstantCopy::drop);
            return true;
        });
        var alone = GATES.computeIfAbsent(database, d -> new ReentrantReadWriteLock(true)).writeLock();
        long asked = System.nanoTime();
        alone.lock();
        try {
            Map<String, InstantCopy> copy = new ConcurrentHashMap<>(copyAll.get());
            var at = new BsonTimestamp(Instant.now(), INCREMENT.incrementAndGet());
            var taken = new Taken(at, copy, (System.nanoTime() - asked) / 1_000_000);
            TAKEN.put(key(database, at), taken);
            return taken;
        } finally {
            alone.unlock();
        }
    }

    private static String key(String database, Object at) {
        return database + " " + (at instanceof BsonTimestamp t ? t.getValue() : String.valueOf(at));
    }

    /** Every collection of a database as it is now: the names from its `listCollections`. */
    static Map<String, InstantCopy> copyOf(Document listCollections, Function<String, MongoCollection<?>> resolve) {
        Map<String, InstantCopy> all = new HashMap<>();
        Document cursor = (Document) listCollections.get("cursor");
        for (Object entry : (List<?>) cursor.get("firstBatch")) {
            String name = (String) ((Document) entry).get("name");
            if (resolve.apply(name) instanceof Copyable copyable) all.put(name, copyable.instantCopy());
        }
        return all;
    }
}

/** A collection that can give its documents as they are at this instant. */
interface Copyable {
    InstantCopy instantCopy();
}

/**
 * One collection as it was at an instant, handed out part by part (a cursor's batches), so
 * that no request holds a server thread while a large collection is copied. The H2 file's
 * collections are copied whole at once. The memory backend's are copied on write: at the
 * instant only the stored documents are listed (their references, fast: the write gate is held
 * for that alone), and a document is copied before a write changes it in place (`protect`, from
 * the collection's writes, under its lock) or when its part is handed out (`take`, each part
 * under the collection's lock, so that writes go on between parts). A document deleted or
 * replaced is not changed in place: its listed reference stays the version of the instant.
 */
interface InstantCopy {
    /** The next `n` documents of the copy (fewer at its end). */
    List<Document> take(int n);

    boolean isEmpty();

    /** The copy is dropped unread or half read (its instant lapsed): nothing more to protect. */
    default void drop() {}

    static InstantCopy of(List<Document> whole) {
        return new InstantCopy() {
            private int next = 0;

            @Override
            public synchronized List<Document> take(int n) {
                List<Document> part = new ArrayList<>(whole.subList(next, Math.min(whole.size(), next + n)));
                next += part.size();
                return part;
            }

            @Override
            public synchronized boolean isEmpty() {
                return next >= whole.size();
            }
        };
    }
}

final class CopyOnWrite implements InstantCopy {
    private final Object lock;
    private final List<Document> documents;
    /**
     * The listed documents not copied yet, by identity, and where each stands in the list: made
     * at the first write or read after the instant, not while the write gate is held.
     */
    private Map<Document, Integer> uncopied;
    private int next = 0;
    private boolean dropped = false;
    private final Runnable unregister;

    CopyOnWrite(Object lock, List<Document> stored, java.util.function.Consumer<CopyOnWrite> register,
                java.util.function.Consumer<CopyOnWrite> unregisterFrom) {
        this.lock = lock;
        this.documents = stored;
        this.unregister = () -> unregisterFrom.accept(this);
        register.accept(this);
    }

    /** Under the collection's lock. */
    private Map<Document, Integer> uncopied() {
        if (uncopied == null) {
            uncopied = new java.util.IdentityHashMap<>(documents.size() * 2);
            for (int i = next; i < documents.size(); i++) uncopied.put(documents.get(i), i);
        }
        return uncopied;
    }

    /** Called under the collection's lock before `stored` is changed in place. */
    void protect(Document stored) {
        Integer at = uncopied().remove(stored);
        if (at != null) documents.set(at, stored.cloneDeeply());
    }

    @Override
    public List<Document> take(int n) {
        synchronized (lock) {
            // Never a copy cut short that looks whole: a reader of a dropped copy is told.
            if (dropped) throw new MongoServerError(239, "SnapshotTooOld", "the point-in-time copy was dropped: its instant lapsed");
            List<Document> part = new ArrayList<>();
            for (; next < documents.size() && part.size() < n; next++) {
                Document document = documents.get(next);
                // Still the stored document (no write changed it since): copied now.
                part.add(uncopied().remove(document) != null ? document.cloneDeeply() : document);
                documents.set(next, null);
            }
            if (next >= documents.size()) unregister.run();
            return part;
        }
    }

    @Override
    public boolean isEmpty() {
        synchronized (lock) {
            return next >= documents.size();
        }
    }

    @Override
    public void drop() {
        synchronized (lock) {
            dropped = next < documents.size();
            next = documents.size();
            uncopied = new java.util.IdentityHashMap<>();
            unregister.run();
        }
    }
}

/** The rest of a point-in-time copy, as the `getMore`s of its cursor take it. */
final class CopyCursor implements de.bwaldvogel.mongo.backend.Cursor {
    private final long id;
    private final InstantCopy copy;
    /** Each batch taken keeps the instant from lapsing while its copy is read. */
    private final Runnable touch;

    CopyCursor(long id, InstantCopy copy, Runnable touch) {
        this.id = id;
        this.copy = copy;
        this.touch = touch;
    }

    @Override
    public long getId() {
        return id;
    }

    @Override
    public boolean isEmpty() {
        return copy.isEmpty();
    }

    @Override
    public List<Document> takeDocuments(int n) {
        touch.run();
        return copy.take(n);
    }
}

final class SnapshotMemoryBackend extends MemoryBackend {
    @Override
    public Document handleCommand(Channel channel, String databaseName, String command, Document query) {
        return super.handleCommand(channel, databaseName, command, Batches.bounded(command, query));
    }

    @Override
    public MemoryDatabase openOrCreateDatabase(String databaseName) {
        return new MemoryDatabase(databaseName, getCursorRegistry()) {
            @Override
            public Document handleCommand(Channel channel, String command, Document query,
                                          DatabaseResolver resolver, Oplog oplog) {
                if (command.equals("launcherScans")) return Scans.take();
                return PointInTime.around(getDatabaseName(), command, query, cursorRegistry,
                    () -> PointInTime.copyOf(super.handleCommand(channel, "listCollections", new Document("listCollections", 1), resolver, oplog),
                        name -> resolveCollection(name, false)),
                    () -> Pushdown.around(command, query, () -> super.handleCommand(channel, command, query, resolver, oplog)));
            }

            @Override
            protected MemoryCollection openOrCreateCollection(String collectionName, CollectionOptions options) {
                return new SnapshotMemoryCollection(this, collectionName, options, cursorRegistry);
            }

            @Override
            protected Index<Integer> openOrCreateUniqueIndex(String collectionName, String indexName,
                                                             List<IndexKey> keys, boolean sparse) {
                return IdRanges.isId(keys) ? new RangedMemoryIdIndex(indexName, keys, sparse)
                    : super.openOrCreateUniqueIndex(collectionName, indexName, keys, sparse);
            }

            @Override
            protected Index<Integer> openOrCreateSecondaryIndex(String collectionName, String indexName,
                                                                List<IndexKey> keys, boolean sparse) {
                return OrderedIndex.canKeep(keys) ? new OrderedIndex<>(indexName, keys, sparse)
                    : super.openOrCreateSecondaryIndex(collectionName, indexName, keys, sparse);
            }
        };
    }
}

final class SnapshotMemoryCollection extends MemoryCollection implements Copyable {
    SnapshotMemoryCollection(MongoDatabase database, String name, CollectionOptions options, CursorRegistry cursors) {
        super(database, name, options, cursors);
        SetMatcher.into(this);
    }

    /** The point-in-time copies of this collection not finished yet (PointInTime). */
    private final List<CopyOnWrite> copies = new java.util.concurrent.CopyOnWriteArrayList<>();

    @Override
    public synchronized InstantCopy instantCopy() {
        List<Document> stored = streamAllDocumentsWithPosition().map(d -> d.getDocument())
            .collect(Collectors.toCollection(ArrayList::new));
        return new CopyOnWrite(this, stored, copies::add, copies::remove);
    }

    /** Before a write changes documents in place, each copy takes the version it must keep. */
    private void protect(Document filter) {
        if (copies.isEmpty() || filter == null) return;
        Iterable<Integer> candidates = Narrowing.candidates(getIndexes(), filter);
        List<Document> stored = new ArrayList<>();
        if (candidates == null) streamAllDocumentsWithPosition().forEach(d -> stored.add(d.getDocument()));
        else for (Integer position : candidates) stored.add(getDocument(position));
        for (Document document : stored) {
            if (document == null || !documentMatchesQuery(document, filter)) continue;
            for (CopyOnWrite copy : copies) copy.protect(document);
        }
    }

    /**
     * Index creation and removal under the collection's lock, as its writes are: a write between
     * an index's filling and its joining the list would be missing from it (the library locks
     * only the database there).
     */
    @Override
    public synchronized void addIndex(Index<Integer> index) {
        super.addIndex(index);
    }

    @Override
    public synchronized void dropIndex(String indexName) {
        super.dropIndex(indexName);
    }

    /** An aggregation's input: its first `$match`'s candidates when an index narrows it (Pushdown). */
    @Override
    public Iterable<Document> queryAll() {
        Document match = Pushdown.matchFor(getCollectionName());
        if (match != null) {
            synchronized (this) {
                var candidates = Narrowing.candidates(getIndexes(), match);
                if (candidates != null) {
                    List<Document> documents = new ArrayList<>();
                    for (Integer position : candidates) documents.add(getDocument(position).cloneDeeply());
                    return documents;
                }
            }
        }
        Scans.count("aggregate", getCollectionName(), match, count());
        return handleQuery(new Document());
    }

    @Override
    protected QueryResult queryDocuments(Document query, Document orderBy, int skip, int limit, int batchSize,
                                         Document fields) {
        var candidates = Narrowing.candidates(getIndexes(), query);
        if (candidates == null) {
            Scans.count("read", getCollectionName(), query, count());
            return super.queryDocuments(query, orderBy, skip, limit, batchSize, fields);
        }
        return matchDocuments(query, candidates, orderBy, skip, limit, batchSize, fields);
    }

    @Override
    protected QueryResult createQueryResult(List<Document> matched, int batchSize) {
        return super.createQueryResult(Snapshots.forReader(matched), batchSize);
    }

    @Override
    public synchronized Document findAndModify(Document query) {
        if (!Boolean.TRUE.equals(query.get("remove"))) protect((Document) query.get("query"));
        return Snapshots.withCopiedValue(Snapshots.writing(() -> super.findAndModify(query)));
    }

    @Override
    public synchronized Document updateDocuments(Document selector, Document update, ArrayFilters arrayFilters,
                                                 boolean isMulti, boolean isUpsert, Oplog oplog) {
        protect(selector);
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
    public Document handleCommand(Channel channel, String databaseName, String command, Document query) {
        return super.handleCommand(channel, databaseName, command, Batches.bounded(command, query));
    }

    @Override
    protected MongoDatabase openOrCreateDatabase(String databaseName) {
        return new H2Database(databaseName, getMvStore(), getCursorRegistry()) {
            @Override
            public Document handleCommand(Channel channel, String command, Document query,
                                          DatabaseResolver resolver, Oplog oplog) {
                return PointInTime.around(getDatabaseName(), command, query, cursorRegistry,
                    () -> PointInTime.copyOf(super.handleCommand(channel, "listCollections", new Document("listCollections", 1), resolver, oplog),
                        name -> resolveCollection(name, false)),
                    () -> super.handleCommand(channel, command, query, resolver, oplog));
            }

            @Override
            protected Index<Object> openOrCreateUniqueIndex(String collectionName, String indexName,
                                                            List<IndexKey> keys, boolean sparse) {
                if (!IdRanges.isId(keys)) return super.openOrCreateUniqueIndex(collectionName, indexName, keys, sparse);
                // The map name H2Database itself gives an index.
                String map = getFullCollectionNamespace(collectionName) + "._index_" + indexName;
                return new RangedH2IdIndex(getMvStore().openMap(map), indexName, keys, sparse);
            }

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
 * The same overrides as SnapshotMemoryCollection, each one line into Snapshots or
 * Narrowing: the two backends' collections have different superclasses and Java has no mixins.
 */
final class SnapshotH2Collection extends H2Collection implements Copyable {
    SnapshotH2Collection(MongoDatabase database, String name, CollectionOptions options,
                         org.h2.mvstore.MVMap<Object, Document> data, org.h2.mvstore.MVMap<String, Object> meta,
                         CursorRegistry cursors) {
        super(database, name, options, data, meta, cursors);
        SetMatcher.into(this);
    }

    /** The H2 file's documents are copied whole at the instant (a persistent console's database is small). */
    @Override
    public synchronized InstantCopy instantCopy() {
        return InstantCopy.of(streamAllDocumentsWithPosition().map(d -> d.getDocument().cloneDeeply()).collect(Collectors.toList()));
    }

    @Override
    protected QueryResult queryDocuments(Document query, Document orderBy, int skip, int limit, int batchSize,
                                         Document fields) {
        var candidates = Narrowing.candidates(getIndexes(), query);
        if (candidates == null) return super.queryDocuments(query, orderBy, skip, limit, batchSize, fields);
        return matchDocuments(query, candidates, orderBy, skip, limit, batchSize, fields);
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
