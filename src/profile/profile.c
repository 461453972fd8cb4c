/*
** profile.c -- profile XML version 1: builder, streaming reader (libxml2
** SAX2 callbacks over our own input callback, input.c, which inflates
** gzip and refuses a DOCTYPE before libxml2 parses it), streaming writer,
** expectation files.
** (Not xmlTextReader: it walks the open ancestors on every read, which
** makes a deep tree -- deep recursion -- quadratic.)
*/
#include <errno.h>
#include <stddef.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include <libxml/parser.h>
#include <libxml/SAX2.h>

#include "cccp/profile.h"
#include "prof_int.h"

/* ------------------------------------------------------------ builder */

/*
** Room for index 'need' in a growable array, doubling. The new room is not
** cleared: every entry is written whole when it is added, so that the
** pages of the spare room are never touched (a big profile's spare room
** costs address space, not memory).
*/
static int grow(void **v, size_t *cap, size_t need, size_t elem) {
  if (need < *cap) return 0;
  size_t n = *cap ? *cap : 64;
  while (n <= need) {
    if (n > CR_PROF_MAX_ITEMS) return CR_ETOOLARGE;
    n *= 2;
  }
  void *nv = cr_realloc(*v, n * elem);
  if (!nv) return CR_ENOMEM;
  *v = nv;
  *cap = n;
  return 0;
}

static const char *dup(cr_profile *p, const char *s) {
  return cr_arena_strndup(p->arena, s, strlen(s));
}

cr_profile *cr_profile_new(const char *mode) {
  cr_profile *p = cr_calloc(1, sizeof *p);
  if (!p) return NULL;
  p->version = 1;
  snprintf(p->mode, sizeof p->mode, "%s", mode ? mode : "");
  p->nmetrics = 1;
  p->metric[0] = "calls";
  p->arena = cr_arena_new();
  if (!p->arena || grow((void **)&p->methods, &p->capm, 0,
                        sizeof *p->methods) ||
      grow((void **)&p->nodes, &p->capn, 0, sizeof *p->nodes)) {
    cr_profile_free(p);
    return NULL;
  }
  return p;
}

void cr_profile_free(cr_profile *p) {
  if (!p) return;
  cr_arena_free(p->arena);
  cr_free(p->methods);
  cr_free(p->nodes);
  cr_free(p->trees);
  for (size_t k = 1; k < p->nmetrics; k++) cr_free(p->mval[k]);
  cr_free(p);
}

/*
** Room for node index 'need': the metric columns grow first, then the
** nodes, so that every column always has at least 'capn' entries.
*/
static int grow_nodes(cr_profile *p, size_t need) {
  if (need < p->capn) return 0;
  size_t n = p->capn;
  while (n <= need) {
    if (n > CR_PROF_MAX_ITEMS) return CR_ETOOLARGE;
    n *= 2;
  }
  for (size_t k = 1; k < p->nmetrics; k++) {
    uint64_t *v = cr_realloc(p->mval[k], n * sizeof *v);
    if (!v) return CR_ENOMEM;
    p->mval[k] = v;
  }
  size_t cap = p->capn;
  if (grow((void **)&p->nodes, &cap, need, sizeof *p->nodes))
    return CR_ENOMEM;
  p->capn = cap;
  return 0;
}

int cr_profile_find_metric(const cr_profile *p, const char *name) {
  for (size_t k = 0; k < p->nmetrics; k++)
    if (strcmp(p->metric[k], name) == 0) return (int)k;
  return -1;
}

/* Metric names: [A-Za-z_][A-Za-z0-9_.-]*, at most 64 bytes. */
static int metric_name_ok(const char *s) {
  size_t n = 0;
  for (const char *c = s; *c; c++, n++) {
    int alpha = (*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') ||
                *c == '_';
    int more = (*c >= '0' && *c <= '9') || *c == '.' || *c == '-';
    if (!alpha && (!more || c == s)) return 0;
  }
  return n > 0 && n <= 64;
}

int cr_profile_add_metric(cr_profile *p, const char *name) {
  int k = cr_profile_find_metric(p, name);
  if (k >= 0) return k;
  if (p->nmetrics >= CR_PROF_MAX_METRICS || !metric_name_ok(name) ||
      strcmp(name, "method") == 0)
    return -1;
  const char *nm = dup(p, name);
  uint64_t *v = nm ? cr_calloc(p->capn, sizeof *v) : NULL;
  if (!v) return -1;
  p->metric[p->nmetrics] = nm;
  p->mval[p->nmetrics] = v;
  return (int)p->nmetrics++;
}


uint32_t cr_profile_add_method(cr_profile *p, const char *cls,
                               const char *name, const char *desc,
                               uint32_t size, int native, int library) {
  size_t id = p->nmethods + 1;
  if (grow((void **)&p->methods, &p->capm, id, sizeof *p->methods))
    return 0;
  cr_prof_method *m = &p->methods[id];
  m->cls = dup(p, cls);
  m->name = dup(p, name);
  m->desc = dup(p, desc);
  if (!m->cls || !m->name || !m->desc) return 0;
  m->size = size;
  m->native = native != 0;
  m->library = library != 0;
  m->folded = 0;
  p->nmethods = id;
  return (uint32_t)id;
}

long cr_profile_add_tree(cr_profile *p, const char *thread) {
  if (grow((void **)&p->trees, &p->capt, p->ntrees, sizeof *p->trees))
    return -1;
  cr_prof_tree *t = &p->trees[p->ntrees];
  t->thread = dup(p, thread);
  if (!t->thread) return -1;
  t->child = t->last = 0;
  return (long)p->ntrees++;
}

uint32_t cr_profile_add_node(cr_profile *p, uint32_t tree, uint32_t parent,
                             uint32_t method, uint64_t calls) {
  size_t i = p->nnodes + 1;
  if (tree >= p->ntrees || parent > p->nnodes || method == 0 ||
      method > p->nmethods)
    return 0;
  if (grow_nodes(p, i)) return 0;
  cr_prof_node *n = &p->nodes[i];
  memset(n, 0, sizeof *n);
  for (size_t k = 1; k < p->nmetrics; k++) p->mval[k][i] = 0;
  n->method = method;
  n->parent = parent;
  n->tree = tree;
  n->calls = calls;
  uint32_t *first, *last;
  if (parent) {
    first = &p->nodes[parent].child;
    last = &p->nodes[parent].last;
  } else {
    first = &p->trees[tree].child;
    last = &p->trees[tree].last;
  }
  if (*last) p->nodes[*last].next = (uint32_t)i;
  else *first = (uint32_t)i;
  *last = (uint32_t)i;
  p->nnodes = i;
  return (uint32_t)i;
}

/* ------------------------------------------------------------- reader */

/*
** XML_PARSE_HUGE lifts libxml2's nesting limit (256), which deep recursion
** reaches; it is safe here because no DTD, hence no entity, is ever read
** (the input refuses a DOCTYPE, see prof_int.h).
*/
static int ioclose(void *ctx) {
  (void)ctx;
  return 0;
}

typedef struct rd {
  xmlParserCtxtPtr ctxt;
  const xmlChar **attrs; /* current element's SAX2 attributes (5 each) */
  int nattrs;
  int xdepth;            /* element depth, 0 = the root element */
  int rc;                /* first error; stops the parser */
  const char *name;      /* file name for messages */
  cr_diag *d;
  int oom;               /* libxml2 ran out of memory */
  char xmlerr[256];      /* first libxml2 message */
  int xmlline;           /*   and its line */
  cr_profile *p;
  uint32_t *stack;       /* open <node> elements */
  size_t depth, cap;
  long tree;             /* current tree, -1 outside */
  int seen_root;
  cr_prof_input *in;
} rd;

static void onerror(void *ctx, xmlErrorPtr e) {
  rd *s = ctx;
  if (e && e->code == XML_ERR_NO_MEMORY) s->oom = 1;
  if (s->xmlerr[0] || !e || !e->message) return;
  snprintf(s->xmlerr, sizeof s->xmlerr, "%s", e->message);
  s->xmlline = e->line;
  /* Some messages have a second line ("Bytes: 0xE1 ..."): keep one. */
  for (char *c = s->xmlerr; *c; c++)
    if (*c == '\n' || *c == '\r') *c = ' ';
  size_t n = strlen(s->xmlerr);
  while (n && (s->xmlerr[n - 1] == '\n' || s->xmlerr[n - 1] == ' '))
    s->xmlerr[--n] = 0;
}

static int bad(rd *s, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static int bad(rd *s, const char *fmt, ...) {
  char msg[400];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  return cr_diag_set(s->d, CR_EFORMAT, -1, "%s:%d: %s", s->name,
                     s->ctxt ? xmlSAX2GetLineNumber(s->ctxt) : 0, msg);
}

/* Whether the name 'x' (an element's or attribute's) is 'y': inline, as
** it runs several times for each node of a large profile. */
static inline int eq(const xmlChar *x, const char *y) {
  while (*x && *x == (xmlChar)*y) x++, y++;
  return *x == (xmlChar)*y;
}

/* Attribute 'name' of the current element in place, [start, *end) in
** libxml2's buffer, or NULL. */
static const xmlChar *span(rd *s, const char *name, const xmlChar **end) {
  for (int i = 0; i < s->nattrs; i++) {
    const xmlChar **a = s->attrs + 5 * i;
    if (!a[1] && eq(a[0], name)) {
      *end = a[4];
      return a[3];
    }
  }
  return NULL;
}

/* Attribute 'name' of the current element (a copy to xmlFree) or NULL. */
static char *attr(rd *s, const char *name) {
  const xmlChar *e, *v = span(s, name, &e);
  return v ? (char *)xmlStrndup(v, (int)(e - v)) : NULL;
}

/* Required unsigned decimal attribute into '*out' (at most 'max'). */
static int num(rd *s, const char *el, const char *name, uint64_t max,
               uint64_t *out) {
  const xmlChar *e = NULL, *v = span(s, name, &e);
  *out = 0;
  if (!v) return bad(s, "<%s> needs the attribute '%s'", el, name);
  uint64_t x = 0;
  int ok = v < e;
  for (const xmlChar *c = v; c < e && ok; c++) {
    if (*c < '0' || *c > '9' || x > (max - (uint64_t)(*c - '0')) / 10)
      ok = 0;
    else
      x = x * 10 + (uint64_t)(*c - '0');
  }
  if (!ok)
    return bad(s, "'%s' must be a decimal number in range (got \"%.*s\")",
               name, (int)(e - v), (const char *)v);
  *out = x;
  return 0;
}

/* Optional "0"/"1" attribute. */
static int bit(rd *s, const char *name, int *out) {
  char *v = attr(s, name);
  *out = 0;
  if (!v) return 0;
  int rc = 0;
  if (strcmp(v, "1") == 0) *out = 1;
  else if (strcmp(v, "0") != 0)
    rc = bad(s, "'%s' must be 0 or 1 (got \"%s\")", name, v);
  xmlFree(v);
  return rc;
}

/* Optional unsigned attribute at most 'max' ('*out' unchanged if absent). */
static int opt_num(rd *s, const char *name, uint64_t max, int *out) {
  char *v = attr(s, name);
  if (!v) return 0;
  xmlFree(v);
  uint64_t x;
  int rc = num(s, "cct", name, max, &x);
  if (!rc) *out = (int)x;
  return rc;
}

/* The JOP settings of a cross-profile (all or none of model, r, w). */
static int jop_attrs(rd *s) {
  cr_prof_jop *j = &s->p->jop;
  int rc;
  j->r = j->w = -1;
  if ((rc = opt_num(s, "jop-model", 9999, &j->year)) ||
      (rc = opt_num(s, "jop-rws", 1000000, &j->r)) ||
      (rc = opt_num(s, "jop-wws", 1000000, &j->w)) ||
      (rc = opt_num(s, "jop-software", 1000000000, &j->software)) ||
      (rc = bit(s, "jop-split", &j->split)) ||
      (rc = opt_num(s, "jop-cache-words", 1 << 24, &j->cache_words)) ||
      (rc = opt_num(s, "jop-cache-blocks", 4096, &j->cache_blocks)) ||
      (rc = bit(s, "jop-completed", &j->completed)))
    return rc;
  if (!j->year && j->r < 0 && j->w < 0) {
    memset(j, 0, sizeof *j);
    return 0;
  }
  if ((j->year != 2014 && j->year != 2008) || j->r < 0 || j->w < 0)
    return bad(s, "<cct>: 'jop-model' (2014 or 2008), 'jop-rws' and "
                  "'jop-wws' go together");
  if (!j->cache_words != !j->cache_blocks ||
      (j->cache_blocks && j->cache_words % j->cache_blocks))
    return bad(s, "<cct>: 'jop-cache-words' must be a multiple of "
                  "'jop-cache-blocks', both given or neither");
  return 0;
}

/*
** The run's facts about its trees (cr_prof_run): information, so that a
** value that is not a number is ignored, as unknown attributes are.
*/
static void run_attrs(rd *s) {
  static const struct {
    const char *name;
    size_t off;
  } f[] = {
    {"tree-nodes", offsetof(cr_prof_run, nodes)},
    {"tree-bytes", offsetof(cr_prof_run, bytes)},
    {"budget", offsetof(cr_prof_run, budget)},
    {"folded-calls", offsetof(cr_prof_run, folded_calls)},
    {"folded-methods", offsetof(cr_prof_run, folded_methods)},
    {"folding-since", offsetof(cr_prof_run, folding_since)},
    {"time", offsetof(cr_prof_run, time)},
    {"interval-start", offsetof(cr_prof_run, interval_start)},
    {"resets", offsetof(cr_prof_run, resets)},
    {"huge-interpreted", offsetof(cr_prof_run, huge_interpreted)},
  };
  for (size_t i = 0; i < sizeof f / sizeof f[0]; i++) {
    char *v = attr(s, f[i].name);
    if (!v) continue;
    uint64_t x = 0;
    int ok = *v != '\0';
    for (const char *c = v; *c && ok; c++)
      if (*c < '0' || *c > '9' || x > (UINT64_MAX - (uint64_t)(*c - '0')) / 10)
        ok = 0;
      else
        x = x * 10 + (uint64_t)(*c - '0');
    if (ok) *(uint64_t *)(void *)((char *)&s->p->run + f[i].off) = x;
    xmlFree(v);
  }
}

static int el_cct(rd *s) {
  if (s->seen_root) return bad(s, "more than one <cct>");
  s->seen_root = 1;
  char *v = attr(s, "version");
  if (!v) return bad(s, "<cct> needs the attribute 'version'");
  int rc = 0;
  if (strcmp(v, "1") != 0)
    rc = cr_diag_set(s->d, CR_EUNSUPPORTED, -1,
                     "%s:%d: profile version \"%.40s\" is not supported "
                     "(1 is)", s->name, xmlSAX2GetLineNumber(s->ctxt), v);
  xmlFree(v);
  if (rc) return rc;
  char *m = attr(s, "mode");
  snprintf(s->p->mode, sizeof s->p->mode, "%s", m ? m : "");
  xmlFree(m);
  run_attrs(s);
  return jop_attrs(s);
}

static int el_method(rd *s) {
  if (s->depth || s->tree >= 0 || s->p->ntrees)
    return bad(s, "<method> must come before the trees, inside <cct>");
  uint64_t id, size;
  int native, library, folded, rc;
  if ((rc = num(s, "method", "id", CR_PROF_MAX_ITEMS, &id)) ||
      (rc = bit(s, "native", &native)) || (rc = bit(s, "library", &library)) ||
      (rc = bit(s, "folded", &folded)))
    return rc;
  char *sz = attr(s, "size");
  size = 0;
  if (sz) {
    xmlFree(sz);
    if ((rc = num(s, "method", "size", UINT32_MAX, &size))) return rc;
  }
  if (id != s->p->nmethods + 1) {
    char want[32], got[32];
    snprintf(want, sizeof want, "%zu", s->p->nmethods + 1);
    snprintf(got, sizeof got, "%llu", (unsigned long long)id);
    return bad(s, "method ids must be dense and in order: expected %s, "
               "got %s", want, got);
  }
  char *c = attr(s, "class"), *n = attr(s, "name"), *d = attr(s, "desc");
  if (!c || !n || !d) {
    rc = bad(s, "<method> needs 'class', 'name' and 'desc'");
  } else if (!cr_profile_add_method(s->p, c, n, d, (uint32_t)size, native,
                                    library)) {
    rc = cr_diag_set(s->d, CR_ENOMEM, -1, "out of memory");
  } else {
    s->p->methods[id].folded = folded != 0;
  }
  xmlFree(c);
  xmlFree(n);
  xmlFree(d);
  return rc;
}

static int el_tree(rd *s) {
  if (s->tree >= 0) return bad(s, "<tree> inside a <tree>");
  char *t = attr(s, "thread");
  s->tree = cr_profile_add_tree(s->p, t ? t : "");
  xmlFree(t);
  if (s->tree < 0) return cr_diag_set(s->d, CR_ENOMEM, -1, "out of memory");
  return 0;
}

/*
** The other metrics of node 'i': every attribute but 'method' and 'calls'
** whose whole value is an unsigned decimal that fits 64 bits. Values are
** read in place (SAX2 hands them as [a[3], a[4]) ranges, entities already
** replaced).
*/
static int metrics(rd *s, uint32_t i) {
  for (int j = 0; j < s->nattrs; j++) {
    const xmlChar **a = s->attrs + 5 * j;
    const char *name = (const char *)a[0];
    if (a[1] || eq(a[0], "method") || eq(a[0], "calls") ||
        !metric_name_ok(name))
      continue;
    const xmlChar *c = a[3], *e = a[4];
    uint64_t x = 0;
    int ok = c < e;
    for (; c < e && ok; c++) {
      if (*c < '0' || *c > '9' || x > (UINT64_MAX - (uint64_t)(*c - '0')) / 10)
        ok = 0;
      else
        x = x * 10 + (uint64_t)(*c - '0');
    }
    if (!ok) continue;
    int k = cr_profile_find_metric(s->p, name);
    if (k < 0 && s->p->nmetrics >= CR_PROF_MAX_METRICS)
      return cr_diag_set(s->d, CR_ETOOLARGE, -1,
                         "%s:%d: more than %d metrics", s->name,
                         xmlSAX2GetLineNumber(s->ctxt), CR_PROF_MAX_METRICS);
    if (k < 0 && (k = cr_profile_add_metric(s->p, name)) < 0)
      return cr_diag_set(s->d, CR_ENOMEM, -1, "out of memory");
    s->p->mval[k][i] = x;
  }
  return 0;
}

static int el_node(rd *s, int empty) {
  if (s->tree < 0) return bad(s, "<node> outside a <tree>");
  uint64_t m, calls;
  int rc;
  if ((rc = num(s, "node", "method", CR_PROF_MAX_ITEMS, &m)) ||
      (rc = num(s, "node", "calls", UINT64_MAX, &calls)))
    return rc;
  if (m == 0 || m > s->p->nmethods) {
    char b[32];
    snprintf(b, sizeof b, "%llu", (unsigned long long)m);
    return bad(s, "<node> names method %s, which is not defined", b);
  }
  if (s->p->nnodes >= CR_PROF_MAX_ITEMS - 1)
    return cr_diag_set(s->d, CR_ETOOLARGE, -1, "%s: too many nodes",
                       s->name);
  uint32_t parent = s->depth ? s->stack[s->depth - 1] : 0;
  uint32_t i = cr_profile_add_node(s->p, (uint32_t)s->tree, parent,
                                   (uint32_t)m, calls);
  if (!i) return cr_diag_set(s->d, CR_ENOMEM, -1, "out of memory");
  if ((rc = metrics(s, i))) return rc;
  if (empty) return 0;
  if (s->depth >= CR_PROF_MAX_DEPTH)
    return bad(s, "nodes nested too deeply");
  if (grow((void **)&s->stack, &s->cap, s->depth, sizeof *s->stack))
    return cr_diag_set(s->d, CR_ENOMEM, -1, "out of memory");
  s->stack[s->depth++] = i;
  return 0;
}

/* SAX2: an element starts. */
static void on_start(void *ctx, const xmlChar *local, const xmlChar *prefix,
                     const xmlChar *uri, int nns, const xmlChar **ns,
                     int nattrs, int ndefaulted, const xmlChar **attrs) {
  rd *s = ctx;
  (void)prefix;
  (void)uri;
  (void)nns;
  (void)ns;
  (void)ndefaulted;
  if (s->rc) return;
  const char *name = (const char *)local;
  int depth = s->xdepth++;
  if (depth == 0) s->in->root = 1;
  s->in->mark = s->in->out;
  s->attrs = attrs;
  s->nattrs = nattrs;
  int rc;
  if (depth == 0)
    rc = strcmp(name, "cct") != 0
             ? bad(s, "the root element must be <cct>, not <%s>", name)
             : el_cct(s);
  else if (eq(local, "node"))
    rc = el_node(s, 0);
  else if (strcmp(name, "method") == 0 && depth == 1)
    rc = el_method(s);
  else if (strcmp(name, "tree") == 0 && depth == 1)
    rc = el_tree(s);
  else if (strcmp(name, "method") == 0 && depth == 2)
    rc = bad(s, "<method> must be empty");
  else
    rc = bad(s, "unexpected element <%s>", name);
  s->attrs = NULL;
  s->nattrs = 0;
  if (rc) {
    s->rc = rc;
    xmlStopParser(s->ctxt);
  }
}

/* SAX2: an element ends. */
static void on_end(void *ctx, const xmlChar *local, const xmlChar *prefix,
                   const xmlChar *uri) {
  rd *s = ctx;
  (void)prefix;
  (void)uri;
  if (s->rc) return;
  s->xdepth--;
  s->in->mark = s->in->out;
  if (eq(local, "node") && s->depth) s->depth--;
  else if (strcmp((const char *)local, "tree") == 0) s->tree = -1;
}

/* SAX2: text; only whitespace is allowed. It is mostly indentation: runs
** of spaces are skipped 8 bytes at a time. */
static void on_text(void *ctx, const xmlChar *ch, int len) {
  rd *s = ctx;
  if (s->rc) return;
  const uint64_t spaces = 0x2020202020202020u;
  for (int i = 0; i < len;) {
    uint64_t w;
    if (len - i >= 8 && (memcpy(&w, ch + i, 8), w == spaces)) {
      i += 8;
      continue;
    }
    xmlChar c = ch[i++];
    if (c != ' ' && c != '\t' && c != '\n' && c != '\r') {
      s->rc = bad(s, "unexpected text");
      xmlStopParser(s->ctxt);
      return;
    }
  }
}

/* SAX2: any DTD or entity at all is refused. */
static void on_subset(void *ctx, const xmlChar *name, const xmlChar *eid,
                      const xmlChar *sid) {
  rd *s = ctx;
  (void)name;
  (void)eid;
  (void)sid;
  if (!s->rc) s->rc = bad(s, "DTDs and entities are not allowed");
  xmlStopParser(s->ctxt);
}

static xmlEntityPtr on_entity(void *ctx, const xmlChar *name) {
  on_subset(ctx, name, NULL, NULL);
  return NULL;
}

/* libxml2 reports some errors (encoding conversion, out of memory) on its
** global channels whatever XML_PARSE_NOERROR says: while parsing, these
** go nowhere instead of to stderr. */
static void quiet(void *ctx, const char *msg, ...) {
  (void)ctx;
  (void)msg;
}

static int load(cr_profile **out, cr_prof_input *in, const char *name,
                cr_diag *d) {
  *out = NULL;
  rd s;
  memset(&s, 0, sizeof s);
  s.name = name;
  s.d = d;
  s.tree = -1;
  s.in = in;
  s.p = cr_profile_new("");
  if (!s.p) return cr_diag_set(d, CR_ENOMEM, -1, "out of memory");
  xmlInitParser();
  xmlSAXHandler sax;
  memset(&sax, 0, sizeof sax);
  sax.initialized = XML_SAX2_MAGIC;
  sax.startElementNs = on_start;
  sax.endElementNs = on_end;
  sax.characters = on_text;
  sax.cdataBlock = on_text;
  sax.internalSubset = on_subset;
  sax.externalSubset = on_subset;
  sax.getEntity = on_entity;
  sax.getParameterEntity = on_entity;
  sax.serror = onerror;
  int rc = 0;
  xmlGenericErrorFunc olderr = xmlGenericError;
  void *olderrctx = xmlGenericErrorContext;
  xmlStructuredErrorFunc oldserr = xmlStructuredError;
  void *oldserrctx = xmlStructuredErrorContext;
  xmlSetGenericErrorFunc(NULL, quiet);
  xmlSetStructuredErrorFunc(NULL, NULL);
  s.ctxt = xmlCreateIOParserCtxt(&sax, &s, cr_prof__read, ioclose, in,
                                 XML_CHAR_ENCODING_NONE);
  if (!s.ctxt) {
    rc = cr_diag_set(d, CR_ENOMEM, -1, "out of memory");
    goto out;
  }
  /* NOENT: SAX2 hands over attribute values with '&' still escaped
     otherwise; only the predefined entities exist, as no DTD is read. */
  xmlCtxtUseOptions(s.ctxt, XML_PARSE_NONET | XML_PARSE_NOERROR |
                                XML_PARSE_NOWARNING | XML_PARSE_HUGE |
                                XML_PARSE_NOENT);
  int k = xmlParseDocument(s.ctxt);
  if (s.oom) {
    rc = cr_diag_set(d, CR_ENOMEM, -1, "out of memory");
    goto out;
  }
  /* Corrupt gzip data may inflate to garbage before zlib notices: the
     garbage's XML error is not the one to report. */
  if (in->gz && !in->doctype &&
      (s.rc == CR_EFORMAT || (!s.rc && (k < 0 || !s.ctxt->wellFormed))))
    cr_prof__drain(in, CR_PROF_MAX_GAP);
  if (in->err == CR_ENOMEM) {
    rc = cr_diag_set(d, CR_ENOMEM, -1, "out of memory");
    goto out;
  }
  if (in->err == CR_ETOOLARGE) {
    rc = cr_diag_set(d, CR_ETOOLARGE, -1, "%s:%d: %s", name,
                     xmlSAX2GetLineNumber(s.ctxt), in->why);
    goto out;
  }
  if (in->err && !in->doctype) {
    rc = cr_diag_set(d, in->err, -1, "%s: %s", name, in->why);
    goto out;
  }
  if ((rc = s.rc)) goto out;
  if (k < 0 || !s.ctxt->wellFormed || in->doctype || in->ioerr) {
    if (in->doctype)
      rc = cr_diag_set(d, CR_EFORMAT, -1,
                       "%s:%d: DOCTYPE is not allowed in a profile", name,
                       in->doctype);
    else if (in->ioerr)
      rc = cr_diag_set(d, CR_EIO, -1, "%s: %s", name, strerror(in->ioerr));
    else if (s.xmlerr[0])
      rc = cr_diag_set(d, CR_EFORMAT, -1, "%s:%d: malformed XML: %s", name,
                       s.xmlline, s.xmlerr);
    else
      rc = cr_diag_set(d, CR_EFORMAT, -1, "%s:%d: malformed XML",
                       name, xmlSAX2GetLineNumber(s.ctxt));
    goto out;
  }
  if (!s.seen_root)
    rc = cr_diag_set(d, CR_EFORMAT, -1, "%s:%d: empty document", name,
                     xmlSAX2GetLineNumber(s.ctxt));
out:
  if (s.ctxt) {
    if (s.ctxt->myDoc) xmlFreeDoc(s.ctxt->myDoc);
    xmlFreeParserCtxt(s.ctxt);
  }
  xmlSetGenericErrorFunc(olderrctx, olderr);
  xmlSetStructuredErrorFunc(oldserrctx, oldserr);
  cr_free(s.stack);
  /* Messages quote values from the file: keep them on one line. */
  if (rc && d)
    for (char *c = d->msg; *c; c++)
      if ((unsigned char)*c < 0x20) *c = '?';
  if (rc) cr_profile_free(s.p);
  else *out = s.p;
  return rc;
}

int cr_profile_load(cr_profile **out, const char *path, cr_diag *d) {
  *out = NULL;
  FILE *f = fopen(path, "rb");
  if (!f)
    return cr_diag_set(d, errno == ENOENT ? CR_ENOTFOUND : CR_EIO, -1,
                       "%s: %s", path, strerror(errno));
  cr_prof_input in;
  int rc = cr_prof__input_file(&in, f);
  if (rc == CR_EIO)
    rc = cr_diag_set(d, CR_EIO, -1, "%s: %s", path, strerror(in.ioerr));
  else if (rc)
    rc = cr_diag_set(d, rc, -1, "out of memory");
  else
    rc = load(out, &in, path, d);
  cr_prof__input_close(&in);
  fclose(f);
  return rc;
}

int cr_profile_load_memory(cr_profile **out, const char *xml, size_t len,
                           const char *name, cr_diag *d) {
  *out = NULL;
  cr_prof_input in;
  int rc = cr_prof__input_memory(&in, xml, len);
  if (rc) rc = cr_diag_set(d, rc, -1, "out of memory");
  else rc = load(out, &in, name, d);
  cr_prof__input_close(&in);
  return rc;
}

/* ------------------------------------------------------------- writer */

/* An attribute value (see cr_xml_attr). */
static void text(FILE *f, const char *s) { cr_xml_attr(f, s); }

/* Two spaces per level down to depth 10, not further (cccp-profile(5)). */
static void indent(FILE *f, size_t depth) {
  for (size_t i = depth < 10 ? depth : 10; i > 0; i--) fputs("  ", f);
}

int cr_profile_write(const cr_profile *p, FILE *f, cr_diag *d) {
  fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
             "<cct version=\"1\" mode=\"");
  text(f, p->mode);
  fputc('"', f);
  if (p->jop.year)
    fprintf(f, " jop-model=\"%d\" jop-rws=\"%d\" jop-wws=\"%d\" "
               "jop-software=\"%d\" jop-split=\"%d\" jop-completed=\"%d\"",
            p->jop.year, p->jop.r, p->jop.w, p->jop.software, p->jop.split,
            p->jop.completed);
  if (p->jop.year && p->jop.cache_blocks)
    fprintf(f, " jop-cache-words=\"%d\" jop-cache-blocks=\"%d\"",
            p->jop.cache_words, p->jop.cache_blocks);
  const cr_prof_run *r = &p->run;
  const struct {
    const char *name;
    uint64_t v;
  } run[] = {{"tree-nodes", r->nodes}, {"tree-bytes", r->bytes},
             {"budget", r->budget}, {"folded-calls", r->folded_calls},
             {"folded-methods", r->folded_methods},
             {"folding-since", r->folding_since}, {"time", r->time},
             {"interval-start", r->interval_start}, {"resets", r->resets},
             {"huge-interpreted", r->huge_interpreted}};
  for (size_t i = 0; i < sizeof run / sizeof run[0]; i++)
    if (run[i].v)
      fprintf(f, " %s=\"%llu\"", run[i].name, (unsigned long long)run[i].v);
  fputs(">\n", f);
  for (size_t i = 1; i <= p->nmethods; i++) {
    const cr_prof_method *m = &p->methods[i];
    fprintf(f, "  <method id=\"%zu\" class=\"", i);
    text(f, m->cls);
    fputs("\" name=\"", f);
    text(f, m->name);
    fputs("\" desc=\"", f);
    text(f, m->desc);
    fprintf(f, "\" size=\"%u\"", m->size);
    if (p->jop.year && m->size)     /* the size JOP's method cache loads */
      fprintf(f, " words=\"%u\"", (unsigned)(((uint64_t)m->size + 3) / 4));
    if (m->folded) fputs(" folded=\"1\"", f);
    fprintf(f, " native=\"%d\" library=\"%d\"/>\n", m->native, m->library);
  }
  for (size_t t = 0; t < p->ntrees; t++) {
    fputs("  <tree thread=\"", f);
    text(f, p->trees[t].thread);
    fputs("\">\n", f);
    size_t depth = 2;
    uint32_t n = p->trees[t].child;
    while (n) {
      const cr_prof_node *x = &p->nodes[n];
      indent(f, depth);
      fprintf(f, "<node method=\"%u\" calls=\"%llu\"", x->method,
              (unsigned long long)x->calls);
      for (size_t k = 1; k < p->nmetrics; k++)
        if (p->mval[k][n]) {
          fputc(' ', f);
          text(f, p->metric[k]);
          fprintf(f, "=\"%llu\"", (unsigned long long)p->mval[k][n]);
        }
      if (x->child) {
        fputs(">\n", f);
        depth++;
        n = x->child;
        continue;
      }
      fputs("/>\n", f);
      while (n && !p->nodes[n].next) {
        n = p->nodes[n].parent;
        if (n) {
          depth--;
          indent(f, depth);
          fputs("</node>\n", f);
        }
      }
      if (n) n = p->nodes[n].next;
    }
    fputs("  </tree>\n", f);
  }
  fputs("</cct>\n", f);
  if (fflush(f) || ferror(f))
    return cr_diag_set(d, CR_EIO, -1, "cannot write the profile: %s",
                       strerror(errno));
  return 0;
}

/* -------------------------------------------------------- expectations */

/* Method id of frame "cls.name(desc)" in 'p', added when new. */
static uint32_t frame(cr_profile *p, const char *f, size_t len) {
  const char *paren = memchr(f, '(', len);
  if (!paren) return 0;
  const char *dot = paren;
  while (dot > f && *dot != '.') dot--;
  if (dot == f) return 0;
  char buf[2048];
  if (len >= sizeof buf) return 0;
  memcpy(buf, f, len);
  buf[len] = 0;
  size_t dc = (size_t)(dot - f), pc = (size_t)(paren - f);
  buf[dc] = 0;
  const char *cls = buf, *desc = buf + pc;
  char name[1024];
  snprintf(name, sizeof name, "%.*s", (int)(pc - dc - 1), buf + dc + 1);
  if (!*name) return 0;
  for (size_t i = 1; i <= p->nmethods; i++)
    if (strcmp(p->methods[i].cls, cls) == 0 &&
        strcmp(p->methods[i].name, name) == 0 &&
        strcmp(p->methods[i].desc, desc) == 0)
      return (uint32_t)i;
  uint32_t id = cr_profile_add_method(p, cls, name, desc, 0, 0, 0);
  return id ? id : UINT32_MAX;
}

int cr_profile_load_expect(cr_profile **out, const char *path, cr_diag *d) {
  *out = NULL;
  uint8_t *buf;
  size_t len;
  int rc = cr_read_file(&buf, &len, path, d);
  if (rc) {
    cr_diag_where(d, path, NULL);
    return rc;
  }
  cr_profile *p = cr_profile_new("expect");
  if (!p || cr_profile_add_tree(p, "expect") < 0) {
    rc = cr_diag_set(d, CR_ENOMEM, -1, "out of memory");
    goto out;
  }
  char *s = (char *)buf, *end = s + len;
  for (long line = 1; s < end; line++) {
    char *eol = memchr(s, '\n', (size_t)(end - s));
    if (!eol) eol = end;
    *eol = 0;
    char *c = s;
    s = eol + 1;
    while (*c == ' ' || *c == '\t') c++;
    if (!*c || *c == '#' || *c == '\r') continue;
    char *e;
    errno = 0;
    unsigned long long calls = strtoull(c, &e, 10);
    if (e == c || errno || (*e != ' ' && *e != '\t')) {
      rc = cr_diag_set(d, CR_EFORMAT, -1,
                       "%s:%ld: expected \"CALLS FRAME > FRAME ...\"", path,
                       line);
      goto out;
    }
    uint32_t node = 0;
    int added = 0;
    for (c = e; *c;) {
      while (*c == ' ' || *c == '\t') c++;
      char *sep = strstr(c, " > ");
      size_t fl = sep ? (size_t)(sep - c) : strlen(c);
      while (fl && (c[fl - 1] == ' ' || c[fl - 1] == '\r' ||
                    c[fl - 1] == '\t'))
        fl--;
      uint32_t m = fl ? frame(p, c, fl) : 0;
      if (!m || m == UINT32_MAX) {
        rc = m ? cr_diag_set(d, CR_ENOMEM, -1, "out of memory")
               : cr_diag_set(d, CR_EFORMAT, -1,
                             "%s:%ld: bad frame \"%.*s\" (want "
                             "pkg/Cls.name(desc))", path, line, (int)fl, c);
        goto out;
      }
      uint32_t k = node ? p->nodes[node].child : p->trees[0].child;
      while (k && p->nodes[k].method != m) k = p->nodes[k].next;
      int last = !sep;
      if (!k) {
        if (!last) {
          rc = cr_diag_set(d, CR_EFORMAT, -1,
                           "%s:%ld: the path's prefix ending in \"%.*s\" "
                           "must be listed on an earlier line", path, line,
                           (int)fl, c);
          goto out;
        }
        k = cr_profile_add_node(p, 0, node, m, calls);
        if (!k) {
          rc = cr_diag_set(d, CR_ENOMEM, -1, "out of memory");
          goto out;
        }
        added = 1;
      } else if (last) {
        rc = cr_diag_set(d, CR_EFORMAT, -1, "%s:%ld: path listed twice",
                         path, line);
        goto out;
      }
      node = k;
      c = sep ? sep + 3 : c + fl + strlen(c + fl);
    }
    if (!added) {
      rc = cr_diag_set(d, CR_EFORMAT, -1, "%s:%ld: no frames", path, line);
      goto out;
    }
  }
out:
  cr_free(buf);
  if (rc) cr_profile_free(p);
  else *out = p;
  return rc;
}
