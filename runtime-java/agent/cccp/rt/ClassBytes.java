/*
 * ClassBytes.java -- the constant pool of a class file, read just enough
 * for the agent's two edits. Compiled for class version 55.
 */
package cccp.rt;

import java.io.DataInputStream;
import java.io.ByteArrayInputStream;
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

  String utf8(int i) throws IOException {
    int p = off[i];
    if (p == 0 || b[p] != 1) return null;
    return new DataInputStream(new ByteArrayInputStream(b, p + 1, 2 + u2(p + 1)))
        .readUTF();
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
