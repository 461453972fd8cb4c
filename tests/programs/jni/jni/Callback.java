/* Callback.java -- Java called back from native code: a native method of
 * the program calls a Runnable (a lambda) and a static method through
 * JNI; both must land under the native method's node. */
package jni;

public final class Callback {
  static int hits;

  static native void call(Runnable r);

  static native int twice(int x);

  static void work(int n) {
    hits += n;
  }

  static int doubled(int x) {
    work(1);
    return 2 * x;
  }

  public static void main(String[] args) {
    System.loadLibrary("cccpjni");
    for (int i = 0; i < 3; i++) call(() -> work(10));
    int s = twice(21);
    System.out.println(hits + " " + s);
  }
}
