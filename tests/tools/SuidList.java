/*
 * SuidList.java -- prints "class serialVersionUID" for every serializable
 * class of a jar, as java.io.ObjectStreamClass sees it (the declared
 * value, else the default computed from the loaded class). Classes that
 * cannot be loaded are listed with their error. Used to check that
 * instrumentation keeps serialization ids.
 *
 * usage: java -cp DIR SuidList JAR [CLASSPATH-JAR...]
 */
import java.io.ObjectStreamClass;
import java.io.Serializable;
import java.net.URL;
import java.net.URLClassLoader;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Enumeration;
import java.util.List;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;

public class SuidList {
  public static void main(String[] args) throws Exception {
    URL[] urls = new URL[args.length];
    for (int i = 0; i < args.length; i++)
      urls[i] = new java.io.File(args[i]).toURI().toURL();
    List<String> names = new ArrayList<>();
    try (JarFile jar = new JarFile(args[0])) {
      for (Enumeration<JarEntry> e = jar.entries(); e.hasMoreElements(); ) {
        String n = e.nextElement().getName();
        if (n.endsWith(".class") && !n.contains("-") && !n.startsWith("META-INF/"))
          names.add(n.substring(0, n.length() - 6).replace('/', '.'));
      }
    }
    Collections.sort(names);
    int ser = 0;
    try (URLClassLoader l = new URLClassLoader(urls, null)) {
      for (String n : names) {
        try {
          Class<?> c = Class.forName(n, false, l);
          if (!Serializable.class.isAssignableFrom(c) || c.isInterface()) continue;
          ObjectStreamClass d = ObjectStreamClass.lookup(c);
          if (d == null) continue;
          System.out.println(n + " " + d.getSerialVersionUID());
          ser++;
        } catch (Throwable t) {
          System.out.println(n + " ! " + t.getClass().getName());
        }
      }
    }
    System.err.println("serializable classes: " + ser);
  }
}
