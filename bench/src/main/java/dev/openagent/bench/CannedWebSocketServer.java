package dev.openagent.bench;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.ClosedSelectorException;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * A measuring instrument for the load bench's transport floor, not a server: on loopback it
 * completes the WebSocket handshake and answers every data frame at once with one of two fixed,
 * pre-rendered frames (one for a reset message, one for any other), and closes on a close
 * message or frame. There is no environment, no JSON, no session behind it: what the bench
 * measures against it is what the sockets, the kernel's loopback TCP and the bench client cost
 * per message, the part of a step no server can avoid on the same machine. One select loop per
 * processor, answering on the thread that read the message, as lean as a server's I/O can be.
 * It reads just what the bench's client sends: one masked frame per message.
 */
final class CannedWebSocketServer implements AutoCloseable {
    /** Bytes buffered per connection: a client message (a reset or an action) is far smaller. */
    private static final int BUFFER = 1 << 16;

    private final ServerSocketChannel listener;
    private final List<Loop> loops = new ArrayList<>();
    private volatile boolean closed;

    /**
     * @param resetAnswer the payload answering a reset message
     * @param stepAnswer  the payload answering any other message
     */
    CannedWebSocketServer(byte[] resetAnswer, byte[] stepAnswer) throws IOException {
        listener = ServerSocketChannel.open();
        try {
            listener.bind(new InetSocketAddress("127.0.0.1", 0));
            byte[] reset = Wire.WebSocket.textFrame(resetAnswer, false), step = Wire.WebSocket.textFrame(stepAnswer, false);
            for (int i = 0; i < Runtime.getRuntime().availableProcessors(); i++) {
                Loop loop = new Loop(reset, step);
                loops.add(loop);
                Thread.ofPlatform().daemon().name("canned-server-" + i).start(loop);
            }
        } catch (IOException | RuntimeException e) {
            close();
            throw e;
        }
        Thread.ofPlatform().daemon().name("canned-server-accept").start(this::accept);
    }

    int port() {
        return listener.socket().getLocalPort();
    }

    /** Hands each new connection to the loops in turn, until the listener closes. */
    private void accept() {
        for (int next = 0; !closed; next++) {
            SocketChannel ch;
            try {
                ch = listener.accept();
            } catch (IOException e) {
                return;   // the listener closed
            }
            try {
                ch.configureBlocking(false);
                loops.get(next % loops.size()).add(ch);
            } catch (IOException e) {
                ClientLoop.closeQuietly(ch);   // that client went away: the others carry on
            }
        }
    }

    /** Stops listening and closes every connection; the loops' threads end. */
    @Override
    public void close() {
        closed = true;
        ClientLoop.closeQuietly(listener);
        for (Loop loop : loops) loop.close();
    }

    /** One connection: what has been read and not yet answered, and an answer not yet fully written. */
    private static final class Conn {
        final ByteBuffer in = ByteBuffer.allocate(BUFFER);
        boolean open;   // handshake done
        ByteBuffer out;
    }

    private static final class Loop implements Runnable {
        private final Selector selector = Selector.open();
        private final ConcurrentLinkedQueue<SocketChannel> added = new ConcurrentLinkedQueue<>();
        /** Every connection handed to this loop, so that {@link #close()} closes them from any thread. */
        private final Set<SocketChannel> channels = ConcurrentHashMap.newKeySet();
        private final byte[] reset, step;

        Loop(byte[] reset, byte[] step) throws IOException {
            this.reset = reset;
            this.step = step;
        }

        void add(SocketChannel ch) throws IOException {
            if (!selector.isOpen()) throw new ClosedChannelException();
            channels.add(ch);
            added.add(ch);
            selector.wakeup();
        }

        void close() {
            try {
                selector.close();   // wakes the loop, which then ends
            } catch (IOException ignored) {
                // closing a selector: nothing to report
            }
            channels.forEach(ClientLoop::closeQuietly);
        }

        @Override
        public void run() {
            try {
                while (selector.isOpen()) {
                    selector.select();
                    for (SocketChannel ch; (ch = added.poll()) != null; ) {
                        try {
                            ch.register(selector, SelectionKey.OP_READ, new Conn());
                        } catch (ClosedChannelException e) {
                            channels.remove(ch);   // the client went away before its first byte
                        }
                    }
                    for (SelectionKey key : selector.selectedKeys()) {
                        try {
                            if (key.isValid() && key.isWritable() && ClientLoop.write(key, ((Conn) key.attachment()).out)) {
                                ((Conn) key.attachment()).out = null;
                                answer(key);   // what arrived while the last answer waited for the socket
                            }
                            if (key.isValid() && key.isReadable()) readable(key);
                        } catch (IOException | RuntimeException e) {
                            drop(key);   // a broken or misbehaving connection: the others carry on
                        }
                    }
                    selector.selectedKeys().clear();
                }
            } catch (IOException | ClosedSelectorException e) {
                // closed
            }
        }

        private void drop(SelectionKey key) {
            key.cancel();
            channels.remove((SocketChannel) key.channel());
            ClientLoop.closeQuietly(key.channel());
        }

        private void readable(SelectionKey key) throws IOException {
            Conn c = (Conn) key.attachment();
            if (((SocketChannel) key.channel()).read(c.in) < 0) {
                drop(key);
                return;
            }
            answer(key);
        }

        /** Answers every complete message read so far, one at a time: a pending answer holds back the next. */
        private void answer(SelectionKey key) throws IOException {
            Conn c = (Conn) key.attachment();
            c.in.flip();
            try {
                if (!c.open) handshake((SocketChannel) key.channel(), c);
                while (c.open && c.out == null) {
                    byte[] answer = nextFrame(c.in);
                    if (answer == null) break;
                    if (answer.length == 0) {   // a close: nothing more to say
                        drop(key);
                        return;
                    }
                    c.out = ByteBuffer.wrap(answer);
                    if (ClientLoop.write(key, c.out)) c.out = null;
                }
            } finally {
                c.in.compact();
            }
            if (c.out == null && !c.in.hasRemaining()) throw new IOException("a message over " + BUFFER + " bytes");
        }

        /** Answers the upgrade request once all of it has arrived. */
        private static void handshake(SocketChannel ch, Conn c) throws IOException {
            String head = StandardCharsets.ISO_8859_1.decode(c.in.duplicate()).toString();
            int end = head.indexOf("\r\n\r\n");
            if (end < 0) return;
            String key = head.substring(0, end).lines()
                    .filter(l -> l.toLowerCase(Locale.ROOT).startsWith("sec-websocket-key:"))
                    .map(l -> l.substring(l.indexOf(':') + 1).strip()).findFirst()
                    .orElseThrow(() -> new IOException("an upgrade request without Sec-WebSocket-Key"));
            ByteBuffer answer = ByteBuffer.wrap(("HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                    + "Sec-WebSocket-Accept: " + Wire.WebSocket.accept(key) + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            while (answer.hasRemaining()) ch.write(answer);   // a few bytes into an empty socket buffer
            c.in.position(c.in.position() + end + 4);
            c.open = true;
        }

        /**
         * The answer to the next complete client frame in {@code in}, consumed: the reset or
         * the step answer, an empty array for a close (a close frame or a close message), null
         * when the frame is incomplete.
         */
        private byte[] nextFrame(ByteBuffer in) throws IOException {
            Wire.FrameHead f = Wire.FrameHead.at(in);
            if (f == null) return null;
            if (!f.masked()) throw new IOException("an unmasked client frame");
            long length = f.payloadLength();
            if (length < 0 || length > BUFFER) throw new IOException("a frame of " + length + " bytes");
            int start = in.position(), payload = start + f.headLength() + 4;
            if (in.remaining() < f.headLength() + 4 + length) return null;
            in.position((int) (payload + length));
            if ((f.b0() & 0x0f) == 0x8) return new byte[0];
            if (length < 10) return step;
            // {"type":"reset"... or {"type":"close"...: the 10th payload byte (unmasked with mask byte 9 % 4) tells them apart.
            int tenth = (in.get(payload + 9) ^ in.get(start + f.headLength() + 1)) & 0xff;
            return tenth == 'r' ? reset : tenth == 'c' ? new byte[0] : step;
        }
    }
}
