/*
 * @test
 * @summary A program that installs a SecurityManager granting it only
 *          exit and calls System.exit(3) exits with 3 and prints what it
 *          prints; run as a child JVM with the options the test JVM has
 *          (so an instrumented JDK writes its profile at that exit,
 *          under the program's manager).
 * @requires jdk.version.major < 24
 * @run main/othervm ExitUnderManager
 */
import java.io.File;
import java.io.FileWriter;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

public class ExitUnderManager {
  public static class Child {
    public static void main(String[] args) throws Exception {
      System.setSecurityManager(new SecurityManager());
      System.out.println("managed");
      System.exit(3);
    }
  }

  public static void main(String[] args) throws Exception {
    File policy = new File("exit.policy");
    try (FileWriter w = new FileWriter(policy)) {
      w.write("grant { permission java.lang.RuntimePermission \"exitVM.*\";\n"
              + " permission java.lang.RuntimePermission \"setSecurityManager\";\n"
              + " permission java.lang.RuntimePermission \"createSecurityManager\"; };\n");
    }
    List<String> cmd = new ArrayList<>();
    cmd.add(System.getProperty("java.home") + "/bin/java");
    for (String p : new String[] {"test.vm.opts", "test.java.opts"}) {
      String v = System.getProperty(p, "").trim();
      if (!v.isEmpty()) cmd.addAll(Arrays.asList(v.split("\\s+")));
    }
    File profile = new File("child-profile.xml");
    String out = System.getProperty("cccp.out");
    if (out != null) cmd.add("-Dcccp.out=" + profile.getAbsolutePath());
    cmd.addAll(Arrays.asList("-Djava.security.policy==" + policy.getAbsolutePath(),
                             "-cp", System.getProperty("test.classes"),
                             "ExitUnderManager$Child"));
    Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
    String text = new String(p.getInputStream().readAllBytes());
    int rc = p.waitFor();
    System.out.println("child: " + cmd + "\n" + text + "exit " + rc);
    if (rc != 3) throw new RuntimeException("exit status " + rc);
    if (!text.contains("managed")) throw new RuntimeException("output: " + text);
    if (text.contains("cccp") || text.contains("AccessControlException"))
      throw new RuntimeException("the child complained: " + text);
    if (out != null && !(profile.isFile()
                         && Files.readString(profile.toPath()).contains("<cct")))
      throw new RuntimeException("no profile at the child's exit");
  }
}
