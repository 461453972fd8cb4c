package tp;

import java.lang.ref.PhantomReference;
import java.lang.ref.ReferenceQueue;

/**
 * HotSpot reads a finalize() whose code is just 'return' as "no
 * finalizer": a subclass's empty one cancels its superclass's. An object
 * of such a class is not registered for finalization, so one collection
 * frees it and its phantom reference is enqueued; a finalizable one
 * needs its finalizer to run and another collection.
 */
class Finals {
  static int finalized;

  static class Base {
    @Override
    @SuppressWarnings("deprecation")
    protected void finalize() {
      finalized++;
    }
  }

  static class Quiet extends Base {
    @Override
    @SuppressWarnings("deprecation")
    protected void finalize() {
    }
  }

  static void run() throws InterruptedException {
    ReferenceQueue<Object> q = new ReferenceQueue<>();
    PhantomReference<Object> r = new PhantomReference<>(new Quiet(), q);
    System.gc();
    System.out.println("an empty finalize(): "
                       + (q.remove(10000) == r ? "not finalizable" : "finalizable"));
  }
}
