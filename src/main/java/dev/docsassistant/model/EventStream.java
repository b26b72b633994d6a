package dev.docsassistant.model;

import java.io.IOException;
import java.io.InputStream;
import java.util.Arrays;

/**
 * The {@code data} of each server-sent event in a byte stream, read as bytes: lines end with LF, CRLF or CR, an
 * empty line dispatches the event, its {@code data:} lines join with LF, and other fields and comments are skipped
 * (the WHATWG event-stream format). A token then costs no character decoding and no string per line, and an open
 * stream holds one small buffer instead of a reader's 24 KB; the buffer grows to the longest line, up to a limit
 * that bounds what a misbehaving server can make it hold.
 */
final class EventStream {

    private static final int INITIAL_BYTES = 1024;
    private static final byte LF = '\n';
    private static final byte CR = '\r';
    private static final byte[] DATA = {'d', 'a', 't', 'a', ':'};

    private final InputStream in;
    private final int maxLine;
    private byte[] buffer = new byte[INITIAL_BYTES];
    private int position; // unread bytes are buffer[position, limit)
    private int limit;
    private boolean afterCr; // the last line ended with CR: an LF that follows belongs to it
    private byte[] data = new byte[INITIAL_BYTES];
    private int dataLength = -1; // -1 while the event has no data line
    private boolean ended;

    /** @param maxLine the longest line accepted, in bytes; a longer one fails the read */
    EventStream(InputStream in, int maxLine) {
        this.in = in;
        this.maxLine = maxLine;
    }

    /**
     * Reads up to the end of the next event that has data; false at the end of the stream. The data is then
     * {@link #data()} from 0 to {@link #length()}, until the next call. An event cut off by the end of the stream
     * still counts.
     */
    boolean next() throws IOException {
        dataLength = -1;
        while (true) {
            int end = lineEnd();
            if (end < 0) {
                return dataLength >= 0; // the stream ended; a last line without its end was read as a line
            }
            int start = position;
            position = end < limit && buffer[end] == CR ? skipCr(end) : Math.min(end + 1, limit);
            if (end == start) {
                if (dataLength >= 0) {
                    return true;
                }
            } else if (startsWithData(start, end)) {
                int from = start + DATA.length;
                if (from < end && buffer[from] == ' ') {
                    from++;
                }
                append(from, end);
            } // comments (":…") and the event, id and retry fields
        }
    }

    byte[] data() {
        return data;
    }

    int length() {
        return dataLength;
    }

    /** Whether bytes are waiting to be read without blocking: in this buffer, or already received. */
    boolean ready() throws IOException {
        return position < limit || in.available() > 0;
    }

    /**
     * The index of the end (LF or CR) of the next line in the buffer, reading more as needed; at the end of the
     * stream, {@code limit} for a last line without its end, or -1 when nothing is left.
     */
    private int lineEnd() throws IOException {
        int scanned = 0; // bytes after position known to hold no line end
        while (true) {
            if (afterCr && position < limit) { // only after a CR that was the last byte read, so nothing is scanned
                afterCr = false;
                if (buffer[position] == LF) {
                    position++;
                }
            }
            for (int i = position + scanned; i < limit; i++) {
                if (buffer[i] == LF || buffer[i] == CR) {
                    return i;
                }
            }
            scanned = limit - position;
            if (ended || !fill()) {
                ended = true;
                return position < limit ? limit : -1;
            }
        }
    }

    private int skipCr(int end) {
        if (end + 1 < limit) {
            return buffer[end + 1] == LF ? end + 2 : end + 1;
        }
        afterCr = true; // the LF, if any, is still to come
        return end + 1;
    }

    /** Reads more bytes after the unread ones, moving them to the front or growing the buffer first; false at EOF. */
    private boolean fill() throws IOException {
        if (position > 0) {
            System.arraycopy(buffer, position, buffer, 0, limit - position);
            limit -= position;
            position = 0;
        }
        if (limit == buffer.length) {
            if (buffer.length >= maxLine) {
                throw new IOException("The model server sent a line of more than " + maxLine + " bytes");
            }
            buffer = Arrays.copyOf(buffer, Math.min(maxLine, 2 * buffer.length));
        }
        int read = in.read(buffer, limit, buffer.length - limit);
        if (read < 0) {
            return false;
        }
        limit += read;
        return true;
    }

    private boolean startsWithData(int start, int end) {
        return end - start >= DATA.length && Arrays.equals(buffer, start, start + DATA.length, DATA, 0, DATA.length);
    }

    private void append(int from, int to) throws IOException {
        int length = to - from;
        int needed = (dataLength < 0 ? 0 : dataLength + 1) + length;
        if (needed > maxLine) {
            throw new IOException("The model server sent an event of more than " + maxLine + " bytes");
        }
        if (needed > data.length) {
            data = Arrays.copyOf(data, Math.max(needed, 2 * data.length));
        }
        if (dataLength < 0) {
            dataLength = 0;
        } else {
            data[dataLength++] = LF;
        }
        System.arraycopy(buffer, from, data, dataLength, length);
        dataLength += length;
    }
}
