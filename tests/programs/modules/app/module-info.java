module demo.app {
  requires demo.lib;
  requires auto;
}
