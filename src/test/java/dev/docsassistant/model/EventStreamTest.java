package dev.docsassistant.model;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Server-sent events as the WHATWG format defines them, however the bytes are cut by the network. */
class EventStreamTest {

    @Test
    void eachEventsDataIsReadWithItsLinesJoined() throws IOException {
        String stream = "data: {\"a\":1}\n\n"
                + ": a comment\nevent: chunk\nid: 7\nretry: 100\ndata:{\"b\":2}\n\n"
                + "data: first\ndata:  second\n\n"
                + "event: ping\n\n" // no data: not an event to read
                + "data\n\n" // a field name without a colon
                + "data: [DONE]\n\n";

        assertEquals(List.of("{\"a\":1}", "{\"b\":2}", "first\n second", "[DONE]"), events(stream, 1024));
    }

    @Test
    void linesMayEndWithLfCrlfOrCrEvenWhenTheBytesArriveOneByOne() throws IOException {
        String stream = "data: one\r\n\r\ndata: two\r\rdata: three\n\ndata: four\r\n\r\n";
        List<String> expected = List.of("one", "two", "three", "four");

        assertEquals(expected, events(stream, 1024));
        assertEquals(expected, read(new OneByteAtATime(stream), 1024), "a CR at the end of a read, its LF in the next");
    }

    @Test
    void anEventCutOffByTheEndOfTheStreamStillCounts() throws IOException {
        assertEquals(List.of("whole", "cut"), events("data: whole\n\ndata: cut", 1024));
        assertEquals(List.of(), events("", 1024));
        assertEquals(List.of(), events(": only a comment\n", 1024));
    }

    @Test
    void aLineLongerThanTheBufferGrowsItUpToTheLimit() throws IOException {
        String token = "x".repeat(5000);

        assertEquals(List.of(token, "next"), events("data: " + token + "\n\ndata: next\n\n", 8192));
        IOException tooLong = assertThrows(IOException.class, () -> events("data: " + token + "\n\n", 4096));
        assertTrue(tooLong.getMessage().contains("4096"), tooLong.getMessage());
    }

    @Test
    void readyTellsWhetherTheNextEventIsAlreadyHere() throws IOException {
        EventStream events = new EventStream(bytes("data: one\n\ndata: two\n\n"), 1024);
        assertTrue(events.next());
        assertTrue(events.ready(), "the second event was read with the first");
        assertTrue(events.next());
        assertFalse(events.ready());
        assertFalse(events.next());
    }

    private static List<String> events(String stream, int maxLine) throws IOException {
        return read(bytes(stream), maxLine);
    }

    private static List<String> read(InputStream in, int maxLine) throws IOException {
        EventStream events = new EventStream(in, maxLine);
        List<String> read = new ArrayList<>();
        while (events.next()) {
            read.add(new String(events.data(), 0, events.length(), StandardCharsets.UTF_8));
        }
        return read;
    }

    private static InputStream bytes(String text) {
        return new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8));
    }

    /** A network that delivers one byte per read. */
    private static final class OneByteAtATime extends InputStream {
        private final InputStream in;

        OneByteAtATime(String text) {
            this.in = bytes(text);
        }

        @Override
        public int read() throws IOException {
            return in.read();
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            return len == 0 ? 0 : in.read(b, off, 1);
        }
    }
}
