module demo.lib {
  exports demo.lib;
}
