/*
 * Service.java -- a small HTTP service on an embedded Jetty 9, the
 * workload of tests/cct/test_service.sh and bench/service.
 */
package service;

import java.io.IOException;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicLong;

import javax.servlet.http.HttpServletRequest;
import javax.servlet.http.HttpServletResponse;

import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.server.handler.AbstractHandler;

/**
 * Listens on 127.0.0.1 (the port given, or an ephemeral one) and serves
 *
 *   /work?n=N   a report on N pseudo-random words: counted by length and
 *               first letter in maps, sorted, formatted (text)
 *   /json?id=K  an item as JSON text
 *   /noop       an empty answer (load generators switch to it to end a
 *               measured phase without requests in flight)
 *   /count      "work W json J": the requests /work and /json served
 *   /stop       stops the server; main then returns and the JVM exits
 *               normally (shutdown hooks run)
 *
 * Prints "listening on 127.0.0.1:PORT" once it accepts connections, and
 * the counts when it stops.
 */
public final class Service extends AbstractHandler {
  private final Server server;
  private final AtomicLong works = new AtomicLong();
  private final AtomicLong jsons = new AtomicLong();

  private Service(Server server) {
    this.server = server;
  }

  @Override
  public void handle(String target, Request base, HttpServletRequest req,
                     HttpServletResponse resp) throws IOException {
    base.setHandled(true);
    resp.setCharacterEncoding("UTF-8");
    switch (target) {
      case "/work": work(req, resp); break;
      case "/json": json(req, resp); break;
      case "/noop": resp.setContentType("text/plain"); break;
      case "/count":
        text(resp, "work " + works.get() + " json " + jsons.get() + "\n");
        break;
      case "/stop":
        text(resp, "stopping\n");
        resp.flushBuffer();
        Thread t = new Thread(this::stopServer, "service-stop");
        t.start();
        break;
      default:
        resp.sendError(HttpServletResponse.SC_NOT_FOUND);
    }
  }

  /** One /work request: exactly one call per request served. */
  private void work(HttpServletRequest req, HttpServletResponse resp)
      throws IOException {
    int n = intParam(req, "n", 64, 1, 10000);
    long seed = intParam(req, "seed", 1, 0, Integer.MAX_VALUE);
    List<String> words = words(n, seed);
    Map<Integer, Integer> byLength = new TreeMap<>();
    Map<Character, List<String>> byLetter = new HashMap<>();
    for (String w : words) {
      byLength.merge(w.length(), 1, Integer::sum);
      byLetter.computeIfAbsent(w.charAt(0), c -> new ArrayList<>()).add(w);
    }
    words.sort(null);
    StringBuilder sb = new StringBuilder();
    sb.append(String.format("%d words, %d distinct letters%n", n, byLetter.size()));
    for (Map.Entry<Integer, Integer> e : byLength.entrySet()) {
      sb.append(String.format("  length %2d: %4d (%5.1f%%)%n", e.getKey(),
                              e.getValue(), 100.0 * e.getValue() / n));
    }
    sb.append("first ").append(words.get(0)).append(", last ")
      .append(words.get(words.size() - 1)).append('\n');
    works.incrementAndGet();
    text(resp, sb.toString());
  }

  /** One /json request. */
  private void json(HttpServletRequest req, HttpServletResponse resp)
      throws IOException {
    int id = intParam(req, "id", 1, 0, Integer.MAX_VALUE);
    List<String> tags = words(1 + id % 5, id);
    StringBuilder sb = new StringBuilder("{\"id\":").append(id)
        .append(",\"name\":\"item-").append(id).append('"')
        .append(",\"price\":").append(String.format("%.2f", (id % 1000) / 7.0))
        .append(",\"tags\":[");
    for (int i = 0; i < tags.size(); i++) {
      if (i > 0) sb.append(',');
      sb.append('"').append(tags.get(i)).append('"');
    }
    sb.append("]}\n");
    jsons.incrementAndGet();
    resp.setContentType("application/json");
    resp.getWriter().write(sb.toString());
  }

  /** N words of 2 to 9 letters from a linear congruential sequence. */
  private static List<String> words(int n, long seed) {
    List<String> out = new ArrayList<>(n);
    long x = seed * 0x5DEECE66DL + 11;
    char[] buf = new char[9];
    for (int i = 0; i < n; i++) {
      x = x * 0x5DEECE66DL + 11;
      int len = 2 + (int) ((x >>> 20) & 7);
      for (int j = 0; j < len; j++) {
        x = x * 0x5DEECE66DL + 11;
        buf[j] = (char) ('a' + (int) ((x >>> 17) % 26));
      }
      out.add(new String(buf, 0, len));
    }
    return out;
  }

  private static int intParam(HttpServletRequest req, String name, int dflt,
                              int min, int max) {
    String s = req.getParameter(name);
    if (s == null) return dflt;
    try {
      return Math.max(min, Math.min(max, Integer.parseInt(s.trim())));
    } catch (NumberFormatException e) {
      return dflt;
    }
  }

  private static void text(HttpServletResponse resp, String s)
      throws IOException {
    resp.setContentType("text/plain");
    PrintWriter w = resp.getWriter();
    w.write(s);
  }

  private void stopServer() {
    try {
      server.stop();
    } catch (Exception e) {
      e.printStackTrace();
    }
  }

  /** usage: service.Service [PORT] (0 or none: an ephemeral port) */
  public static void main(String[] args) throws Exception {
    int port = args.length > 0 ? Integer.parseInt(args[0]) : 0;
    Server server = new Server();
    ServerConnector conn = new ServerConnector(server);
    conn.setHost("127.0.0.1");
    conn.setPort(port);
    server.addConnector(conn);
    Service svc = new Service(server);
    server.setHandler(svc);
    server.start();
    System.out.println("listening on 127.0.0.1:" + conn.getLocalPort());
    server.join();
    System.out.println("stopped: work " + svc.works.get() + " json "
                       + svc.jsons.get());
  }
}
