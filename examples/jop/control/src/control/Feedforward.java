/*
 * Feedforward.java -- model-based feedforward of the speed loop.
 */
package control;

/** The voltage the motor needs at the setpoint speed, from its EMF constant. */
final class Feedforward implements Controller {
    private final int gain;

    Feedforward(int gain) {
        this.gain = gain;
    }

    public int update(int sp, int pv) {
        return Fixed.mul(gain, sp);
    }

    public void reset() {
    }
}
