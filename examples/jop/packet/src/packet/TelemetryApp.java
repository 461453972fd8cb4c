/*
 * TelemetryApp.java -- the field device: sends sensor telemetry and
 * executes the commands it receives.
 */
package packet;

/**
 * Telemetry message: 'T', channel count k (1..MAX_CHANNELS), then k 16-bit
 * samples of slowly drifting simulated sensor channels.
 * Commands it understands (see CommandApp): WRITE, READ, PING and BULK.
 */
final class TelemetryApp extends BaseApp {
    static final int KIND = 'T';
    static final int MAX_CHANNELS = 28;

    private final int[] channels = new int[MAX_CHANNELS];
    private final int[] registers = new int[CommandApp.REGISTERS];
    private int reads;
    private int pings;
    private int bulkSum;

    TelemetryApp(int seed, int quota) {
        super(seed, quota);
        for (int c = 0; c < MAX_CHANNELS; c++) channels[c] = 1000 * c;
    }

    protected boolean ready() {
        return true;
    }

    protected int compose(byte[] buf, int at) {
        int k = 1 + rng.below(MAX_CHANNELS);
        buf[at] = (byte) KIND;
        buf[at + 1] = (byte) k;
        int w = at + 2;
        for (int c = 0; c < k; c++) {
            channels[c] = (channels[c] + rng.below(65) - 32) & 0xFFFF;
            Frame.put16(buf, w, channels[c]);
            w += 2;
        }
        return w;
    }

    protected boolean consume(byte[] buf, int off, int len) {
        if (len < 2 || buf[off] != CommandApp.KIND) return false;
        int op = buf[off + 1] & 0xFF;
        switch (op) {
        case CommandApp.WRITE:
            if (len != 5) return false;
            registers[buf[off + 2] & (CommandApp.REGISTERS - 1)] = Frame.get16(buf, off + 3);
            return true;
        case CommandApp.READ:
            if (len != 3) return false;
            reads += registers[buf[off + 2] & (CommandApp.REGISTERS - 1)];
            return true;
        case CommandApp.PING:
            for (int k = 2; k < len; k++) {
                if ((buf[off + k] & 0xFF) != ((k * 37) & 0xFF)) return false;
            }
            pings++;
            return true;
        case CommandApp.BULK:
            for (int k = 2; k < len; k++) bulkSum += buf[off + k] & 0xFF;
            return true;
        default:
            return false;
        }
    }

    /** A check value of the state that received commands built up. */
    int state() {
        int h = reads * 31 + pings;
        for (int r = 0; r < registers.length; r++) h = h * 31 + registers[r];
        return h * 31 + bulkSum;
    }
}
