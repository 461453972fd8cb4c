package xf;

/* The compact form's resets (tests/unit/test_xf_cccp.c, ..._compact). */
final class XfFlow {
  static int k(int x) {
    return x + 1;
  }

  static int flow(int x, String s) {
    int r = x > 0 ? x * 2 : -x;         /* a merge, no call before it */
    r += XfFlowK.A;                     /* the slot holds cc still */
    r = k(r);                           /* an ESI call */
    r += XfFlowK.B;                     /* cc put back */
    r += XfFlowK.C;                     /* holds it still */
    r += Integer.parseInt(s);           /* a library call publishes */
    r += XfFlowK.D;                     /* cc put back */
    for (int i = 0; i < x; i++) r = k(r);
    r += XfFlowK.E;                     /* cc put back: the loop's call */
    return r;
  }
}

final class XfFlowK {
  static int A = Integer.parseInt("1"), B = A + 1, C = B + 1, D = C + 1,
             E = D + 1;
}
