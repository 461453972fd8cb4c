package xf;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.function.IntUnaryOperator;

/** Instrumentation fixtures: one class per method category (test_xf_cccp). */
interface XfShape {
    int area();                           // abstract: default ESI twin

    default int twice() { return 2 * area(); }

    static XfShape square(int s) { return new XfSquare(s); }
}

final class XfSquare implements XfShape {
    private final int s;

    XfSquare(int s) { this.s = s; }

    @Override
    public int area() { return s * s; }
}

abstract class XfAbs {
    abstract long weight(long a, double b);   // abstract in a class

    long twiceWeight() { return 2 * weight(3L, 0.5); }
}

class XfHeavy extends XfAbs {
    @Override
    long weight(long a, double b) { return a + (long) b + 1; }
}

/** compare() overrides a library method: non-overloadable, OSI only. */
final class XfByLen implements Comparator<String> {
    @Override
    public int compare(String a, String b) {
        return Integer.compare(a.length(), b.length());
    }
}

class XfBase {
    static int counter;
    final int v;

    XfBase(int v) {
        super();
        this.v = v;
    }

    XfBase(String s) {
        this(Integer.parseInt(s.trim()));     // calls before this()
    }

    static int sq(int x) { return x * x; }

    private int priv(int x) { return x + v; }

    synchronized int sync(int x) { return priv(x) + sq(x); }

    static synchronized int ssync(int x) { return sq(x) + 1; }   // no owner check

    final synchronized int fsync(int x) { return sync(x) - 1; }  // nor here

    int guarded(String s) {
        try {
            return Integer.parseInt(s);        // library call in a try
        } catch (NumberFormatException e) {
            return -1;
        } finally {
            counter++;
        }
    }

    Object viaLambda(int k) {
        IntUnaryOperator f = x -> x * k + v;  // lambda body: private
        return f.applyAsInt(3);
    }

    String concat(String a, long b) { return a + b; }   // indy

    static native int nat(int x);              // native, overloadable

    synchronized native int lockedNat(int x);  // B2N twin, owner check

    int[] cloned(int[] a) { return a.clone(); }

    static {
        counter = 1;
    }
}

class XfSub extends XfBase {
    XfSub() { super(sq(2)); }

    @Override
    synchronized int sync(int x) { return super.sync(x) + 1; }
}

/** Runs everything and prints results (same output instrumented or not). */
public final class XfCases {
    public static void main(String[] args) {
        List<String> out = new ArrayList<>();
        XfShape sh = XfShape.square(3);
        out.add("area " + sh.area() + " twice " + sh.twice());
        XfShape lam = () -> 7;                 // lambda proxy: uninstrumented
        out.add("lambda twice " + lam.twice());
        XfAbs h = new XfHeavy();
        out.add("weight " + h.twiceWeight());
        List<String> w = new ArrayList<>(List.of("ccc", "a", "bb"));
        w.sort(new XfByLen());
        out.add("sorted " + w);
        XfBase b = new XfBase(" 5 ");
        out.add("sync " + b.sync(2) + " guarded " + b.guarded("12") + " "
                + b.guarded("x") + " counter " + XfBase.counter);
        out.add("ssync " + XfBase.ssync(3) + " fsync " + b.fsync(1));
        out.add("lambda " + b.viaLambda(4) + " concat " + b.concat("n", 9L));
        try {
            XfBase.nat(1);
        } catch (UnsatisfiedLinkError e) {
            out.add("native unlinked");
        }
        out.add("clone " + b.cloned(new int[] {1, 2}).length);
        out.add("sub " + new XfSub().sync(1));
        out.add("suid " + java.io.ObjectStreamClass.lookup(XfFaces.class)
                .getSerialVersionUID());
        for (String s : out) System.out.println(s);
    }
}

/** Serializable, with more interfaces than members: its default
 *  serialVersionUID, which the rewrite pins, hashes every interface. */
class XfFaces implements java.io.Serializable, Cloneable, java.util.RandomAccess,
        java.util.EventListener {}
