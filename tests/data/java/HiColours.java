/*
 * Fixtures for the colours of method ids: nine methods for one body, a
 * method with overrides (in a subclass and through an interface), a
 * method no body calls with another, and a body that calls eight of them
 * (CoCaller.loop, which tests/cct/test_rewrite.sh rewrites and runs).
 */
package hi;

public class HiColours { }

class CoLib {
  static void a() { }
  static void b() { }
  static void c() { }
  static void d() { }
  static void e() { }
  static void f() { }
  static void g() { }
  static void h() { }
  static void i() { }
  static void alone() { }
}

interface CoI { void m(); }
class CoBase implements CoI { public void m() { } }
class CoSub extends CoBase { public void m() { } }
class CoOther implements CoI { public void m() { } }

class CoCaller {
  public static void main(String[] args) {
    System.out.println(loop() + " calls");
  }

  static int loop() {
    int n = 0;
    for (int k = 0; k < 3; k++) {
      CoLib.a(); CoLib.b(); CoLib.c(); CoLib.d();
      CoLib.e(); CoLib.f(); CoLib.g(); CoLib.h();
      n += 8;
    }
    return n;
  }
}
