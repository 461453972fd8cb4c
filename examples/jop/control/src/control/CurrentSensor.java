/*
 * CurrentSensor.java -- simulated 12-bit ADC on a current shunt.
 */
package control;

/** +-32 A over 4096 codes (1/64 A per code), +-2 codes of noise. */
final class CurrentSensor extends Sensor {
    private static final int OFFSET = Fixed.of(32);
    private static final int CODES = 4096;

    CurrentSensor(Rng rng) {
        super(rng);
    }

    protected int convert(int amps) {
        int code = ((amps + OFFSET) >> 10) + rng.noise(2);
        code = Fixed.clamp(code, 0, CODES - 1);
        return (code - CODES / 2) << 10;
    }
}
