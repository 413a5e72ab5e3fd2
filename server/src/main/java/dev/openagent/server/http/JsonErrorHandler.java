package dev.openagent.server.http;

import org.eclipse.jetty.http.HttpException;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpStatus;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.handler.ErrorHandler;
import org.eclipse.jetty.util.Callback;

import java.nio.ByteBuffer;

/**
 * Errors Jetty answers itself, before a handler runs (a malformed request line, chunked body or
 * header, headers over the limit, ambiguous lengths, a failed WebSocket upgrade): the same
 * {@code {"error": {"code", "message"}}} body as every handler error, with Jetty's short reason
 * ("Bad Chunk", "Early EOF") as the message and never an exception's text for a 5xx, and Connection: close.
 */
final class JsonErrorHandler extends ErrorHandler {
    @Override
    public boolean handle(Request request, Response response, Callback callback) {
        int status = response.getStatus();
        String message = (String) request.getAttribute(ERROR_MESSAGE);
        if (request.getAttribute(ERROR_EXCEPTION) instanceof HttpException e) {
            status = e.getCode();
            response.setStatus(status);
            if (message == null) message = e.getReason();
        }
        if (status < 400) status = 500;
        if (message == null || message.isBlank() || status >= 500) message = HttpStatus.getMessage(status);
        byte[] body = dev.openagent.json.Json.write(JsonHttp.errorBody(code(status), message)).getBytes(java.nio.charset.StandardCharsets.UTF_8);
        response.getHeaders().put(HttpHeader.CONTENT_TYPE, JsonHttp.JSON_TYPE);
        response.getHeaders().put(HttpHeader.CONTENT_LENGTH, (long) body.length);
        // Jetty closes the connection after a request it refused itself (an ambiguous path such as /a%00 too): said
        // here, a client's pool does not send its next request on that connection and lose it.
        response.getHeaders().put(HttpHeader.CONNECTION, "close");
        response.write(true, ByteBuffer.wrap(body), callback);
        return true;
    }

    static String code(int status) {
        return switch (status) {
            case 400 -> "bad_request";
            case 404 -> "not_found";
            case 405 -> "method_not_allowed";
            case 408 -> "request_timeout";
            case 413 -> "payload_too_large";
            case 414 -> "uri_too_long";
            case 415 -> "unsupported_media_type";
            case 426 -> "upgrade_required";
            case 431 -> "headers_too_large";
            case 501 -> "not_implemented";
            case 505 -> "http_version_not_supported";
            default -> status >= 500 ? "internal_error" : "bad_request";
        };
    }
}
