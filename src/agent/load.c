/*
** load.c -- the load-time rewriter of libcccp-agent.so. In the JVM's
** ClassFileLoadHook, a class that was not rewritten ahead of time (one
** the program defines at run time: a compiled script, a generated
** function; one of a jar left as it was) goes through the analysis and
** the transform of cccp-rewrite, against the hierarchy of the rewrite
** that wrote the options file and the classes instrumented here before.
** The hierarchy, made at the first class taken:
**   "app=PATH"   (app mode, the default) the rewrite's summary without
**                the JDK's classes, and the JVM's own JDK's: from the
**                rewriter's cache entry for its image, else the image;
**   "japp=PATH"  (JDK mode) the same with the instrumented JDK's summary
**                beside this library;
**   "agent=FILE" (agent only, 'cccp-rewrite --agent') the rewriter FILE
**                names analyses the JVM's class path (as it would to
**                rewrite those jars, manifests' Class-Path included) in a
**                child process that writes the whole hierarchy to a
**                pipe; the class path's classes are then instrumented as
**                they load, exactly as the rewrite would have;
**   PATH         a whole summary, the JDK's classes included.
** What is left alone: the JDK's classes and packages, the runtime's,
** java.lang.reflect.Proxy classes, classes the summary knows (rewritten,
** or seen as a library), classes already instrumented, and hidden
** classes (the JVM does not show them to the hook: lambda proxies,
** lambda forms). A class whose supertypes are not known yet stays as it
** is (its superclass loads after it); a class the transform cannot take
** stays as it is, with one line on stderr.
*/
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif
#include <pthread.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <jni.h>
#include <jvmti.h>

#include "boot.h"
#include "load.h"
#include "cccp/classfile.h"
#include "cccp/hier.h"
#include "cccp/io.h"
#include "cccp/policy.h"
#include "cccp/util.h"
#include "cccp/xform.h"

static struct {
  pthread_mutex_t mu;
  char *summary_path;       /* a whole summary (--load-time before it
                               was the default) */
  char *app_summary;        /* the rewrite's summary, without the JDK,
                               whose classes come from the JVM's image */
  int jdk_mode;             /* with app_summary: the JDK's classes come
                               from the instrumented JDK's summary beside
                               this library ("japp=") */
  char *agent_file;         /* agent only: the file of 'cccp-rewrite
                               --agent' */
  cr_hier *h;               /* the summary's hierarchy and every class
                               instrumented here, made on first use */
  cr_policy *pol;
  int broken;               /* the summary could not be read: off */
  char **failed;            /* classes the transform could not take,
                               which the hierarchy holds as instrumented:
                               their subtypes stay as they are too */
  size_t nfailed;
  jobject platform;         /* the platform class loader (global ref) */
  uint64_t huge;            /* bodies instrumented here past HotSpot's
                               limit for compiling a method that were
                               under it before */
  int huge_on;              /* that limit: -1 not read yet, 0 off, 1 on */
} L = {PTHREAD_MUTEX_INITIALIZER, NULL, NULL, 0, NULL, NULL, NULL, 0, NULL, 0,
       NULL, 0, -1};

void cr_agent_load_vminit(JNIEnv *env) {
  jclass cl = (*env)->FindClass(env, "java/lang/ClassLoader");
  jmethodID m = cl ? (*env)->GetStaticMethodID(env, cl,
                                               "getPlatformClassLoader",
                                               "()Ljava/lang/ClassLoader;")
                   : NULL;
  jobject p = m ? (*env)->CallStaticObjectMethod(env, cl, m) : NULL;
  if ((*env)->ExceptionCheck(env)) {
    (*env)->ExceptionClear(env);    /* before JDK 9: none, every class asked */
    p = NULL;
  }
  if (p) L.platform = (*env)->NewGlobalRef(env, p);
}

int cr_agent_load_init(const char *options) {
  if (strncmp(options, "agent=", 6) == 0)
    return (L.agent_file = strdup(options + 6)) ? 0 : -1;
  if (strncmp(options, "app=", 4) == 0)
    return (L.app_summary = strdup(options + 4)) ? 0 : -1;
  if (strncmp(options, "japp=", 5) == 0) {
    L.jdk_mode = 1;
    return (L.app_summary = strdup(options + 5)) ? 0 : -1;
  }
  L.summary_path = strdup(options);
  return L.summary_path ? 0 : -1;
}

/* Packages only the JDK and the runtime define classes in, at a glance.
** Others are asked of the hierarchy, which knows the JDK's packages
** exactly: javax/inject, org/w3c/dom/svg, com/sun/xml/bind come from
** jars, and the rewrite instrumented them. */
static int jdk_name(const char *n) {
  static const char *const pre[] = {"java/", "jdk/internal/", "cccp/rt/"};
  for (size_t i = 0; i < sizeof pre / sizeof *pre; i++)
    if (strncmp(n, pre[i], strlen(pre[i])) == 0) return 1;
  /* java.lang.reflect.Proxy's classes: the JVM's plumbing, no program
  ** code (annotations are such proxies) */
  const char *slash = strrchr(n, '/');
  return slash && strncmp(slash + 1, "$Proxy", 6) == 0 &&
         (strncmp(n, "jdk/proxy", 9) == 0 || strncmp(n, "com/sun/proxy/", 14) == 0);
}

int cr_agent_names_runtime(const unsigned char *b, jint len) {
  static const char cc[] = "Lcccp/rt/CC;";
  return len > 0 && memmem(b, (size_t)len, cc, sizeof cc - 1) != NULL;
}

static void xf_warn(void *ctx, const cr_class *c, const char *msg) {
  (void)c;
  cr_agent_say(ctx, msg);
}

static void no_missing(void *ctx, const char *name) {
  (void)ctx;
  (void)name;
}

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* A JVM property (as the JVM started), or NULL; free() it. */
static char *property(jvmtiEnv *j, const char *key) {
  char *v = NULL, *copy = NULL;
  if ((*j)->GetSystemProperty(j, key, &v) != JVMTI_ERROR_NONE) return NULL;
  if (v) copy = strdup(v);
  (*j)->Deallocate(j, (unsigned char *)v);
  return copy;
}

typedef struct strv {
  char **v;
  size_t n, cap;
} strv;

static int strv_push(strv *a, const char *s, size_t len) {
  if (a->n + 2 > a->cap) {
    size_t cap = a->cap ? a->cap * 2 : 16;
    char **v = realloc(a->v, cap * sizeof *v);
    if (!v) return -1;
    a->v = v;
    a->cap = cap;
  }
  if (!(a->v[a->n] = strndup(s, len))) return -1;
  a->v[++a->n] = NULL;
  return 0;
}

static void strv_free(strv *a) {
  for (size_t i = 0; i < a->n; i++) free(a->v[i]);
  free(a->v);
}

/*
** The command that analyses the class path 'cp': the agent file's lines
** (the rewriter, its options), then the entries of 'cp' that exist (the
** JVM skips the others; an empty entry is the current folder).
*/
static int analysis_argv(strv *a, const char *cp, cr_diag *d) {
  uint8_t *text = NULL;
  size_t len = 0;
  if (cr_read_file(&text, &len, L.agent_file, d) != 0) return -1;
  static const char head[] = "cccp-agent 1\n";
  int rc = 0;
  if (len < sizeof head - 1 || memcmp(text, head, sizeof head - 1) != 0 ||
      memchr(text, '\0', len)) {
    rc = cr_diag_set(d, CR_EFORMAT, -1, "%s is no agent file of this "
                     "version of cccp-rewrite", L.agent_file);
    goto out;
  }
  for (size_t i = sizeof head - 1; !rc && i < len;) {
    const uint8_t *nl = memchr(text + i, '\n', len - i);
    size_t n = nl ? (size_t)(nl - (text + i)) : len - i;
    if (n) rc = strv_push(a, (const char *)text + i, n);
    i += n + 1;
    if (rc == 0 && a->n == 1)   /* the rewriter's options for the agent */
      rc = strv_push(a, "--analyze", 9) || strv_push(a, "-q", 2) ||
           strv_push(a, "--whole-summary", 15) || strv_push(a, "-", 1);
  }
  if (!rc && a->n < 5)
    rc = cr_diag_set(d, CR_EFORMAT, -1, "%s names no rewriter", L.agent_file);
  if (!rc) rc = strv_push(a, "--", 2);
  size_t first = a->n;
  for (const char *p = cp; !rc && p;) {
    const char *colon = strchr(p, ':');
    size_t n = colon ? (size_t)(colon - p) : strlen(p);
    char path[4096];
    struct stat st;
    snprintf(path, sizeof path, "%.*s", n ? (int)n : 1, n ? p : ".");
    if (stat(path, &st) == 0) rc = strv_push(a, path, strlen(path));
    p = colon ? colon + 1 : NULL;
  }
  if (!rc && a->n == first) rc = strv_push(a, ".", 1);
  if (rc && !d->code) cr_diag_set(d, CR_ENOMEM, -1, "out of memory");
out:
  cr_free(text);
  return rc ? -1 : 0;
}

/*
** Run the rewriter of command 'argv' with JAVA_HOME the JVM's own JDK,
** its standard output read into 'out' (the summary); what it says on
** stderr goes into the error when it fails.
*/
static int run_analysis(char **argv, const char *java_home, cr_buf *out,
                        cr_diag *d) {
  extern char **environ;
  strv env = {0};
  int rc = 0;
  for (char **e = environ; !rc && *e; e++)
    if (strncmp(*e, "JAVA_HOME=", 10) != 0) rc = strv_push(&env, *e,
                                                           strlen(*e));
  char jh[4200];
  snprintf(jh, sizeof jh, "JAVA_HOME=%s", java_home);
  if (rc || strv_push(&env, jh, strlen(jh))) {
    strv_free(&env);
    return cr_diag_set(d, CR_ENOMEM, -1, "out of memory");
  }
  FILE *err = tmpfile();
  int fds[2] = {-1, -1};
  posix_spawn_file_actions_t fa;
  posix_spawnattr_t at;
  sigset_t none, dfl;
  sigemptyset(&none);
  sigemptyset(&dfl);
  sigaddset(&dfl, SIGPIPE);
  sigaddset(&dfl, SIGINT);
  sigaddset(&dfl, SIGTERM);
  pid_t pid = -1;
  if (!err || pipe2(fds, O_CLOEXEC) != 0) {
    rc = cr_diag_set(d, CR_EIO, -1, "cannot make %s: %s",
                     err ? "a pipe" : "a temporary file", strerror(errno));
  } else {
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_adddup2(&fa, fds[1], 1);
    posix_spawn_file_actions_adddup2(&fa, fileno(err), 2);
    posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
    posix_spawnattr_init(&at);
    posix_spawnattr_setsigmask(&at, &none);
    posix_spawnattr_setsigdefault(&at, &dfl);
    posix_spawnattr_setflags(&at, POSIX_SPAWN_SETSIGMASK |
                                      POSIX_SPAWN_SETSIGDEF);
    int e = posix_spawn(&pid, argv[0], &fa, &at, argv, env.v);
    posix_spawn_file_actions_destroy(&fa);
    posix_spawnattr_destroy(&at);
    close(fds[1]);
    if (e) {
      rc = cr_diag_set(d, CR_EIO, -1, "cannot run %s: %s", argv[0],
                       strerror(e));
    } else {
      char chunk[65536];
      ssize_t got;
      while ((got = read(fds[0], chunk, sizeof chunk)) != 0) {
        if (got < 0 && errno == EINTR) continue;
        if (got < 0) break;
        cr_buf_put(out, chunk, (size_t)got);
      }
      /* a program that ignores SIGCHLD has its children reaped for it:
      ** no status then, and the summary's checksum is the judge */
      int status = 0;
      while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {}
      if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        char said[2048] = "";
        size_t n = 0;
        if (fseek(err, 0, SEEK_SET) == 0)
          n = fread(said, 1, sizeof said - 1, err);
        said[n] = '\0';
        while (n && (said[n - 1] == '\n')) said[--n] = '\0';
        rc = cr_diag_set(d, CR_EIO, -1, "%s %s: %s", argv[0],
                         WIFEXITED(status) ? "failed" : "died",
                         n ? said : "(it said nothing)");
      } else if (out->err) {
        rc = cr_diag_set(d, CR_ENOMEM, -1, "out of memory");
      }
    }
    close(fds[0]);
  }
  if (err) fclose(err);
  strv_free(&env);
  return rc;
}

/* Agent only: the whole hierarchy of the JVM's class path, into L.h. */
static int load_class_path(jvmtiEnv *j, cr_diag *d) {
  char *cp = property(j, "java.class.path");
  char *home = property(j, "java.home");
  strv argv = {0};
  cr_buf sum;
  cr_buf_init(&sum);
  int rc = -1;
  if (!home) {
    cr_diag_set(d, CR_EIO, -1, "the JVM names no java.home");
  } else if (analysis_argv(&argv, cp ? cp : "", d) == 0 &&
             run_analysis(argv.v, home, &sum, d) == 0) {
    rc = cr_hier_load_mem(L.h, sum.data, sum.len, "the class path's summary",
                          -1, d);
  }
  cr_buf_free(&sum);
  strv_free(&argv);
  free(cp);
  free(home);
  return rc;
}

/*
** The JDK's classes from the rewriter's cache of them, when it holds an
** entry for image 'img' as it is now (jdkcache.c: the entry's first line
** names the image's real path, size and modification time): 0 when
** loaded, -1 when there is none (or it does not load: nothing added).
*/
static int load_jdk_cached(const char *img) {
  char real[PATH_MAX], dir[PATH_MAX], want[PATH_MAX + 128];
  struct stat st;
  const char *x = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
  if (!realpath(img, real) || stat(real, &st) != 0) return -1;
  if (x && x[0] == '/') snprintf(dir, sizeof dir, "%s/cccp", x);
  else if (home && home[0] == '/')
    snprintf(dir, sizeof dir, "%s/.cache/cccp", home);
  else return -1;
  char size[96];
  snprintf(want, sizeof want, "cccp-jdk-summary 1 image=%s tool=", real);
  snprintf(size, sizeof size, " | size=%lld mtime=%lld.%09ld ",
           (long long)st.st_size, (long long)st.st_mtim.tv_sec,
           st.st_mtim.tv_nsec);
  DIR *dh = opendir(dir);
  if (!dh) return -1;
  int rc = -1;
  for (struct dirent *e; rc && (e = readdir(dh));) {
    size_t n = strlen(e->d_name);
    if (strncmp(e->d_name, "jdk-", 4) != 0 || n < 12 ||
        strcmp(e->d_name + n - 8, ".summary") != 0)
      continue;
    char path[PATH_MAX * 2], key[PATH_MAX * 2 + 512];
    snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
    FILE *f = fopen(path, "r");
    if (!f) continue;
    int ok = fgets(key, sizeof key, f) && strncmp(key, want, strlen(want)) == 0 &&
             strstr(key, size) != NULL;
    fclose(f);
    if (!ok) continue;
    uint8_t *buf = NULL;
    size_t len = 0, kl = strlen(key);
    cr_diag d;
    cr_diag_clear(&d);
    if (cr_read_file(&buf, &len, path, &d) == 0 && len > kl &&
        cr_hier_load_mem(L.h, buf + kl, len - kl, path, CR_HIER_EXTERNAL,
                         &d) == 0)
      rc = 0;
    cr_free(buf);
  }
  closedir(dh);
  return rc;
}

/*
** The classes of the JVM's own run-time image (java.home/lib/modules)
** into L.h as library classes, as the rewrite adds the JDK of an app-mode
** rewrite (a module's class is the JDK's, an incubator module's not):
** from the rewriter's cache when it has them, else read from the image.
*/
static int load_jdk(jvmtiEnv *j, cr_diag *d) {
  char *home = property(j, "java.home");
  char img[4096];
  cr_input *in = NULL;
  int rc = !home ? cr_diag_set(d, CR_EIO, -1, "the JVM names no java.home")
                 : cr_jdk_modules_path(img, sizeof img, home, d);
  free(home);
  if (rc) return rc;
  if (load_jdk_cached(img) == 0) return 0;
  if ((rc = cr_input_open(&in, img, d))) return rc;
  for (size_t i = 0, n = cr_input_count(in); !rc && i < n; i++) {
    cr_entry_info e;
    cr_input_info(in, i, &e);
    size_t k = strlen(e.name);
    if (e.is_dir || k < 6 || strcmp(e.name + k - 6, ".class") != 0 ||
        strcmp(e.name, "module-info.class") == 0)
      continue;
    uint8_t *b = NULL;
    size_t len = 0;
    if ((rc = cr_input_read(in, i, &b, &len, d))) break;
    cr_arena *a = cr_arena_new();
    cr_class *c;
    if (!a) {
      rc = cr_diag_set(d, CR_ENOMEM, -1, "out of memory");
    } else if ((rc = cr_cf_parse(&c, a, b, len, d)) == 0) {
      unsigned kind = e.module && strncmp(e.module, "jdk.incubator.", 14)
                          ? CR_HIER_JDK_MODULE : 0;
      rc = cr_hier_add_class(L.h, c, kind,
                             (uint64_t)CR_HIER_EXTERNAL << 32 | i, d);
    }
    cr_arena_free(a);
    cr_free(b);
  }
  cr_input_close(in);
  return rc;
}

/* JDK mode: the summary of the instrumented JDK whose folder holds this
** library (its options file loads it from there). */
static int load_jdk_summary(cr_diag *d) {
  char path[PATH_MAX + 16];
  if (cr_agent_beside(path, sizeof path, "jdk.summary") != 0)
    return cr_diag_set(d, CR_EIO, -1, "the native agent cannot tell its "
                       "own folder");
  return cr_hier_load(L.h, path, d);
}

/* The hierarchy of the summary, linked and analysed, once; 0 when ready. */
static int ready(jvmtiEnv *j) {
  if (L.broken) return -1;
  if (L.h) return 0;
  double t0 = now();
  cr_diag d;
  cr_diag_clear(&d);
  if (cr_policy_new(&L.pol, 1, &d) != 0 || cr_hier_new(&L.h, &d) != 0 ||
      (L.agent_file    ? load_class_path(j, &d)
       : L.app_summary ? cr_hier_load(L.h, L.app_summary, &d) ||
                             (L.jdk_mode ? load_jdk_summary(&d)
                                         : load_jdk(j, &d))
                       : cr_hier_load(L.h, L.summary_path, &d)) != 0 ||
      cr_hier_link(L.h, &d) != 0 || cr_hier_analyze(L.h, L.pol, &d) != 0) {
    char msg[3072];
    cr_diag_format(&d, msg, sizeof msg);
    fprintf(stderr, "cccp: %s are not instrumented: %s\n",
            L.agent_file ? "classes" : "classes defined at run time", msg);
    cr_hier_free(L.h);
    L.h = NULL;
    L.broken = 1;
    return -1;
  }
#ifdef __GLIBC__
  malloc_trim(0);   /* what parsing the image used goes back to the system */
#endif
  if (getenv("CCCP_LOAD_DEBUG"))
    fprintf(stderr, "cccp: %s read in %.3f s\n",
            L.agent_file    ? "the class path"
            : L.app_summary ? L.app_summary
                            : L.summary_path,
            now() - t0);
  return 0;
}

static int failed(const char *name) {
  for (size_t i = 0; i < L.nfailed; i++)
    if (strcmp(L.failed[i], name) == 0) return 1;
  return 0;
}

/* Whether a failed class is 'name' or among its superclasses. */
static int failed_super(const char *name) {
  for (const cr_hclass *c = cr_hier_class(L.h, name); c;
       c = cr_hier_class(L.h, cr_hclass_super(c) ? cr_hclass_super(c) : ""))
    if (failed(cr_hclass_name(c))) return 1;
  return 0;
}

/* Whether supertype 'name' is known and complete, and no failed class is
** among its superclasses. */
static int known(const char *name) {
  const cr_hclass *c = cr_hier_class(L.h, name);
  return c && cr_hclass_complete(c) && !failed_super(name);
}

static void note_failed(const char *name) {
  char **v = realloc(L.failed, (L.nfailed + 1) * sizeof *v);
  if (!v) return;
  L.failed = v;
  if ((v[L.nfailed] = strdup(name))) L.nfailed++;
}

/* CCCP_LOAD_DUMP=DIR: each class instrumented here into DIR/NAME.class,
** to compare with what the rewrite writes. */
static void dump(const char *name, const cr_buf *b) {
  const char *dir = getenv("CCCP_LOAD_DUMP");
  if (!dir || !*dir) return;
  char path[4096];
  snprintf(path, sizeof path, "%s/%s.class", dir, name);
  for (char *s = path + 1; (s = strchr(s, '/')); s++) {
    *s = '\0';
    mkdir(path, 0777);
    *s = '/';
  }
  FILE *f = fopen(path, "wb");
  if (!f) return;
  fwrite(b->data, 1, b->len, f);
  fclose(f);
}

/* Each -XX:+DontCompileHugeMethods (1) or -XX:-DontCompileHugeMethods (0)
** in 'n' bytes at 's', in order, into '*on'. */
static void huge_flag_scan(const char *s, size_t n, int *on) {
  static const char flag[] = "DontCompileHugeMethods";
  const size_t k = sizeof flag - 1;
  for (size_t i = 5; i + k <= n; i++)
    if (memcmp(s + i, flag, k) == 0 && memcmp(s + i - 5, "-XX:", 4) == 0 &&
        (s[i - 1] == '+' || s[i - 1] == '-'))
      *on = s[i - 1] == '+';
}

/* The same in the file 'path' (an argument file, -XX:VMOptionsFile). */
static void huge_flag_file(const char *path, int *on) {
  uint8_t *b = NULL;
  size_t n = 0;
  cr_diag d;
  if (cr_read_file(&b, &n, path, &d) != 0) return;
  huge_flag_scan((const char *)b, n, on);
  cr_free(b);
}

static void huge_flag_env(const char *name, int *on) {
  const char *v = getenv(name);
  if (v) huge_flag_scan(v, strlen(v), on);
}

/*
** Whether HotSpot's limit for compiling a method is on in this JVM, as
** far as its options tell: the last DontCompileHugeMethods of
** JAVA_TOOL_OPTIONS, JDK_JAVA_OPTIONS, the command line with its argument
** files (the options files of cccp-rewrite among them) and
** _JAVA_OPTIONS, the order in which the launcher and HotSpot read them.
** On (HotSpot's default) when the command line cannot be read.
*/
static int huge_limit_on(void) {
  int on = 1;
  huge_flag_env("JAVA_TOOL_OPTIONS", &on);
  huge_flag_env("JDK_JAVA_OPTIONS", &on);
  int fd = open("/proc/self/cmdline", O_RDONLY | O_CLOEXEC);
  if (fd >= 0) {
    char *b = NULL;
    size_t n = 0, cap = 0;
    for (;;) {
      if (n + 4096 + 1 > cap) {
        char *m = realloc(b, cap = cap * 2 + 8192);
        if (!m) break;
        b = m;
      }
      ssize_t r = read(fd, b + n, cap - n - 1);
      if (r <= 0) break;
      n += (size_t)r;
    }
    close(fd);
    if (b) b[n] = '\0';  /* the last argument ends in one already */
    for (size_t i = 0; b && i < n; i += strlen(b + i) + 1) {
      const char *a = b + i;
      if (a[0] == '@') huge_flag_file(a + 1, &on);
      else if (strncmp(a, "-XX:VMOptionsFile=", 18) == 0)
        huge_flag_file(a + 18, &on);
      else huge_flag_scan(a, strlen(a), &on);
    }
    free(b);
  }
  huge_flag_env("_JAVA_OPTIONS", &on);
  return on;
}

/*
** cccp.rt.Dump.hugeInterpreted0(): the method bodies instrumented here
** that pass HotSpot's limit for compiling a method only instrumented, as
** the profile's "huge-interpreted" says them (cccp-report notes them):
** 0 when the limit is off, or when nothing was. Not said on stderr as
** they load: the program's output stays its own. The options file of a
** rewrite turns the limit off where a rewritten body passes it, which no
** class instrumented here can.
*/
JNIEXPORT jlong JNICALL Java_cccp_rt_Dump_hugeInterpreted0(JNIEnv *env,
                                                          jclass self);
JNIEXPORT jlong JNICALL Java_cccp_rt_Dump_hugeInterpreted0(JNIEnv *env,
                                                          jclass self) {
  (void)env;
  (void)self;
  pthread_mutex_lock(&L.mu);
  uint64_t n = L.huge;
  if (n && L.huge_on < 0) L.huge_on = huge_limit_on();  /* once: each
                                           snapshot's dump asks again */
  int on = L.huge_on;
  pthread_mutex_unlock(&L.mu);
  return n && on ? (jlong)n : 0;
}

/*
** Instrument class 'name' (bytes 'in'): 0 and the new bytes in 'out', 1
** when it stays as it is (said on stderr when that is worth saying), -1
** when memory ran out.
*/
static int rewrite(const char *name, const uint8_t *in, size_t len,
                   cr_buf *out) {
  double t0 = now();
  cr_diag d;
  cr_diag_clear(&d);
  /* seen ahead of time: rewritten, or a library; agent only, a class of
  ** the class path, which the analysis took as rewritten */
  const cr_hclass *hc = cr_hier_class(L.h, name);
  if (hc && !(L.agent_file && cr_hclass_instrumented(hc))) return 1;
  cr_arena *a = cr_arena_new();
  if (!a) return -1;
  int rc = 1, added = 0;
  cr_class *c;
  /* bytes that are no class file: the JVM says so itself */
  if (cr_cf_parse(&c, a, in, len, &d) != 0) {
    rc = d.code == CR_ENOMEM ? -1 : 1;
    goto out;
  }
  /* its supertypes known (a superclass loads after its subclass's hook) */
  const char *sup = c->super_class ? cr_cp_class_name(c->cp, c->super_class)
                                    : NULL;
  int ok = !sup || (hc ? !failed_super(sup) : known(sup));
  for (uint32_t i = 0; ok && !hc && i < c->interfaces.n; i++) {
    const char *f = cr_cp_class_name(c->cp, c->interfaces.v[i]);
    ok = f && known(f);
  }
  if (!ok) {
    if (getenv("CCCP_LOAD_DEBUG"))
      fprintf(stderr, "cccp: %s: supertypes unknown\n", name);
    goto out;
  }
  if (!hc) {
    if (cr_hier_extend(L.h, c, CR_HIER_INSTRUMENTED, 0, L.pol, &hc, &d) != 0)
      goto fail;
  }
  added = 1;
  if (cr_hclass_in_jdk_package(hc)) goto out;
  cr_xf_opts xo;
  memset(&xo, 0, sizeof xo);
  cr_typeinfo ti = cr_hier_typeinfo(L.h);
  xo.h = L.h;
  xo.pol = L.pol;
  xo.env.ti = &ti;
  xo.env.missing = no_missing;
  xo.warn = xf_warn;
  xo.ctx = (void *)name;
  if (cr_xf_cccp(c, &xo, &d) != 0 || cr_cf_write(out, c, &d) != 0 ||
      out->err)
    goto fail;
  rc = xo.nskipped ? 1 : 0;
  if (rc == 0) dump(name, out);
  if (rc == 0) L.huge += xo.nhuge_run;
  if (getenv("CCCP_LOAD_DEBUG"))
    fprintf(stderr, "cccp: %s: instrumented in %.4f s\n", name, now() - t0);
  goto out;
fail:
  if (added) note_failed(name);
  if (d.code == CR_ENOMEM) {
    rc = -1;
  } else {
    char msg[1024], line[1200];
    cr_diag_format(&d, msg, sizeof msg);
    snprintf(line, sizeof line, "left uninstrumented: %s", msg);
    cr_agent_say(name, line);
  }
out:
  if (rc != 0 && added && !failed(name)) note_failed(name);
  cr_arena_free(a);
  return rc;
}

void JNICALL cr_agent_class_hook(jvmtiEnv *j, JNIEnv *env, jclass redefined,
                                 jobject loader, const char *name,
                                 jobject domain, jint len,
                                 const unsigned char *data, jint *new_len,
                                 unsigned char **new_data) {
  (void)domain;
  /* the platform loader defines only the JDK's classes (javax.script,
  ** java.sql, ...): none is asked of the hierarchy, which would be made
  ** for it (0.2 s and 60 MiB) only to say so */
  if (redefined || !loader || !name || len <= 0 || jdk_name(name) ||
      cr_agent_names_runtime(data, len) ||
      (L.platform && (*env)->IsSameObject(env, loader, L.platform)))
    return;
  pthread_mutex_lock(&L.mu);
  if (ready(j) == 0 && !cr_hier_jdk_package(L.h, name)) {
    cr_buf b;
    cr_buf_init(&b);
    int rc = rewrite(name, data, (size_t)len, &b);
    unsigned char *mem = NULL;
    if (rc == 0 && b.len <= INT32_MAX &&
        (*j)->Allocate(j, (jlong)b.len, &mem) == JVMTI_ERROR_NONE) {
      memcpy(mem, b.data, b.len);
      *new_data = mem;
      *new_len = (jint)b.len;
    } else if (rc == 0) {
      note_failed(name);
    }
    cr_buf_free(&b);
  }
  pthread_mutex_unlock(&L.mu);
}
