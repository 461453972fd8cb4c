/*
 * Frame.java -- frame layout of the link protocol.
 */
package packet;

/**
 * A frame before byte stuffing:
 *
 *   0      type      DATA or ACK
 *   1      seq       sequence number of a DATA frame (mod 256)
 *   2      ack       next sequence number the sender expects (cumulative)
 *   3      length    payload bytes, 0..MAX_PAYLOAD
 *   4..5   payload checksum (Internet checksum, big-endian)
 *   6..    payload
 *   last 2 CRC-16 of everything before it (big-endian)
 */
final class Frame {
    static final int DATA = 1;
    static final int ACK = 2;

    static final int HEADER = 6;
    static final int TRAILER = 2;
    static final int MAX_PAYLOAD = 64;
    static final int MAX_FRAME = HEADER + MAX_PAYLOAD + TRAILER;
    /** Every byte escaped, plus the two flags. */
    static final int MAX_WIRE = 2 * MAX_FRAME + 2;

    /** Results of check(). */
    static final int OK = 0;
    static final int SHORT = 1;
    static final int BAD_CRC = 2;
    static final int BAD_LENGTH = 3;
    static final int BAD_TYPE = 4;
    static final int BAD_PAYLOAD = 5;

    static final Checksum LINK = new Crc16();
    static final Checksum PAYLOAD = new InetChecksum();

    private Frame() {
    }

    /**
     * Writes a frame with payload p[off .. off+len-1] into f; returns the
     * frame's length.
     */
    static int encode(byte[] f, int type, int seq, int ack, byte[] p, int off, int len) {
        f[0] = (byte) type;
        f[1] = (byte) seq;
        f[2] = (byte) ack;
        f[3] = (byte) len;
        put16(f, 4, PAYLOAD.compute(p, off, len));
        if (len > 0) System.arraycopy(p, off, f, HEADER, len);
        int n = HEADER + len;
        put16(f, n, LINK.compute(f, 0, n));
        return n + TRAILER;
    }

    /** Checks a received frame of n bytes; OK or the first problem found. */
    static int check(byte[] f, int n) {
        if (n < HEADER + TRAILER) return SHORT;
        if (LINK.compute(f, 0, n - TRAILER) != get16(f, n - TRAILER)) return BAD_CRC;
        if (length(f) != n - HEADER - TRAILER || length(f) > MAX_PAYLOAD) return BAD_LENGTH;
        int t = type(f);
        if (t != DATA && t != ACK) return BAD_TYPE;
        if (PAYLOAD.compute(f, HEADER, length(f)) != get16(f, 4)) return BAD_PAYLOAD;
        return OK;
    }

    static int type(byte[] f) {
        return f[0] & 0xFF;
    }

    static int seq(byte[] f) {
        return f[1] & 0xFF;
    }

    static int ack(byte[] f) {
        return f[2] & 0xFF;
    }

    static int length(byte[] f) {
        return f[3] & 0xFF;
    }

    static void put16(byte[] b, int at, int v) {
        b[at] = (byte) (v >>> 8);
        b[at + 1] = (byte) v;
    }

    static int get16(byte[] b, int at) {
        return ((b[at] & 0xFF) << 8) | (b[at + 1] & 0xFF);
    }
}
