/*
 * Sensor.java -- base class of the simulated sensors.
 */
package control;

/** Turns the true physical value into what the hardware would report. */
abstract class Sensor {
    protected final Rng rng;

    Sensor(Rng rng) {
        this.rng = rng;
    }

    /** One reading of the true value (both Q16.16). */
    int read(int truth) {
        return convert(truth);
    }

    /** Quantization, noise and faults of the particular sensor. */
    protected abstract int convert(int truth);
}
