package fx;

/* An enum with a switch on it (synthetic switch map class). */
public enum Color {
  RED(0xFF0000), GREEN(0x00FF00), BLUE(0x0000FF) {
    @Override public String toString() { return "blue!"; }
  };

  private final int rgb;

  Color(int rgb) { this.rgb = rgb; }

  public int rgb() { return rgb; }

  public static String name(Color c) {
    switch (c) {
    case RED: return "r";
    case GREEN: return "g";
    default: return "b";
    }
  }
}
