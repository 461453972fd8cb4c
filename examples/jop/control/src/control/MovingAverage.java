/*
 * MovingAverage.java -- boxcar filter over the last 2^k samples.
 */
package control;

/** Mean of the last 2^k samples, kept as a running sum. */
final class MovingAverage extends Filter {
    private final int[] window;
    private final int shift;
    private int pos;
    private long sum;

    MovingAverage(int log2) {
        window = new int[1 << log2];
        shift = log2;
    }

    protected int update(int x) {
        sum += x - window[pos];
        window[pos] = x;
        pos = (pos + 1) & (window.length - 1);
        return (int) (sum >> shift);
    }

    protected void clear(int x) {
        for (int k = 0; k < window.length; k++) window[k] = x;
        sum = (long) x << shift;
        pos = 0;
    }
}
