package dev.openagent.server.http;

import com.sun.net.httpserver.Headers;
import com.sun.net.httpserver.HttpContext;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpPrincipal;
import dev.openagent.json.Json;

import java.io.BufferedOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * A small HTTP/1.1 server: one thread per connection reads a request, runs the handler on an
 * {@link HttpExchange} and writes the response, then reads the next request on the same
 * connection. Why not the JDK's {@code com.sun.net.httpserver.HttpServer}: it hands every request
 * from its selector thread to the executor and back (cancelling the selection key, switching the
 * channel to blocking and back, re-registering it and waking the selector), which cost about
 * 200 µs of CPU per request on a keep-alive connection; here a request on an open connection is
 * one read and one write. Handlers see the same {@code HttpExchange} API, so they do not change.
 *
 * <p>Bounded like the JDK server's defaults in {@link HttpService}: at most {@code maxConnections}
 * open at once (more wait in the accept queue), a request must arrive within {@code requestTimeout}
 * of its first byte, an idle keep-alive connection closes after {@code idleTimeout}, and a request
 * head is at most {@value #MAX_HEAD} bytes. Bodies come with {@code Content-Length} or chunked;
 * a request with both, or any other transfer coding, is refused (no request smuggling).
 */
final class Http11Server implements AutoCloseable {
    static final int MAX_HEAD = 64 * 1024;
    private static final long REAP_MILLIS = 500;
    private static final int MAX_HEADERS = 200;
    /** Unread request body left by a handler that we still read through to keep the connection. */
    private static final long MAX_DRAIN = 64 * 1024;
    private static final byte[] CRLF = {'\r', '\n'};
    private static final DateTimeFormatter HTTP_DATE =
            DateTimeFormatter.ofPattern("EEE, dd MMM yyyy HH:mm:ss 'GMT'", Locale.US).withZone(ZoneOffset.UTC);

    private final ServerSocket listener;
    private final Consumer<HttpExchange> handler;
    private final ThreadFactory connectionThreads;
    private final Semaphore slots;
    private final long idleTimeoutNanos;
    private final long requestTimeoutNanos;
    private final Set<Connection> open = ConcurrentHashMap.newKeySet();
    private final Thread acceptor;
    private final Thread reaper;
    private volatile boolean closing;
    private volatile String date = "";
    private volatile long dateSecond;

    /**
     * Binds and starts accepting.
     *
     * @param handler runs each request; it must send a response and close the exchange
     */
    Http11Server(InetSocketAddress address, int backlog, int maxConnections, long idleTimeoutNanos, long requestTimeoutNanos,
                 ThreadFactory connectionThreads, String name, Consumer<HttpExchange> handler) throws IOException {
        this.listener = new ServerSocket();
        try {
            listener.setReuseAddress(true);
            listener.bind(address, backlog);
        } catch (IOException e) {
            listener.close();
            throw e;
        }
        this.handler = handler;
        this.connectionThreads = connectionThreads;
        this.slots = new Semaphore(maxConnections);
        this.idleTimeoutNanos = idleTimeoutNanos;
        this.requestTimeoutNanos = requestTimeoutNanos;
        this.acceptor = Thread.ofPlatform().daemon().name(name + "-acceptor").start(this::accept);
        this.reaper = Thread.ofPlatform().daemon().name(name + "-reaper").start(this::reap);
    }

    /**
     * Closes connections whose read has waited past its deadline, once every {@value #REAP_MILLIS} ms.
     * Reads themselves wait without a timeout: a timed read costs a timer per request on the hot path.
     */
    private void reap() {
        while (!closing) {
            try {
                Thread.sleep(REAP_MILLIS);
            } catch (InterruptedException e) {
                return;
            }
            long now = System.nanoTime();
            open.forEach(c -> c.closeIfOverdue(now));
        }
    }

    InetSocketAddress address() { return (InetSocketAddress) listener.getLocalSocketAddress(); }

    private void accept() {
        while (!closing) {
            try {
                slots.acquire();
            } catch (InterruptedException e) {
                return;
            }
            Socket socket;
            try {
                socket = listener.accept();
            } catch (IOException e) {
                slots.release();
                if (closing) return;
                continue;   // a connection reset before it was accepted
            }
            Connection c = new Connection(socket);
            open.add(c);
            try {
                connectionThreads.newThread(c).start();
            } catch (RuntimeException | OutOfMemoryError e) {
                c.close();
            }
        }
    }

    /** Stops accepting, gives requests in flight up to {@code graceMillis} to finish, then closes every connection. */
    void stop(long graceMillis) {
        if (closing) return;
        closing = true;
        try {
            listener.close();
        } catch (IOException ignored) {
            // nothing more to accept either way
        }
        acceptor.interrupt();
        reaper.interrupt();
        open.forEach(Connection::closeIfIdle);
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(graceMillis);
        while (!open.isEmpty() && System.nanoTime() < deadline) {
            try {
                Thread.sleep(10);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        open.forEach(Connection::close);
    }

    @Override
    public void close() { stop(1000); }

    /** The Date header's value, formatted once a second. */
    private String date() {
        long now = System.currentTimeMillis() / 1000;
        if (now != dateSecond) {
            date = HTTP_DATE.format(Instant.ofEpochSecond(now));
            dateSecond = now;
        }
        return date;
    }

    /** A malformed request: answered with this status and a JSON error, then the connection closes. */
    private static final class BadRequest extends Exception {
        final int status;
        final String code;

        BadRequest(int status, String code, String message) {
            super(message, null, false, false);
            this.status = status;
            this.code = code;
        }
    }

    /** One client connection and its request loop. */
    private final class Connection implements Runnable {
        private final Socket socket;
        private final SocketInput in;
        private OutputStream out;
        private volatile boolean idle = true;
        private boolean closed;

        Connection(Socket socket) {
            this.socket = socket;
            this.in = new SocketInput(socket);
        }

        @Override
        public void run() {
            try {
                socket.setTcpNoDelay(true);
                out = new BufferedOutputStream(socket.getOutputStream(), 16 * 1024);
                while (!closing) {
                    idle = true;
                    in.deadline(System.nanoTime() + idleTimeoutNanos);
                    if (!in.awaitByte()) break;   // the client closed its idle connection
                    idle = false;
                    in.deadline(System.nanoTime() + requestTimeoutNanos);
                    Exchange ex;
                    try {
                        ex = readRequest();
                    } catch (BadRequest e) {
                        refuse(e);
                        break;
                    }
                    handler.accept(ex);
                    if (!ex.finish()) break;
                }
            } catch (IOException | RuntimeException e) {
                // a client that went away, timed out or sent garbage mid-body: drop the connection
            } finally {
                close();
            }
        }

        private Exchange readRequest() throws IOException, BadRequest {
            in.resetHeadCount();
            String requestLine = in.line();
            String[] parts = requestLine.split(" ", -1);
            if (parts.length != 3 || parts[0].isEmpty() || parts[1].isEmpty()) {
                throw new BadRequest(400, "bad_request", "malformed request line");
            }
            String method = parts[0], target = parts[1], version = parts[2];
            if (!version.equals("HTTP/1.1") && !version.equals("HTTP/1.0")) {
                throw new BadRequest(505, "http_version_not_supported", "only HTTP/1.1 and HTTP/1.0 are served, not " + version);
            }
            for (int i = 0; i < method.length(); i++) {
                char ch = method.charAt(i);
                if (ch < 'A' || ch > 'Z') throw new BadRequest(400, "bad_request", "malformed request method");
            }
            URI uri;
            try {
                uri = new URI(target);
            } catch (URISyntaxException e) {
                throw new BadRequest(400, "bad_request", "malformed request target: " + e.getReason());
            }
            if (uri.getRawPath() == null || uri.getRawPath().isEmpty()) throw new BadRequest(400, "bad_request", "the request target has no path");
            Headers headers = new Headers();
            int count = 0;
            for (String h = in.line(); !h.isEmpty(); h = in.line()) {
                if (++count > MAX_HEADERS) throw new BadRequest(431, "headers_too_large", "more than " + MAX_HEADERS + " request headers");
                int colon = h.indexOf(':');
                if (colon <= 0 || h.charAt(0) == ' ' || h.charAt(0) == '\t' || h.charAt(colon - 1) == ' ' || h.charAt(colon - 1) == '\t') {
                    throw new BadRequest(400, "bad_request", "malformed request header line");
                }
                headers.add(h.substring(0, colon), h.substring(colon + 1).strip());
            }
            boolean http10 = version.equals("HTTP/1.0");
            String connection = headers.getFirst("Connection");
            boolean keepAlive = http10 ? connection != null && connection.equalsIgnoreCase("keep-alive")
                    : connection == null || !connection.equalsIgnoreCase("close");
            InputStream body = body(headers);
            if ("100-continue".equalsIgnoreCase(headers.getFirst("Expect")) && !http10) {
                out.write("HTTP/1.1 100 Continue\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
                out.flush();
            }
            return new Exchange(this, method, uri, http10, keepAlive, headers, body);
        }

        private InputStream body(Headers headers) throws BadRequest {
            List<String> te = headers.get("Transfer-Encoding");
            List<String> cl = headers.get("Content-Length");
            if (te != null) {
                if (cl != null) throw new BadRequest(400, "bad_request", "a request with both Content-Length and Transfer-Encoding");
                if (te.size() != 1 || !te.getFirst().equalsIgnoreCase("chunked")) {
                    throw new BadRequest(501, "not_implemented", "only the chunked transfer coding is supported");
                }
                return new ChunkedBody(in);
            }
            if (cl == null) return new FixedBody(in, 0);
            long length = -1;
            for (String v : cl) {
                long n;
                try {
                    n = Long.parseLong(v.strip());
                } catch (NumberFormatException e) {
                    throw new BadRequest(400, "bad_request", "Content-Length is not a number");
                }
                if (n < 0 || (length >= 0 && n != length)) throw new BadRequest(400, "bad_request", "invalid Content-Length");
                length = n;
            }
            return new FixedBody(in, length);
        }

        private void refuse(BadRequest e) throws IOException {
            byte[] body = Json.MAPPER.writeValueAsBytes(JsonHttp.errorBody(e.code, e.getMessage()));
            String head = "HTTP/1.1 " + e.status + " " + reason(e.status) + "\r\nDate: " + date()
                    + "\r\nContent-Type: " + JsonHttp.JSON_TYPE + "\r\nContent-Length: " + body.length + "\r\nConnection: close\r\n\r\n";
            out.write(head.getBytes(StandardCharsets.US_ASCII));
            out.write(body);
            out.flush();
            // Read (for at most a second) what the client is still sending before closing: closing
            // with unread input resets the connection, and the client could lose this answer.
            socket.shutdownOutput();
            socket.setSoTimeout(1000);
            in.discard(256 * 1024);
        }

        void closeIfIdle() {
            if (idle) close();
        }

        void closeIfOverdue(long now) {
            if (in.overdue(now)) close();
        }

        synchronized void close() {
            if (closed) return;
            closed = true;
            try {
                socket.close();
            } catch (IOException ignored) {
                // already gone
            }
            if (open.remove(this)) slots.release();
        }
    }

    /**
     * The socket's input, buffered, with a deadline: the reaper closes a connection whose read is
     * still waiting past it, so a client that sends a request slowly (or not at all) cannot hold
     * its connection open for ever.
     */
    private static final class SocketInput {
        private final Socket socket;
        private InputStream raw;
        private final byte[] buf = new byte[16 * 1024];
        private int pos, end;
        private volatile long deadline;
        private volatile boolean reading;
        private int headBytes;
        private final StringBuilder line = new StringBuilder(128);

        SocketInput(Socket socket) { this.socket = socket; }

        void deadline(long nanos) { deadline = nanos; }

        void resetHeadCount() { headBytes = 0; }

        /** Whether a byte is available (false at a clean end of stream). */
        boolean awaitByte() throws IOException {
            return pos < end || fill();
        }

        /** Reads and drops up to {@code max} bytes, until the client closes or a read times out. */
        void discard(int max) {
            try {
                if (raw == null) raw = socket.getInputStream();
                for (int total = 0; total < max; ) {
                    int n = raw.read(buf, 0, buf.length);
                    if (n < 0) return;
                    total += n;
                }
            } catch (IOException e) {
                // timed out or reset: nothing more to read
            }
        }

        boolean overdue(long now) {
            return reading && now - deadline > 0;
        }

        private boolean fill() throws IOException {
            if (raw == null) raw = socket.getInputStream();
            if (System.nanoTime() - deadline > 0) throw new SocketTimeoutException("request timed out");
            int n;
            reading = true;
            try {
                n = raw.read(buf, 0, buf.length);
            } finally {
                reading = false;
            }
            if (n <= 0) return false;
            pos = 0;
            end = n;
            return true;
        }

        int read() throws IOException {
            if (pos == end && !fill()) return -1;
            return buf[pos++] & 0xff;
        }

        int read(byte[] b, int off, int len) throws IOException {
            if (len == 0) return 0;
            if (pos == end && !fill()) return -1;
            int n = Math.min(len, end - pos);
            System.arraycopy(buf, pos, b, off, n);
            pos += n;
            return n;
        }

        /** A line of the request head without its line ending (bytes read as ISO-8859-1, as HTTP defines). */
        String line() throws IOException, BadRequest {
            line.setLength(0);
            while (true) {
                int c = read();
                if (c < 0) throw new EOFException("the client closed the connection mid-request");
                if (++headBytes > MAX_HEAD) throw new BadRequest(431, "headers_too_large", "the request head exceeds " + MAX_HEAD + " bytes");
                if (c == '\n') break;
                line.append((char) c);
            }
            int n = line.length();
            if (n > 0 && line.charAt(n - 1) == '\r') line.setLength(n - 1);
            return line.toString();
        }
    }

    /** A request body of known length. */
    private static final class FixedBody extends InputStream {
        private final SocketInput in;
        private long left;

        FixedBody(SocketInput in, long length) {
            this.in = in;
            this.left = length;
        }

        @Override
        public int read() throws IOException {
            if (left == 0) return -1;
            int c = in.read();
            if (c < 0) throw new EOFException("the request body ended early");
            left--;
            return c;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            if (left == 0) return -1;
            int n = in.read(b, off, (int) Math.min(len, left));
            if (n < 0) throw new EOFException("the request body ended early");
            left -= n;
            return n;
        }

        /** Reads what the handler left, up to {@code max} bytes; whether the body is now consumed. */
        boolean drain(long max) throws IOException {
            if (left > max) return false;
            while (left > 0) if (skip(left) <= 0 && read() < 0) return false;
            return true;
        }
    }

    /** A chunked request body (chunk extensions and trailers are read and ignored). */
    private static final class ChunkedBody extends InputStream {
        private final SocketInput in;
        private long chunkLeft;
        private boolean eof;

        ChunkedBody(SocketInput in) { this.in = in; }

        private boolean nextChunk() throws IOException {
            if (eof) return false;
            if (chunkLeft == 0) {
                String size;
                try {
                    size = in.line();
                    int semi = size.indexOf(';');
                    chunkLeft = Long.parseLong((semi < 0 ? size : size.substring(0, semi)).strip(), 16);
                    if (chunkLeft < 0) throw new NumberFormatException();
                    if (chunkLeft == 0) {
                        while (!in.line().isEmpty()) { }   // trailers
                        eof = true;
                        return false;
                    }
                } catch (BadRequest | NumberFormatException e) {
                    throw new IOException("malformed chunked request body");
                }
            }
            return true;
        }

        @Override
        public int read() throws IOException {
            byte[] one = new byte[1];
            return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            if (len == 0) return 0;
            if (!nextChunk()) return -1;
            int n = in.read(b, off, (int) Math.min(len, chunkLeft));
            if (n < 0) throw new EOFException("the request body ended early");
            chunkLeft -= n;
            if (chunkLeft == 0) {
                try {
                    if (!in.line().isEmpty()) throw new IOException("malformed chunked request body");
                } catch (BadRequest e) {
                    throw new IOException("malformed chunked request body");
                }
            }
            return n;
        }

        boolean drain(long max) throws IOException {
            byte[] sink = new byte[4096];
            long total = 0;
            int n;
            while ((n = read(sink, 0, sink.length)) > 0) {
                total += n;
                if (total > max) return false;
            }
            return true;
        }
    }

    /** The response body: exactly the declared length, or chunked when the length was 0. */
    private static final class ResponseBody extends OutputStream {
        private final OutputStream out;
        private final boolean chunked;
        private long left;
        private boolean closed;
        private boolean complete;

        ResponseBody(OutputStream out, long length, boolean chunked) {
            this.out = out;
            this.left = length;
            this.chunked = chunked;
            this.complete = !chunked && length == 0;
        }

        @Override
        public void write(int b) throws IOException {
            write(new byte[]{(byte) b}, 0, 1);
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            if (closed) throw new IOException("the response body is closed");
            if (len == 0) return;
            if (chunked) {
                out.write(Integer.toHexString(len).getBytes(StandardCharsets.US_ASCII));
                out.write(CRLF);
                out.write(b, off, len);
                out.write(CRLF);
                return;
            }
            if (len > left) throw new IOException("the response body is longer than its Content-Length");
            out.write(b, off, len);
            left -= len;
            complete = left == 0;
        }

        @Override
        public void flush() throws IOException {
            if (!closed) out.flush();
        }

        @Override
        public void close() throws IOException {
            if (closed) return;
            closed = true;
            if (chunked) {
                out.write("0\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
                complete = true;
            }
            out.flush();
        }
    }

    /** One request and its response, as the JDK's handler API sees them. */
    private final class Exchange extends HttpExchange {
        private final Connection connection;
        private final String method;
        private final URI uri;
        private final boolean http10;
        private boolean keepAlive;
        private final Headers requestHeaders;
        private final Headers responseHeaders = new Headers();
        private final InputStream requestBody;
        private InputStream userIn;
        private OutputStream userOut;
        private ResponseBody responseBody;
        private int status = -1;
        private Map<String, Object> attributes;

        Exchange(Connection connection, String method, URI uri, boolean http10, boolean keepAlive, Headers requestHeaders,
                 InputStream requestBody) {
            this.connection = connection;
            this.method = method;
            this.uri = uri;
            this.http10 = http10;
            this.keepAlive = keepAlive;
            this.requestHeaders = requestHeaders;
            this.requestBody = requestBody;
            this.userIn = requestBody;
        }

        @Override public Headers getRequestHeaders() { return requestHeaders; }

        @Override public Headers getResponseHeaders() { return responseHeaders; }

        @Override public URI getRequestURI() { return uri; }

        @Override public String getRequestMethod() { return method; }

        /** Not used: this server has one handler for every path. */
        @Override public HttpContext getHttpContext() { return null; }

        @Override public InputStream getRequestBody() { return userIn; }

        @Override
        public OutputStream getResponseBody() {
            if (userOut == null) throw new IllegalStateException("sendResponseHeaders must be called first");
            return userOut;
        }

        @Override
        public void sendResponseHeaders(int rCode, long responseLength) throws IOException {
            if (status >= 0) throw new IOException("the response headers were already sent");
            if (rCode < 100 || rCode > 999) throw new IllegalArgumentException("status " + rCode);
            status = rCode;
            boolean noBody = rCode < 200 || rCode == 204 || rCode == 304 || method.equals("HEAD");
            long length = responseLength < 0 || noBody ? 0 : responseLength;
            boolean chunked = responseLength == 0 && !noBody;
            if (chunked && http10) keepAlive = false;   // HTTP/1.0 has no chunked coding: the body ends with the connection
            List<String> connectionHeader = responseHeaders.get("Connection");
            if (connectionHeader != null && connectionHeader.stream().anyMatch("close"::equalsIgnoreCase)) keepAlive = false;
            StringBuilder head = new StringBuilder(256).append("HTTP/1.1 ").append(rCode).append(' ').append(reason(rCode)).append("\r\n");
            head.append("Date: ").append(date()).append("\r\n");
            for (Map.Entry<String, List<String>> h : responseHeaders.entrySet()) {
                String name = h.getKey();
                if (name.equalsIgnoreCase("Content-Length") || name.equalsIgnoreCase("Transfer-Encoding")
                        || name.equalsIgnoreCase("Date") || name.equalsIgnoreCase("Connection")) continue;
                for (String v : h.getValue()) head.append(name).append(": ").append(v).append("\r\n");
            }
            if (chunked && !http10) head.append("Transfer-Encoding: chunked\r\n");
            else if (!chunked && rCode >= 200 && rCode != 204) head.append("Content-Length: ").append(length).append("\r\n");
            if (!keepAlive) head.append("Connection: close\r\n");
            else if (http10) head.append("Connection: keep-alive\r\n");
            head.append("\r\n");
            connection.out.write(head.toString().getBytes(StandardCharsets.ISO_8859_1));
            if (noBody) responseBody = new ResponseBody(OutputStream.nullOutputStream(), 0, false);
            else if (chunked && http10) responseBody = new ResponseBody(connection.out, Long.MAX_VALUE, false);
            else responseBody = new ResponseBody(connection.out, length, chunked);
            userOut = responseBody;
            if (noBody || length == 0 && !chunked) responseBody.close();
        }

        @Override public InetSocketAddress getRemoteAddress() { return (InetSocketAddress) connection.socket.getRemoteSocketAddress(); }

        @Override public int getResponseCode() { return status; }

        @Override public InetSocketAddress getLocalAddress() { return (InetSocketAddress) connection.socket.getLocalSocketAddress(); }

        @Override public String getProtocol() { return http10 ? "HTTP/1.0" : "HTTP/1.1"; }

        @Override
        public Object getAttribute(String name) { return attributes == null ? null : attributes.get(name); }

        @Override
        public void setAttribute(String name, Object value) {
            if (attributes == null) attributes = new HashMap<>();
            if (value == null) attributes.remove(name);
            else attributes.put(name, value);
        }

        @Override
        public void setStreams(InputStream i, OutputStream o) {
            if (i != null) userIn = i;
            if (o != null) userOut = o;
        }

        @Override public HttpPrincipal getPrincipal() { return null; }

        /** Ends the response (the body stream is closed and flushed). */
        @Override
        public void close() {
            try {
                if (status < 0) {
                    keepAlive = false;   // a handler that sent nothing: the connection closes, as with the JDK server
                } else {
                    responseBody.close();
                }
            } catch (IOException e) {
                keepAlive = false;
            }
        }

        /** After the handler: whether the connection can carry another request. */
        boolean finish() throws IOException {
            close();
            if (status < 0 || !keepAlive || !responseBody.complete) return false;
            return switch (requestBody) {
                case FixedBody f -> f.drain(MAX_DRAIN);
                case ChunkedBody c -> c.drain(MAX_DRAIN);
                default -> false;
            };
        }
    }

    static String reason(int status) {
        return switch (status) {
            case 100 -> "Continue";
            case 200 -> "OK";
            case 201 -> "Created";
            case 202 -> "Accepted";
            case 204 -> "No Content";
            case 304 -> "Not Modified";
            case 400 -> "Bad Request";
            case 401 -> "Unauthorized";
            case 403 -> "Forbidden";
            case 404 -> "Not Found";
            case 405 -> "Method Not Allowed";
            case 409 -> "Conflict";
            case 413 -> "Content Too Large";
            case 415 -> "Unsupported Media Type";
            case 422 -> "Unprocessable Content";
            case 429 -> "Too Many Requests";
            case 431 -> "Request Header Fields Too Large";
            case 500 -> "Internal Server Error";
            case 501 -> "Not Implemented";
            case 503 -> "Service Unavailable";
            case 505 -> "HTTP Version Not Supported";
            default -> "";
        };
    }
}
