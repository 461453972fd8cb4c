/*
 * Rng.java -- deterministic pseudo-random numbers for the simulated link
 * and message contents.
 */
package packet;

/** 32-bit linear congruential generator (Numerical Recipes constants). */
final class Rng {
    private int state;

    Rng(int seed) {
        state = seed;
    }

    /** The next 32 bits; the high ones are the better ones. */
    int next() {
        state = state * 1664525 + 1013904223;
        return state;
    }

    /** Uniform in [0, bound), bound > 0 (from the high bits, no division). */
    int below(int bound) {
        return (int) (((long) (next() >>> 1) * bound) >>> 31);
    }
}
