/*
 * PatchClass.java -- the agent's edit of java.lang.Class. Compiled for
 * class version 55.
 */
package cccp.rt;

import java.io.ByteArrayOutputStream;
import java.io.IOException;

/**
 * Redirects calls in a JDK class to a filter (java.lang.CccpHidden,
 * java.lang.CccpFrames): each edit names a Methodref (or Fieldref) of the
 * class and the opcode that uses it, and the filter method that takes its place
 * with the same stack effect: "invokevirtual C.m(A)R" becomes
 * "invokestatic F.m'(C, A)R", "invokestatic C.m(A)R" becomes
 * "invokestatic F.m'(A)R", "invokeinterface I.m(A)R" becomes
 * "invokestatic F.m'(I, A)R; nop; nop", and a field read, "getfield
 * C.f:T", becomes "invokestatic F.m'(C)T". Instruction lengths do not
 * change: only the constant pool grows (appended entries) and the bytes
 * of each call change, so that no offset, frame or table of the class
 * moves.
 */
final class PatchClass {
  /** One edit: the call 'ref' ("owner.name:desc") by 'op' becomes
   *  "invokestatic FILTER.name:desc". */
  static final class Edit {
    final String ref, name, desc, owner;
    final int op;
    final boolean optional;   // one of the class's edits, not each, must hit
    int from, to, hits;

    Edit(String ref, int op, String name, String desc) {
      this(Agent.FILTER, ref, op, name, desc, false);
    }

    Edit(String owner, String ref, int op, String name, String desc,
         boolean optional) {
      this.owner = owner;
      this.ref = ref;
      this.op = op;
      this.name = name;
      this.desc = desc;
      this.optional = optional;
    }
  }

  static final int GETFIELD = 0xb4, INVOKEVIRTUAL = 0xb6,
      INVOKESTATIC = 0xb8, INVOKEINTERFACE = 0xb9;

  private PatchClass() {}

  /** 'b' edited, or an exception naming the call not found. */
  static byte[] patch(byte[] b, Edit[] edits) throws IOException {
    ClassBytes c = new ClassBytes(b);
    for (int i = 1; i < c.count; i++) {
      String r = c.ref(i);
      if (r == null) continue;
      for (Edit e : edits)
        if (r.equals(e.ref)) e.from = i;
    }
    for (Edit e : edits)
      if (e.from == 0 && !e.optional)
        throw new IOException("no reference to " + e.ref);

    /* appended entries: the filter class and its methods */
    ByteArrayOutputStream o = new ByteArrayOutputStream();
    int next = c.count;
    java.util.Map<String, Integer> owners = new java.util.HashMap<>();
    for (Edit e : edits) {
      if (e.from == 0 || owners.containsKey(e.owner)) continue;
      int utf = next++;
      ClassBytes.u1(o, 1);
      ClassBytes.utf(o, e.owner);
      owners.put(e.owner, next++);
      ClassBytes.u1(o, 7);
      ClassBytes.u2(o, utf);
    }
    for (Edit e : edits) {
      if (e.from == 0) continue;
      int cls = owners.get(e.owner);
      int n = next++;
      ClassBytes.u1(o, 1);
      ClassBytes.utf(o, e.name);
      int d = next++;
      ClassBytes.u1(o, 1);
      ClassBytes.utf(o, e.desc);
      int nat = next++;
      ClassBytes.u1(o, 12);
      ClassBytes.u2(o, n);
      ClassBytes.u2(o, d);
      e.to = next++;
      ClassBytes.u1(o, 10);
      ClassBytes.u2(o, cls);
      ClassBytes.u2(o, nat);
    }
    if (next > 0xffff) throw new IOException("constant pool full");
    byte[] add = o.toByteArray();

    byte[] r = new byte[b.length + add.length];
    System.arraycopy(b, 0, r, 0, c.poolEnd);
    r[8] = (byte) (next >> 8);
    r[9] = (byte) next;
    System.arraycopy(add, 0, r, c.poolEnd, add.length);
    System.arraycopy(b, c.poolEnd, r, c.poolEnd + add.length,
                     b.length - c.poolEnd);

    /* every Code attribute of every method */
    int p = c.poolEnd + 6;
    p += 2 + 2 * c.u2(p);                         // interfaces
    for (int pass = 0; pass < 2; pass++) {        // fields, then methods
      int n = c.u2(p);
      p += 2;
      for (int k = 0; k < n; k++) {
        int na = c.u2(p + 6);
        p += 8;
        for (int a = 0; a < na; a++) {
          int len = c.u4(p + 2);
          if (pass == 1 && "Code".equals(c.utf8(c.u2(p))))
            code(c, r, p + 14, c.u4(p + 10), add.length, edits);
          p += 6 + len;
        }
      }
    }
    int hits = 0;
    for (Edit e : edits) {
      if (e.hits == 0 && !e.optional)
        throw new IOException("no call of " + e.ref);
      hits += e.hits;
    }
    if (hits == 0) throw new IOException("no call to redirect");
    return r;
  }

  /* Edit the calls in the code at 'start' ('len' bytes) of 'c.b'. */
  private static void code(ClassBytes c, byte[] r, int start, int len,
                           int shift, Edit[] edits) {
    for (int pc = 0; pc < len;) {
      int at = start + pc, op = c.u1(at);
      if (op == GETFIELD || op == INVOKEVIRTUAL || op == INVOKESTATIC
          || op == INVOKEINTERFACE) {
        int idx = c.u2(at + 1);
        for (Edit e : edits) {
          if (e.op != op || e.from == 0 || e.from != idx) continue;
          r[at + shift] = (byte) INVOKESTATIC;
          r[at + shift + 1] = (byte) (e.to >> 8);
          r[at + shift + 2] = (byte) e.to;
          if (op == INVOKEINTERFACE)        /* count and 0 become nops */
            r[at + shift + 3] = r[at + shift + 4] = 0;
          e.hits++;
        }
      }
      pc += length(c, start, pc);
    }
  }

  /* Length of the instruction at 'pc' (JVMS 6.5). */
  private static int length(ClassBytes c, int start, int pc) {
    int op = c.u1(start + pc);
    switch (op) {
    case 0x10: case 0x12: case 0x15: case 0x16: case 0x17: case 0x18:
    case 0x19: case 0x36: case 0x37: case 0x38: case 0x39: case 0x3a:
    case 0xa9: case 0xbc:
      return 2;
    case 0x11: case 0x13: case 0x14: case 0x84: case 0xb2: case 0xb3:
    case 0xb4: case 0xb5: case 0xb6: case 0xb7: case 0xb8: case 0xbb:
    case 0xbd: case 0xc0: case 0xc1: case 0xc6: case 0xc7:
      return 3;
    case 0xc5:
      return 4;
    case 0xb9: case 0xba: case 0xc8: case 0xc9:
      return 5;
    case 0xc4:
      return c.u1(start + pc + 1) == 0x84 ? 6 : 4;
    case 0xaa: {
      int p = (pc + 4) & ~3;
      int lo = c.u4(start + p + 4), hi = c.u4(start + p + 8);
      return p - pc + 12 + 4 * (hi - lo + 1);
    }
    case 0xab: {
      int p = (pc + 4) & ~3;
      return p - pc + 8 + 8 * c.u4(start + p + 4);
    }
    default:
      if (op >= 0x99 && op <= 0xa8) return 3;
      return 1;
    }
  }
}
