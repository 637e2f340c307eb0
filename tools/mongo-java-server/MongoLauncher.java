import de.bwaldvogel.mongo.MongoBackend;
import de.bwaldvogel.mongo.MongoServer;
import de.bwaldvogel.mongo.backend.h2.H2Backend;
import de.bwaldvogel.mongo.backend.memory.MemoryBackend;
import java.net.InetSocketAddress;

/**
 * Starts mongo-java-server on a free loopback port and prints "LISTENING host:port".
 * The server lives exactly as long as its parent: when standard input closes (the Node
 * process exited or was killed), it shuts down, so no orphan keeps a port or a file lock.
 *
 * Usage: java -cp <jars> MongoLauncher.java memory
 *        java -cp <jars> MongoLauncher.java h2 <file>
 */
public final class MongoLauncher {
    public static void main(String[] args) throws Exception {
        String kind = args.length > 0 ? args[0] : "memory";
        MongoBackend backend = switch (kind) {
            case "memory" -> new MemoryBackend();
            case "h2" -> {
                if (args.length < 2) throw new IllegalArgumentException("h2 backend needs a file path");
                yield new H2Backend(args[1]);
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
