/*
 * Crc16.java -- CRC-16/CCITT-FALSE, the link-layer frame check.
 */
package packet;

/** Polynomial 0x1021, initial value 0xFFFF, no reflection, table driven. */
final class Crc16 implements Checksum {
    private static final int POLY = 0x1021;
    private static final int[] TABLE = makeTable();

    private static int[] makeTable() {
        int[] t = new int[256];
        for (int n = 0; n < 256; n++) {
            int c = n << 8;
            for (int k = 0; k < 8; k++) {
                c = (c & 0x8000) != 0 ? (c << 1) ^ POLY : c << 1;
            }
            t[n] = c & 0xFFFF;
        }
        return t;
    }

    public int compute(byte[] b, int off, int len) {
        int crc = 0xFFFF;
        for (int k = off; k < off + len; k++) {
            crc = ((crc << 8) ^ TABLE[((crc >>> 8) ^ b[k]) & 0xFF]) & 0xFFFF;
        }
        return crc;
    }
}
