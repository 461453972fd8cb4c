package fx;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/* Annotation types: TYPE_USE (visible and invisible), defaults of every
   element kind (AnnotationDefault). */
public class Anno {
  @Retention(RetentionPolicy.RUNTIME)
  @Target({ElementType.TYPE_USE, ElementType.TYPE_PARAMETER})
  public @interface TU { int value() default 0; }

  @Retention(RetentionPolicy.CLASS)
  @Target({ElementType.TYPE_USE, ElementType.TYPE_PARAMETER})
  public @interface TUI { }

  @Retention(RetentionPolicy.CLASS)
  public @interface Marker { }

  @Retention(RetentionPolicy.RUNTIME)
  public @interface Visible { String value(); }

  @Retention(RetentionPolicy.RUNTIME)
  public @interface Defaults {
    byte b() default 1;
    char c() default 'x';
    short s() default 2;
    int i() default 3;
    long l() default 4L;
    float f() default 5.5f;
    double d() default 6.5;
    boolean z() default true;
    String str() default "str";
    Color color() default Color.GREEN;
    Class<?> cls() default String.class;
    Class<?> prim() default int.class;
    Visible nested() default @Visible("n");
    int[] ints() default {1, 2, 3};
    Visible[] many() default {@Visible("a"), @Visible("b")};
    String[] none() default {};
  }
}
