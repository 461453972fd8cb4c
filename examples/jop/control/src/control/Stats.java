/*
 * Stats.java -- run statistics and a digest of the drive's trajectory.
 */
package control;

/** Time per mode, tracking error, peak current and an FNV-1a style digest. */
final class Stats {
    private final int[] modeTicks = new int[Supervisor.MODES];
    private long absError;
    private int peakCurrent;
    private int digest = 0x811C9DC5;

    void record(Drive drive) {
        int mode = drive.mode();
        modeTicks[mode]++;
        if (mode == Supervisor.RUN) {
            absError += Fixed.abs(drive.setpoint() - drive.speed());
        }
        int amps = Fixed.abs(drive.current());
        if (amps > peakCurrent) peakCurrent = amps;
        digest = mix(digest, drive.volts());
        digest = mix(digest, drive.speed() ^ (mode << 28));
    }

    static int mix(int h, int v) {
        for (int k = 0; k < 4; k++) {
            h = (h ^ (v & 0xFF)) * 0x01000193;
            v >>>= 8;
        }
        return h;
    }

    int ticks(int mode) {
        return modeTicks[mode];
    }

    /** Mean absolute speed error in RUN, in 1/1000 rad/s. */
    int meanErrorMilli() {
        int run = modeTicks[Supervisor.RUN];
        if (run == 0) return 0;
        return (int) (absError * 1000 / run >> 16);
    }

    int peakCurrent() {
        return peakCurrent;
    }

    int digest() {
        return digest;
    }
}
