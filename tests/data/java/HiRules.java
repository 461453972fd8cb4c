/*
 * Fixtures for the overloadability analysis (tests/unit/test_hier_rules.c).
 * The test seeds the methods marked "seed" through a policy file; every
 * other answer follows from the rules.
 */
package hi;

public class HiRules { }

/* rule 1 alone: R1C.m seed; R1A.m (through R1B, which inherits it) no */
class R1A { void m() { } void k() { } }
class R1B extends R1A { }
class R1C extends R1B { void m() { } }          // seed
class R1D extends R1C { }
class R1E extends R1A { void m() { } }

/* rule 2 alone: R2B inherits the seed R2A.m, R2C overrides it */
class R2A { void m() { } }                       // seed
class R2B extends R2A { }
class R2C extends R2B { void m() { } }

/* rule 3 alone: R3B inherits the seed R3A.m and implements R3I */
interface R3I { void m(); }
class R3A { public void m() { } }                // seed
class R3B extends R3A implements R3I { }
interface R3J { void m(); }
class R3C implements R3J { public void m() { } }

/* chain: CB.m seed -> rule 1 CA.m -> rule 3 CI.m; CC, CD unaffected */
interface CI { void m(); }
class CA implements CI { public void m() { } }
class CB extends CA { public void m() { } }      // seed
class CC implements CI { public void m() { } }
interface CJ { void m(); }
class CD extends CC implements CJ { }
abstract class CF implements CI { }
class CG extends CF { public void m() { } }
