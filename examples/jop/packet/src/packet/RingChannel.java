/*
 * RingChannel.java -- a loopback link: a byte ring buffer in memory.
 */
package packet;

/** Lossless channel over a ring buffer of 2^k bytes. */
class RingChannel extends Channel {
    private final byte[] ring;
    private final int mask;
    private int head;
    private int tail;

    RingChannel(int log2) {
        ring = new byte[1 << log2];
        mask = ring.length - 1;
    }

    int read() {
        if (head == tail) return -1;
        int b = ring[head & mask] & 0xFF;
        head++;
        return b;
    }

    int room() {
        return ring.length - (tail - head);
    }

    protected void put(byte[] wire, int len) {
        int at = tail & mask;
        int first = ring.length - at;
        if (first >= len) {
            System.arraycopy(wire, 0, ring, at, len);
        } else {
            System.arraycopy(wire, 0, ring, at, first);
            System.arraycopy(wire, first, ring, 0, len - first);
        }
        tail += len;
    }
}
