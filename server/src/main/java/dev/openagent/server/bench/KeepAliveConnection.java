package dev.openagent.server.bench;

import dev.openagent.server.env.EnvServer;

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
import java.util.Locale;

/**
 * One HTTP/1.1 keep-alive connection over a blocking socket, for the load bench only: a request
 * is a write of prebuilt header bytes and the body, a response is a status line, headers and a
 * body of {@code Content-Length} bytes (or chunked). Nothing else: no redirects, no TLS, no
 * proxies. The JDK {@code HttpClient} costs several hundred microseconds of CPU per request
 * (selector thread hand-offs, futures, header maps); the bench measures the server, so its client
 * should cost as little as a client can.
 */
final class KeepAliveConnection implements AutoCloseable {
    /** A response: its status and its body. */
    record Response(int status, byte[] body, String sessionId) {
        String text() { return new String(body, StandardCharsets.UTF_8); }
    }

    private static final int MAX_HEADER_LINE = 8192;
    private static final int MAX_BODY = 64 << 20;

    private final InetSocketAddress address;
    private final String hostHeader;
    private final int readTimeoutMillis;
    private Socket socket;
    private InputStream in;
    private OutputStream out;
    private final StringBuilder line = new StringBuilder(128);

    KeepAliveConnection(InetSocketAddress address, String hostHeader, int readTimeoutMillis) {
        this.address = address;
        this.hostHeader = hostHeader;
        this.readTimeoutMillis = readTimeoutMillis;
    }

    /**
     * The bytes of a request's head: request line, Host, the session header (when {@code session}
     * is not null), Content-Type and Content-Length (when a body is sent).
     */
    byte[] head(String method, String path, int bodyLength, String session) {
        StringBuilder b = new StringBuilder(160).append(method).append(' ').append(path).append(" HTTP/1.1\r\n")
                .append("Host: ").append(hostHeader).append("\r\n");
        if (session != null) b.append(EnvServer.SESSION_HEADER).append(": ").append(session).append("\r\n");
        if (bodyLength >= 0) {
            b.append("Content-Type: application/json\r\nContent-Length: ").append(bodyLength).append("\r\n");
        }
        return b.append("\r\n").toString().getBytes(StandardCharsets.US_ASCII);
    }

    /**
     * Sends one request and reads its response; reconnects once when the server had closed an
     * idle connection before the request was written.
     */
    Response exchange(byte[] head, byte[] body) throws IOException {
        boolean fresh = socket == null;
        try {
            return send(head, body);
        } catch (IOException e) {
            if (fresh) throw e;
            close();
            return send(head, body);
        }
    }

    private Response send(byte[] head, byte[] body) throws IOException {
        if (socket == null) connect();
        out.write(head);
        if (body != null) out.write(body);
        out.flush();
        return read();
    }

    private void connect() throws IOException {
        Socket s = new Socket();
        try {
            s.setTcpNoDelay(true);
            s.connect(address, 5_000);
            s.setSoTimeout(readTimeoutMillis);
        } catch (IOException e) {
            s.close();
            throw e;
        }
        socket = s;
        in = new BufferedInputStream(s.getInputStream(), 1 << 16);
        out = new BufferedOutputStream(s.getOutputStream(), 1 << 14);
    }

    private Response read() throws IOException {
        String status = readLine();
        // "HTTP/1.1 200 OK"
        if (status.length() < 12 || !status.startsWith("HTTP/1.")) throw new IOException("not an HTTP response: " + status);
        int code = Integer.parseInt(status.substring(9, 12));
        long length = -1;
        boolean chunked = false, close = status.startsWith("HTTP/1.0");
        String session = null;
        for (String h = readLine(); !h.isEmpty(); h = readLine()) {
            int colon = h.indexOf(':');
            if (colon < 0) continue;
            String name = h.substring(0, colon).strip().toLowerCase(Locale.ROOT);
            String value = h.substring(colon + 1).strip();
            switch (name) {
                case "content-length" -> length = Long.parseLong(value);
                case "transfer-encoding" -> chunked = value.toLowerCase(Locale.ROOT).contains("chunked");
                case "connection" -> close = value.equalsIgnoreCase("close");
                case "session-id" -> session = value;
                default -> { }
            }
        }
        byte[] body;
        if (chunked) body = readChunked();
        else if (length >= 0) body = readFully(length);
        else if (code == 204 || code == 304 || code / 100 == 1) body = new byte[0];
        else {
            body = in.readAllBytes();   // no length: the body ends with the connection
            close = true;
        }
        if (close) close();
        return new Response(code, body, session);
    }

    private byte[] readFully(long length) throws IOException {
        if (length > MAX_BODY) throw new IOException("response body of " + length + " bytes");
        byte[] b = in.readNBytes((int) length);
        if (b.length != length) throw new EOFException("the connection closed " + (length - b.length) + " bytes before the body's end");
        return b;
    }

    private byte[] readChunked() throws IOException {
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        while (true) {
            String size = readLine();
            int semi = size.indexOf(';');
            int n = Integer.parseInt((semi < 0 ? size : size.substring(0, semi)).strip(), 16);
            if (n == 0) break;
            if (body.size() + n > MAX_BODY) throw new IOException("chunked response body over " + MAX_BODY + " bytes");
            body.write(readFully(n));
            readLine();
        }
        while (!readLine().isEmpty()) { }   // trailers
        return body.toByteArray();
    }

    /** One header line without its CRLF (the bytes are ASCII in a status line and the headers read here). */
    private String readLine() throws IOException {
        line.setLength(0);
        while (true) {
            int c = in.read();
            if (c < 0) throw new EOFException("the server closed the connection");
            if (c == '\n') break;
            if (c != '\r') line.append((char) c);
            if (line.length() > MAX_HEADER_LINE) throw new IOException("response header line over " + MAX_HEADER_LINE + " bytes");
        }
        return line.toString();
    }

    @Override
    public void close() {
        if (socket == null) return;
        try {
            socket.close();
        } catch (IOException ignored) {
            // closing a loopback socket: nothing to report
        }
        socket = null;
        in = null;
        out = null;
    }
}
