package dev.openagent.bench;

import dev.openagent.server.env.EnvServer;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Locale;
import java.util.concurrent.ThreadLocalRandom;

/**
 * How the load bench's client writes one request and finds one answer in the bytes read so far,
 * for the OpenEnv WebSocket and for the HTTP API: just enough of RFC 6455 and HTTP/1.1 for a
 * server that answers every message once (single text frames in, unmasked; {@code
 * Content-Length} responses), so that the client costs as little CPU as a client can.
 */
sealed interface Wire {
    /** What a request is for; the HTTP API needs a different route for each. */
    enum Kind { RESET, STEP, CLOSE }

    /** One answer: its HTTP status (200 for a WebSocket observation, 0 for any other message), its body, the session header. */
    record Reply(int status, byte[] body, String sessionId) {
        String text() { return new String(body, StandardCharsets.UTF_8); }
    }

    /** The bytes of one request whose body (the message's data) is {@code data}. */
    byte[] request(Kind kind, byte[] data, String session);

    /**
     * The next complete answer at the start of {@code in} (flipped for reading), consumed; null
     * when more bytes are needed (nothing is consumed then).
     *
     * @throws IOException on anything this client does not read (a close frame, chunked bodies)
     */
    Reply next(ByteBuffer in) throws IOException;

    /** Readies a connected channel (blocking) for requests: the WebSocket handshake. */
    default void open(SocketChannel channel) throws IOException {}

    /** Whether the server answers a request of this kind (a WebSocket {@code close} gets no answer). */
    default boolean answered(Kind kind) { return true; }

    /** Message payloads past this are refused as a broken server. */
    int MAX_BODY = 64 << 20;

    /** The OpenEnv WebSocket: {@code {"type": "reset"|"step"|"close", "data": ...}} in masked text frames. */
    record WebSocket(String hostHeader) implements Wire {
        private static final byte[] OBSERVATION = "{\"type\":\"observation\"".getBytes(StandardCharsets.US_ASCII);
        private static final byte[] RESET = "{\"type\":\"reset\",\"data\":".getBytes(StandardCharsets.US_ASCII);
        private static final byte[] STEP = "{\"type\":\"step\",\"data\":".getBytes(StandardCharsets.US_ASCII);
        private static final byte[] CLOSE = "{\"type\":\"close\"}".getBytes(StandardCharsets.US_ASCII);

        @Override
        public void open(SocketChannel channel) throws IOException {
            byte[] nonce = new byte[16];
            ThreadLocalRandom.current().nextBytes(nonce);
            String key = Base64.getEncoder().encodeToString(nonce);
            channel.write(ByteBuffer.wrap(("GET /ws HTTP/1.1\r\nHost: " + hostHeader + "\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                    + "Sec-WebSocket-Key: " + key + "\r\nSec-WebSocket-Version: 13\r\n\r\n").getBytes(StandardCharsets.US_ASCII)));
            // The server sends nothing after its 101 until the first message, so reading up to the blank line reads exactly the answer.
            ByteBuffer in = ByteBuffer.allocate(8192);
            String head;
            while (true) {
                if (!in.hasRemaining() || channel.read(in) < 0) throw new IOException("WebSocket handshake: no complete answer");
                head = new String(in.array(), 0, in.position(), StandardCharsets.ISO_8859_1);
                if (head.endsWith("\r\n\r\n")) break;
            }
            if (!head.startsWith("HTTP/1.1 101")) throw new IOException("WebSocket handshake refused: " + head.lines().findFirst().orElse(""));
            String accept = accept(key);
            if (head.lines().noneMatch(l -> l.toLowerCase(Locale.ROOT).startsWith("sec-websocket-accept:") && l.substring(21).strip().equals(accept))) {
                throw new IOException("WebSocket handshake: wrong Sec-WebSocket-Accept");
            }
        }

        /** The Sec-WebSocket-Accept that answers a Sec-WebSocket-Key (RFC 6455 section 4.2.2). */
        static String accept(String key) {
            try {
                return Base64.getEncoder().encodeToString(MessageDigest.getInstance("SHA-1")
                        .digest((key + "258EAFA5-E914-47DA-95CA-C5AB0DC85B11").getBytes(StandardCharsets.US_ASCII)));
            } catch (NoSuchAlgorithmException e) {
                throw new IllegalStateException(e);
            }
        }

        @Override
        public byte[] request(Kind kind, byte[] data, String session) {
            byte[] payload = switch (kind) {
                case RESET -> wrap(RESET, data);
                case STEP -> wrap(STEP, data);
                case CLOSE -> CLOSE;
            };
            return textFrame(payload, true);
        }

        /** A final text frame carrying {@code payload}: masked with a random key (a client's), or not (a server's). */
        static byte[] textFrame(byte[] payload, boolean masked) {
            int n = payload.length;
            int head = n < 126 ? 2 : n < 65536 ? 4 : 10;
            int key = masked ? 4 : 0;
            byte[] frame = new byte[head + key + n];
            frame[0] = (byte) 0x81;   // FIN, text
            int maskBit = masked ? 0x80 : 0;
            if (n < 126) {
                frame[1] = (byte) (maskBit | n);
            } else if (n < 65536) {
                frame[1] = (byte) (maskBit | 126);
                frame[2] = (byte) (n >>> 8);
                frame[3] = (byte) n;
            } else {
                frame[1] = (byte) (maskBit | 127);
                for (int i = 0; i < 8; i++) frame[2 + i] = (byte) ((long) n >>> (56 - 8 * i));
            }
            if (!masked) {
                System.arraycopy(payload, 0, frame, head, n);
                return frame;
            }
            int mask = ThreadLocalRandom.current().nextInt();
            for (int i = 0; i < 4; i++) frame[head + i] = (byte) (mask >>> (24 - 8 * i));
            for (int i = 0; i < n; i++) frame[head + 4 + i] = (byte) (payload[i] ^ frame[head + (i & 3)]);
            return frame;
        }

        @Override
        public boolean answered(Kind kind) { return kind != Kind.CLOSE; }

        @Override
        public Reply next(ByteBuffer in) throws IOException {
            FrameHead f = FrameHead.at(in);
            if (f == null) return null;
            int start = in.position(), b0 = f.b0(), head = f.headLength();
            long length = f.payloadLength();
            if (length > MAX_BODY) throw new IOException("a frame of " + length + " bytes");
            if (in.remaining() < head + length) return null;
            int opcode = b0 & 0x0f;
            if ((b0 & 0x80) == 0 || opcode != 0x1) {
                throw new IOException(opcode == 0x8 ? "the server closed the connection" : "a frame this client does not read (opcode " + opcode + ", fin " + (b0 >>> 7) + ")");
            }
            byte[] payload = new byte[(int) length];
            in.position(start + head);
            in.get(payload);
            return new Reply(startsWith(payload, OBSERVATION) ? 200 : 0, payload, null);
        }
    }

    /** The HTTP API: {@code POST /reset}, {@code /step} ({@code {"action": ...}}) and {@code /close}, the session by its header. */
    record Http(String hostHeader) implements Wire {
        private static final byte[] ACTION = "{\"action\":".getBytes(StandardCharsets.US_ASCII);
        private static final int MAX_HEAD = 64 * 1024;

        @Override
        public byte[] request(Kind kind, byte[] data, String session) {
            byte[] body = switch (kind) {
                case RESET -> data;
                case STEP -> wrap(ACTION, data);
                case CLOSE -> new byte[0];
            };
            String path = switch (kind) {
                case RESET -> "/reset";
                case STEP -> "/step";
                case CLOSE -> "/close";
            };
            StringBuilder b = new StringBuilder(160).append("POST ").append(path).append(" HTTP/1.1\r\nHost: ").append(hostHeader).append("\r\n");
            if (session != null) b.append(EnvServer.SESSION_HEADER).append(": ").append(session).append("\r\n");
            b.append("Content-Type: application/json\r\nContent-Length: ").append(body.length).append("\r\n\r\n");
            byte[] head = b.toString().getBytes(StandardCharsets.US_ASCII);
            byte[] out = Arrays.copyOf(head, head.length + body.length);
            System.arraycopy(body, 0, out, head.length, body.length);
            return out;
        }

        @Override
        public Reply next(ByteBuffer in) throws IOException {
            int start = in.position(), end = in.limit(), headEnd = -1;
            for (int i = start; i + 3 < end; i++) {
                if (in.get(i) == '\r' && in.get(i + 1) == '\n' && in.get(i + 2) == '\r' && in.get(i + 3) == '\n') {
                    headEnd = i;
                    break;
                }
            }
            if (headEnd < 0) {
                if (end - start > MAX_HEAD) throw new IOException("a response head over " + MAX_HEAD + " bytes");
                return null;
            }
            byte[] headBytes = new byte[headEnd - start];
            in.get(start, headBytes);
            String[] lines = new String(headBytes, StandardCharsets.ISO_8859_1).split("\r\n");
            if (lines[0].length() < 12 || !lines[0].startsWith("HTTP/1.1 ")) throw new IOException("not an HTTP/1.1 response: " + lines[0]);
            int status = Integer.parseInt(lines[0].substring(9, 12));
            long length = -1;
            String session = null;
            for (int i = 1; i < lines.length; i++) {
                int colon = lines[i].indexOf(':');
                if (colon < 0) continue;
                String name = lines[i].substring(0, colon).strip().toLowerCase(Locale.ROOT);
                String value = lines[i].substring(colon + 1).strip();
                switch (name) {
                    case "content-length" -> length = Long.parseLong(value);
                    case "transfer-encoding" -> throw new IOException("a response with Transfer-Encoding: " + value + " (this client reads Content-Length only)");
                    case "session-id" -> session = value;
                    default -> { }
                }
            }
            if (length < 0) throw new IOException("a response without Content-Length");
            if (length > MAX_BODY) throw new IOException("a response body of " + length + " bytes");
            int bodyStart = headEnd + 4;
            if (end - bodyStart < length) return null;
            byte[] body = new byte[(int) length];
            in.position(bodyStart);
            in.get(body);
            return new Reply(status, body, session);
        }
    }

    /**
     * The head of the WebSocket frame at the start of {@code in} (RFC 6455 section 5.2), not consumed.
     *
     * @param b0            the first byte: FIN and the opcode
     * @param masked        whether a 4-byte mask key follows the head (client frames)
     * @param headLength    bytes before the mask key or the payload: 2, 4 or 10
     * @param payloadLength the payload's length
     */
    record FrameHead(int b0, boolean masked, int headLength, long payloadLength) {
        /** The head, or null until all of it has arrived. */
        static FrameHead at(ByteBuffer in) {
            int start = in.position(), available = in.remaining();
            if (available < 2) return null;
            int b0 = in.get(start) & 0xff, b1 = in.get(start + 1) & 0xff;
            long length = b1 & 0x7f;
            int head = 2;
            if (length == 126) {
                if (available < 4) return null;
                length = ((in.get(start + 2) & 0xff) << 8) | (in.get(start + 3) & 0xff);
                head = 4;
            } else if (length == 127) {
                if (available < 10) return null;
                length = 0;
                for (int i = 0; i < 8; i++) length = (length << 8) | (in.get(start + 2 + i) & 0xff);
                head = 10;
            }
            return new FrameHead(b0, (b1 & 0x80) != 0, head, length);
        }
    }

    /** {@code prefix + data + "}"}: a JSON object wrapping an already-encoded value. */
    private static byte[] wrap(byte[] prefix, byte[] data) {
        byte[] out = Arrays.copyOf(prefix, prefix.length + data.length + 1);
        System.arraycopy(data, 0, out, prefix.length, data.length);
        out[out.length - 1] = '}';
        return out;
    }

    private static boolean startsWith(byte[] b, byte[] prefix) {
        if (b.length < prefix.length) return false;
        for (int i = 0; i < prefix.length; i++) if (b[i] != prefix[i]) return false;
        return true;
    }
}
