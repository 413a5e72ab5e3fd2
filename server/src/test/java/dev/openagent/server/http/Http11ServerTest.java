package dev.openagent.server.http;

import dev.openagent.json.Json;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The HTTP/1.1 layer over raw sockets: keep-alive, bodies, and malformed requests answered with a JSON error. */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class Http11ServerTest {
    private HttpService http;

    @BeforeEach
    void start() throws IOException {
        // Echoes the request body with its method and path.
        http = HttpService.start("127.0.0.1", 0, BearerAuth.NONE, "test", ex -> {
            byte[] body = JsonHttp.readBody(ex, 1024);
            JsonHttp.sendJson(ex, 200, Json.object().put("method", ex.getRequestMethod())
                    .put("path", ex.getRequestURI().getRawPath()).put("body", new String(body, StandardCharsets.UTF_8)));
        });
    }

    @AfterEach
    void stop() { http.close(); }

    private record Reply(int status, String head, String body) {}

    private Socket connect() throws IOException {
        Socket s = new Socket(InetAddress.getLoopbackAddress(), http.port());
        s.setSoTimeout(10_000);
        return s;
    }

    private static void send(Socket s, String request) throws IOException {
        OutputStream out = s.getOutputStream();
        out.write(request.getBytes(StandardCharsets.UTF_8));
        out.flush();
    }

    /** Reads one response with a Content-Length body (every response of this server has one). */
    private static Reply read(Socket s) throws IOException {
        InputStream in = s.getInputStream();
        ByteArrayOutputStream head = new ByteArrayOutputStream();
        while (!head.toString(StandardCharsets.ISO_8859_1).endsWith("\r\n\r\n")) {
            int c = in.read();
            if (c < 0) throw new IOException("closed after " + head);
            head.write(c);
        }
        String h = head.toString(StandardCharsets.ISO_8859_1);
        int length = 0;
        for (String line : h.split("\r\n")) {
            if (line.toLowerCase(Locale.ROOT).startsWith("content-length:")) length = Integer.parseInt(line.substring(15).strip());
        }
        return new Reply(Integer.parseInt(h.substring(9, 12)), h, new String(in.readNBytes(length), StandardCharsets.UTF_8));
    }

    private static String path(Reply r) { return Json.parse(r.body()).path("path").asText(); }

    @Test
    void oneConnectionCarriesManyRequestsIncludingPipelinedOnes() throws IOException {
        try (Socket s = connect()) {
            for (int i = 0; i < 3; i++) {
                String body = "{\"i\":" + i + "}";
                send(s, "POST /echo/" + i + " HTTP/1.1\r\nHost: x\r\nContent-Length: " + body.length() + "\r\n\r\n" + body);
                Reply r = read(s);
                assertEquals(200, r.status());
                assertEquals(body, Json.parse(r.body()).path("body").asText());
                assertEquals("/echo/" + i, path(r));
            }
            send(s, "GET /a HTTP/1.1\r\nHost: x\r\n\r\nGET /b HTTP/1.1\r\nHost: x\r\n\r\n");
            assertEquals("/a", path(read(s)));
            assertEquals("/b", path(read(s)));
        }
    }

    @Test
    void chunkedRequestBodiesAreDecoded() throws IOException {
        try (Socket s = connect()) {
            send(s, "POST /c HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n4\r\n{\"a\"\r\n3;ext=1\r\n:1}\r\n0\r\n\r\n");
            Reply r = read(s);
            assertEquals(200, r.status());
            assertEquals("{\"a\":1}", Json.parse(r.body()).path("body").asText());
            send(s, "GET /after HTTP/1.1\r\nHost: x\r\n\r\n");
            assertEquals("/after", path(read(s)));
        }
    }

    @Test
    void anOversizedBodyIsRefusedAndTheConnectionStaysUsable() throws IOException {
        try (Socket s = connect()) {
            String big = "x".repeat(5000);
            send(s, "POST /big HTTP/1.1\r\nHost: x\r\nContent-Length: " + big.length() + "\r\n\r\n" + big);
            Reply r = read(s);
            assertEquals(413, r.status());
            assertEquals("payload_too_large", Json.parse(r.body()).path("error").path("code").asText());
            // The unread body was skipped: the next request on the connection is read correctly.
            send(s, "GET /next HTTP/1.1\r\nHost: x\r\n\r\n");
            assertEquals("/next", path(read(s)));
        }
    }

    @Test
    void malformedRequestsGetAJsonErrorAndTheConnectionCloses() throws IOException {
        String[] bad = {
                "NOT A REQUEST LINE AT ALL\r\n\r\n",
                "GET /x HTTP/2.0\r\nHost: x\r\n\r\n",
                "POST /x HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\nabc",
                "POST /x HTTP/1.1\r\nHost: x\r\nContent-Length: -4\r\n\r\n",
                "GET /x HTTP/1.1\r\n Host: folded\r\n\r\n",
                "GET /x HTTP/1.1\r\nX-Big: " + "y".repeat(70_000) + "\r\n\r\n",
        };
        for (String request : bad) {
            try (Socket s = connect()) {
                send(s, request);
                Reply r = read(s);
                assertTrue(r.status() >= 400 && r.status() < 600, r.head());
                assertTrue(r.head().contains("Connection: close"), r.head());
                assertTrue(Json.parse(r.body()).path("error").path("message").asText().length() > 5, r.body());
                assertEquals(-1, s.getInputStream().read(), "the server closed the connection");
            }
        }
        try (Socket s = connect()) {
            send(s, "GET /still-serving HTTP/1.1\r\nHost: x\r\n\r\n");
            assertEquals(200, read(s).status());
        }
    }

    @Test
    void connectionCloseAndHttp10AreHonoured() throws IOException {
        try (Socket s = connect()) {
            send(s, "GET /bye HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
            Reply r = read(s);
            assertEquals(200, r.status());
            assertTrue(r.head().contains("Connection: close"), r.head());
            assertEquals(-1, s.getInputStream().read());
        }
        try (Socket s = connect()) {
            send(s, "GET /old HTTP/1.0\r\n\r\n");
            assertEquals("/old", path(read(s)));
            assertEquals(-1, s.getInputStream().read());
        }
    }
}
