/*
 * Throwing.java -- JOP cross-profiling fixture: exceptions thrown and
 * caught in the workload.
 *
 * A custom checked exception thrown three calls deep and caught by the
 * caller of the chain (passing a try/finally on the way), a method with
 * try/finally that returns from inside the try, an ArithmeticException
 * from an integer division by zero caught in the same method, an
 * ArrayIndexOutOfBoundsException caught one frame up and a
 * NullPointerException from a call on a null receiver, mixed with normal
 * work. Deterministic, no floating point. Prints one line.
 */
package jopthrow;

/** The checked exception of the call chain; carries a value. */
final class LimitException extends Exception {
    private static final long serialVersionUID = 1L;
    final int value;

    LimitException(int value) {
        super("limit");
        this.value = value;
    }
}

/** A receiver that is sometimes null. */
final class Cell {
    private int value;

    Cell(int value) {
        this.value = value;
    }

    int next() {
        value = value * 5 + 1;
        return value & 0xFFFF;
    }
}

public final class Throwing {
    static final int DEFAULT_ROUNDS = 4000;

    private int checked;
    private int finallies;
    private int divisions;
    private int bounds;
    private int nulls;
    private long sum;
    private final int[] data = new int[16];
    private final Cell cell = new Cell(7);

    public static void main(String[] args) {
        int rounds = DEFAULT_ROUNDS;
        if (args.length > 0) rounds = parse(args[0], rounds);
        Throwing t = new Throwing();
        for (int r = 0; r < rounds; r++) t.round(r);
        StringBuilder sb = new StringBuilder("throwing:");
        sb.append(" rounds=").append(rounds);
        sb.append(" checked=").append(t.checked);
        sb.append(" finally=").append(t.finallies);
        sb.append(" div0=").append(t.divisions);
        sb.append(" bounds=").append(t.bounds);
        sb.append(" nulls=").append(t.nulls);
        sb.append(" sum=").append(t.sum);
        System.out.println(sb.toString());
    }

    void round(int r) {
        sum += work(r);
        sum += chain(r);
        sum += early(r);
        sum += divide(r * 3 + 1, r % 5);
        sum += element(r % 20);
        sum += poke((r % 6) == 0 ? null : cell);
    }

    /** Normal work between the exceptions. */
    int work(int r) {
        int h = r;
        for (int k = 0; k < data.length; k++) {
            data[k] = data[k] * 31 + h;
            h ^= data[k] >>> 7;
        }
        return h & 0xFFFF;
    }

    /** Catches the checked exception that level3 throws three calls down. */
    int chain(int r) {
        try {
            return level1(r);
        } catch (LimitException e) {
            checked++;
            return e.value;
        }
    }

    int level1(int r) throws LimitException {
        return level2(r + 1) * 2;
    }

    /** The exception passes through this finally on its way up. */
    int level2(int r) throws LimitException {
        try {
            return level3(r) + 1;
        } finally {
            finallies++;
        }
    }

    static int level3(int r) throws LimitException {
        if (r % 7 == 0) throw new LimitException(r);
        return r & 0xFF;
    }

    /** try/finally with a return from inside the try. */
    int early(int r) {
        int v = 0;
        try {
            if ((r & 3) == 0) return 1;
            v = r >> 2;
        } finally {
            finallies++;
        }
        return v;
    }

    /** Division by zero caught in the same method. */
    int divide(int a, int b) {
        try {
            return a / b;
        } catch (ArithmeticException e) {
            divisions++;
            return -1;
        }
    }

    /** Catches the index error of read(), one frame down. */
    int element(int index) {
        try {
            return read(data, index);
        } catch (ArrayIndexOutOfBoundsException e) {
            bounds++;
            return 0;
        }
    }

    static int read(int[] a, int index) {
        return a[index] & 0xFF;
    }

    /** A call on a null receiver, caught here. */
    int poke(Cell c) {
        try {
            return c.next();
        } catch (NullPointerException e) {
            nulls++;
            return 2;
        }
    }

    static int parse(String s, int dflt) {
        int n = 0;
        if (s.length() == 0 || s.length() > 9) return dflt;
        for (int k = 0; k < s.length(); k++) {
            int d = s.charAt(k) - '0';
            if (d < 0 || d > 9) return dflt;
            n = n * 10 + d;
        }
        return n > 0 ? n : dflt;
    }
}
