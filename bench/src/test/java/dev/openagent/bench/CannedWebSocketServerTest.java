package dev.openagent.bench;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

/** The floor's canned WebSocket loop answers each message it reads, in order, whatever the socket buffers hold. */
class CannedWebSocketServerTest {
    private static final byte[] RESET = "{\"type\":\"observation\",\"data\":{\"reset\":true}}".getBytes(StandardCharsets.US_ASCII);

    @Test
    @Timeout(value = 30, unit = TimeUnit.SECONDS)
    void answersEveryBufferedMessageInOrderEvenWhenAnAnswerWaitsForTheSocket() throws Exception {
        // A step answer far larger than a loopback socket buffer: the loop must wait for the socket to drain,
        // and then still answer the message that arrived meanwhile.
        byte[] step = ("{\"type\":\"observation\",\"data\":\"" + "x".repeat(4 << 20) + "\"}").getBytes(StandardCharsets.US_ASCII);
        try (CannedWebSocketServer server = new CannedWebSocketServer(RESET, step);
             SocketChannel ch = SocketChannel.open(new InetSocketAddress("127.0.0.1", server.port()))) {
            Wire.WebSocket wire = new Wire.WebSocket("127.0.0.1:" + server.port());
            wire.open(ch);
            byte[] reset = wire.request(Wire.Kind.RESET, "{\"task\":1}".getBytes(StandardCharsets.US_ASCII), null);
            byte[] action = wire.request(Wire.Kind.STEP, "{\"type\":\"answer\",\"text\":\"x\"}".getBytes(StandardCharsets.US_ASCII), null);
            // All three in one write: the loop reads them together.
            ch.write(ByteBuffer.wrap(concat(reset, action, action)));
            List<byte[]> answers = read(ch, wire, 3);
            assertArrayEquals(RESET, answers.get(0));
            assertArrayEquals(step, answers.get(1));
            assertArrayEquals(step, answers.get(2));
            // A close message ends the connection.
            ch.write(ByteBuffer.wrap(wire.request(Wire.Kind.CLOSE, new byte[0], null)));
            assertEquals(-1, ch.read(ByteBuffer.allocate(16)));
        }
    }

    private static List<byte[]> read(SocketChannel ch, Wire wire, int n) throws IOException {
        List<byte[]> out = new ArrayList<>();
        ByteBuffer in = ByteBuffer.allocate(16 << 20);
        while (out.size() < n) {
            if (ch.read(in) < 0) throw new IOException("closed after " + out.size() + " answers");
            in.flip();
            for (Wire.Reply r; out.size() < n && (r = wire.next(in)) != null; ) out.add(r.body());
            in.compact();
        }
        return out;
    }

    private static byte[] concat(byte[]... parts) {
        ByteBuffer b = ByteBuffer.allocate(java.util.Arrays.stream(parts).mapToInt(p -> p.length).sum());
        for (byte[] p : parts) b.put(p);
        return b.array();
    }
}
