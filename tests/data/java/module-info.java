/* Module descriptor: Module attribute with requires/exports/opens/uses/provides. */
module cccp.fixtures {
  requires java.logging;
  requires transitive java.compiler;
  exports fx;
  opens fx to java.base;
  uses java.lang.Runnable;
  provides java.lang.Runnable with fx.Lambdas;
}
