/*
 * Framer.java -- HDLC-style byte stuffing (RFC 1662 framing).
 */
package packet;

/**
 * A frame goes on the wire as FLAG, the frame with FLAG and ESC bytes
 * replaced by ESC, byte ^ 0x20, and FLAG. A flag therefore only ever
 * marks a frame boundary, and the receiver resynchronizes at the next one.
 */
final class Framer {
    static final int FLAG = 0x7E;
    static final int ESC = 0x7D;
    static final int XOR = 0x20;

    private Framer() {
    }

    /** Stuffs f[0 .. n-1] into wire; returns the wire length. */
    static int stuff(byte[] f, int n, byte[] wire) {
        int w = 0;
        wire[w++] = (byte) FLAG;
        for (int k = 0; k < n; k++) {
            int b = f[k] & 0xFF;
            if (b == FLAG || b == ESC) {
                wire[w++] = (byte) ESC;
                wire[w++] = (byte) (b ^ XOR);
            } else {
                wire[w++] = (byte) b;
            }
        }
        wire[w++] = (byte) FLAG;
        return w;
    }
}
