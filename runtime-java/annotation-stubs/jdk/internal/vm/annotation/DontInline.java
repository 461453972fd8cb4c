/*
 * DontInline.java -- a stand-in for the JDK's own annotation, to compile
 * the app-mode runtime (class version 52, where java.base's internal
 * packages cannot be named). Only its name reaches the class files:
 * HotSpot reads it, for classes of the boot class path, without loading
 * the annotation type. Never part of cccp-rt.jar.
 */
package jdk.internal.vm.annotation;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.METHOD, ElementType.CONSTRUCTOR})
public @interface DontInline {
}
