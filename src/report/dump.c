/*
** dump.c -- 'cccp-report dump PID -o FILE': a snapshot of the profile of a
** running instrumented JVM. HotSpot's attach mechanism loads the native
** agent the JVM loaded at startup once more, and the agent asks the
** runtime to write the profile (src/agent/agent.c).
**
** The target is checked before anything is sent to it: a live process of
** this user (or any, for root), a JVM (libjvm.so mapped), running cccp
** (libcccp-agent.so mapped, whose path the request names). Nothing that
** fails a check is signalled or attached to.
*/
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <pwd.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "../agent/agent.h"
#include "report.h"

/* HotSpot's attach protocol, version 1 (JDK 17 and 25): no argument may
** be longer than this. */
#define ARG_MAX_LEN 1024
/* How long the attach listener may take to start after SIGQUIT (ms). */
#define LISTENER_WAIT_MS 10000
/* The reply is a status line and a few lines of text: more is not read. */
#define REPLY_MAX 65536

/* What /proc says of the process to dump. */
typedef struct target {
  pid_t pid;
  int pidfd;             /* -1 where pidfd_open is missing */
  pid_t nspid;           /* its pid in its own namespace (NSpid) */
  pid_t tgid;
  uid_t uid;             /* effective */
  gid_t gid;
  uint64_t sigcgt, sigign;
  char state;
  char name[64];
  char agent[PATH_MAX];  /* libcccp-agent.so as mapped */
  int agent_deleted;     /* maps says "(deleted)" */
  int jvm;               /* libjvm.so is mapped */
} target;

static volatile sig_atomic_t interrupted;

static void on_signal(int sig) {
  (void)sig;
  interrupted = 1;
}

static long long now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* 1 when the process has exited, or exits within 'ms' milliseconds. */
static int gone(const target *t, int ms) {
  if (t->pidfd >= 0) {
    struct pollfd p = {t->pidfd, POLLIN, 0};
    return poll(&p, 1, ms) == 1;
  }
  for (long long end = now_ms() + ms;; ) {
    if (kill(t->pid, 0) != 0 && errno == ESRCH) return 1;
    if (now_ms() >= end) return 0;
    struct timespec ts = {0, 20 * 1000000L};
    nanosleep(&ts, NULL);
  }
}

/*
** The whole file 'path' (at most 'max' bytes, NUL-terminated, '*len'
** bytes), owned by the caller ('cr_free'); NULL with errno set.
*/
static char *slurp(const char *path, size_t max, size_t *len) {
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return NULL;
  size_t cap = 4096, n = 0;
  char *b = cr_malloc(cap + 1);
  int err = b ? 0 : ENOMEM;
  while (b && !err) {
    if (n == cap) {
      if (cap >= max) break;
      cap = cap * 2 > max ? max : cap * 2;
      char *nb = cr_realloc(b, cap + 1);
      if (!nb) {
        err = ENOMEM;
        break;
      }
      b = nb;
    }
    ssize_t k = read(fd, b + n, cap - n);
    if (k < 0 && errno == EINTR) continue;
    if (k < 0) err = errno;
    if (k <= 0) break;
    n += (size_t)k;
  }
  close(fd);
  if (err) {
    cr_free(b);
    errno = err;
    return NULL;
  }
  b[n] = '\0';
  if (len) *len = n;
  return b;
}

/* The value after "key:" in /proc/PID/status text 's', or NULL. */
static const char *field(const char *s, const char *key) {
  size_t k = strlen(key);
  while (*s) {
    if (strncmp(s, key, k) == 0 && s[k] == ':') return s + k + 1;
    s += strcspn(s, "\n");
    if (*s) s++;
  }
  return NULL;
}

/* "user NAME (uid N)" into 'buf'. */
static const char *who(char *buf, size_t n, uid_t uid) {
  struct passwd *pw = getpwuid(uid);
  if (pw) snprintf(buf, n, "user %s (uid %u)", pw->pw_name, (unsigned)uid);
  else snprintf(buf, n, "uid %u", (unsigned)uid);
  return buf;
}

/*
** Read /proc/PID/status into 't'. Returns 0, or an exit status with the
** message printed.
*/
static int read_status(target *t) {
  char path[64];
  snprintf(path, sizeof path, "/proc/%d/status", (int)t->pid);
  char *s = slurp(path, 1 << 16, NULL);
  if (!s) {
    if (errno == ENOENT || errno == ESRCH)
      rp_error("process %d does not exist", (int)t->pid);
    else
      rp_error("cannot read %s: %s", path, strerror(errno));
    return RP_EXIT_TARGET;
  }
  const char *v;
  unsigned long a = 0, b = 0;
  int ok = 1;
  if ((v = field(s, "Name"))) {
    v += strspn(v, " \t");
    snprintf(t->name, sizeof t->name, "%.*s", (int)strcspn(v, "\n"), v);
  }
  if ((v = field(s, "State"))) t->state = v[strspn(v, " \t")];
  ok &= (v = field(s, "Tgid")) && sscanf(v, "%lu", &a) == 1;
  t->tgid = (pid_t)a;
  ok &= (v = field(s, "Uid")) && sscanf(v, "%lu %lu", &a, &b) == 2;
  t->uid = (uid_t)b;
  ok &= (v = field(s, "Gid")) && sscanf(v, "%lu %lu", &a, &b) == 2;
  t->gid = (gid_t)b;
  t->nspid = t->pid;
  if ((v = field(s, "NSpid"))) {
    /* the last of the list: the pid in the process's own namespace */
    for (const char *e = v + strcspn(v, "\n"); v < e;) {
      char *end;
      unsigned long p = strtoul(v, &end, 10);
      if (end == v) break;
      t->nspid = (pid_t)p;
      v = end;
    }
  }
  ok &= (v = field(s, "SigCgt")) && sscanf(v, "%lx", &a) == 1;
  t->sigcgt = a;
  ok &= (v = field(s, "SigIgn")) && sscanf(v, "%lx", &a) == 1;
  t->sigign = a;
  cr_free(s);
  if (!ok) {
    rp_error("%s: unexpected contents", path);
    return RP_EXIT_TARGET;
  }
  return 0;
}

/* 1 if 'path' (from a maps line) names a file called 'base'. */
static int named(const char *path, size_t n, const char *base) {
  size_t k = strlen(base);
  return n >= k + 1 && memcmp(path + n - k, base, k) == 0 &&
         path[n - k - 1] == '/';
}

/*
** Read /proc/PID/maps: is libjvm.so mapped, and where is libcccp-agent.so
** mapped from. Returns 0, or an exit status with the message printed.
*/
static int read_maps(target *t) {
  char path[64];
  snprintf(path, sizeof path, "/proc/%d/maps", (int)t->pid);
  FILE *f = fopen(path, "re");
  if (!f) {
    if (errno == ENOENT || errno == ESRCH)
      rp_error("process %d has exited", (int)t->pid);
    else
      rp_error("cannot read the memory map of process %d (%s): %s",
               (int)t->pid, t->name, strerror(errno));
    return RP_EXIT_TARGET;
  }
  static const char deleted[] = " (deleted)";
  char *line = NULL;
  size_t cap = 0;
  ssize_t len;
  while ((len = getline(&line, &cap, f)) > 0) {
    if (line[len - 1] == '\n') line[--len] = '\0';
    /* start-end perms offset dev inode path */
    int off = 0;
    if (sscanf(line, "%*s %*s %*s %*s %*s %n", &off) != 0 || off <= 0 ||
        line[off] != '/')
      continue;
    char *p = line + off;
    size_t n = (size_t)(len - off);
    int del = n > sizeof deleted - 1 &&
              strcmp(p + n - (sizeof deleted - 1), deleted) == 0;
    if (del) n -= sizeof deleted - 1;
    if (named(p, n, "libjvm.so")) t->jvm = 1;
    if (named(p, n, "libcccp-agent.so") && !t->agent[0] &&
        n < sizeof t->agent) {
      memcpy(t->agent, p, n);
      t->agent[n] = '\0';
      t->agent_deleted = del;
    }
  }
  free(line);
  fclose(f);
  return 0;
}

/* ---------------------------------------- -XX:+DisableAttachMechanism */

/* JVM options that take the next argument as their value. */
static const char *const with_value[] = {
  "-cp", "-classpath", "--class-path", "-p", "--module-path",
  "--upgrade-module-path", "--add-modules", "--enable-native-access",
  "--limit-modules", "--add-exports", "--add-opens", "--add-reads",
  "--patch-module", "--source", "-d", "--describe-module", NULL
};

typedef struct scan {
  int disabled;          /* the last setting seen */
  int skip;              /* the next argument is an option's value */
  int done;              /* the main class is reached: program arguments */
} scan;

static void scan_file(scan *sc, const char *path, int pid);

/* One JVM option 'a' of process 'pid', from its command line ('argv':
** the main class ends the options, '@FILE' names an argument file) or
** from an environment variable. */
static void scan_arg(scan *sc, const char *a, int argv, int pid) {
  if (sc->done) return;
  if (strcmp(a, "-XX:+DisableAttachMechanism") == 0) sc->disabled = 1;
  if (strcmp(a, "-XX:-DisableAttachMechanism") == 0) sc->disabled = 0;
  if (!argv) return;
  if (sc->skip) {
    sc->skip = 0;
    return;
  }
  if (a[0] == '@' && a[1]) {
    scan_file(sc, a + 1, pid);
    return;
  }
  if (strcmp(a, "-jar") == 0 || strcmp(a, "-m") == 0 ||
      strcmp(a, "--module") == 0 || a[0] != '-') {
    sc->done = 1;
    return;
  }
  for (size_t i = 0; with_value[i]; i++)
    if (strcmp(a, with_value[i]) == 0) sc->skip = 1;
}

/* The arguments of argument file 'path' (as the target names it, from
** its root or its working folder), split as the launcher does, roughly:
** blanks, quotes, '#' comments. */
static void scan_file(scan *sc, const char *path, int pid) {
  char full[PATH_MAX + 64];
  snprintf(full, sizeof full, "/proc/%d/%s/%s", pid,
           path[0] == '/' ? "root" : "cwd", path);
  char *s = slurp(full, 1 << 20, NULL);
  if (!s) return;
  for (char *r = s; !sc->done;) {
    r += strspn(r, " \t\r\n");
    if (!*r) break;
    if (*r == '#') {
      r += strcspn(r, "\n");
      continue;
    }
    char *tok = r, *w = r, q = 0;
    for (; *r && (q || !strchr(" \t\r\n", *r)); r++) {
      if (!q && (*r == '"' || *r == '\'')) q = *r;
      else if (q && *r == q) q = 0;
      else *w++ = *r;
    }
    char c = *r;
    *w = '\0';
    scan_arg(sc, tok, 1, pid);
    if (!c) break;
    r++;
  }
  cr_free(s);
}

/* The blank-separated options of environment variable 'name' in the
** target's environment 'env' ('n' bytes, NUL-separated). */
static void scan_env(scan *sc, const char *env, size_t n, const char *name,
                     int pid) {
  size_t k = strlen(name);
  for (const char *e = env; e < env + n; e += strlen(e) + 1) {
    if (strncmp(e, name, k) != 0 || e[k] != '=') continue;
    size_t vn = strlen(e + k + 1) + 1;
    char *v = cr_malloc(vn);
    if (v) memcpy(v, e + k + 1, vn);
    for (char *save = NULL, *a = v ? strtok_r(v, " \t\n", &save) : NULL; a;
         a = strtok_r(NULL, " \t\n", &save))
      scan_arg(sc, a, 0, pid);
    cr_free(v);
  }
}

/*
** 1 if the target was started with -XX:+DisableAttachMechanism (then
** SIGQUIT prints a thread dump instead of starting the attach listener).
** Looked for, last one winning, where the launcher and the JVM read
** options: JAVA_TOOL_OPTIONS, JDK_JAVA_OPTIONS, the command line before
** the main class (argument files too), _JAVA_OPTIONS. -XX:Flags and
** -XX:VMOptionsFile files are not read.
*/
static int attach_disabled(const target *t) {
  char path[64];
  scan sc = {0, 0, 0};
  size_t en = 0, an = 0;
  snprintf(path, sizeof path, "/proc/%d/environ", (int)t->pid);
  char *env = slurp(path, 1 << 20, &en);
  snprintf(path, sizeof path, "/proc/%d/cmdline", (int)t->pid);
  char *args = slurp(path, 1 << 20, &an);
  if (env) {
    scan_env(&sc, env, en, "JAVA_TOOL_OPTIONS", (int)t->pid);
    scan_env(&sc, env, en, "JDK_JAVA_OPTIONS", (int)t->pid);
  }
  if (args)
    for (const char *a = args + strlen(args) + 1; a < args + an;
         a += strlen(a) + 1)
      scan_arg(&sc, a, 1, (int)t->pid);
  sc.done = 0;
  if (env) scan_env(&sc, env, en, "_JAVA_OPTIONS", (int)t->pid);
  cr_free(env);
  cr_free(args);
  return sc.disabled;
}

/* ------------------------------------------------------------ attach */

/*
** Make sure the target's attach listener runs: its socket 'sock' is
** there, or the trigger file and SIGQUIT start it (HotSpot starts the
** listener on SIGQUIT when it finds .attach_pid<NSPID> in its working
** folder or in /tmp). The trigger is removed again. Returns 0, or an exit
** status with the message printed.
*/
static int start_listener(const target *t, const char *sock) {
  struct stat st;
  if (stat(sock, &st) == 0 && S_ISSOCK(st.st_mode)) return 0;
  int p = (int)t->pid;
  const uint64_t quit = (uint64_t)1 << (SIGQUIT - 1);
  if (!(t->sigcgt & quit) || (t->sigign & quit)) {
    rp_error("process %d has no attach socket and %s SIGQUIT (started with "
             "-Xrs?): the signal that starts the attach listener would %s",
             p, t->sigign & quit ? "ignores" : "does not catch",
             t->sigign & quit ? "do nothing" : "end it");
    return RP_EXIT_TARGET;
  }
  if (attach_disabled(t)) {
    rp_error("process %d was started with -XX:+DisableAttachMechanism: it "
             "cannot be attached to", p);
    return RP_EXIT_TARGET;
  }
  char trig[PATH_MAX];
  int fd = -1;
  static const char *const where[] = {"cwd", "root/tmp"};
  for (size_t i = 0; i < 2 && fd < 0; i++) {
    snprintf(trig, sizeof trig, "/proc/%d/%s/.attach_pid%d", p, where[i],
             (int)t->nspid);
    fd = open(trig, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
    if (fd < 0 && errno == EEXIST) {
      trig[0] = '\0';             /* another client's: theirs to remove */
      break;
    }
  }
  if (fd < 0 && trig[0]) {
    rp_error("cannot create the attach trigger for process %d in its "
             "working folder or /tmp: %s", p, strerror(errno));
    return RP_EXIT_SNAPSHOT;
  }
  if (fd >= 0) close(fd);
  int rc = 0;
  long r = t->pidfd >= 0
               ? syscall(SYS_pidfd_send_signal, t->pidfd, SIGQUIT, NULL, 0)
               : kill(t->pid, SIGQUIT);
  if (r != 0) {
    rp_error("process %d %s", p, errno == ESRCH ? "has exited"
                                                : "cannot be signalled");
    rc = RP_EXIT_SNAPSHOT;
  }
  for (long long end = now_ms() + LISTENER_WAIT_MS; rc == 0;) {
    if (stat(sock, &st) == 0 && S_ISSOCK(st.st_mode)) break;
    if (gone(t, 0)) {
      rp_error("process %d exited while its attach listener started", p);
      rc = RP_EXIT_SNAPSHOT;
    } else if (interrupted) {
      rp_error("interrupted");
      rc = RP_EXIT_SNAPSHOT;
    } else if (now_ms() > end) {
      rp_error("process %d did not start its attach listener within %d s "
               "(started with -XX:+DisableAttachMechanism?)", p,
               LISTENER_WAIT_MS / 1000);
      rc = RP_EXIT_SNAPSHOT;
    } else {
      struct timespec ts = {0, 20 * 1000000L};
      nanosleep(&ts, NULL);
    }
  }
  if (trig[0]) unlink(trig);
  return rc;
}

/* Send all 'n' bytes of 'b'; 0 or -1. */
static int send_all(int s, const char *b, size_t n) {
  while (n) {
    ssize_t k = send(s, b, n, MSG_NOSIGNAL);
    if (k < 0 && errno == EINTR && !interrupted) continue;
    if (k <= 0) return -1;
    b += k;
    n -= (size_t)k;
  }
  return 0;
}

/*
** Send the 'load' request (attach protocol version 1: "1\0load\0LIBRARY
** \0true\0OPTIONS\0") to socket 'sock' and read the reply into 'buf' (at
** most 'cap' - 1 bytes, NUL-terminated), waiting at most 'timeout'
** seconds (0: no limit). Returns 0, or an exit status with the message
** printed.
*/
static int request(char *buf, size_t cap, const target *t, const char *sock,
                   const char *opts, long timeout) {
  int p = (int)t->pid;
  struct sockaddr_un sa;
  memset(&sa, 0, sizeof sa);
  sa.sun_family = AF_UNIX;
  if (strlen(sock) >= sizeof sa.sun_path) {
    rp_error("%s: path too long for a socket", sock);
    return RP_EXIT_SNAPSHOT;
  }
  strcpy(sa.sun_path, sock);
  int s = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (s < 0) {
    rp_error("cannot create a socket: %s", strerror(errno));
    return RP_EXIT_SNAPSHOT;
  }
  if (connect(s, (struct sockaddr *)&sa, sizeof sa) != 0) {
    rp_error("process %d does not accept the connection to %s: %s", p,
             sock, strerror(errno));
    close(s);
    return RP_EXIT_SNAPSHOT;
  }
  char req[3 * (ARG_MAX_LEN + 1) + 16];
  size_t n = 0;
  const char *parts[] = {"1", "load", t->agent, "true", opts};
  for (size_t i = 0; i < 5; i++) {
    size_t k = strlen(parts[i]) + 1;
    if (k > ARG_MAX_LEN + 1 || n + k > sizeof req) {
      rp_error("process %d: the request is too long for the attach "
               "protocol", p);
      close(s);
      return RP_EXIT_SNAPSHOT;
    }
    memcpy(req + n, parts[i], k);
    n += k;
  }
  if (send_all(s, req, n) != 0) {
    rp_error("process %d closed the connection: %s", p,
             interrupted ? "interrupted" : strerror(errno));
    close(s);
    return RP_EXIT_SNAPSHOT;
  }
  shutdown(s, SHUT_WR);
  long long end = timeout > 0 ? now_ms() + timeout * 1000LL : 0;
  size_t got = 0;
  int rc = 0;
  for (;;) {
    int wait = 1000;
    if (end) {
      long long left = end - now_ms();
      if (left <= 0) {
        rp_error("process %d did not answer within %ld s (--timeout); the "
                 "snapshot may still be written", p, timeout);
        rc = RP_EXIT_SNAPSHOT;
        break;
      }
      if (left < wait) wait = (int)left;
    }
    struct pollfd pf = {s, POLLIN, 0};
    int k = poll(&pf, 1, wait);
    if (interrupted) {
      rp_error("interrupted (the snapshot may still be written)");
      rc = RP_EXIT_SNAPSHOT;
      break;
    }
    if (k == 0 || (k < 0 && errno == EINTR)) continue;
    char tmp[4096];
    ssize_t r = k < 0 ? -1 : read(s, tmp, sizeof tmp);
    if (r < 0 && errno == EINTR) continue;
    if (r < 0) {
      rp_error("process %d: the connection failed: %s", p, strerror(errno));
      rc = RP_EXIT_SNAPSHOT;
      break;
    }
    if (r == 0) break;
    size_t keep = (size_t)r < cap - 1 - got ? (size_t)r : cap - 1 - got;
    memcpy(buf + got, tmp, keep);
    got += keep;
  }
  buf[got] = '\0';
  close(s);
  return rc;
}

/* The first line of 's' (at most 'n' bytes, escaped) into 'out'. */
static const char *first_line(char *out, size_t n, const char *s) {
  char line[1024];
  snprintf(line, sizeof line, "%.*s", (int)strcspn(s, "\n"), s);
  cr_escape(out, n, line);
  return out;
}

/*
** Read the reply 'r': a status line ("0": the command ran), then the
** agent's return value as "return code: N" (JDK 21 and later, and recent
** JDK 17 updates) or "N" (older ones), or HotSpot's reason for not
** loading it. The agent's code into '*code'; else an exit status with
** the message printed.
*/
static int parse_reply(int *code, const char *r, const target *t) {
  int p = (int)t->pid;
  char msg[1024];
  char *e;
  if (!*r) {
    /* the socket closes a little before the process is gone */
    if (gone(t, 2000)) rp_error("process %d exited during the snapshot", p);
    else rp_error("process %d closed the connection without answering", p);
    return RP_EXIT_SNAPSHOT;
  }
  long st = strtol(r, &e, 10);
  if (e == r || *e != '\n') {
    rp_error("process %d answered \"%s\", not an attach reply", p,
             first_line(msg, sizeof msg, r));
    return RP_EXIT_SNAPSHOT;
  }
  const char *body = e + 1;
  if (st == 101) {
    rp_error("process %d does not speak version 1 of the attach protocol",
             p);
    return RP_EXIT_SNAPSHOT;
  }
  const char *num = strncmp(body, "return code: ", 13) == 0 ? body + 13
                                                            : body;
  long c = strtol(num, &e, 10);
  if (st != 0 || e == num || (*e != '\n' && *e != '\0')) {
    rp_error("process %d did not load its agent %s: %s", p, t->agent,
             *body ? first_line(msg, sizeof msg, body) : "no reason given");
    return RP_EXIT_SNAPSHOT;
  }
  *code = (int)c;
  return 0;
}

/* The exit status and message for agent code 'c'. */
static int answer(int c, const target *t, const char *file, int verbose) {
  int p = (int)t->pid;
  char owner[96];
  switch (c) {
  case CR_AGENT_OK:
    if (verbose) fprintf(stderr, "cccp-report: process %d wrote %s\n", p,
                         file);
    return RP_EXIT_OK;
  case CR_AGENT_CANNOT_WRITE:
    if (t->uid != getuid())
      rp_error("process %d could not write %s as %s", p, file,
               who(owner, sizeof owner, t->uid));
    else
      rp_error("process %d could not write %s", p, file);
    return RP_EXIT_OUTPUT;
  case CR_AGENT_NOT_PROFILING:
    rp_error("process %d does not profile: its cccp runtime is off", p);
    return RP_EXIT_SNAPSHOT;
  case CR_AGENT_EXITING:
    rp_error("process %d is exiting: it writes its profile as it exits", p);
    return RP_EXIT_SNAPSHOT;
  case CR_AGENT_NO_RUNTIME:
    rp_error("process %d loaded libcccp-agent.so but has no cccp runtime "
             "(no class cccp.rt.Snapshot, or an older one)", p);
    return RP_EXIT_SNAPSHOT;
  case CR_AGENT_BAD_REQUEST:
    rp_error("process %d's agent refused the request (an older or newer "
             "libcccp-agent.so?)", p);
    return RP_EXIT_SNAPSHOT;
  case CR_AGENT_JNI:
    rp_error("process %d's agent could not call the runtime (JNI)", p);
    return RP_EXIT_SNAPSHOT;
  default:
    rp_error("process %d's agent answered %d, which this cccp-report does "
             "not know", p, c);
    return RP_EXIT_SNAPSHOT;
  }
}

/* 1 if 's' is well-formed UTF-8 (what the agent accepts). */
static int utf8(const char *s) {
  for (const unsigned char *u = (const unsigned char *)s; *u;) {
    unsigned more = *u < 0x80 ? 0 : *u >= 0xc2 && *u <= 0xdf ? 1
                  : (*u & 0xf0) == 0xe0 ? 2 : *u >= 0xf0 && *u <= 0xf4 ? 3
                  : 9;
    if (more == 9) return 0;
    uint32_t cp = more ? *u & (0x3f >> more) : *u;
    for (unsigned j = 1; j <= more; j++) {
      if ((u[j] & 0xc0) != 0x80) return 0;
      cp = cp << 6 | (u[j] & 0x3f);
    }
    static const uint32_t min[] = {0, 0x80, 0x800, 0x10000};
    if (cp < min[more] || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
      return 0;
    u += more + 1;
  }
  return 1;
}

/* -------------------------------------------------------------- dump */

/*
** Check the target, then attach (as the target's user when root, as
** jattach does: a trigger file or a connection from root's own ids does
** not count in a JVM whose user namespace does not map root).
*/
static int dump(target *t, const char *file, const rp_opts *o) {
  int rc, p = (int)t->pid;
  char owner[96];
  if ((rc = read_status(t))) return rc;
  if (t->tgid != t->pid) {
    rp_error("%d is a thread of process %d: dump the process", p,
             (int)t->tgid);
    return RP_EXIT_TARGET;
  }
  if (t->state == 'Z' || t->state == 'X') {
    rp_error("process %d has exited", p);
    return RP_EXIT_TARGET;
  }
  uid_t me = geteuid();
  if (me != 0 && t->uid != me) {
    rp_error("process %d belongs to %s: only that user or root can dump it",
             p, who(owner, sizeof owner, t->uid));
    return RP_EXIT_TARGET;
  }
  if (me != 0 && t->gid != getegid()) {
    rp_error("process %d runs with group id %u, this command with %u: a "
             "JVM takes requests only from its own user and group, or "
             "root", p, (unsigned)t->gid, (unsigned)getegid());
    return RP_EXIT_TARGET;
  }
  if ((rc = read_maps(t))) return rc;
  if (!t->jvm) {
    rp_error("process %d (%s) is not a JVM", p, t->name);
    return RP_EXIT_TARGET;
  }
  if (!t->agent[0]) {
    rp_error("process %d (%s) runs no cccp runtime: start it with java "
             "@DIR/cccp.args (the options file cccp-rewrite writes)", p,
             t->name);
    return RP_EXIT_TARGET;
  }
  if (t->agent_deleted) {
    rp_error("process %d: its %s was removed or replaced after it started "
             "(cccp-rewrite ran again into that folder?): loading it again "
             "could load another file; restart it to dump it", p, t->agent);
    return RP_EXIT_TARGET;
  }
  if (strlen(t->agent) > ARG_MAX_LEN) {
    rp_error("process %d: the path of its agent is longer than the attach "
             "protocol takes (%d bytes)", p, ARG_MAX_LEN);
    return RP_EXIT_TARGET;
  }
  /* what /proc said is about this process, not one that took its pid */
  if (gone(t, 0)) {
    rp_error("process %d has exited", p);
    return RP_EXIT_TARGET;
  }

  char opts[PATH_MAX + 64];   /* 'file' fits the protocol: checked */
  snprintf(opts, sizeof opts, "%s%c:%s", CR_AGENT_REQUEST,
           o->reset ? '1' : '0', file);
  char sock[128];
  snprintf(sock, sizeof sock, "/proc/%d/root/tmp/.java_pid%d", p,
           (int)t->nspid);
  if (me == 0 && (t->gid != getegid() || t->uid != me) &&
      (setegid(t->gid) != 0 || seteuid(t->uid) != 0)) {
    rp_error("cannot take the ids of process %d (%s): %s", p,
             who(owner, sizeof owner, t->uid), strerror(errno));
    return RP_EXIT_SNAPSHOT;
  }
  if ((rc = start_listener(t, sock))) return rc;
  char *reply = cr_malloc(REPLY_MAX);
  if (!reply) {
    rp_error("out of memory");
    return RP_EXIT_OUTPUT;
  }
  int code = 0;
  if ((rc = request(reply, REPLY_MAX, t, sock, opts, o->timeout)) == 0 &&
      (rc = parse_reply(&code, reply, t)) == 0)
    rc = answer(code, t, file, o->verbose);
  cr_free(reply);
  if (rc == RP_EXIT_OK) {
    /* the file as the target sees it, or here once it is gone */
    char seen[PATH_MAX + 64];
    struct stat st;
    snprintf(seen, sizeof seen, "/proc/%d/root%s", p, file);
    if (stat(seen, &st) != 0 && stat(file, &st) != 0) {
      rp_error("process %d answered that it wrote %s, but there is no such "
               "file", p, file);
      rc = RP_EXIT_OUTPUT;
    }
  }
  return rc;
}

int rp_cmd_dump(const rp_opts *o) {
  const char *arg = o->files[0];
  char *e = NULL;
  errno = 0;
  long pid = arg[0] >= '0' && arg[0] <= '9' ? strtol(arg, &e, 10) : -1;
  if (pid <= 0 || *e || errno || pid > INT_MAX) {
    rp_error("dump: \"%s\" is not a process id", arg);
    return RP_EXIT_USAGE;
  }
  /* the target's working folder is not ours: the path goes absolute */
  char file[PATH_MAX + 1];
  if (o->output[0] == '/') {
    snprintf(file, sizeof file, "%s", o->output);
  } else {
    char cwd[PATH_MAX];
    if (!getcwd(cwd, sizeof cwd)) {
      rp_error("dump: cannot get the working folder: %s", strerror(errno));
      return RP_EXIT_USAGE;
    }
    snprintf(file, sizeof file, "%s/%s", strcmp(cwd, "/") ? cwd : "",
             o->output);
  }
  size_t room = ARG_MAX_LEN - (sizeof CR_AGENT_REQUEST - 1) - 2;
  if (strlen(file) > room) {
    rp_error("dump: the output path %s is longer than the attach protocol "
             "takes (%zu bytes)", file, room);
    return RP_EXIT_USAGE;
  }
  if (!utf8(file)) {
    rp_error("dump: the output path %s is not UTF-8", file);
    return RP_EXIT_USAGE;
  }

  target t;
  memset(&t, 0, sizeof t);
  t.pid = (pid_t)pid;
  t.pidfd = (int)syscall(SYS_pidfd_open, t.pid, 0);
  if (t.pidfd < 0 && errno == ESRCH) {
    rp_error("process %ld does not exist", pid);
    return RP_EXIT_TARGET;
  }
  /* an interrupted wait still removes the trigger file */
  struct sigaction sa, old[3];
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = on_signal;
  sigemptyset(&sa.sa_mask);
  static const int sigs[] = {SIGINT, SIGTERM, SIGHUP};
  for (int i = 0; i < 3; i++) sigaction(sigs[i], &sa, &old[i]);
  int rc = dump(&t, file, o);
  for (int i = 0; i < 3; i++) sigaction(sigs[i], &old[i], NULL);
  if (t.pidfd >= 0) close(t.pidfd);
  return rc;
}
