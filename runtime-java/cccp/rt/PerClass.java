/*
 * PerClass.java -- a value per class, computed once, as ClassValue keeps
 * one, but without drawing an identity hash: a ClassValue's first value
 * hashes the ClassValue's identity object, on the program's thread, and
 * every identity hash that thread draws later (a HashSet of enum
 * constants, a default toString) then differs from the plain run's.
 * Compiled for class version 52, never instrumented.
 */
package cccp.rt;

import java.lang.ref.ReferenceQueue;
import java.lang.ref.WeakReference;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Keyed by the class's name (its String hash), then by identity among the
 * classes of that name (one per loader). The classes are weakly held: an
 * entry whose class was unloaded is dropped at the next insertion. In JDK
 * mode a ClassValue: there every JDK method the runtime calls is
 * instrumented (Class.getName among them), and a JDK-mode run draws other
 * identity hashes anyway (it runs without class data sharing).
 */
abstract class PerClass<V> {
  private final ClassValue<V> jdk = !Slots.JDK ? null : new ClassValue<V>() {
    @Override
    protected V computeValue(Class<?> k) {
      return compute(k);
    }
  };

  private static final class Entry<V> extends WeakReference<Class<?>> {
    final String name;
    final V value;
    final Entry<V> next;

    Entry(Class<?> k, String name, V value, Entry<V> next,
          ReferenceQueue<Class<?>> q) {
      super(k, q);
      this.name = name;
      this.value = value;
      this.next = next;
    }
  }

  private final ConcurrentHashMap<String, Entry<V>> map =
      Slots.JDK ? null : new ConcurrentHashMap<String, Entry<V>>();
  private final ReferenceQueue<Class<?>> dead =
      Slots.JDK ? null : new ReferenceQueue<Class<?>>();

  /** The value for class 'k' (computed without the lock, may run twice). */
  protected abstract V compute(Class<?> k);

  final V get(Class<?> k) {
    if (Slots.JDK) return jdk.get(k);
    String name = k.getName();
    for (Entry<V> e = map.get(name); e != null; e = e.next)
      if (e.get() == k) return e.value;
    V v = compute(k);
    synchronized (this) {
      purge();
      Entry<V> head = map.get(name);
      for (Entry<V> e = head; e != null; e = e.next)
        if (e.get() == k) return e.value;
      map.put(name, new Entry<V>(k, name, v, live(head), dead));
    }
    return v;
  }

  /* the chain 'e' without the entries whose class is gone (copied) */
  private Entry<V> live(Entry<V> e) {
    if (e == null) return null;
    Entry<V> rest = live(e.next);
    Class<?> k = e.get();
    if (k == null) return rest;
    return rest == e.next ? e : new Entry<V>(k, e.name, e.value, rest, dead);
  }

  /* drop the chains of unloaded classes; under the lock */
  private void purge() {
    for (Object r; (r = dead.poll()) != null;) {
      String name = ((Entry<?>) r).name;
      Entry<V> c = live(map.get(name));
      if (c == null) map.remove(name);
      else map.put(name, c);
    }
  }
}
