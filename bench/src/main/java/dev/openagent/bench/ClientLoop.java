package dev.openagent.bench;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.ByteBuffer;
import java.nio.channels.Channel;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.util.List;

/**
 * One platform thread that drives many bench sessions over non-blocking sockets: each session
 * has one request in flight, and one {@code select} wakes the thread for every session whose
 * answer has arrived. A blocking client (a thread per session) pays a thread wake-up and a
 * context switch per answer on top of the two system calls; on the 2-core machine this bench
 * runs on, that made the client cost about half as much CPU as the server it measured.
 */
final class ClientLoop implements Runnable {
    /** One session's conversation, as the loop sees it. */
    interface Conversation {
        /** The connected channel (blocking until {@link ClientLoop#run()} switches it). */
        SocketChannel channel();

        /** The first request, or null when there is nothing to do. */
        ByteBuffer start();

        /**
         * Handles what has been read so far ({@code in}, flipped; whatever is left unread stays
         * for the next call); the next request, {@link #WAIT} while the answer is incomplete, or
         * null when the conversation is over (finished or failed).
         */
        ByteBuffer read(ByteBuffer in) throws IOException;

        /** What to write before closing a finished conversation (a WebSocket close message), or null. */
        ByteBuffer goodbye();

        /** The loop stopped the conversation (an I/O failure or the deadline); count and log it. */
        void failed(String message);
    }

    /** What {@link Conversation#read} returns while its answer is incomplete: nothing to send yet. */
    static final ByteBuffer WAIT = ByteBuffer.allocate(0);

    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

    private final List<Conversation> conversations;
    private final long deadlineNanos;
    /** This thread's CPU time over its run, or -1 where the JVM cannot tell. */
    volatile long cpuNanos = -1;

    ClientLoop(List<Conversation> conversations, long deadlineNanos) {
        this.conversations = conversations;
        this.deadlineNanos = deadlineNanos;
    }

    private static final class Connection {
        final Conversation conversation;
        ByteBuffer in = ByteBuffer.allocate(1 << 16);
        /** A request not yet fully written (null when nothing is pending). */
        ByteBuffer out;

        Connection(Conversation conversation) {
            this.conversation = conversation;
        }
    }

    @Override
    public void run() {
        long cpu0 = THREADS.isCurrentThreadCpuTimeSupported() ? THREADS.getCurrentThreadCpuTime() : -1;
        try (Selector selector = Selector.open()) {
            int open = 0;
            for (Conversation c : conversations) {
                Connection k = new Connection(c);
                try {
                    c.channel().configureBlocking(false);
                    SelectionKey key = c.channel().register(selector, SelectionKey.OP_READ, k);
                    if (send(key, k, c.start())) open++;
                } catch (IOException e) {
                    stop(null, k, "cannot start: " + e);
                }
            }
            while (open > 0) {
                long left = deadlineNanos - System.nanoTime();
                if (left <= 0) {
                    for (SelectionKey key : selector.keys()) stop(key, (Connection) key.attachment(), "stopped at the time limit");
                    return;
                }
                selector.select(Math.max(1, Math.min(left / 1_000_000, 1_000)));
                for (SelectionKey key : selector.selectedKeys()) {
                    Connection k = (Connection) key.attachment();
                    try {
                        if (key.isWritable() && !flush(key, k)) continue;
                        if (key.isReadable() && !readable(key, k)) open--;
                    } catch (IOException e) {
                        stop(key, k, e.toString());
                        open--;
                    }
                }
                selector.selectedKeys().clear();
            }
        } catch (IOException e) {
            for (Conversation c : conversations) c.failed("client selector: " + e);
        } finally {
            if (cpu0 >= 0) cpuNanos = THREADS.getCurrentThreadCpuTime() - cpu0;
        }
    }

    /** Reads what has arrived and answers it; false when the conversation is over (its channel closed). */
    private boolean readable(SelectionKey key, Connection k) throws IOException {
        SocketChannel ch = k.conversation.channel();
        int n = ch.read(k.in);
        if (n < 0) throw new IOException("the server closed the connection");
        k.in.flip();
        ByteBuffer next = k.conversation.read(k.in);
        k.in.compact();
        if (!k.in.hasRemaining()) {   // a message larger than the buffer: grow it
            ByteBuffer bigger = ByteBuffer.allocate(k.in.capacity() * 2);
            k.in.flip();
            bigger.put(k.in);
            k.in = bigger;
        }
        if (next == null) {
            ByteBuffer bye = k.conversation.goodbye();
            if (bye != null) {
                try {
                    ch.write(bye);   // best effort: a few bytes into an empty socket buffer
                } catch (IOException ignored) {
                    // the server may have gone: the socket closes either way
                }
            }
            close(key, k);
            return false;
        }
        return send(key, k, next);
    }

    /** Writes a request (waiting for the socket when it is full); false when there was none and the conversation is over. */
    private boolean send(SelectionKey key, Connection k, ByteBuffer request) throws IOException {
        if (request == null) {
            close(key, k);
            return false;
        }
        k.out = request;
        flush(key, k);
        return true;
    }

    /** Writes what is pending; true when all of it went. */
    private static boolean flush(SelectionKey key, Connection k) throws IOException {
        if (!write(key, k.out)) return false;
        k.out = null;
        return true;
    }

    /**
     * Writes as much of {@code out} as the socket takes; true when all of it went. Until then the
     * key also waits for the socket to become writable.
     */
    static boolean write(SelectionKey key, ByteBuffer out) throws IOException {
        ((SocketChannel) key.channel()).write(out);
        if (out.hasRemaining()) {
            key.interestOps(SelectionKey.OP_READ | SelectionKey.OP_WRITE);
            return false;
        }
        if ((key.interestOps() & SelectionKey.OP_WRITE) != 0) key.interestOps(SelectionKey.OP_READ);
        return true;
    }

    private static void stop(SelectionKey key, Connection k, String message) {
        k.conversation.failed(message);
        close(key, k);
    }

    private static void close(SelectionKey key, Connection k) {
        if (key != null) key.cancel();
        closeQuietly(k.conversation.channel());
    }

    /** Closes a loopback socket or listener, whose failure to close leaves nothing to report. */
    static void closeQuietly(Channel ch) {
        try {
            ch.close();
        } catch (IOException ignored) {
            // nothing to report
        }
    }
}
