/*
** progress.c -- a one-line progress bar on stderr, redrawn at most ten
** times a second, only when stderr is a terminal and -q was not given.
*/
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "cli.h"

static int on;
static size_t total;
static double last;
static int drawn;

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

void cli_progress_start(int enabled, size_t n) {
  on = enabled;
  total = n;
  last = 0;
  drawn = 0;
}

static void draw(size_t done, const char *label) {
  enum { WIDTH = 30 };
  size_t fill = total ? done * WIDTH / total : WIDTH;
  char bar[WIDTH + 1];
  for (size_t i = 0; i < WIDTH; i++) bar[i] = i < fill ? '#' : '.';
  bar[WIDTH] = '\0';
  fprintf(stderr, "\r[%s] %3zu%% %zu/%zu entries %-24.24s", bar,
          total ? done * 100 / total : 100, done, total, label ? label : "");
  fflush(stderr);
  drawn = 1;
}

void cli_progress_update(size_t done, const char *label) {
  if (!on) return;
  double t = now();
  if (done < total && t - last < 0.1) return;
  last = t;
  draw(done, label);
}

/* Erase the bar so that the next message starts on a clean line. */
static void erase(void) {
  if (on && drawn) {
    fprintf(stderr, "\r%*s\r", 80, "");
    drawn = 0;
  }
}

void cli_progress_end(void) {
  erase();
  on = 0;
}

/* "cccp-rewrite: KIND: MESSAGE", escaped, over the progress line. */
static void say(const char *kind, const char *fmt, va_list ap) {
  char raw[4096], safe[4096];
  erase();
  vsnprintf(raw, sizeof raw, fmt, ap);
  cr_escape(safe, sizeof safe, raw);
  fprintf(stderr, "cccp-rewrite: %s: %s\n", kind, safe);
}

void cli_warn(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  say("warning", fmt, ap);
  va_end(ap);
}

void cli_note(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  say("note", fmt, ap);
  va_end(ap);
}

void cli_error_diag(const cr_diag *d) {
  char msg[2048];
  erase();
  cr_diag_format(d, msg, sizeof msg);
  fprintf(stderr, "cccp-rewrite: %s\n", msg);
}
