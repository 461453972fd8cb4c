/*
 * Leaves.java -- fixtures for the leaf analysis (src/hier/leaf.c): library
 * classes whose methods are leaves or not for one reason each, and one
 * instrumented class (LfApp). test_hier_rules checks every answer.
 */
package lf;

/** A final class: its virtual calls have one target. */
final class LfFinal {
  int v;

  LfFinal(int v) {                    // Object.<init>: a leaf
    this.v = v;
  }

  int get() {                         // leaf
    return v;
  }

  int twice() {                       // leaf: a final class's methods
    return get() + get();
  }
}

class LfOpen {
  int v;

  int get() {                         // leaf
    return v;
  }

  int viaVirtual() {                  // not: get() may be overridden
    return get();
  }

  final int fin() {                   // leaf
    return v;
  }

  int viaFinal() {                    // leaf
    return fin();
  }

  static int sum(int a, int b) {      // leaf
    return a + b;
  }

  static int viaStatic() {            // leaf
    return sum(1, 2);
  }

  static int recA(int n) {            // leaf: a cycle of leaves
    return n <= 0 ? 0 : recB(n - 1);
  }

  static int recB(int n) {            // leaf
    return recA(n - 1);
  }

  int viaIface(Runnable r) {          // not: an interface call
    r.run();
    return 0;
  }

  static native int nat();            // not: a native that may call Java

  static int viaNative() {            // not
    return nat();
  }

  int hash() {                        // leaf: Object.hashCode runs no Java
    return super.hashCode();
  }

  Object klass() {                    // leaf: Object.getClass
    return getClass();
  }

  static int callsApp() {             // not: LfApp is instrumented
    return LfApp.f();
  }

  static Object makes() {             // leaf: LfFinal has no <clinit>
    return new LfFinal(1);
  }

  static Object makesInit() {         // not: LfInit's <clinit> is not
    return new LfInit();
  }

  static int readsQuiet() {           // leaf: LfQuiet's <clinit> is one
    return LfQuiet.T[0];
  }

  static Runnable lambda() {          // not: invokedynamic
    return () -> { };
  }
}

/** Its static initializer makes a virtual call. */
class LfInit {
  static final LfOpen O = new LfOpen();
  static final int X = O.viaVirtual();

  static int read() {                 // not: a static call starts <clinit>
    return 1;
  }

  int inst() {                        // leaf: an instance exists, so the
    return 2;                         // class is initialized
  }
}

/** Its static initializer is a leaf. */
class LfQuiet {
  static final int[] T = {1, 2};

  static int read() {                 // leaf
    return T[1];
  }
}

/** The one instrumented class. */
class LfApp {
  static int f() {
    return 1;
  }
}
