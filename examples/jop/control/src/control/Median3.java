/*
 * Median3.java -- three-sample median filter (spike rejection).
 */
package control;

/** Median of the last three samples: removes single-sample glitches. */
final class Median3 extends Filter {
    private int a;
    private int b;

    protected int update(int x) {
        int m = median(a, b, x);
        a = b;
        b = x;
        return m;
    }

    protected void clear(int x) {
        a = x;
        b = x;
    }

    static int median(int p, int q, int r) {
        if (p > q) {
            int t = p;
            p = q;
            q = t;
        }
        if (r <= p) return p;
        if (r >= q) return q;
        return r;
    }
}
