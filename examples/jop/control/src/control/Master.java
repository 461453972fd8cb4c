/*
 * Master.java -- simulated master station and test bench.
 */
package control;

/**
 * Sends commands to the drive at pseudo-random intervals (sometimes in
 * bursts) and, as the test bench, changes the motor's load, now and then
 * to a value the motor cannot move (a jam).
 */
final class Master {
    private static final int JAM_MNM = 2500;
    private final Rng rng;
    private int wait = 20;
    private int sent;

    Master(int seed) {
        rng = new Rng(seed);
    }

    void tick(CommandQueue queue, Motor bench) {
        if (--wait > 0) return;
        wait = 150 + rng.below(900);
        int burst = rng.below(8) == 0 ? 6 : 1;
        for (int k = 0; k < burst; k++) {
            int cmd = choose(bench);
            if (cmd != 0) {
                queue.offer(cmd);
                sent++;
            }
        }
    }

    /** The next command, or 0 (NOP) when there is none this time. */
    private int choose(Motor bench) {
        switch (rng.below(16)) {
        case 0:
        case 1:
        case 2:
            return Command.pack(Command.START, 0);
        case 3:
            return Command.pack(Command.STOP, 0);
        case 4:
        case 5:
        case 6:
        case 7:
            return Command.pack(Command.SET_SPEED, 20 + rng.below(130));
        case 8:
            return Command.pack(Command.SET_SPEED, -(20 + rng.below(60)));
        case 9:
        case 10:
        case 11:
            bench.setLoad(rng.below(300));
            return 0;
        case 12:
            bench.setLoad(JAM_MNM);
            return 0;
        case 13:
            return Command.pack(Command.RESET, 0);
        case 14:
            return Command.pack(Command.SET_GAIN, 60 + rng.below(120));
        default:
            return 0;
        }
    }

    int sent() {
        return sent;
    }
}
