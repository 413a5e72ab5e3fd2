package dev.openagent.server.http;

import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;

/**
 * One HTTP request and its response, as a handler of {@link HttpService} sees it: the method,
 * path and headers, a body read with a size cap, and exactly one response. Handlers run on a
 * virtual thread and may block (reading the body, a model's forward pass, an MCP tool call).
 */
public final class HttpCall {
    private final Request request;
    private final Response response;
    private final Callback callback;
    private boolean responded;

    HttpCall(Request request, Response response, Callback callback) {
        this.request = request;
        this.response = response;
        this.callback = callback;
    }

    /** The request method; {@code HEAD} is answered like {@code GET} without the body. */
    public String method() { return request.getMethod(); }

    /** The request path, not decoded (routes compare it literally). */
    public String path() {
        String p = request.getHttpURI().getPath();
        return p == null || p.isEmpty() ? "/" : p;
    }

    /** A request header's first value, or null. */
    public String header(String name) { return request.getHeaders().get(name); }

    /** Sets a response header (before {@link #respond}). */
    public void setHeader(String name, String value) { response.getHeaders().put(name, value); }

    /**
     * The request body, at most {@code maxBytes}.
     *
     * @throws ApiError 413 when the body is larger (declared or streamed)
     */
    public byte[] body(long maxBytes) throws IOException {
        long declared = request.getHeaders().getLongField(HttpHeader.CONTENT_LENGTH);
        if (declared > maxBytes) throw tooLarge(maxBytes);
        try (InputStream in = Request.asInputStream(request)) {
            byte[] body = in.readNBytes((int) Math.min(Integer.MAX_VALUE - 8, maxBytes + 1));
            if (body.length > maxBytes) throw tooLarge(maxBytes);
            return body;
        }
    }

    private static ApiError tooLarge(long maxBytes) {
        return new ApiError(413, "payload_too_large", "request body exceeds " + maxBytes + " bytes");
    }

    /** Sends the whole response (status, content type, body); a handler calls this once. */
    public void respond(int status, byte[] body, String contentType) {
        if (responded) throw new IllegalStateException("this request was already answered");
        responded = true;
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
        response.setStatus(status);
        response.getHeaders().put(HttpHeader.CONTENT_TYPE, contentType);
        response.getHeaders().put(HttpHeader.CACHE_CONTROL, "no-cache");
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

    /** Ends the exchange without a response of ours (the connection is failed). */
    void abort(Throwable cause) {
        if (!responded) {
            responded = true;
            callback.failed(cause);
        }
    }
}
