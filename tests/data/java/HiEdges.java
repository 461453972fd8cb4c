/*
 * Fixtures for the hierarchy database: library boundary, missing
 * supertypes (the test leaves MsMissing out), and a cycle (the test
 * points CyB's superclass at CyA).
 */
package hi;

public class HiEdges { }

/* LbBase and LbLibChild are added as library classes */
class LbBase { void m() { } void k() { } }
class LbSub extends LbBase { void m() { } }
class LbInst { void m() { } void k() { } }
class LbLibChild extends LbInst { void m() { } }

class MsMissing { void k() { } }
interface MsI { void i(); }
class MsA extends MsMissing { void m() { } }
class MsB extends MsMissing implements MsI { public void i() { } }

class CyA extends CyB { }
class CyB { Object ref() { return CyA.class; } }
