/*
 * ClassFrameInfo.java -- compile-time stand-in for the JDK's class of a
 * stack walk's frames (JDK 22 and later), for java.lang.CccpFrameInfo.
 * Never packaged.
 */
package java.lang;

class ClassFrameInfo {
  ClassFrameInfo(StackWalker walker) {}
}
