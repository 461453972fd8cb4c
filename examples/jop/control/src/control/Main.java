/*
 * Main.java -- entry point of the motor control example.
 */
package control;

/**
 * Runs the speed control of a simulated DC motor for a number of 1 ms
 * ticks (first argument, default DEFAULT_TICKS) while a simulated master
 * station sends commands, then prints one line of results. Integer
 * arithmetic only; the output is the same on every run.
 */
public final class Main {
    static final int DEFAULT_TICKS = 4000000;

    private Main() {
    }

    public static void main(String[] args) {
        int ticks = args.length > 0 ? parseCount(args[0], DEFAULT_TICKS) : DEFAULT_TICKS;

        CommandQueue queue = new CommandQueue(3);
        Motor motor = new Motor();
        Master master = new Master(0x1234567);
        Drive drive = new Drive(queue, 0x5EED);
        Stats stats = new Stats();
        for (int t = 0; t < ticks; t++) {
            master.tick(queue, motor);
            drive.tick(motor);
            stats.record(drive);
        }

        StringBuilder sb = new StringBuilder("control:");
        sb.append(" ticks=").append(ticks);
        sb.append(" commands=").append(master.sent());
        sb.append(" dropped=").append(queue.overflows());
        sb.append(" modes=");
        for (int m = 0; m < Supervisor.MODES; m++) {
            if (m > 0) sb.append('/');
            sb.append(stats.ticks(m));
        }
        sb.append(" transitions=").append(drive.transitions());
        sb.append(" faults=").append(drive.faults());
        sb.append(" limited=").append(drive.limited());
        sb.append(" glitches=").append(drive.glitches());
        sb.append(" err_mrad_s=").append(stats.meanErrorMilli());
        sb.append(" peak_mA=").append((int) ((long) stats.peakCurrent() * 1000 >> 16));
        sb.append(" angle_mrad=").append(motor.angle() >> 16);
        sb.append(" digest=").append(Integer.toHexString(stats.digest()));
        System.out.println(sb.toString());
    }

    /** A decimal count > 0, or dflt when s is not one. */
    static int parseCount(String s, int dflt) {
        int n = 0;
        if (s.length() == 0 || s.length() > 9) return dflt;
        for (int k = 0; k < s.length(); k++) {
            int d = s.charAt(k) - '0';
            if (d < 0 || d > 9) return dflt;
            n = n * 10 + d;
        }
        return n > 0 ? n : dflt;
    }
}
