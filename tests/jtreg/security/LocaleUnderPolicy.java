/*
 * @test
 * @summary Under a SecurityManager whose policy grants the program
 *          nothing, the JDK's modules keep what the JDK's own policy
 *          grants them: the CLDR locale provider of jdk.localedata
 *          formats numbers and dates of other locales.
 * @requires jdk.version.major < 24
 * @run main/othervm/policy=nothing.policy LocaleUnderPolicy
 */
import java.time.LocalDate;
import java.time.format.DateTimeFormatter;
import java.util.Locale;

public class LocaleUnderPolicy {
  static void check(String got, String want) {
    if (!got.equals(want))
      throw new RuntimeException("got '" + got + "', want '" + want + "'");
  }

  public static void main(String[] args) {
    if (System.getSecurityManager() == null)
      throw new RuntimeException("no security manager");
    check(String.format(Locale.GERMANY, "%,.2f", 1234567.891), "1.234.567,89");
    check(DateTimeFormatter.ofPattern("d MMMM yyyy", Locale.FRENCH)
              .format(LocalDate.of(2024, 1, 15)), "15 janvier 2024");
    check(DateTimeFormatter.ofPattern("EEEE", new Locale("fi"))
              .format(LocalDate.of(2024, 1, 15)), "maanantaina");
    System.out.println("ok");
  }
}
