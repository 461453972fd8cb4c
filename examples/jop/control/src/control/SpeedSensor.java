/*
 * SpeedSensor.java -- simulated incremental encoder speed measurement.
 */
package control;

/**
 * Speed in rad/s, quantized to 1/16 rad/s, with a little noise and a rare
 * large glitch (a missed index pulse) that the median filter must remove.
 */
final class SpeedSensor extends Sensor {
    private static final int RESOLUTION_MASK = ~0xFFF;
    private static final int NOISE = 0x3000;
    private static final int GLITCH = Fixed.of(40);
    private int glitches;

    SpeedSensor(Rng rng) {
        super(rng);
    }

    protected int convert(int speed) {
        int q = (speed & RESOLUTION_MASK) + rng.noise(NOISE);
        if (rng.below(512) == 0) {
            glitches++;
            q += GLITCH;
        }
        return q;
    }

    int glitches() {
        return glitches;
    }
}
