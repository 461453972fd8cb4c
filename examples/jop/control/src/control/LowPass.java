/*
 * LowPass.java -- first-order IIR low-pass filter.
 */
package control;

/** y += alpha * (x - y), alpha in Q16.16 (0 < alpha <= 1). */
final class LowPass extends Filter {
    private final int alpha;
    private int y;

    LowPass(int alpha) {
        this.alpha = alpha;
    }

    protected int update(int x) {
        y += Fixed.mul(alpha, x - y);
        return y;
    }

    protected void clear(int x) {
        y = x;
    }
}
