/*
 * Fixed.java -- Q16.16 fixed-point arithmetic for the motor controller.
 */
package control;

/**
 * Q16.16 fixed point: an int holds the value times 65536 (range about
 * -32768 .. 32767, resolution 1/65536). Products and quotients go through
 * a long and saturate instead of wrapping.
 */
final class Fixed {
    static final int ONE = 1 << 16;
    static final int HALF = 1 << 15;

    private Fixed() {
    }

    /** The Q16.16 value of an integer. */
    static int of(int n) {
        return n << 16;
    }

    /** The Q16.16 value of num/den (den > 0), for constants. */
    static int ratio(int num, int den) {
        return (int) (((long) num << 16) / den);
    }

    /** Product of two Q16.16 values, rounded to nearest, saturated. */
    static int mul(int a, int b) {
        return sat(((long) a * b + HALF) >> 16);
    }

    /** A long clamped to the int range. */
    static int sat(long v) {
        if (v > Integer.MAX_VALUE) return Integer.MAX_VALUE;
        if (v < Integer.MIN_VALUE) return Integer.MIN_VALUE;
        return (int) v;
    }

    static int clamp(int v, int lo, int hi) {
        if (v < lo) return lo;
        if (v > hi) return hi;
        return v;
    }

    static int abs(int v) {
        return v < 0 ? -v : v;
    }
}
