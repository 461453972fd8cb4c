/*
 * Channel.java -- one direction of a serial link.
 */
package packet;

/** Frames go in as wire bytes; the far end reads them byte by byte. */
abstract class Channel {
    private int frames;
    private int bytes;

    /**
     * Queues one frame of wire bytes; false (nothing queued) when there is
     * no room for it now.
     */
    boolean send(byte[] wire, int len) {
        if (room() < len) return false;
        put(wire, len);
        frames++;
        bytes += len;
        return true;
    }

    /** The next byte (0..255), or -1 when none is waiting. */
    abstract int read();

    /** Free space in bytes. */
    abstract int room();

    protected abstract void put(byte[] wire, int len);

    int frames() {
        return frames;
    }

    int bytes() {
        return bytes;
    }
}
