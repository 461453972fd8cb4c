/*
 * Deframer.java -- receive state machine undoing the byte stuffing.
 */
package packet;

/**
 * States: HUNT (waiting for a flag), DATA (collecting frame bytes), ESCAPE
 * (after ESC). A flag ends the frame collected so far and starts the next.
 */
final class Deframer {
    static final int HUNT = 0;
    static final int DATA = 1;
    static final int ESCAPE = 2;

    private final byte[] frame = new byte[Frame.MAX_FRAME];
    private int state = HUNT;
    private int len;
    private int overruns;
    private int aborts;

    /**
     * Feeds one wire byte. Returns the length of a frame that is now
     * complete in buffer(), or 0.
     */
    int feed(int b) {
        switch (state) {
        case HUNT:
            if (b == Framer.FLAG) {
                state = DATA;
                len = 0;
            }
            return 0;
        case DATA:
            if (b == Framer.FLAG) {
                int n = len;
                len = 0;
                return n;
            }
            if (b == Framer.ESC) {
                state = ESCAPE;
                return 0;
            }
            store(b);
            return 0;
        case ESCAPE:
            if (b == Framer.FLAG) {
                // ESC FLAG aborts the frame; the flag opens the next one
                aborts++;
                state = DATA;
                len = 0;
                return 0;
            }
            state = DATA;
            store(b ^ Framer.XOR);
            return 0;
        default:
            state = HUNT;
            return 0;
        }
    }

    private void store(int b) {
        if (len == frame.length) {
            overruns++;
            state = HUNT;
            len = 0;
            return;
        }
        frame[len++] = (byte) b;
    }

    byte[] buffer() {
        return frame;
    }

    int overruns() {
        return overruns;
    }

    int aborts() {
        return aborts;
    }
}
