/*
 * Supervisor.java -- operating modes of the drive.
 */
package control;

/**
 * The mode state machine:
 *
 *   IDLE    --start-->            RAMP
 *   RAMP    --speed reached-->    RUN      (setpoint follows a ramp)
 *   RUN     --new target-->       RAMP
 *   RAMP/RUN --stop, at rest-->   IDLE
 *   RAMP/RUN --overcurrent-->     FAULT    (output off)
 *   FAULT   --hold time over-->   RECOVER  (unless latched: needs RESET)
 *   RECOVER --at rest-->          RAMP or IDLE
 *
 * After MAX_RETRIES faults without reaching RUN the fault latches.
 */
final class Supervisor {
    static final int IDLE = 0;
    static final int RAMP = 1;
    static final int RUN = 2;
    static final int FAULT = 3;
    static final int RECOVER = 4;
    static final int MODES = 5;

    private static final int OVERCURRENT = Fixed.of(16);
    private static final int TRIP_TICKS = 30;
    private static final int FAULT_HOLD = 300;
    private static final int MAX_RETRIES = 3;
    private static final int SETTLED = Fixed.of(2);
    private static final int AT_REST = Fixed.ONE;
    private static final int MAX_SPEED = Fixed.of(180);
    private static final int RAMP_RATE = Fixed.ratio(1, 10);   // rad/s per tick

    private final Limiter ramp = new Limiter(-MAX_SPEED, MAX_SPEED, RAMP_RATE);
    private int mode = IDLE;
    private int target;
    private int setpoint;
    private boolean running;
    private boolean latched;
    private int overTicks;
    private int hold;
    private int retries;
    private int faults;
    private int transitions;

    /** Applies a START, STOP, SET_SPEED or RESET command. */
    void command(int cmd) {
        switch (Command.op(cmd)) {
        case Command.START:
            running = true;
            break;
        case Command.STOP:
            running = false;
            break;
        case Command.SET_SPEED:
            target = Fixed.clamp(Fixed.of(Command.arg(cmd)), -MAX_SPEED, MAX_SPEED);
            break;
        case Command.RESET:
            latched = false;
            retries = 0;
            break;
        default:
            break;
        }
    }

    /** One tick with the filtered speed and current; returns the new mode. */
    int step(int speed, int current) {
        int before = mode;
        switch (mode) {
        case IDLE:
            setpoint = 0;
            if (running && !latched) {
                ramp.reset(speed);
                mode = RAMP;
            }
            break;
        case RAMP:
        case RUN:
            if (overcurrent(current)) {
                trip();
                break;
            }
            int goal = running ? target : 0;
            setpoint = ramp.process(goal);
            if (!running && setpoint == 0 && Fixed.abs(speed) < AT_REST) {
                mode = IDLE;
            } else if (mode == RAMP && setpoint == goal
                    && Fixed.abs(speed - goal) < SETTLED) {
                mode = RUN;
                retries = 0;
            } else if (mode == RUN && setpoint != goal) {
                mode = RAMP;
            }
            break;
        case FAULT:
            setpoint = 0;
            if (hold > 0) hold--;
            else if (!latched) mode = RECOVER;
            break;
        case RECOVER:
            setpoint = 0;
            if (Fixed.abs(speed) < AT_REST) {
                ramp.reset(0);
                mode = running ? RAMP : IDLE;
            }
            break;
        default:
            mode = FAULT;
            break;
        }
        if (mode != before) transitions++;
        return mode;
    }

    private boolean overcurrent(int current) {
        if (Fixed.abs(current) > OVERCURRENT) overTicks++;
        else overTicks = 0;
        return overTicks >= TRIP_TICKS;
    }

    private void trip() {
        faults++;
        overTicks = 0;
        hold = FAULT_HOLD;
        setpoint = 0;
        if (++retries > MAX_RETRIES) latched = true;
        mode = FAULT;
    }

    /** True when the power stage may drive the motor. */
    boolean enabled() {
        return mode == RAMP || mode == RUN;
    }

    int mode() {
        return mode;
    }

    int setpoint() {
        return setpoint;
    }

    int faults() {
        return faults;
    }

    int transitions() {
        return transitions;
    }
}
