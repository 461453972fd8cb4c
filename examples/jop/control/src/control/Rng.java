/*
 * Rng.java -- deterministic pseudo-random numbers for the simulation
 * (sensor noise, master station traffic).
 */
package control;

/** Marsaglia's xorshift32: period 2^32 - 1, state never 0. */
final class Rng {
    private int state;

    Rng(int seed) {
        state = seed != 0 ? seed : 0x2545F491;
    }

    int next() {
        int x = state;
        x ^= x << 13;
        x ^= x >>> 17;
        x ^= x << 5;
        state = x;
        return x;
    }

    /** Uniform in [0, bound), bound > 0 (multiply-shift, no division). */
    int below(int bound) {
        return (int) (((long) (next() >>> 1) * bound) >>> 31);
    }

    /** Uniform in [-amp, amp]. */
    int noise(int amp) {
        return below(2 * amp + 1) - amp;
    }
}
