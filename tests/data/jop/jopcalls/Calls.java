/*
 * Calls.java -- JOP cross-profiling fixture: every kind of call and return.
 *
 * invokestatic, invokespecial (private method, constructor, super.m()),
 * invokevirtual, invokeinterface; returns of void, int, long, boolean,
 * byte, char, short and a reference; one method of more than 300 bytes of
 * bytecode and a tiny one; recursion; a tableswitch and a lookupswitch;
 * static initializers in two classes; newarray, anewarray, multianewarray
 * and new; an interface with two implementations and an abstract class
 * with two subclasses, each called polymorphically from one call site.
 * No exceptions, no floating point. Prints one line.
 */
package jopcalls;

/** Implemented by Square and Rect; called from one site in Calls.shapes. */
interface Shape {
    int area();
}

final class Square implements Shape {
    private final int side;

    Square(int side) {
        this.side = side;
    }

    public int area() {
        return side * side;
    }
}

final class Rect implements Shape {
    private final int w;
    private final int h;

    Rect(int w, int h) {
        this.w = w;
        this.h = h;
    }

    public int area() {
        return w * h;
    }
}

/** Subclassed by Dog and Bird; sound() is called from one site in Calls.animals. */
abstract class Animal {
    protected final int legs;

    Animal(int legs) {
        this.legs = legs;
    }

    abstract int sound(int x);

    int describe(int x) {
        return legs * 3 + x;
    }
}

final class Dog extends Animal {
    Dog() {
        super(4);
    }

    int sound(int x) {
        return x * 2 + 1;
    }

    int describe(int x) {
        return super.describe(x) + 1;
    }
}

final class Bird extends Animal {
    private int chirps;

    Bird() {
        super(2);
    }

    int sound(int x) {
        chirps++;
        return (x ^ chirps) & 0xFF;
    }

    int describe(int x) {
        return super.describe(x) - chirps;
    }
}

/** Static initializer: a field set by a method call. */
final class Table {
    static final int[] SQUARES = build(32);

    private Table() {
    }

    private static int[] build(int n) {
        int[] t = new int[n];
        for (int k = 0; k < n; k++) t[k] = k * k;
        return t;
    }

    static int square(int k) {
        return SQUARES[k & 31];
    }
}

/** Static initializer: a static block. */
final class Seeds {
    static int first;
    static int second;

    static {
        first = 0x1234;
        second = first * 7 + 3;
    }

    private Seeds() {
    }
}

public final class Calls {
    static final int DEFAULT_ROUNDS = 30000;

    private int acc;
    private long wide;

    Calls(int start) {
        acc = start;
    }

    public static void main(String[] args) {
        int rounds = DEFAULT_ROUNDS;
        if (args.length > 0) rounds = parse(args[0], rounds);

        Calls c = new Calls(Seeds.first);
        Shape[] shapes = new Shape[4];
        for (int k = 0; k < shapes.length; k++) {
            shapes[k] = (k & 1) == 0 ? (Shape) new Square(k + 1) : new Rect(k + 1, k + 2);
        }
        Animal[] animals = { new Dog(), new Bird(), new Bird(), new Dog() };
        for (int r = 0; r < rounds; r++) {
            c.round(r, shapes, animals);
        }
        StringBuilder sb = new StringBuilder("calls:");
        sb.append(" rounds=").append(rounds);
        sb.append(" acc=").append(c.acc);
        sb.append(" wide=").append(c.wide);
        System.out.println(sb.toString());
    }

    /** One round: a call of every kind (invokevirtual from main). */
    void round(int r, Shape[] shapes, Animal[] animals) {
        acc += shapes(shapes);
        acc += animals(animals, r);
        acc += secret(r);
        bump();
        wide += widen(acc);
        if (isOdd(r)) acc += lowByte(r) + letter(r) + half(r);
        acc += table(r) + lookup(r);
        acc = large(acc, r);
        acc = tiny(acc);
        acc += fib(15);
        acc += arrays(r);
        Object o = pick(r);
        if (o instanceof Square) acc += ((Square) o).area();
        acc += Table.square(r) + Seeds.second;
    }

    /** invokeinterface from one call site, two receiver classes. */
    static int shapes(Shape[] shapes) {
        int sum = 0;
        for (int k = 0; k < shapes.length; k++) sum += shapes[k].area();
        return sum;
    }

    /** invokevirtual of an abstract method from one call site, two receiver classes. */
    static int animals(Animal[] animals, int x) {
        int sum = 0;
        for (int k = 0; k < animals.length; k++) {
            sum += animals[k].sound(x + k);
            sum += animals[k].describe(k);
        }
        return sum;
    }

    /** invokespecial of a private method. */
    private int secret(int x) {
        return (acc ^ x) & 0x3FF;
    }

    void bump() {
        acc++;
    }

    static long widen(int x) {
        return ((long) x << 20) + x;
    }

    static boolean isOdd(int x) {
        return (x & 1) != 0;
    }

    static byte lowByte(int x) {
        return (byte) x;
    }

    static char letter(int x) {
        return (char) ('a' + (x & 15));
    }

    static short half(int x) {
        return (short) (x >> 1);
    }

    static Object pick(int x) {
        if ((x & 3) == 0) return new Square(x & 7);
        return new Rect(1, x & 7);
    }

    static int tiny(int x) {
        return x + 1;
    }

    static int fib(int n) {
        return n < 2 ? n : fib(n - 1) + fib(n - 2);
    }

    /** A dense switch: tableswitch. */
    static int table(int x) {
        switch (x & 7) {
        case 0:
            return 3;
        case 1:
            return 5;
        case 2:
            return 7;
        case 3:
            return 11;
        case 4:
            return 13;
        case 5:
            return 17;
        case 6:
            return 19;
        default:
            return 23;
        }
    }

    /** A sparse switch: lookupswitch. */
    static int lookup(int x) {
        switch (x & 0x3FF) {
        case 1:
            return 2;
        case 10:
            return 4;
        case 100:
            return 8;
        case 1000:
            return 16;
        default:
            return 1;
        }
    }

    /** newarray, anewarray and multianewarray. */
    static int arrays(int x) {
        int[] ints = new int[4 + (x & 3)];
        long[] longs = new long[2];
        Object[] objs = new Object[3];
        int[][] grid = new int[3][4];
        ints[ints.length - 1] = x;
        longs[1] = x;
        objs[2] = ints;
        grid[2][3] = ints[ints.length - 1];
        return grid[2][3] + (int) longs[1] + ((int[]) objs[2]).length;
    }

    /** A long straight-line computation: well over 300 bytes of bytecode. */
    static int large(int a, int b) {
        int c = a ^ b;
        int d = a + b;
        a = a * 31 + b;
        b = b * 17 + c;
        c = c ^ (a >>> 3);
        d = d + (b << 2);
        a = a + (c ^ d);
        b = b - (a >>> 5);
        c = c * 13 + d;
        d = d ^ (c << 7);
        a = a * 7 + (d >>> 11);
        b = b ^ (a + c);
        c = c + (b >>> 2);
        d = d * 29 + a;
        a = a ^ (d << 3);
        b = b + (c ^ 0x5A5A5A5A);
        c = c - (b << 1);
        d = d ^ (a >>> 13);
        a = a * 11 + (b & 0xFFFF);
        b = b ^ (c | 0x1010);
        c = c * 3 + (d & 0xFF00);
        d = d + (a ^ b);
        a = a ^ (c >>> 17);
        b = b * 23 + d;
        c = c ^ (a << 9);
        d = d - (b >>> 4);
        a = a + (c * 5);
        b = b ^ (d * 9);
        c = c + (a >> 6);
        d = d ^ (b >> 2);
        a = a * 37 + (c ^ d);
        b = b + (a >>> 19);
        c = c ^ (b * 41);
        d = d + (c >>> 23);
        a = a - (d << 4);
        b = b ^ (a >>> 7);
        c = c * 43 + b;
        d = d ^ (c + a);
        a = a + (b ^ c ^ d);
        b = b * 47 + (a >>> 1);
        c = c ^ (d << 13);
        d = d * 53 + (b >> 3);
        a = a ^ (c >>> 21);
        b = b + (d * 59);
        c = c - (a ^ 0x33CC33CC);
        d = d ^ (b << 5);
        a = a * 61 + (c >>> 9);
        b = b ^ (d + a);
        c = c + (b * 67);
        d = d - (c >>> 15);
        a = a + (b ^ (d << 2));
        b = b * 71 + (a & 0x0F0F0F0F);
        c = c ^ (a + b + d);
        d = d + (c >>> 27);
        return a ^ b ^ c ^ d;
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
