package dev.openagent.server.env;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;
import java.util.Locale;
import java.util.concurrent.ThreadLocalRandom;

/**
 * One WebSocket connection over a blocking socket, for tests that speak the protocol frame by
 * frame: the RFC 6455 handshake, masked text frames out (valid UTF-8 or not), text frames in
 * (continuations joined, pings answered), the server's close status. Nothing else: no
 * extensions, no TLS, no proxies.
 */
public final class WebSocketConnection implements AutoCloseable {
    private static final String GUID = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11";
    private static final int MAX_MESSAGE = 64 << 20;

    private final Socket socket;
    private final InputStream in;
    private final OutputStream out;
    private final byte[] header = new byte[14];

    /** Connects and completes the handshake on {@code path}. */
    public WebSocketConnection(InetSocketAddress address, String hostHeader, String path, int readTimeoutMillis) throws IOException {
        this(address, hostHeader, path, readTimeoutMillis, (String) null);
    }

    /** As above, with an {@code Authorization} header on the handshake (or null). */
    public WebSocketConnection(InetSocketAddress address, String hostHeader, String path, int readTimeoutMillis,
                               String authorization) throws IOException {
        this(address, hostHeader, path, readTimeoutMillis, authorization == null ? java.util.Map.of() : java.util.Map.of("Authorization", authorization));
    }

    /** As above, with any extra headers on the handshake (an Origin, say). */
    public WebSocketConnection(InetSocketAddress address, String hostHeader, String path, int readTimeoutMillis,
                               java.util.Map<String, String> headers) throws IOException {
        Socket s = new Socket();
        try {
            s.setTcpNoDelay(true);
            s.connect(address, 5_000);
            s.setSoTimeout(readTimeoutMillis);
            socket = s;
            in = new BufferedInputStream(s.getInputStream(), 1 << 16);
            out = new BufferedOutputStream(s.getOutputStream(), 1 << 14);
            handshake(hostHeader, path, headers);
        } catch (IOException | RuntimeException e) {
            s.close();
            throw e;
        }
    }

    private void handshake(String hostHeader, String path, java.util.Map<String, String> headers) throws IOException {
        byte[] nonce = new byte[16];
        ThreadLocalRandom.current().nextBytes(nonce);
        String key = Base64.getEncoder().encodeToString(nonce);
        out.write(("GET " + path + " HTTP/1.1\r\nHost: " + hostHeader + "\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                + "Sec-WebSocket-Key: " + key + "\r\nSec-WebSocket-Version: 13\r\n"
                + headers.entrySet().stream().map(h -> h.getKey() + ": " + h.getValue() + "\r\n").collect(java.util.stream.Collectors.joining())
                + "\r\n").getBytes(StandardCharsets.US_ASCII));
        out.flush();
        String status = line();
        if (!status.startsWith("HTTP/1.1 101")) throw new IOException("WebSocket handshake refused: " + status);
        String accept = null;
        for (String h = line(); !h.isEmpty(); h = line()) {
            int colon = h.indexOf(':');
            if (colon > 0 && h.substring(0, colon).strip().toLowerCase(Locale.ROOT).equals("sec-websocket-accept")) {
                accept = h.substring(colon + 1).strip();
            }
        }
        if (!expectedAccept(key).equals(accept)) throw new IOException("WebSocket handshake: wrong Sec-WebSocket-Accept");
    }

    private static String expectedAccept(String key) {
        try {
            byte[] sha1 = MessageDigest.getInstance("SHA-1").digest((key + GUID).getBytes(StandardCharsets.US_ASCII));
            return Base64.getEncoder().encodeToString(sha1);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Sends one text message (UTF-8 bytes) in one masked frame. */
    public void send(byte[] text) throws IOException {
        frame(0x1, text);
    }

    /** Sends raw bytes as one text frame, valid UTF-8 or not (for tests of the server's checks). */
    public void sendFrame(int opcode, byte[] payload) throws IOException {
        frame(opcode, payload);
    }

    private void frame(int opcode, byte[] payload) throws IOException {
        int n = payload.length, h = 0;
        header[h++] = (byte) (0x80 | opcode);
        if (n < 126) {
            header[h++] = (byte) (0x80 | n);
        } else if (n < 65536) {
            header[h++] = (byte) (0x80 | 126);
            header[h++] = (byte) (n >>> 8);
            header[h++] = (byte) n;
        } else {
            header[h++] = (byte) (0x80 | 127);
            for (int i = 7; i >= 0; i--) header[h++] = (byte) ((long) n >>> (8 * i));
        }
        int mask = ThreadLocalRandom.current().nextInt();
        for (int i = 0; i < 4; i++) header[h++] = (byte) (mask >>> (24 - 8 * i));
        out.write(header, 0, h);
        byte[] masked = new byte[n];
        for (int i = 0; i < n; i++) masked[i] = (byte) (payload[i] ^ header[h - 4 + (i & 3)]);
        out.write(masked);
        out.flush();
    }

    /**
     * The next text message.
     *
     * @throws Closed when the server closed the connection (with its status code and reason)
     */
    public byte[] receive() throws IOException {
        ByteArrayOutputStream message = null;
        while (true) {
            int b0 = in.read(), b1 = in.read();
            if (b0 < 0 || b1 < 0) throw new EOFException("the server closed the connection");
            long length = b1 & 0x7f;
            if (length == 126) length = (read() << 8) | read();
            else if (length == 127) {
                length = 0;
                for (int i = 0; i < 8; i++) length = (length << 8) | read();
            }
            if (length > MAX_MESSAGE) throw new IOException("frame of " + length + " bytes");
            byte[] payload = in.readNBytes((int) length);
            if (payload.length != length) throw new EOFException("the connection closed mid-frame");
            int opcode = b0 & 0x0f;
            switch (opcode) {
                case 0x8 -> {
                    int code = payload.length >= 2 ? ((payload[0] & 0xff) << 8) | (payload[1] & 0xff) : 1005;
                    String reason = payload.length > 2 ? new String(payload, 2, payload.length - 2, StandardCharsets.UTF_8) : "";
                    throw new Closed(code, reason);
                }
                case 0x9 -> frame(0xA, payload);
                case 0xA -> { }
                default -> {
                    if (message == null && (b0 & 0x80) != 0) return payload;   // the usual case: one frame
                    if (message == null) message = new ByteArrayOutputStream();
                    message.write(payload);
                    if (message.size() > MAX_MESSAGE) throw new IOException("message over " + MAX_MESSAGE + " bytes");
                    if ((b0 & 0x80) != 0) return message.toByteArray();
                }
            }
        }
    }

    private int read() throws IOException {
        int b = in.read();
        if (b < 0) throw new EOFException("the server closed the connection");
        return b;
    }

    private String line() throws IOException {
        StringBuilder sb = new StringBuilder();
        for (int c = read(); c != '\n'; c = read()) {
            if (c != '\r') sb.append((char) c);
            if (sb.length() > 8192) throw new IOException("handshake header line over 8192 bytes");
        }
        return sb.toString();
    }

    /** The server closed the connection with a close frame. */
    public static final class Closed extends EOFException {
        public final int code;
        public final String reason;

        Closed(int code, String reason) {
            super("the server closed the connection: " + code + " " + reason);
            this.code = code;
            this.reason = reason;
        }
    }

    /** Sends a close frame (best effort) and closes the socket. */
    @Override
    public void close() {
        try {
            frame(0x8, new byte[] {0x03, (byte) 0xe8});
        } catch (IOException ignored) {
            // the server may already be gone
        }
        try {
            socket.close();
        } catch (IOException ignored) {
            // closing a loopback socket: nothing to report
        }
    }
}
