/*
 * ClassBytes.java -- the constant pool of a class file, read just enough
 * for the agent's two edits. Compiled for class version 55.
 */
package cccp.rt;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;

/** Offsets of the constant pool entries of class file bytes (JVMS 4.4). */
final class ClassBytes {
  final byte[] b;
  final int count;        // constant_pool_count
  final int[] off;        // offset of entry i's tag, 0 for unusable slots
  final int poolEnd;      // offset just after the pool

  ClassBytes(byte[] b) throws IOException {
    this.b = b;
    if (b.length < 10 || u4(0) != 0xCAFEBABE)
      throw new IOException("not a class file");
    count = u2(8);
    off = new int[count];
    int p = 10;
    for (int i = 1; i < count; i++) {
      off[i] = p;
      int tag = b[p] & 0xff;
      switch (tag) {
      case 1: p += 3 + u2(p + 1); break;
      case 3: case 4: case 9: case 10: case 11: case 12: case 17: case 18:
        p += 5; break;
      case 5: case 6: p += 9; i++; break;
      case 7: case 8: case 16: case 19: case 20: p += 3; break;
      case 15: p += 4; break;
      default: throw new IOException("constant pool tag " + tag);
      }
    }
    poolEnd = p;
  }

  int u1(int p) { return b[p] & 0xff; }

  int u2(int p) { return (b[p] & 0xff) << 8 | (b[p + 1] & 0xff); }

  int u4(int p) { return u2(p) << 16 | u2(p + 2); }

  /** Offset just after entry 'i'. */
  int end(int i) {
    int p = off[i];
    switch (b[p] & 0xff) {
    case 1: return p + 3 + u2(p + 1);
    case 5: case 6: return p + 9;
    case 7: case 8: case 16: case 19: case 20: return p + 3;
    case 15: return p + 4;
    default: return p + 5;
    }
  }

  /* Decoded here, not by DataInputStream: on JDK 25 it reads through
  ** jdk.internal.util.ByteArray, whose VarHandles initialise
  ** java.lang.invoke and hash classes by identity, work the program would
  ** do itself, later, on its own thread (see Agent.boot). */
  String utf8(int i) throws IOException {
    int p = off[i];
    if (p == 0 || b[p] != 1) return null;
    int n = u2(p + 1), at = p + 3, end = at + n;
    if (end > b.length) throw new IOException("truncated Utf8");
    char[] out = new char[n];
    int k = 0;
    while (at < end) {
      int c = b[at++] & 0xff;
      if (c < 0x80) {
        out[k++] = (char) c;
      } else if ((c & 0xe0) == 0xc0 && at < end) {
        out[k++] = (char) ((c & 0x1f) << 6 | b[at++] & 0x3f);
      } else if ((c & 0xf0) == 0xe0 && at + 1 < end) {
        out[k++] = (char) ((c & 0x0f) << 12 | (b[at] & 0x3f) << 6
                           | b[at + 1] & 0x3f);
        at += 2;
      } else {
        throw new IOException("malformed Utf8");
      }
    }
    return new String(out, 0, k);
  }

  /** Appends 'v' as a u1, as a u2. */
  static void u1(ByteArrayOutputStream o, int v) {
    o.write(v);
  }

  static void u2(ByteArrayOutputStream o, int v) {
    o.write(v >> 8 & 0xff);
    o.write(v & 0xff);
  }

  /** Appends 's' as a CONSTANT_Utf8's length and modified UTF-8 bytes
   *  (JVMS 4.4.7), without DataOutputStream (see 'utf8'). */
  static void utf(ByteArrayOutputStream o, String s) throws IOException {
    ByteArrayOutputStream u = new ByteArrayOutputStream(s.length() + 8);
    for (int i = 0; i < s.length(); i++) {
      char ch = s.charAt(i);
      if (ch != 0 && ch < 0x80) {
        u.write(ch);
      } else if (ch < 0x800) {
        u.write(0xc0 | ch >> 6);
        u.write(0x80 | ch & 0x3f);
      } else {
        u.write(0xe0 | ch >> 12);
        u.write(0x80 | ch >> 6 & 0x3f);
        u.write(0x80 | ch & 0x3f);
      }
    }
    if (u.size() > 0xffff) throw new IOException("string too long");
    u2(o, u.size());
    u.writeTo(o);
  }

  /** The class name of Class entry 'i'. */
  String className(int i) throws IOException {
    int p = off[i];
    return p != 0 && b[p] == 7 ? utf8(u2(p + 1)) : null;
  }

  /** "owner.name:desc" of a Methodref/Fieldref 'i', or null. */
  String ref(int i) throws IOException {
    int p = off[i];
    if (p == 0 || (b[p] != 10 && b[p] != 9 && b[p] != 11)) return null;
    int nat = off[u2(p + 3)];
    return className(u2(p + 1)) + "." + utf8(u2(nat + 1)) + ":" + utf8(u2(nat + 3));
  }
}
