/*
 * Fixtures for the overloadability analysis: diamonds, default methods,
 * abstract and native methods, non-virtual methods.
 */
package hi;

public class HiShapes { }

/* diamond: DmC.m seed -> rule 3 on DmTop.m (twice reachable) and DmR.m */
interface DmTop { void m(); }
interface DmL extends DmTop { }
interface DmR extends DmTop { void m(); }
class DmC implements DmL, DmR { public void m() { } }   // seed

/* default methods: DfI.m seed; DfQ selects it (rule 2), so rule 1 gives
   DfTop.m (what DfP selects) and rule 3 gives DfTop.m too */
interface DfTop { void m(); }
interface DfI extends DfTop { default void m() { } }    // seed
abstract class DfP implements DfTop { }
class DfQ extends DfP implements DfI { }
class DfD implements DfI { public void m() { } }
interface DfOther { default void m() { } }
class DfE implements DfOther { }

/* abstract and native: NaB.m seed, NaB.n non-wrappable native seed */
abstract class NaA { abstract void m(); native void n(); }
class NaB extends NaA { void m() { } native void n(); }  // seeds
class NaC extends NaB { }
class NaD extends NaA { void m() { } void n() { } }
/* an inherited native, nothing seeded: stays overloadable */
class NiA { native void q(); }
class NiB extends NiA { }

/* non-virtual: all of NvA seeded; nothing propagates */
class NvA {
  NvA() { }
  NvA(int x) { }
  static void s() { }
  private void p() { }
  void v() { }
}
class NvB extends NvA {
  static void s() { }
  private void p() { }
  void v() { }
}
