package dev.openagent.server.http;

import org.eclipse.jetty.http.HttpException;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpStatus;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.io.EofException;
import org.eclipse.jetty.io.QuietException;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * One HTTP request and its response, as a handler of {@link HttpService} sees it: the method,
 * path and headers, a body read with a size cap, and exactly one response. Handlers run on a
 * virtual thread and may block (reading the body, a model's forward pass, an MCP tool call).
 */
public final class HttpCall {
    /** How much of a body answered unread is read and dropped, so that the answer reaches the client. */
    static final long DRAINED = 1 << 20;

    private final Request request;
    private final Response response;
    private final Callback callback;
    private final Duration bodyTimeout;
    private boolean responded;
    private boolean bodyRead;

    /** @param bodyTimeout how long the whole body may take to arrive once the head has */
    HttpCall(Request request, Response response, Callback callback, Duration bodyTimeout) {
        this.request = request;
        this.response = response;
        this.callback = callback;
        this.bodyTimeout = bodyTimeout;
    }

    /** The request method; {@code HEAD} is answered like {@code GET} without the body. */
    public String method() { return request.getMethod(); }

    /** The request path, not decoded (routes compare it literally). */
    public String path() {
        String p = request.getHttpURI().getPath();
        return p == null || p.isEmpty() ? "/" : p;
    }

    /** The raw query string (after '?', not decoded), or null. */
    public String query() { return request.getHttpURI().getQuery(); }

    /** A request header's first value, or null. */
    public String header(String name) { return request.getHeaders().get(name); }

    /** Sets a response header (before {@link #respond}). */
    public void setHeader(String name, String value) { response.getHeaders().put(name, value); }

    /**
     * The request body, at most {@code maxBytes}, read within the body timeout (a client that stalls mid-upload holds
     * a connection for that long, then gets 408 and the connection is closed).
     *
     * @throws ApiError 413 when the body is larger (declared or streamed), 408 when it does not arrive in time, 400
     *                  when its framing is malformed
     * @throws IOException when the client went away mid-body
     */
    public byte[] body(long maxBytes) throws IOException {
        long declared = request.getHeaders().getLongField(HttpHeader.CONTENT_LENGTH);
        if (declared > maxBytes) throw tooLarge(maxBytes);
        bodyRead = true;
        ByteArrayOutputStream body = new ByteArrayOutputStream((int) Math.min(Math.max(declared, 0), 1 << 16));
        long deadline = System.nanoTime() + bodyTimeout.toNanos();
        while (true) {
            Content.Chunk chunk = request.read();
            if (chunk == null) {
                awaitContent(deadline);
                continue;
            }
            try {
                if (Content.Chunk.isFailure(chunk)) {
                    // A malformed body (a bad chunk) is the client's error; any other failure means the client went away.
                    if (chunk.getFailure() instanceof HttpException h) {
                        throw new ApiError(h.getCode(), JsonErrorHandler.code(h.getCode()), HttpStatus.getMessage(h.getCode()));
                    }
                    throw chunk.getFailure() instanceof IOException io ? io : new IOException("the request body could not be read", chunk.getFailure());
                }
                ByteBuffer bytes = chunk.getByteBuffer();
                if (body.size() + (long) bytes.remaining() > maxBytes) throw tooLarge(maxBytes);
                byte[] part = new byte[bytes.remaining()];
                bytes.get(part);
                body.write(part);
                if (chunk.isLast()) return body.toByteArray();
            } finally {
                chunk.release();
            }
        }
    }

    /** Waits until more of the body can be read, at most until {@code deadline}. */
    private void awaitContent(long deadline) throws IOException {
        CompletableFuture<Void> readable = new CompletableFuture<>();
        request.demand(() -> readable.complete(null));
        try {
            readable.get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
        } catch (TimeoutException e) {
            // The rest of the body will not be read: the connection cannot carry another request.
            response.getHeaders().put(HttpHeader.CONNECTION, "close");
            throw new ApiError(408, "request_timeout", "the request body did not arrive within " + bodyTimeout.toSeconds()
                    + " s of the request's head; send it at once");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted while reading the request body");
        } catch (ExecutionException e) {
            throw new IllegalStateException("a completed demand cannot fail", e);
        }
    }

    private static ApiError tooLarge(long maxBytes) {
        return new ApiError(413, "payload_too_large", "request body exceeds " + maxBytes + " bytes");
    }

    /** Sends the whole response (status, content type, body); a handler calls this once. */
    public void respond(int status, byte[] body, String contentType) {
        if (responded) throw new IllegalStateException("this request was already answered");
        responded = true;
        closeIfBodyUnread();
        response.setStatus(status);
        if (contentType != null) response.getHeaders().put(HttpHeader.CONTENT_TYPE, contentType);
        response.getHeaders().put(HttpHeader.CONTENT_LENGTH, (long) body.length);
        response.write(true, body.length == 0 ? null : ByteBuffer.wrap(body), callback);
    }

    /**
     * Starts a response sent in parts (a server-sent event stream): the status and content type now, then
     * {@link #send} each part as it is ready, and {@link #finish} once. Instead of {@link #respond}.
     */
    public void startStream(int status, String contentType) {
        if (responded) throw new IllegalStateException("this request was already answered");
        responded = true;
        closeIfBodyUnread();
        response.setStatus(status);
        response.getHeaders().put(HttpHeader.CONTENT_TYPE, contentType);
        response.getHeaders().put(HttpHeader.CACHE_CONTROL, "no-cache");
    }

    /**
     * A request answered before its body was read (refused by its token, route or session first) has its body read
     * and dropped first, up to {@link #DRAINED} bytes within the body timeout: a connection closed with bytes unread
     * is reset, and the client that is still sending loses the answer (a 36 KB step on an unknown session got no
     * answer at all). A larger, stalled or broken body still closes the connection after the answer, which says so,
     * so that a client does not send its next request on a connection that is going away.
     */
    private void closeIfBodyUnread() {
        long length = request.getLength();
        boolean content = length > 0 || (length < 0 && request.getHeaders().contains(HttpHeader.TRANSFER_ENCODING));
        if (!content || bodyRead) return;
        if (length <= DRAINED) {
            try {
                body(DRAINED);
                return;
            } catch (ApiError | IOException e) {
                // too large, stalled or broken: the connection closes
            }
        }
        response.getHeaders().put(HttpHeader.CONNECTION, "close");
    }

    /** Sends one part of a streamed response and waits until it is written. */
    public void send(byte[] part) throws IOException {
        Callback.Completable written = new Callback.Completable();
        response.write(false, ByteBuffer.wrap(part), written);
        try {
            written.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while writing", e);
        } catch (java.util.concurrent.ExecutionException e) {
            throw new IOException("the client is gone: " + e.getCause().getMessage(), e.getCause());
        }
    }

    /** Ends a streamed response with its last part. */
    public void finish(byte[] last) {
        response.write(true, ByteBuffer.wrap(last), callback);
    }

    boolean responded() { return responded; }

    boolean committed() { return response.isCommitted(); }

    /**
     * Ends the exchange without a response of ours (the connection is failed): the client went away, so the failure
     * is a quiet one (Jetty logs no stack trace for it).
     */
    void abort(Throwable cause) {
        if (!responded) {
            responded = true;
            callback.failed(cause instanceof QuietException ? cause : new EofException(cause));
        }
    }
}
