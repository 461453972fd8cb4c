/*
 * Drive.java -- the speed control loop of one motor.
 */
package control;

/**
 * One control tick: take commands, sample and filter speed and current,
 * run the supervisor, compute feedforward + PID, limit and apply the
 * output voltage.
 */
final class Drive {
    private static final int MAX_VOLTS = Fixed.of(24);
    private static final int VOLT_SLEW = Fixed.ratio(1, 2);   // V per tick
    private static final int COMMANDS_PER_TICK = 2;

    private final CommandQueue queue;
    private final SpeedSensor speedSensor;
    private final Sensor currentSensor;
    private final Stage[] speedChain;
    private final Stage currentFilter;
    private final Pid pid;
    private final Controller[] laws;
    private final Limiter output = new Limiter(-MAX_VOLTS, MAX_VOLTS, VOLT_SLEW);
    private final Supervisor supervisor = new Supervisor();
    private int speed;
    private int current;
    private int volts;

    Drive(CommandQueue queue, int seed) {
        this.queue = queue;
        Rng rng = new Rng(seed);
        speedSensor = new SpeedSensor(rng);
        currentSensor = new CurrentSensor(rng);
        speedChain = new Stage[] {
            new Median3(), new LowPass(Fixed.ratio(1, 4)), new MovingAverage(2)
        };
        currentFilter = new LowPass(Fixed.ratio(1, 8));
        pid = new Pid(Fixed.ratio(12, 100), Fixed.ratio(2, 1000),
                Fixed.ratio(5, 100), Fixed.of(12));
        laws = new Controller[] { new Feedforward(Fixed.ratio(7, 100)), pid };
    }

    void tick(Motor plant) {
        for (int k = 0; k < COMMANDS_PER_TICK && !queue.isEmpty(); k++) {
            execute(queue.poll());
        }

        int w = speedSensor.read(plant.speed());
        for (int k = 0; k < speedChain.length; k++) w = speedChain[k].process(w);
        speed = w;
        current = currentFilter.process(currentSensor.read(plant.current()));

        boolean wasEnabled = supervisor.enabled();
        supervisor.step(speed, current);
        if (supervisor.enabled()) {
            if (!wasEnabled) restart();
            int sp = supervisor.setpoint();
            int u = 0;
            for (int k = 0; k < laws.length; k++) u += laws[k].update(sp, speed);
            volts = output.process(u);
        } else {
            output.reset(0);
            volts = 0;
        }
        plant.step(volts);
    }

    private void execute(int cmd) {
        if (Command.op(cmd) == Command.SET_GAIN) {
            pid.setProportional(Fixed.ratio(Command.arg(cmd), 1000));
        } else {
            supervisor.command(cmd);
        }
    }

    /** Bumpless start of the control laws and the output stage. */
    private void restart() {
        for (int k = 0; k < laws.length; k++) laws[k].reset();
        output.reset(0);
    }

    int mode() {
        return supervisor.mode();
    }

    int setpoint() {
        return supervisor.setpoint();
    }

    int speed() {
        return speed;
    }

    int current() {
        return current;
    }

    int volts() {
        return volts;
    }

    int faults() {
        return supervisor.faults();
    }

    int transitions() {
        return supervisor.transitions();
    }

    int limited() {
        return output.limited();
    }

    int glitches() {
        return speedSensor.glitches();
    }
}
