/*
 * CommandApp.java -- the controller: sends commands to the field device
 * and collects its telemetry.
 */
package packet;

/**
 * Command message: 'C', an opcode and its operands:
 *   WRITE reg value16, READ reg, PING pattern..., BULK data...
 * It sends on about three ticks out of four and sums what the telemetry
 * channels report.
 */
final class CommandApp extends BaseApp {
    static final int KIND = 'C';
    static final int WRITE = 0x10;
    static final int READ = 0x20;
    static final int PING = 0x41;
    static final int BULK = 0x7F;
    static final int REGISTERS = 16;

    private final long[] sums = new long[TelemetryApp.MAX_CHANNELS];
    private int samples;

    CommandApp(int seed, int quota) {
        super(seed, quota);
    }

    protected boolean ready() {
        return rng.below(4) != 0;
    }

    protected int compose(byte[] buf, int at) {
        buf[at] = (byte) KIND;
        int w = at + 2;
        int r = rng.below(8);
        if (r < 3) {
            buf[at + 1] = (byte) WRITE;
            buf[w++] = (byte) rng.below(REGISTERS);
            Frame.put16(buf, w, rng.next() >>> 16);
            w += 2;
        } else if (r < 6) {
            buf[at + 1] = (byte) READ;
            buf[w++] = (byte) rng.below(REGISTERS);
        } else if (r == 6) {
            buf[at + 1] = (byte) PING;
            for (int k = 2; k < 18; k++) buf[w++] = (byte) (k * 37);
        } else {
            buf[at + 1] = (byte) BULK;
            int n = 20 + rng.below(Frame.MAX_PAYLOAD - 24);
            for (int k = 0; k < n; k++) buf[w++] = (byte) rng.next();
        }
        return w;
    }

    protected boolean consume(byte[] buf, int off, int len) {
        if (len < 2 || buf[off] != TelemetryApp.KIND) return false;
        int k = buf[off + 1] & 0xFF;
        if (k < 1 || k > TelemetryApp.MAX_CHANNELS || len != 2 + 2 * k) return false;
        for (int c = 0; c < k; c++) sums[c] += Frame.get16(buf, off + 2 + 2 * c);
        samples += k;
        return true;
    }

    /** A check value of the telemetry received. */
    int state() {
        long h = samples;
        for (int c = 0; c < sums.length; c++) h = h * 31 + sums[c];
        return (int) (h ^ (h >>> 32));
    }
}
