package tp;

public enum Color {
  RED(1), GREEN(2) { @Override int code() { return 20; } };

  private final int c;

  Color(int c) { this.c = c; }

  int code() { return c; }
}
