/*
** atomic.c -- write a file through a temporary name in the target folder,
** renamed over the path only when complete ('.NAME.cccp-XXXXXX').
*/
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"

int cli_atomic_open(cli_afile *af, const char *path, cr_diag *d) {
  const char *slash = strrchr(path, '/');
  int n = slash ? (int)(slash - path) : 0;
  const char *name = slash ? slash + 1 : path;
  memset(af, 0, sizeof *af);
  snprintf(af->path, sizeof af->path, "%s", path);
  /* The temporary name adds 14 bytes: keep it under NAME_MAX. */
  int bl = (int)(strlen(name) > 200 ? 200 : strlen(name));
  if (slash)
    snprintf(af->tmp, sizeof af->tmp, "%.*s/.%.*s.cccp-XXXXXX", n ? n : 1,
             n ? path : "/", bl, name);
  else
    snprintf(af->tmp, sizeof af->tmp, ".%.*s.cccp-XXXXXX", bl, name);
  int fd = mkstemp(af->tmp);
  if (fd < 0)
    return cr_diag_set(d, CR_EIO, -1, "cannot create a file next to %s: %s",
                       path, strerror(errno));
  fchmod(fd, 0644);
  af->f = fdopen(fd, "wb");
  if (!af->f) {
    close(fd);
    unlink(af->tmp);
    return cr_diag_set(d, CR_ENOMEM, -1, "out of memory");
  }
  return 0;
}

int cli_atomic_commit(cli_afile *af, cr_diag *d) {
  int bad = ferror(af->f) || fflush(af->f) != 0 || fsync(fileno(af->f)) != 0;
  int e = errno;
  if (fclose(af->f) != 0 && !bad) {
    bad = 1;
    e = errno;
  }
  af->f = NULL;
  if (bad) {
    unlink(af->tmp);
    return cr_diag_set(d, CR_EIO, -1, "cannot write %s: %s", af->path,
                       strerror(e));
  }
  if (rename(af->tmp, af->path) != 0) {
    e = errno;
    unlink(af->tmp);
    return cr_diag_set(d, CR_EIO, -1, "cannot rename into %s: %s", af->path,
                       strerror(e));
  }
  return 0;
}

void cli_atomic_abort(cli_afile *af) {
  if (af->f) fclose(af->f);
  af->f = NULL;
  unlink(af->tmp);
}

int cli_mkdirs(const char *path, unsigned mode) {
  char buf[4096];
  if (snprintf(buf, sizeof buf, "%s", path) >= (int)sizeof buf) return -1;
  for (char *p = buf + 1; *p; p++) {
    if (*p != '/') continue;
    *p = '\0';
    if (mkdir(buf, (mode_t)mode) != 0 && errno != EEXIST) return -1;
    *p = '/';
  }
  if (mkdir(buf, (mode_t)mode) != 0 && errno != EEXIST) return -1;
  struct stat st;
  return stat(buf, &st) == 0 && S_ISDIR(st.st_mode) ? 0 : -1;
}
