/*
** fuzz_code.c -- fuzz target: class bytes past the parser, through the
** stages that change code: every method decoded into the instruction IR,
** re-encoded with frames computed from scratch (as --reencode does, and
** under stress probes), and the CCCP instrumentation against a hierarchy
** that holds just this class and the built-in policy. Whatever a stage
** reports, the class it leaves must write, and what it writes must parse.
** An input without the class-file magic is one method's code, wrapped in
** a class whose pool has an entry of every kind (see 'wrap'): mutations
** then reach the decoder and the frames instead of the class parser.
*/
#include <stdlib.h>
#include <string.h>

#include "cccp/analysis.h"
#include "cccp/classfile.h"
#include "cccp/hier.h"
#include "cccp/policy.h"
#include "cccp/xform.h"
#include "fuzz.h"

/* 'c' writes, and its bytes parse again. */
static void writes(cr_class *c, const char *stage) {
  cr_diag d;
  cr_diag_clear(&d);
  cr_buf b;
  cr_buf_init(&b);
  int rc = cr_cf_write(&b, c, &d);
  if (rc == CR_ETOOLARGE) {       /* a count over its class-file limit */
    cr_buf_free(&b);
    return;
  }
  FUZZ_CHECK(rc == 0 && !b.err, "%s: the class does not write: %s", stage,
             d.msg);
  cr_arena *a = cr_arena_new();
  if (!a) fuzz_fail("out of memory");
  cr_class *c2;
  rc = cr_cf_parse(&c2, a, b.data, b.len, &d);
  FUZZ_CHECK(rc == 0, "%s: what it wrote does not parse: offset %ld: %s",
             stage, d.offset, d.msg);
  cr_arena_free(a);
  cr_buf_free(&b);
}

static void reencode(const uint8_t *data, size_t size, unsigned flags) {
  cr_arena *a = cr_arena_new();
  if (!a) fuzz_fail("out of memory");
  cr_diag d;
  cr_diag_clear(&d);
  cr_class *c;
  if (cr_cf_parse(&c, a, data, size, &d) == 0) {
    int rc = cr_reencode_class(c, a, NULL, flags, &d);
    if (rc) fuzz_check_diag(&d, rc, size, "cr_reencode_class");
    writes(c, flags ? "stress probes" : "re-encoding");
  }
  cr_arena_free(a);
}

static void instrument(const uint8_t *data, size_t size) {
  cr_arena *a = cr_arena_new();
  cr_hier *h = NULL;
  cr_policy *p = NULL;
  if (!a) fuzz_fail("out of memory");
  cr_diag d;
  cr_diag_clear(&d);
  cr_class *c;
  if (cr_cf_parse(&c, a, data, size, &d) != 0 || cr_hier_new(&h, &d) != 0)
    goto out;
  if (cr_hier_add_class(h, c, 1, 0, &d) != 0 || cr_hier_link(h, &d) != 0)
    goto out;                     /* no name, a cycle: bad input */
  if (cr_policy_new(&p, 1, &d) != 0) fuzz_fail("built-in policy: %s", d.msg);
  int rc = cr_hier_analyze(h, p, &d);
  FUZZ_CHECK(rc == 0, "analysis of one class: %s", d.msg);
  cr_typeinfo ti = cr_hier_typeinfo(h);
  cr_xf_opts o;
  memset(&o, 0, sizeof o);
  o.h = h;
  o.pol = p;
  o.env.ti = &ti;
  rc = cr_xf_cccp(c, &o, &d);
  if (rc) {
    /* the caller then writes the input unchanged */
    fuzz_check_diag(&d, rc, size, "cr_xf_cccp");
    FUZZ_CHECK(rc == CR_ENOMEM || rc == CR_ETOOLARGE ||
                   rc == CR_EUNSUPPORTED || rc == CR_EFORMAT,
               "cr_xf_cccp failed with code %d: %s", rc, d.msg);
  } else {
    writes(c, "instrumentation");
  }
out:
  cr_policy_free(p);
  cr_hier_free(h);
  cr_arena_free(a);
}

/* ---- code-only inputs ---- */

/*
** The constant pool of the wrapping class "Fz" (extends Object, implements
** Runnable), in pool order, 1-based. Operands of the fuzzed code pick
** from these: 2 Fz, 4 Object, 11 Object.<init>, 15 Fz.f:I (field), 16
** String "m", 17 Integer, 18 Float, 19 Long, 21 Double, 24 String class,
** 26 Fz.m (method), 31 Runnable.run (interface), 33 [I, 34 a method
** handle, 35 a method type, 39 Fz.s:Ljava/lang/Object; (field), 40 an
** invokedynamic (bootstrap method 0: #34 with the argument #17); 34, 35
** and 40 are Integers below version 51. #6 is the descriptor of the
** fuzzed method, chosen by the input.
*/
static const char *const descs[8] = {
  "()V", "(I)I", "(JD)J", "(Ljava/lang/Object;I)Ljava/lang/Object;",
  "([I)V", "(Ljava/lang/String;)Ljava/lang/String;", "(ZBCSF)F",
  "(Ljava/lang/Object;)Z",
};

static void u1(cr_buf *b, unsigned v) { cr_buf_u1(b, (uint8_t)v); }
static void u2(cr_buf *b, unsigned v) {
  u1(b, v >> 8);
  u1(b, v & 0xff);
}
static void u4(cr_buf *b, uint32_t v) {
  u2(b, v >> 16);
  u2(b, v & 0xffff);
}
static void utf8(cr_buf *b, const char *s) {
  u1(b, 1);
  u2(b, (unsigned)strlen(s));
  cr_buf_puts(b, s);
}

/* Class-file versions the input chooses from: frames, the old verifier
** (jsr and ret allowed), Java 17. */
static const uint16_t majors[4] = {52, 50, 49, 61};

/*
** Input layout: byte 0 chooses the descriptor (bits 0-2), static (bit 3)
** and the version (bits 4-5); bytes 1-2 max_stack, max_locals; byte 3 the
** number of exception-table entries (at most 8), each 8 bytes; the rest
** is code (at most 65535 bytes).
*/
static int wrap(cr_buf *b, const uint8_t *data, size_t size) {
  if (size < 4) return -1;
  size_t nex = data[3] & 7, off = 4 + 8 * nex;
  if (size < off) return -1;
  size_t clen = size - off > 65535 ? 65535 : size - off;
  u4(b, 0xCAFEBABEu);
  u2(b, 0);
  unsigned major = majors[(data[0] >> 4) & 3];
  int dyn = major >= 51;        /* method handles, types, invokedynamic */
  u2(b, major);
  u2(b, 42);                                      /* constant_pool_count */
  utf8(b, "Fz");                                  /* 1 */
  u1(b, 7); u2(b, 1);                             /* 2 Class Fz */
  utf8(b, "java/lang/Object");                    /* 3 */
  u1(b, 7); u2(b, 3);                             /* 4 Class Object */
  utf8(b, "m");                                   /* 5 */
  utf8(b, descs[data[0] & 7]);                    /* 6 */
  utf8(b, "Code");                                /* 7 */
  utf8(b, "<init>");                              /* 8 */
  utf8(b, "()V");                                 /* 9 */
  u1(b, 12); u2(b, 8); u2(b, 9);                  /* 10 <init>:()V */
  u1(b, 10); u2(b, 4); u2(b, 10);                 /* 11 Object.<init> */
  utf8(b, "f");                                   /* 12 */
  utf8(b, "I");                                   /* 13 */
  u1(b, 12); u2(b, 12); u2(b, 13);                /* 14 f:I */
  u1(b, 9); u2(b, 2); u2(b, 14);                  /* 15 Fz.f */
  u1(b, 8); u2(b, 5);                             /* 16 String "m" */
  u1(b, 3); u4(b, 42);                            /* 17 Integer */
  u1(b, 4); u4(b, 0x3fc00000u);                   /* 18 Float 1.5 */
  u1(b, 5); u4(b, 0); u4(b, 7);                   /* 19-20 Long */
  u1(b, 6); u4(b, 0x40091eb8u); u4(b, 0x51eb851fu); /* 21-22 Double */
  utf8(b, "java/lang/String");                    /* 23 */
  u1(b, 7); u2(b, 23);                            /* 24 Class String */
  u1(b, 12); u2(b, 5); u2(b, 6);                  /* 25 m:desc */
  u1(b, 10); u2(b, 2); u2(b, 25);                 /* 26 Fz.m */
  utf8(b, "java/lang/Runnable");                  /* 27 */
  u1(b, 7); u2(b, 27);                            /* 28 Class Runnable */
  utf8(b, "run");                                 /* 29 */
  u1(b, 12); u2(b, 29); u2(b, 9);                 /* 30 run:()V */
  u1(b, 11); u2(b, 28); u2(b, 30);                /* 31 Runnable.run */
  utf8(b, "[I");                                  /* 32 */
  u1(b, 7); u2(b, 32);                            /* 33 Class [I */
  if (dyn) {
    u1(b, 15); u1(b, 6); u2(b, 26);               /* 34 MethodHandle */
    u1(b, 16); u2(b, 9);                          /* 35 MethodType ()V */
  } else {                                        /* 34, 35 Integer */
    u1(b, 3); u4(b, 34);
    u1(b, 3); u4(b, 35);
  }
  utf8(b, "s");                                   /* 36 */
  utf8(b, "Ljava/lang/Object;");                  /* 37 */
  u1(b, 12); u2(b, 36); u2(b, 37);                /* 38 s:Object */
  u1(b, 9); u2(b, 2); u2(b, 38);                  /* 39 Fz.s */
  if (dyn) {
    u1(b, 18); u2(b, 0); u2(b, 30);               /* 40 InvokeDynamic */
  } else {
    u1(b, 3); u4(b, 40);                          /* 40 Integer */
  }
  utf8(b, "BootstrapMethods");                    /* 41 */
  u2(b, 0x21);                                    /* public super */
  u2(b, 2);
  u2(b, 4);
  u2(b, 1);                                       /* implements */
  u2(b, 28);
  u2(b, 2);                                       /* fields: f, s */
  u2(b, 0x9); u2(b, 12); u2(b, 13); u2(b, 0);
  u2(b, 0x1); u2(b, 36); u2(b, 37); u2(b, 0);
  u2(b, 1);                                       /* methods: m */
  u2(b, 0x1 | (data[0] & 8 ? 0x8 : 0));
  u2(b, 5);
  u2(b, 6);
  u2(b, 1);
  u2(b, 7);                                       /* Code */
  u4(b, (uint32_t)(12 + clen + 8 * nex));
  u2(b, data[1]);
  u2(b, data[2]);
  u4(b, (uint32_t)clen);
  cr_buf_put(b, data + off, clen);
  u2(b, (unsigned)nex);
  cr_buf_put(b, data + 4, 8 * nex);
  u2(b, 0);                                       /* Code attributes */
  u2(b, dyn);                                     /* class attributes */
  if (dyn) {
    u2(b, 41);
    u4(b, 8);
    u2(b, 1);                                     /* one method: */
    u2(b, 34);                                    /*   #34 (#17) */
    u2(b, 1);
    u2(b, 17);
  }
  return b->err ? -1 : 0;
}

static void stages(const uint8_t *data, size_t size) {
  reencode(data, size, 0);
  reencode(data, size, CR_REENCODE_STRESS);
  instrument(data, size);
}

int fuzz_code(const uint8_t *data, size_t size) {
  if (size >= 4 && cr_be32(data) == 0xCAFEBABEu) {
    stages(data, size);
    return 0;
  }
  cr_buf b;
  cr_buf_init(&b);
  if (wrap(&b, data, size) == 0) stages(b.data, b.len);
  cr_buf_free(&b);
  return 0;
}
