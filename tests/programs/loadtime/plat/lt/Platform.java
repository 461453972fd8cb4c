package lt;

/** Classes of the platform class loader only (java.scripting, java.sql):
 *  the load-time rewriter must not make its hierarchy for them. */
public class Platform {
  public static void main(String[] args) {
    javax.script.ScriptEngineManager m = new javax.script.ScriptEngineManager();
    System.out.println("engines " + m.getEngineFactories().size() + " "
                       + new java.sql.Timestamp(0).getTime());
  }
}
