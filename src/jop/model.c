/*
** model.c -- the JOP timing model for one setting: formulas evaluated
** once per opcode, costs of invokes and returns for a load time.
*/
#include <string.h>

#include "jop_int.h"

/* ------------------------------------------------------------ formulas */

/*
** A formula of the tables, by recursive descent:
**   expr   = term { ("+" | "-") term }
**   term   = factor { "*" factor }
**   factor = number | "r" | "w" | "b" | "n" | "(" expr ")"
**          | "max" "(" expr "," expr ")"
** 'bad' is set on anything else; values stay far from overflow (the
** tables' numbers are small and the variables are bounded by callers).
*/
typedef struct ev {
  const char *s;
  long r, w, b, n;
  int bad;
} ev;

static long expr(ev *e);

static int eat(ev *e, char c) {
  if (*e->s != c) return 0;
  e->s++;
  return 1;
}

static long factor(ev *e) {
  const char *s = e->s;
  if (*s >= '0' && *s <= '9') {
    long v = 0;
    while (*e->s >= '0' && *e->s <= '9' && v < 100000000)
      v = v * 10 + (*e->s++ - '0');
    return v;
  }
  if (strncmp(s, "max(", 4) == 0) {
    e->s += 4;
    long a = expr(e);
    if (!eat(e, ',')) e->bad = 1;
    long b = expr(e);
    if (!eat(e, ')')) e->bad = 1;
    return a > b ? a : b;
  }
  if (eat(e, '(')) {
    long v = expr(e);
    if (!eat(e, ')')) e->bad = 1;
    return v;
  }
  e->s++;
  switch (*s) {
  case 'r': return e->r;
  case 'w': return e->w;
  case 'b': return e->b;
  case 'n': return e->n;
  default: e->bad = 1; e->s = s; return 0;
  }
}

static long term(ev *e) {
  long v = factor(e);
  while (!e->bad && eat(e, '*')) v *= factor(e);
  return v;
}

static long expr(ev *e) {
  long v = term(e);
  while (!e->bad) {
    if (eat(e, '+')) v += term(e);
    else if (eat(e, '-')) v -= term(e);
    else break;
  }
  return v;
}

long cr_jop_eval(const char *formula, long r, long w, long b, long n) {
  ev e = {formula, r, w, b, n, 0};
  if (!*formula) return -1;
  long v = expr(&e);
  return e.bad || *e.s ? -1 : v;
}

/* ---------------------------------------------------------------- model */

static const jop_row *table(int year) {
  return year == 2014 ? cr_jop_t2014 : year == 2008 ? cr_jop_t2008 : NULL;
}

const char *cr_jop_mnemonic(unsigned op) {
  return op < JOP_NOPS ? cr_jop_t2014[op].mnemonic : "?";
}

int cr_jop_table_entry(int year, unsigned op, int *kind, int *r1w2,
                       const char **formula) {
  const jop_row *t = table(year);
  if (!t || op >= JOP_NOPS) return CR_EUSAGE;
  *kind = t[op].kind;
  *r1w2 = t[op].r1w2;
  *formula = t[op].formula;
  return 0;
}

/* A load time far above every H: the miss part of an invoke or return
** formula is then b - H, which gives H. */
#define B_PROBE 100000

int cr_jop_model_init(cr_jop_model *m, int year, int r, int w, int software,
                      cr_diag *d) {
  const jop_row *t = table(year);
  memset(m, 0, sizeof *m);
  if (!t)
    return cr_diag_set(d, CR_EUSAGE, -1, "JOP timing model %d: not known "
                       "(2014 or 2008)", year);
  if (r < 0 || r > CR_JOP_MAX_WS || w < 0 || w > CR_JOP_MAX_WS)
    return cr_diag_set(d, CR_EUSAGE, -1, "JOP wait states must be 0..%d",
                       CR_JOP_MAX_WS);
  if (software < 0 || software > CR_JOP_MAX_SOFTWARE)
    return cr_diag_set(d, CR_EUSAGE, -1, "JOP software cycles must be "
                       "0..%d", CR_JOP_MAX_SOFTWARE);
  m->year = year;
  m->r = r;
  m->w = w;
  m->software = software;
  for (unsigned op = 0; op < 256; op++) {
    int kind = op < JOP_NOPS ? t[op].kind : JK_UNSUP;
    long v = (long)software, h = 0;
    if (kind == JK_CONST || kind == JK_INVOKE || kind == JK_RETURN) {
      v = cr_jop_eval(t[op].formula, r, w, 4, 0);
      if (kind != JK_CONST)
        h = B_PROBE - (cr_jop_eval(t[op].formula, r, w, B_PROBE, 0) - v);
      if (v < 0 || h < 0 || h > B_PROBE)
        return cr_diag_set(d, CR_EFORMAT, -1, "JOP table %d: bad formula "
                           "for %s", year, t[op].mnemonic);
    }
    m->kind[op] = (uint8_t)kind;
    m->hit[op] = (uint32_t)v;
    m->hidden[op] = (uint32_t)h;
    m->block[op] = kind == JK_RETURN ? 0 : (uint32_t)v;
  }
  return 0;
}

uint64_t cr_jop_load_miss(const cr_jop_model *m, uint32_t n) {
  uint64_t c = m->r > 1 ? (uint64_t)m->r - 1 : 0;
  return 6 + ((uint64_t)n + 1) * (2 + c);
}

uint64_t cr_jop_cost_b(const cr_jop_model *m, unsigned op, uint64_t b) {
  op &= 255;
  if (m->kind[op] != JK_INVOKE && m->kind[op] != JK_RETURN)
    return m->hit[op];
  uint64_t h = m->hidden[op];
  return m->hit[op] + (b > h ? b - h : 0);
}

unsigned cr_jop_return_op(const char *desc) {
  const char *p = strchr(desc, ')');
  switch (p ? p[1] : 'V') {
  case 'Z': case 'B': case 'C': case 'S': case 'I': return 172;
  case 'J': return 173;
  case 'F': return 174;
  case 'D': return 175;
  case 'L': case '[': return 176;
  default: return 177;
  }
}
