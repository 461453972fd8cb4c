/*
** rtfiles.c -- what an instrumented output needs to run: the runtime jar
** (cccp-rt.jar) and the native agent (libcccp-agent.so) copied next to it,
** and the JVM options file that puts the jar on the boot class path and
** loads the agent ('java @OUTPUT.args -cp OUTPUT Main').
*/
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cccp/hier.h"
#include "cli.h"

static int is_file(const char *p) {
  struct stat st;
  return stat(p, &st) == 0 && S_ISREG(st.st_mode);
}

/*
** The runtime jar: $CCCP_RT, else relative to the binary:
** ../share/cccp/cccp-rt.jar (installed), ../build/cccp-rt.jar (source
** tree, bin/ next to build/), ../cccp-rt.jar (a build directory's bin/).
*/
const char *cli_runtime_jar(char *buf, size_t n) {
  const char *env = getenv("CCCP_RT");
  if (env && *env) {
    snprintf(buf, n, "%s", env);
    return is_file(buf) ? buf : NULL;
  }
  char exe[PATH_MAX];
  ssize_t k = readlink("/proc/self/exe", exe, sizeof exe - 1);
  if (k <= 0) return NULL;
  exe[k] = '\0';
  char *slash = strrchr(exe, '/');
  if (!slash) return NULL;
  *slash = '\0';
  static const char *const rel[] = {"/../share/cccp/cccp-rt.jar",
                                    "/../build/cccp-rt.jar",
                                    "/../cccp-rt.jar"};
  for (size_t i = 0; i < sizeof rel / sizeof *rel; i++) {
    snprintf(buf, n, "%s%s", exe, rel[i]);
    if (is_file(buf)) return buf;
  }
  return NULL;
}

/*
** The native agent: libcccp-agent.so beside the runtime jar (as
** cccp-rt-jdk.jar is), wherever 'cli_runtime_jar' found that.
*/
const char *cli_runtime_agent(char *buf, size_t n) {
  char jar[PATH_MAX];
  if (!cli_runtime_jar(jar, sizeof jar)) return NULL;
  const char *slash = strrchr(jar, '/');
  snprintf(buf, n, "%.*s/libcccp-agent.so", slash ? (int)(slash - jar) : 1,
           slash ? jar : ".");
  return is_file(buf) ? buf : NULL;
}

static int same_file(const char *a, const char *b) {
  struct stat sa, sb;
  return stat(a, &sa) == 0 && stat(b, &sb) == 0 && sa.st_dev == sb.st_dev &&
         sa.st_ino == sb.st_ino;
}

/* Copy 'from' to 'to' atomically. */
int cli_copy_file(const char *from, const char *to, cr_diag *d) {
  uint8_t *data;
  size_t len;
  int rc = cr_read_file(&data, &len, from, d);
  if (rc) return rc;
  cli_afile af;
  rc = cli_atomic_open(&af, to, d);
  if (rc == 0 && len && fwrite(data, 1, len, af.f) != len) {
    cli_atomic_abort(&af);
    rc = cr_diag_set(d, CR_EIO, -1, "cannot write %s", to);
  } else if (rc == 0) {
    rc = cli_atomic_commit(&af, d);
  }
  cr_free(data);
  return rc;
}

/* 1 if files 'a' and 'b' hold the same bytes. */
static int same_bytes(const char *a, const char *b) {
  uint8_t *da = NULL, *db = NULL;
  size_t na = 0, nb = 0;
  cr_diag d;
  cr_diag_clear(&d);
  int same = cr_read_file(&da, &na, a, &d) == 0 &&
             cr_read_file(&db, &nb, b, &d) == 0 && na == nb &&
             memcmp(da, db, na) == 0;
  cr_free(da);
  cr_free(db);
  return same;
}

/*
** Copy the native agent into folder 'real' (a real path); its path to
** 'out'. A file of the same bytes already there is kept: a JVM that
** runs from this folder keeps the file it loaded, and 'cccp-report dump'
** refuses a JVM whose agent was replaced.
*/
int cli_agent_copy(char *out, size_t n, const char *real, cr_diag *d) {
  char src[PATH_MAX];
  if (!cli_runtime_agent(src, sizeof src)) {
    char jar[PATH_MAX];
    return cr_diag_set(d, CR_ENOTFOUND, -1, "the native agent "
                       "libcccp-agent.so was not found beside the runtime "
                       "%s (they are built and installed together)",
                       cli_runtime_jar(jar, sizeof jar) ? jar : "jar");
  }
  if (strchr(real, '='))
    return cr_diag_set(d, CR_EUSAGE, -1, "%s: the JVM's -agentpath cannot "
                       "name a path with '=' in it", real);
  if ((size_t)snprintf(out, n, "%s/libcccp-agent.so",
                       strcmp(real, "/") ? real : "") >= n)
    return cr_diag_set(d, CR_EUSAGE, -1, "%s: path too long", real);
  if (same_file(src, out) || same_bytes(src, out)) return 0;
  return cli_copy_file(src, out, d);
}

void cli_put_agent(FILE *f, const char *path, const char *summary) {
  fputs("-agentpath:", f);
  if (!summary) {
    cli_put_token(f, path);
  } else {
    size_t n = strlen(path) + strlen(summary) + 2;
    char *both = malloc(n);
    if (both) snprintf(both, n, "%s=%s", path, summary);
    cli_put_token(f, both ? both : path);
    free(both);
  }
  fputc('\n', f);
}

/*
** The hierarchy of the rewrite without the JDK's classes into 'path', for
** the load-time rewriter of the native agent, which instruments against
** it, and the JVM's own JDK, the classes defined at run time.
*/
int cli_app_summary(const char *path, const cr_hier *h, cr_diag *d) {
  return cli_atomic_hier(path, h, cr_hier_save_app, d);
}

int cli_args_append(const char *out, int is_dir, const char *line,
                    cr_diag *d) {
  char path[PATH_MAX + 16];
  snprintf(path, sizeof path, is_dir ? "%s/cccp.args" : "%s.args", out);
  uint8_t *b = NULL;
  size_t n = 0, k = strlen(line);
  if (cr_read_file(&b, &n, path, d) != 0) {
    if (d->code != CR_ENOTFOUND) return -1;
    cr_diag_clear(d);         /* none yet: the line alone */
  }
  /* there already (a JDK's copy)? */
  for (const char *p = (const char *)b, *e = p + n; p < e;) {
    const char *nl = memchr(p, '\n', (size_t)(e - p));
    size_t len = nl ? (size_t)(nl - p) : (size_t)(e - p);
    if (len == k && memcmp(p, line, k) == 0) {
      cr_free(b);
      return 0;
    }
    p += len + 1;
  }
  /* the file and the line, in place of the file at once: a JVM that
  ** starts meanwhile reads the one or the other, never half */
  cli_afile af;
  if (cli_atomic_open(&af, path, d) != 0) {
    cr_free(b);
    return -1;
  }
  if (n) fwrite(b, 1, n, af.f);
  if (n && b[n - 1] != '\n') fputc('\n', af.f);
  fprintf(af.f, "%s\n", line);
  cr_free(b);
  return cli_atomic_commit(&af, d);
}

/* Write 'path' as one argfile token (quoted when it needs to be). */
void cli_put_token(FILE *f, const char *s) {
  if (!strpbrk(s, " \t\n\r\"'\\#")) {
    fputs(s, f);
    return;
  }
  fputc('"', f);
  for (; *s; s++) {
    if (*s == '"' || *s == '\\') fputc('\\', f);
    fputc(*s, f);
  }
  fputc('"', f);
}

/* One leaf per line: "class.name" and the descriptor, e.g.
** "java/util/ArrayList.size()I". */
static void put_leaf(void *ctx, const cr_hmethod *m) {
  fprintf(ctx, "%s.%s%s\n", cr_hclass_name(cr_hmethod_class(m)),
          cr_hmethod_name(m), cr_hmethod_desc(m));
}

/* Write the leaves file 'path' (see 'cli_runtime_files'); '*n' leaves.
** None: no file (an old one removed). */
static int leaves_file(const char *path, const cr_hier *h, const char *build,
                       size_t *n, cr_diag *d) {
  cli_afile af;
  int rc = cli_atomic_open(&af, path, d);
  if (rc) return rc;
  fprintf(af.f, "cccp-leaves 1 %s\n", build);
  *n = cr_hier_virtual_leaves(h, put_leaf, af.f);
  if (!*n) {
    cli_atomic_abort(&af);
    if (unlink(path) != 0 && errno != ENOENT)
      return cr_diag_set(d, CR_EIO, -1, "cannot remove %s: %s", path,
                         strerror(errno));
    return 0;
  }
  if (ferror(af.f)) {
    cli_atomic_abort(&af);
    return cr_diag_set(d, CR_EIO, -1, "cannot write %s", path);
  }
  return cli_atomic_commit(&af, d);
}

int cli_runtime_files(const char *out, int is_dir, const char *extra,
                      const cr_hier *lt, const cr_hier *h,
                      const char *build, const char *agent_opt, cr_diag *d) {
  char src[PATH_MAX], dir[PATH_MAX], real[PATH_MAX], jar[PATH_MAX * 2],
      args[PATH_MAX * 2], leaves[PATH_MAX * 2], agent[PATH_MAX * 2];
  if (!cli_runtime_jar(src, sizeof src))
    return cr_diag_set(d, CR_ENOTFOUND, -1, "the runtime cccp-rt.jar was "
                       "not found (set CCCP_RT to its path)");
  snprintf(dir, sizeof dir, "%s", out);
  size_t n = strlen(dir);
  while (n > 1 && dir[n - 1] == '/') dir[--n] = '\0';
  if (!is_dir) {
    char *slash = strrchr(dir, '/');
    if (!slash) snprintf(dir, sizeof dir, ".");
    else if (slash == dir) dir[1] = '\0';
    else *slash = '\0';
  }
  if (!realpath(dir, real))
    return cr_diag_set(d, CR_EIO, -1, "%s: %s", dir, strerror(errno));
  snprintf(jar, sizeof jar, "%s/cccp-rt.jar", strcmp(real, "/") ? real : "");
  int rc = 0;
  if (!same_file(src, jar) && (rc = cli_copy_file(src, jar, d))) return rc;
  if ((rc = cli_agent_copy(agent, sizeof agent, real, d))) return rc;
  if (is_dir) snprintf(args, sizeof args, "%s/cccp.args", dir);
  else snprintf(args, sizeof args, "%s.args", out);
  char summary[PATH_MAX * 2];
  if (is_dir) snprintf(summary, sizeof summary, "%s/cccp.summary", real);
  else if (realpath(out, summary)) strcat(summary, ".summary");
  else snprintf(summary, sizeof summary, "%s.summary", out);
  if (strchr(summary, '='))
    return cr_diag_set(d, CR_EUSAGE, -1, "%s: the JVM's -agentpath cannot "
                       "name a path with '=' in it", summary);
  if (lt && (rc = cli_app_summary(summary, lt, d))) return rc;
  size_t nleaves = 0;
  if (is_dir) snprintf(leaves, sizeof leaves, "%s/cccp.leaves", real);
  else if (realpath(out, leaves)) strcat(leaves, ".leaves");
  else snprintf(leaves, sizeof leaves, "%s.leaves", out);
  if (h && build && *build &&
      (rc = leaves_file(leaves, h, build, &nleaves, d)))
    return rc;
  cli_afile af;
  if ((rc = cli_atomic_open(&af, args, d))) return rc;
  /* the native agent: it defines the runtime (cccp-rt.jar beside it) in
  ** the boot loader and installs the filters that hide from reflection
  ** and stack walks what the rewriter adds ("boot"; -Xbootclasspath/a
  ** and -javaagent would move the main thread's identity hashes), keeps
  ** the profile of a full heap, takes snapshots ('cccp-report dump') and
  ** rewrites classes as they load */
  char opt[PATH_MAX * 2 + 16];
  if (agent_opt) snprintf(opt, sizeof opt, "boot,%s", agent_opt);
  else if (lt) snprintf(opt, sizeof opt, "boot,app=%s", summary);
  else snprintf(opt, sizeof opt, "boot");
  cli_put_agent(af.f, agent, opt);
  if (extra) {
    cli_put_token(af.f, extra);
    fputc('\n', af.f);
  }
  if (nleaves) {
    fputs("-Dcccp.leaves=", af.f);
    cli_put_token(af.f, leaves);
    fputc('\n', af.f);
  }
  if (ferror(af.f)) {
    cli_atomic_abort(&af);
    return cr_diag_set(d, CR_EIO, -1, "cannot write %s", args);
  }
  return cli_atomic_commit(&af, d);
}

/* 'path' as an absolute path without a newline into 'out' (for a line of
** the agent file). */
static int agent_path(char *out, const char *path, cr_diag *d) {
  errno = 0;
  if (!realpath(path, out) || strchr(out, '\n'))
    return cr_diag_set(d, CR_EUSAGE, -1, "%s: %s", path,
                       errno ? strerror(errno) : "a newline in the path");
  return 0;
}

/*
** JDK mode: the options of the instrumented JDK whose summary is 'sum'
** (DIR/cccp.args beside it) into 'args', with the agent's line given
** 'opt'.
*/
int cli_jdk_agent_args(const char *sum, const char *args, const char *opt,
                       cr_diag *d) {
  char from[PATH_MAX + 16];
  const char *slash = strrchr(sum, '/');
  snprintf(from, sizeof from, "%.*s/cccp.args", (int)(slash - sum), sum);
  FILE *in = fopen(from, "r");
  if (!in)
    return cr_diag_set(d, CR_ENOTFOUND, -1, "%s: no options of an "
                       "instrumented JDK beside %s (%s)", from, sum,
                       strerror(errno));
  cli_afile af;
  int rc = cli_atomic_open(&af, args, d), agent = 0;
  char line[PATH_MAX * 2 + 64];
  while (!rc && fgets(line, sizeof line, in)) {
    size_t n = strcspn(line, "\n");
    if (strncmp(line, "-agentpath:", 11) == 0 && !agent) {
      line[n] = '\0';
      char *eq = strchr(line + 11, '=');
      if (eq) *eq = '\0';
      cli_put_agent(af.f, line + 11, opt);
      agent = 1;
    } else {
      fputs(line, af.f);
    }
  }
  fclose(in);
  if (rc) return rc;
  if (!agent || ferror(af.f)) {
    cli_atomic_abort(&af);
    return cr_diag_set(d, agent ? CR_EIO : CR_EFORMAT, -1,
                       agent ? "cannot write %s" : "%s loads no native agent",
                       agent ? args : from);
  }
  return cli_atomic_commit(&af, d);
}

int cli_agent_files(const cli_opts *o, cr_diag *d) {
  char real[PATH_MAX], exe[PATH_MAX], file[PATH_MAX + 16],
      opt[PATH_MAX + 32], sum[PATH_MAX] = "";
  if (cli_mkdirs(o->output, 0777) != 0 || !realpath(o->output, real))
    return cr_diag_set(d, CR_EIO, -1, "%s: %s", o->output, strerror(errno));
  if (!realpath("/proc/self/exe", exe))
    return cr_diag_set(d, CR_EIO, -1, "cannot find this program's own "
                       "path: %s", strerror(errno));
  int rc = o->nsummaries ? agent_path(sum, o->summaries[0], d) : 0;
  if (rc) return rc;
  snprintf(file, sizeof file, "%s/cccp.agent", strcmp(real, "/") ? real : "");
  snprintf(opt, sizeof opt, "agent=%s", file);
  cli_afile af;
  if ((rc = cli_atomic_open(&af, file, d))) return rc;
  fprintf(af.f, "cccp-agent 1\n%s\n", exe);
  if (*sum) fprintf(af.f, "--summary\n%s\n", sum);
  for (size_t i = 0; i < o->npolicies; i++) {
    char pol[PATH_MAX];
    if ((rc = agent_path(pol, o->policies[i], d))) {
      cli_atomic_abort(&af);
      return rc;
    }
    fprintf(af.f, "--policy\n%s\n", pol);
  }
  if (ferror(af.f)) {
    cli_atomic_abort(&af);
    return cr_diag_set(d, CR_EIO, -1, "cannot write %s", file);
  }
  if ((rc = cli_atomic_commit(&af, d))) return rc;
  if (*sum) {
    char args[PATH_MAX + 16];
    snprintf(args, sizeof args, "%s/cccp.args", real);
    return cli_jdk_agent_args(sum, args, opt, d);
  }
  return cli_runtime_files(o->output, 1, NULL, NULL, NULL, NULL, opt, d);
}
