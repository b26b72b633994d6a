package dev.docsassistant.bench;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * The least CPU a streamed token can cost this machine's kernel on one loopback hop: one {@code write} of the token
 * on one socket and its {@code read} on the other end, by Java NIO with nothing else (no HTTP, no JSON, no event
 * loop's bookkeeping). Every stream holds its own connection, and the writer sends one token to each connection per
 * round and waits for the reader to have it, as a stream does whose tokens come 100 ms apart: no two tokens share a
 * read. One selector thread reads, as an event loop would, so its wake-ups are shared by every connection ready.
 *
 * <p>The concurrency scenario's tokens cross two such hops (the stub to the service, the service to the driver), so
 * what 8,000 streams of a token per 100 ms need of this machine at the least is 80,000 x (both hops' costs) a second.
 *
 * <p>Usage: {@code LoopbackFloor [--connections=8000] [--rounds=100] [--bytes=220,24]}: one run per size (220 bytes
 * is a chat-completion chunk as an SSE event in an HTTP chunk; 24 a data-stream text part in one). Prints, per size,
 * the microseconds of CPU a token cost the writing thread and the reading thread (the JVM's thread CPU clocks, user
 * and system), and the whole machine's busy time per token ({@code /proc/stat}: it includes the softirq work of
 * delivering the packet, which the kernel may charge to no thread; other load on the machine inflates it).
 */
public final class LoopbackFloor {

    private LoopbackFloor() {
    }

    public static void main(String[] args) throws Exception {
        Map<String, String> options = new HashMap<>();
        for (String arg : args) {
            options.put(arg.substring(2, arg.indexOf('=')), arg.substring(arg.indexOf('=') + 1));
        }
        int connections = Integer.parseInt(options.getOrDefault("connections", "8000"));
        int rounds = Integer.parseInt(options.getOrDefault("rounds", "100"));
        String sizes = options.getOrDefault("bytes", "220,24");
        System.out.println("| bytes a token | connections | tokens | writer µs a token | reader µs a token | both | machine busy µs a token |");
        System.out.println("| --- | --- | --- | --- | --- | --- | --- |");
        for (String size : sizes.split(",")) {
            hop(connections, rounds, Integer.parseInt(size.trim()));
        }
    }

    private static void hop(int connections, int rounds, int bytes) throws Exception {
        SocketChannel[] writers = new SocketChannel[connections];
        SocketChannel[] readers = new SocketChannel[connections];
        try (ServerSocketChannel server = ServerSocketChannel.open()) {
            server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 4096);
            for (int i = 0; i < connections; i++) {
                writers[i] = SocketChannel.open(server.getLocalAddress());
                writers[i].setOption(StandardSocketOptions.TCP_NODELAY, true); // as Netty and Vert.x set it
                readers[i] = server.accept();
                readers[i].configureBlocking(false);
            }
        }
        try {
            Reader reader = new Reader(readers);
            Thread readerThread = new Thread(reader, "floor-reader");
            readerThread.start();
            ByteBuffer token = ByteBuffer.allocateDirect(bytes);
            int warmup = Math.max(10, rounds / 5);
            long writerCpu = 0;
            long readerCpu0 = 0;
            long busy0 = 0;
            ThreadMXBean threads = ManagementFactory.getThreadMXBean();
            for (int round = 0; round < warmup + rounds; round++) {
                if (round == warmup) { // the JIT has compiled both loops: measure from here
                    writerCpu = threads.getCurrentThreadCpuTime();
                    readerCpu0 = reader.cpu.get();
                    busy0 = machineBusyNanos();
                }
                for (SocketChannel writer : writers) {
                    token.clear();
                    writer.write(token); // a few hundred bytes always fit the socket's buffer: never a short write
                }
                long expected = (long) (round + 1) * connections * bytes;
                while (reader.bytes.get() < expected) {
                    LockSupport.parkNanos(50_000);
                }
            }
            writerCpu = threads.getCurrentThreadCpuTime() - writerCpu;
            long busy = machineBusyNanos() - busy0;
            reader.stop = true;
            readerThread.interrupt();
            reader.selector.wakeup();
            readerThread.join();
            reader.selector.close(); // a registered channel's socket is only released once its selector lets it go
            long readerCpu = reader.cpu.get() - readerCpu0;
            double tokens = (double) rounds * connections;
            System.out.printf("| %d | %,d | %,d | %.2f | %.2f | %.2f | %.2f |%n", bytes, connections, (long) tokens,
                    writerCpu / tokens / 1000, readerCpu / tokens / 1000, (writerCpu + readerCpu) / tokens / 1000,
                    busy / tokens / 1000);
        } finally {
            for (int i = 0; i < connections; i++) {
                writers[i].close();
                readers[i].close();
            }
        }
    }

    /** Reads every connection as one event loop would: one read per ready socket, a second only if it filled. */
    private static final class Reader implements Runnable {
        final Selector selector;
        final AtomicLong bytes = new AtomicLong();
        final AtomicLong cpu = new AtomicLong(); // this thread's CPU nanoseconds, after each select round
        volatile boolean stop;

        Reader(SocketChannel[] channels) throws IOException {
            selector = Selector.open();
            for (SocketChannel channel : channels) {
                channel.register(selector, SelectionKey.OP_READ);
            }
        }

        @Override
        public void run() {
            ThreadMXBean threads = ManagementFactory.getThreadMXBean();
            ByteBuffer buffer = ByteBuffer.allocateDirect(4096);
            try {
                while (!stop) {
                    selector.select();
                    long read = 0;
                    for (var keys = selector.selectedKeys().iterator(); keys.hasNext(); ) {
                        SocketChannel channel = (SocketChannel) keys.next().channel();
                        keys.remove();
                        int n;
                        do {
                            buffer.clear();
                            n = channel.read(buffer);
                            read += Math.max(n, 0);
                        } while (n == buffer.capacity());
                    }
                    cpu.set(threads.getCurrentThreadCpuTime());
                    bytes.addAndGet(read);
                }
            } catch (IOException e) {
                if (!stop) {
                    throw new IllegalStateException(e);
                }
            }
        }
    }

    /** CPU time all cores spent busy (every {@code /proc/stat} state but idle and iowait), in nanoseconds. */
    private static long machineBusyNanos() throws IOException {
        String[] cpu = Files.readAllLines(Path.of("/proc/stat")).get(0).trim().split("\\s+");
        long busy = 0;
        for (int i = 1; i < cpu.length && i <= 8; i++) { // user nice system idle iowait irq softirq steal
            if (i != 4 && i != 5) {
                busy += Long.parseLong(cpu[i]);
            }
        }
        return busy * 1_000_000_000L / 100; // USER_HZ is 100 on Linux
    }
}
