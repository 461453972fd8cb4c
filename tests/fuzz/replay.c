/*
** replay.c -- runs fuzz inputs through the fuzz targets without libFuzzer,
** with any compiler: every committed corpus file and regression input, on
** every 'make check'. A directory argument named after a target holds
** inputs for that target (tests/fuzz/corpus/class, tests/fuzz/regress/jar);
** any other directory, or '-t all', sends its files to every target.
** Each input runs in a child process, so that one broken contract does not
** hide the others; the exit status is 1 when any input broke one.
** Usage: replay [-v] [-1] [-t TARGET|all] DIR|FILE...   (-1: no fork)
*/
#include <dirent.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cccp/io.h"
#include "fuzz.h"

/* ORDER as declared in fuzz.h */
const fuzz_target fuzz_targets[] = {
  {"class", fuzz_class},
  {"jar", fuzz_jar},
  {"jmod", fuzz_jmod},
  {"jimage", fuzz_jimage},
  {"code", fuzz_code},
  {"policy", fuzz_policy},
  {"summary", fuzz_summary},
  {"inflate", fuzz_inflate},
  {"deflate", fuzz_deflate},
  {"profile", fuzz_profile},
  {NULL, NULL}
};

static const char *current_file = "";
static const char *current_target = "";
static int verbose, nofork;
static size_t nrun[16], nbroken;

/* Say which input was running when a target crashes or aborts. */
static void on_signal(int sig) {
  static const char a[] = "replay: crashed on ";
  (void)!write(2, a, sizeof a - 1);
  (void)!write(2, current_target, strlen(current_target));
  (void)!write(2, ": ", 2);
  (void)!write(2, current_file, strlen(current_file));
  (void)!write(2, "\n", 1);
  signal(sig, SIG_DFL);
  raise(sig);
}

static const fuzz_target *find(const char *name) {
  for (const fuzz_target *t = fuzz_targets; t->name; t++)
    if (!strcmp(t->name, name)) return t;
  return NULL;
}

static int run_file(const char *path, const fuzz_target *only) {
  uint8_t *buf;
  size_t len;
  cr_diag d;
  cr_diag_clear(&d);
  if (cr_read_file(&buf, &len, path, &d)) {
    fprintf(stderr, "replay: %s: %s\n", path, d.msg);
    return -1;
  }
  current_file = path;
  for (const fuzz_target *t = fuzz_targets; t->name; t++) {
    if (only && t != only) continue;
    current_target = t->name;
    if (verbose) fprintf(stderr, "replay: %s: %s\n", t->name, path);
    nrun[t - fuzz_targets]++;
    if (nofork) {
      t->run(buf, len);
      continue;
    }
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0) {
      perror("fork");
      abort();
    }
    if (pid == 0) {
      t->run(buf, len);
      fflush(NULL);
      _exit(0);
    }
    int st;
    while (waitpid(pid, &st, 0) < 0) continue;
    if (!WIFEXITED(st) || WEXITSTATUS(st) != 0) {
      fprintf(stderr, "replay: BROKEN %s: %s (%s %d)\n", t->name, path,
              WIFSIGNALED(st) ? "signal" : "exit",
              WIFSIGNALED(st) ? WTERMSIG(st) : WEXITSTATUS(st));
      nbroken++;
    }
  }
  cr_free(buf);
  return 0;
}

static int cmpstr(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Run every regular file of 'dir' (sorted, not recursive). */
static int run_dir(const char *dir, const fuzz_target *only) {
  DIR *dp = opendir(dir);
  if (!dp) {
    perror(dir);
    return -1;
  }
  char **names = NULL;
  size_t n = 0, cap = 0;
  struct dirent *de;
  int rc = 0;
  while ((de = readdir(dp)) != NULL) {
    if (de->d_name[0] == '.') continue;
    if (n == cap) {
      cap = cap ? cap * 2 : 64;
      names = realloc(names, cap * sizeof *names);
      if (!names) abort();
    }
    size_t l = strlen(dir) + strlen(de->d_name) + 2;
    names[n] = malloc(l);
    if (!names[n]) abort();
    snprintf(names[n++], l, "%s/%s", dir, de->d_name);
  }
  closedir(dp);
  qsort(names, n, sizeof *names, cmpstr);
  for (size_t i = 0; i < n; i++) {
    struct stat st;
    if (stat(names[i], &st) == 0 && S_ISREG(st.st_mode) &&
        run_file(names[i], only))
      rc = -1;
    free(names[i]);
  }
  free(names);
  return rc;
}

int main(int argc, char **argv) {
  const fuzz_target *forced = NULL;
  int all = 0, rc = 0, i = 1;
  signal(SIGSEGV, on_signal);
  signal(SIGABRT, on_signal);
  signal(SIGBUS, on_signal);
  signal(SIGFPE, on_signal);
  for (; i < argc && argv[i][0] == '-'; i++) {
    if (!strcmp(argv[i], "-v")) {
      verbose = 1;
    } else if (!strcmp(argv[i], "-1")) {
      nofork = 1;
    } else if (!strcmp(argv[i], "-t") && i + 1 < argc) {
      i++;
      all = !strcmp(argv[i], "all");
      if (!all && !(forced = find(argv[i]))) {
        fprintf(stderr, "replay: no target '%s'\n", argv[i]);
        return 2;
      }
    } else {
      fputs("usage: replay [-v] [-1] [-t TARGET|all] DIR|FILE...\n", stderr);
      return 2;
    }
  }
  for (; i < argc; i++) {
    struct stat st;
    if (stat(argv[i], &st) != 0) {
      perror(argv[i]);
      rc = 1;
      continue;
    }
    const fuzz_target *t = forced;
    if (!t && !all) {
      char name[256];
      snprintf(name, sizeof name, "%s", argv[i]);
      size_t l = strlen(name);
      while (l > 1 && name[l - 1] == '/') name[--l] = '\0';
      const char *b = strrchr(name, '/');
      t = find(b ? b + 1 : name);
    }
    if (S_ISDIR(st.st_mode) ? run_dir(argv[i], t) : run_file(argv[i], t))
      rc = 1;
  }
  for (const fuzz_target *t = fuzz_targets; t->name; t++)
    printf("%s%s %zu", t == fuzz_targets ? "replay: " : ", ", t->name,
           nrun[t - fuzz_targets]);
  if (nbroken)
    printf(" inputs; %zu broke a contract\n", nbroken);
  else
    printf(" inputs; no contract broken\n");
  cr_io_release_caches();
  return rc || nbroken ? 1 : 0;
}
