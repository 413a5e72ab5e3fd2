package dev.openagent.server.bench;

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
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * A measuring instrument for the load bench's transport floor, not a server: on loopback it
 * completes the WebSocket handshake and answers every text frame at once with one of two fixed,
 * pre-rendered frames (one for a reset message, one for any other), and closes on a close
 * message. There is no environment, no JSON, no session behind it: what the bench measures
 * against it is what the sockets, the kernel's loopback TCP and the bench client cost per
 * message, the part of a step no server can avoid on the same machine. One select loop per
 * processor, as lean as a server's I/O can be; the bench's client must send one masked frame
 * per message (it does).
 */
final class CannedWebSocketServer implements AutoCloseable {
    private final ServerSocketChannel listener;
    private final List<Loop> loops = new ArrayList<>();
    private final Thread acceptor;
    private volatile boolean closed;

    /**
     * @param resetAnswer the payload answering a reset message
     * @param stepAnswer  the payload answering any other text message
     */
    CannedWebSocketServer(byte[] resetAnswer, byte[] stepAnswer) throws IOException {
        listener = ServerSocketChannel.open();
        listener.bind(new InetSocketAddress("127.0.0.1", 0));
        byte[] reset = frame(resetAnswer), step = frame(stepAnswer);
        try {
            for (int i = 0; i < Runtime.getRuntime().availableProcessors(); i++) {
                Loop loop = new Loop(reset, step);
                loops.add(loop);
                Thread.ofPlatform().daemon().name("canned-server-" + i).start(loop);
            }
        } catch (IOException e) {
            close();
            throw e;
        }
        acceptor = Thread.ofPlatform().daemon().name("canned-server-accept").start(this::accept);
    }

    int port() {
        return listener.socket().getLocalPort();
    }

    private void accept() {
        int next = 0;
        while (!closed) {
            try {
                SocketChannel ch = listener.accept();
                ch.configureBlocking(false);
                loops.get(next++ % loops.size()).add(ch);
            } catch (IOException e) {
                return;   // closed
            }
        }
    }

    @Override
    public void close() {
        closed = true;
        try {
            listener.close();
        } catch (IOException ignored) {
            // closing a loopback listener: nothing to report
        }
        for (Loop loop : loops) loop.close();
        if (acceptor != null) acceptor.interrupt();
    }

    /** An unmasked, final text frame. */
    private static byte[] frame(byte[] payload) {
        int n = payload.length;
        int head = n < 126 ? 2 : n < 65536 ? 4 : 10;
        byte[] f = new byte[head + n];
        f[0] = (byte) 0x81;
        if (n < 126) {
            f[1] = (byte) n;
        } else if (n < 65536) {
            f[1] = 126;
            f[2] = (byte) (n >>> 8);
            f[3] = (byte) n;
        } else {
            f[1] = 127;
            for (int i = 0; i < 8; i++) f[2 + i] = (byte) ((long) n >>> (56 - 8 * i));
        }
        System.arraycopy(payload, 0, f, head, n);
        return f;
    }

    /** One connection: what has been read and not yet handled, and an answer not yet fully written. */
    private static final class Conn {
        ByteBuffer in = ByteBuffer.allocate(1 << 16);
        boolean open;   // handshake done
        ByteBuffer out;
    }

    private static final class Loop implements Runnable {
        private final Selector selector = Selector.open();
        private final ConcurrentLinkedQueue<SocketChannel> added = new ConcurrentLinkedQueue<>();
        private final byte[] reset, step;

        Loop(byte[] reset, byte[] step) throws IOException {
            this.reset = reset;
            this.step = step;
        }

        void add(SocketChannel ch) {
            added.add(ch);
            selector.wakeup();
        }

        void close() {
            try {
                for (SelectionKey k : selector.keys()) k.channel().close();
                selector.close();
            } catch (IOException | ClosedSelectorException ignored) {
                // closing loopback sockets: nothing to report
            }
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
                            // the client went away before its first byte
                        }
                    }
                    for (SelectionKey key : selector.selectedKeys()) {
                        try {
                            if (key.isValid() && key.isWritable()) flush(key);
                            if (key.isValid() && key.isReadable()) readable(key);
                        } catch (IOException e) {
                            key.channel().close();
                        }
                    }
                    selector.selectedKeys().clear();
                }
            } catch (IOException | ClosedSelectorException e) {
                // closed
            }
        }

        private void readable(SelectionKey key) throws IOException {
            SocketChannel ch = (SocketChannel) key.channel();
            Conn c = (Conn) key.attachment();
            if (ch.read(c.in) < 0) {
                ch.close();
                return;
            }
            c.in.flip();
            try {
                if (!c.open) handshake(ch, c);
                while (c.open && c.out == null) {
                    byte[] answer = nextFrame(c.in);
                    if (answer == null) break;
                    if (answer.length == 0) {   // a close: nothing more to say
                        ch.close();
                        return;
                    }
                    send(key, c, answer);
                }
            } finally {
                c.in.compact();
            }
            if (!c.in.hasRemaining()) throw new IOException("a message over " + c.in.capacity() + " bytes");
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
            String accept = Wire.WebSocket.accept(key);
            ByteBuffer answer = ByteBuffer.wrap(("HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                    + "Sec-WebSocket-Accept: " + accept + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
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
            int start = in.position(), payload = start + f.headLength() + 4;
            long length = f.payloadLength();
            if (in.remaining() < f.headLength() + 4 + length) return null;
            in.position((int) (payload + length));
            if ((f.b0() & 0x0f) == 0x8) return new byte[0];
            if (length < 10) return step;
            // {"type":"reset"... or {"type":"close"...: the 10th payload byte (unmasked with mask byte 9 % 4) tells them apart.
            int tenth = (in.get(payload + 9) ^ in.get(start + f.headLength() + 1)) & 0xff;
            return tenth == 'r' ? reset : tenth == 'c' ? new byte[0] : step;
        }

        private static void send(SelectionKey key, Conn c, byte[] answer) throws IOException {
            c.out = ByteBuffer.wrap(answer);
            flush(key);
        }

        private static void flush(SelectionKey key) throws IOException {
            Conn c = (Conn) key.attachment();
            ((SocketChannel) key.channel()).write(c.out);
            if (c.out.hasRemaining()) {
                key.interestOps(SelectionKey.OP_READ | SelectionKey.OP_WRITE);
            } else {
                c.out = null;
                if ((key.interestOps() & SelectionKey.OP_WRITE) != 0) key.interestOps(SelectionKey.OP_READ);
            }
        }
    }
}
