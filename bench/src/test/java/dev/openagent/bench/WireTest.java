package dev.openagent.bench;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** The bench client's framing: an answer is found only once all of it has arrived, however the bytes were split. */
class WireTest {
    private static final byte[] OBSERVATION = "{\"type\":\"observation\",\"data\":{\"done\":false}}".getBytes(StandardCharsets.UTF_8);

    @Test
    void aWebSocketAnswerSplitAnywhereIsReadWhole() throws IOException {
        byte[] big = new byte[70_000];   // a 64-bit length
        Arrays.fill(big, (byte) 'x');
        System.arraycopy(OBSERVATION, 0, big, 0, OBSERVATION.length - 1);
        for (byte[] payload : new byte[][] {OBSERVATION, Arrays.copyOf(big, 300), big}) {
            byte[] frame = serverFrame(payload);
            for (int cut : new int[] {1, 2, 3, frame.length / 2, frame.length - 1}) {
                Wire.Reply r = readSplit(new Wire.WebSocket("h"), frame, cut);
                assertArrayEquals(payload, r.body());
                assertEquals(200, r.status());
            }
        }
    }

    @Test
    void aWebSocketCloseFrameEndsTheConversation() {
        ByteBuffer in = ByteBuffer.wrap(new byte[] {(byte) 0x88, 2, 0x03, (byte) 0xf3});
        assertThrows(IOException.class, () -> new Wire.WebSocket("h").next(in));
    }

    @Test
    void anHttpAnswerSplitAnywhereIsReadWholeWithItsSession() throws IOException {
        byte[] response = ("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nSession-Id: abc\r\nContent-Length: " + OBSERVATION.length
                + "\r\n\r\n" + new String(OBSERVATION, StandardCharsets.UTF_8)).getBytes(StandardCharsets.UTF_8);
        for (int cut = 1; cut < response.length; cut += 7) {
            Wire.Reply r = readSplit(new Wire.Http("h"), response, cut);
            assertEquals(200, r.status());
            assertEquals("abc", r.sessionId());
            assertArrayEquals(OBSERVATION, r.body());
        }
        ByteBuffer chunked = ByteBuffer.wrap("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
        assertThrows(IOException.class, () -> new Wire.Http("h").next(chunked));
    }

    /** The first {@code cut} bytes (no answer yet), then the rest: the answer, and nothing left over. */
    private static Wire.Reply readSplit(Wire wire, byte[] bytes, int cut) throws IOException {
        ByteBuffer in = ByteBuffer.allocate(bytes.length);
        in.put(bytes, 0, cut).flip();
        assertNull(wire.next(in), "incomplete after " + cut + " bytes");
        assertEquals(0, in.position(), "nothing consumed");
        in.compact().put(bytes, cut, bytes.length - cut).flip();
        Wire.Reply r = wire.next(in);
        assertEquals(0, in.remaining());
        return r;
    }

    /** An unmasked text frame, as a server sends it. */
    private static byte[] serverFrame(byte[] payload) {
        int n = payload.length;
        ByteBuffer b = ByteBuffer.allocate(n + 10).put((byte) 0x81);
        if (n < 126) b.put((byte) n);
        else if (n < 65536) b.put((byte) 126).putShort((short) n);
        else b.put((byte) 127).putLong(n);
        b.put(payload);
        return Arrays.copyOf(b.array(), b.position());
    }
}
