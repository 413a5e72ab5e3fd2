package dev.openagent.server.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.openagent.json.Json;
import dev.openagent.server.http.JsonHttp;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.concurrent.CountDownLatch;

/**
 * Between stdin/stdout and the MCP SDK's stdio transport: each line the client sends is checked by
 * {@link JsonRpcCheck} first, and a malformed one is answered here with its JSON-RPC error
 * instead of reaching the SDK (which answers {@code tools/call} without params with a
 * NullPointerException's text, and stops reading altogether after a line that is not JSON).
 * Lines out are written whole under one lock, so an answer from here never splits one of the
 * SDK's. Counts down {@code eof} when stdin ends.
 */
public final class StdioGate {
    private final Object writeLock = new Object();
    private final OutputStream out;
    public final InputStream input;
    public final OutputStream output;

    public StdioGate(InputStream in, OutputStream out, CountDownLatch eof) {
        this.out = out;
        this.input = new CheckedLines(in, eof);
        this.output = new WholeLines();
    }

    private void writeLine(byte[] line, int length) throws IOException {
        synchronized (writeLock) {
            out.write(line, 0, length);
            out.flush();
        }
    }

    /** The client's lines that pass the check, as one stream. */
    private final class CheckedLines extends InputStream {
        private final InputStream in;
        private final CountDownLatch eof;
        private final ByteArrayOutputStream line = new ByteArrayOutputStream();
        private byte[] pending = new byte[0];
        private int pos;

        CheckedLines(InputStream in, CountDownLatch eof) {
            this.in = in;
            this.eof = eof;
        }

        /** Reads lines until one passes the check (it becomes pending); false at the end of stdin. */
        private boolean fill() throws IOException {
            while (pos >= pending.length) {
                line.reset();
                int c;
                try {
                    while ((c = in.read()) >= 0 && c != '\n') line.write(c);
                } catch (IOException e) {
                    eof.countDown();
                    throw e;
                }
                if (c < 0 && line.size() == 0) {
                    eof.countDown();
                    return false;
                }
                byte[] bytes = line.toByteArray();
                if (isBlank(bytes)) continue;
                JsonRpcCheck.Refusal refused = JsonRpcCheck.check(bytes);
                if (refused != null) {
                    byte[] answer = (Json.write(refused.response()) + "\n").getBytes(StandardCharsets.UTF_8);
                    writeLine(answer, answer.length);
                    continue;
                }
                pending = Arrays.copyOf(bytes, bytes.length + 1);
                pending[bytes.length] = '\n';
                pos = 0;
            }
            return true;
        }

        @Override
        public int read() throws IOException {
            if (!fill()) return -1;
            return pending[pos++] & 0xff;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            if (len == 0) return 0;
            if (!fill()) return -1;
            int n = Math.min(len, pending.length - pos);
            System.arraycopy(pending, pos, b, off, n);
            pos += n;
            return n;
        }
    }

    private static boolean isBlank(byte[] b) {
        for (byte x : b) if (x != ' ' && x != '\t' && x != '\r') return false;
        return true;
    }

    /**
     * An answer line whose error message quotes what the client sent as it is (the SDK's "Method not found: " and the
     * method, line breaks included), with the message made one line, as every message of ours is; other lines as they are.
     */
    static byte[] oneLineError(byte[] line) {
        String text = new String(line, StandardCharsets.UTF_8);
        if (!text.contains("\"error\"")) return line;
        try {
            JsonNode answer = Json.MAPPER.readTree(text);
            JsonNode message = answer.path("error").path("message");
            if (!message.isTextual()) return line;
            String fixed = JsonHttp.oneLine(message.asText());
            if (fixed.equals(message.asText())) return line;
            ((ObjectNode) answer.get("error")).put("message", fixed);
            return (Json.write(answer) + "\n").getBytes(StandardCharsets.UTF_8);
        } catch (IOException | RuntimeException e) {
            return line;
        }
    }

    /** The SDK's output, written out a whole line at a time. */
    private final class WholeLines extends OutputStream {
        private final ByteArrayOutputStream buffer = new ByteArrayOutputStream();

        @Override
        public synchronized void write(int b) throws IOException {
            buffer.write(b);
            if (b == '\n') drain();
        }

        @Override
        public synchronized void write(byte[] b, int off, int len) throws IOException {
            buffer.write(b, off, len);
            for (int i = off; i < off + len; i++) {
                if (b[i] == '\n') {
                    drain();
                    return;
                }
            }
        }

        /** Writes every complete line buffered so far. */
        private void drain() throws IOException {
            byte[] all = buffer.toByteArray();
            int start = 0;
            for (int i = 0; i < all.length; i++) {
                if (all[i] != '\n') continue;
                byte[] line = oneLineError(Arrays.copyOfRange(all, start, i + 1));
                writeLine(line, line.length);
                start = i + 1;
            }
            if (start == 0) return;
            buffer.reset();
            buffer.write(all, start, all.length - start);
        }

        @Override
        public synchronized void flush() throws IOException {
            drain();
        }
    }
}
