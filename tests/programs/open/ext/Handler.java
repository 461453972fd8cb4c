package ext;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.Method;

/** Not rewritten: a proxy's handler that looks at its stack. */
public class Handler implements InvocationHandler {
  @Override public Object invoke(Object p, Method m, Object[] a) {
    if (!m.getName().equals("where")) return "proxied-" + m.getName();
    Frames.show("proxy " + a[0], new Throwable(), Thread.currentThread().getStackTrace(),
                Frames.WALKER.getCallerClass(), Frames.walk());
    return "handler";
  }
}
