/*
 * StackFrameInfo.java -- compile-time stand-in for the JDK's class of a
 * stack walk's frames with method information, for
 * java.lang.CccpFrameInfo. Never packaged.
 */
package java.lang;

class StackFrameInfo extends ClassFrameInfo {
  StackFrameInfo(StackWalker walker) {
    super(walker);
  }
}
