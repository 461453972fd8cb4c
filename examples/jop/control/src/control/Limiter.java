/*
 * Limiter.java -- magnitude and slew-rate limiter.
 */
package control;

/**
 * Clamps its input to [lo, hi] and lets the output change by at most
 * slew per tick. Used on the output voltage and as the setpoint ramp.
 */
final class Limiter implements Stage {
    private final int lo;
    private final int hi;
    private final int slew;
    private int last;
    private int limited;

    Limiter(int lo, int hi, int slew) {
        this.lo = lo;
        this.hi = hi;
        this.slew = slew;
    }

    public int process(int x) {
        int y = Fixed.clamp(x, lo, hi);
        int d = y - last;
        if (d > slew) y = last + slew;
        else if (d < -slew) y = last - slew;
        if (y != x) limited++;
        last = y;
        return y;
    }

    public void reset(int x) {
        last = Fixed.clamp(x, lo, hi);
    }

    /** Ticks on which the output differed from the input. */
    int limited() {
        return limited;
    }
}
