/*
 * JdkMethods.java -- JDK mode: the instrumented JDK's method table, which
 * names the method ids the rewriter fixed (DIR/jdk.methods, named by the
 * system property cccp.jdk.methods in DIR/cccp.args).
 */
package cccp.rt;

import java.io.ByteArrayOutputStream;
import java.io.FileInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * The file, as cccp-rewrite writes it (UTF-8 text, one record a line):
 * <pre>
 *   cccp-jdk-methods 1 COUNT BUILD
 *   C CLASS                  a class (internal name); its methods follow
 *   M NAME DESC FLAGS        method id 1, 2, ... COUNT in file order
 * </pre>
 * FLAGS as CC.register takes them (1 native). Kept as the file's bytes
 * and the offset of each method's record; names are decoded on demand.
 */
final class JdkMethods {
  final int count;
  /** The JDK's java.runtime.version, or "unknown". */
  final String build;
  private final byte[] b;
  private final int[] method;    // id -> offset of its "M " record
  private final int[] owner;     // id -> offset of its class's "C " record

  private JdkMethods(byte[] b, int count, String build) {
    this.b = b;
    this.count = count;
    this.build = build;
    method = new int[count + 1];
    owner = new int[count + 1];
  }

  static JdkMethods read(String path) throws IOException {
    byte[] b = readAll(path);
    int eol = next(b, 0);
    String[] h = new String(b, 0, eol, StandardCharsets.UTF_8).split(" ");
    if (h.length != 4 || !"cccp-jdk-methods".equals(h[0])
        || !"1".equals(h[1]))
      throw new IOException("not a method table (version 1)");
    JdkMethods t = new JdkMethods(b, Integer.parseInt(h[2]), h[3]);
    int id = 0, cls = -1;
    for (int p = eol + 1; p < b.length; p = next(b, p) + 1) {
      if (b[p] == 'C' && p + 1 < b.length && b[p + 1] == ' ') {
        cls = p + 2;
      } else if (b[p] == 'M' && p + 1 < b.length && b[p + 1] == ' '
                 && cls >= 0 && id < t.count) {
        id++;
        t.method[id] = p + 2;
        t.owner[id] = cls;
      } else {
        throw new IOException("bad record at byte " + p);
      }
    }
    if (id != t.count)
      throw new IOException(id + " methods, the header says " + t.count);
    return t;
  }

  /*
   * The bytes of file 'path', through java.io: NIO's channels would
   * register the thread's temporary buffers to be freed when it ends,
   * which the program's main thread then does in its own Thread.exit.
   * Read straight into an array of the open file's length ('available',
   * the JDK's table is 12 MB, read as the VM boots): growing a buffer to
   * it copied the bytes four times over.
   */
  private static byte[] readAll(String path) throws IOException {
    try (FileInputStream in = new FileInputStream(path)) {
      byte[] b = new byte[Math.max(in.available(), 0)];
      int n = 0;
      for (int r; n < b.length && (r = in.read(b, n, b.length - n)) > 0;)
        n += r;
      if (n < b.length) return Arrays.copyOf(b, n);
      ByteArrayOutputStream out = new ByteArrayOutputStream(n + (1 << 16));
      out.write(b, 0, n);               // more than it said: read on
      byte[] buf = new byte[1 << 16];
      for (int r; (r = in.read(buf)) > 0;) out.write(buf, 0, r);
      return out.size() == n ? b : out.toByteArray();
    }
  }

  /* The offset of the end of the line at 'p'. */
  private static int next(byte[] b, int p) {
    while (p < b.length && b[p] != '\n') p++;
    return p;
  }

  /* Field 'k' (0-based, space-separated) of the record at 'p'. */
  private String field(int p, int k) {
    for (; k > 0; k--) {
      while (b[p] != ' ') p++;
      p++;
    }
    int e = p;
    while (e < b.length && b[e] != ' ' && b[e] != '\n') e++;
    return new String(b, p, e - p, StandardCharsets.UTF_8);
  }

  String cls(int id) {
    return field(owner[id], 0);
  }

  String name(int id) {
    return field(method[id], 0);
  }

  String desc(int id) {
    return field(method[id], 1);
  }

  int flags(int id) {
    return Integer.parseInt(field(method[id], 2));
  }

  /** The id of method 'cls.name desc' (ASCII names), or 0. */
  int id(String cls, String name, String desc) {
    for (int id = 1; id <= count; id++) {
      if ((id == 1 || owner[id] != owner[id - 1]) && !is(owner[id], cls)) {
        int o = owner[id];
        while (id < count && owner[id + 1] == o) id++;    // the next class
        continue;
      }
      int p = method[id];
      if (is(p, name) && is(p + name.length() + 1, desc)) return id;
    }
    return 0;
  }

  /* Whether the field at 'p' is 's' (ASCII), without making a String. */
  private boolean is(int p, String s) {
    int n = s.length();
    if (p + n > b.length) return false;
    for (int i = 0; i < n; i++)
      if (b[p + i] != s.charAt(i)) return false;
    return p + n == b.length || b[p + n] == ' ' || b[p + n] == '\n';
  }
}
