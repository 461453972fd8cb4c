/*
** jop.h -- the JOP timing model (DESIGN.md 6; the JOP timing facts of
** WCETInstruction, 2014 and 2008, with their formulas in r, w and the
** method-cache load time b) and the completion of a cross-profile after
** the run (cross-profiling paper, section 3).
**
** Cost of a bytecode in cycles, r read and w write wait states:
**   const        the table's formula in r and w
**   invoke       C + max(0, b - 37)       b: load time of the callee
**   return       C + max(0, b - H)        b: load time of the caller,
**                                         H 9 (return), 10, 11 (l/dreturn)
**   software     a constant (200 in the paper): JOP runs a Java method
**   unsupported  JOP cannot run it; costed like software
** with b = 4 on a method-cache hit and b = 6 + (n+1)*(2+c) on a miss, n the
** method's size in 32-bit words, c = max(0, r-1). A hit never shows, so C
** is the hit cost. Without a method cache every load is a miss.
**
** Basic-block counters add each block's 'block' costs (invokes at C,
** returns at 0); 'cr_jop_complete' adds the rest from the calling
** context tree's call counts.
*/
#ifndef CCCP_JOP_H
#define CCCP_JOP_H

#include <stdint.h>

#include "cccp/profile.h"
#include "cccp/util.h"

enum {
  CR_JOP_CONST, CR_JOP_INVOKE, CR_JOP_RETURN, CR_JOP_SOFTWARE,
  CR_JOP_UNSUPPORTED
};

/* Defaults: the 2014 table, r = 1, w = 2, 200 cycles per software op. */
enum { CR_JOP_MODEL = 2014, CR_JOP_RWS = 1, CR_JOP_WWS = 2,
       CR_JOP_SOFTWARE_CYCLES = 200 };

/* Largest wait-state and software-cycle settings accepted (a block of
** 65535 bytecodes then costs less than 2^31 cycles). */
#define CR_JOP_MAX_WS 1000
#define CR_JOP_MAX_SOFTWARE 10000

/*
** A model for one setting, with per-opcode values computed once.
** 'block[op]' is what a basic-block counter adds for the opcode,
** 'hit[op]' the hit cost C of an invoke or return (else 'block[op]'),
** 'hidden[op]' H of an invoke or return (0 otherwise). Opcodes 202..255
** (not in class files) are unsupported.
*/
typedef struct cr_jop_model {
  int year;                  /* 2014 or 2008 */
  int r, w;                  /* wait states */
  int software;              /* cycles of a software or unsupported op */
  uint8_t kind[256];
  uint32_t block[256];
  uint32_t hit[256];
  uint32_t hidden[256];
} cr_jop_model;

/* Fill 'm' for table 'year' (2014 or 2008), wait states 'r' and 'w'
** (0..CR_JOP_MAX_WS) and software cost 'software'. CR_EUSAGE with 'd'
** set on a bad setting. */
int cr_jop_model_init(cr_jop_model *m, int year, int r, int w, int software,
                      cr_diag *d);

/* Mnemonic of 'op' in the tables ("invokevirtual"), "?" past 201. */
const char *cr_jop_mnemonic(unsigned op);

/*
** The table's own entry for 'op' (for tests and documentation): kind,
** the value at r = 1, w = 2 (-1 where the table has none), and the
** formula in r, w and b as the table writes it ("" where none).
*/
int cr_jop_table_entry(int year, unsigned op, int *kind, int *r1w2,
                       const char **formula);

/* Evaluate a table formula (integers, r, w, b, n, + - *, parentheses,
** max(x,y)); -1 when it does not parse. */
long cr_jop_eval(const char *formula, long r, long w, long b, long n);

/* Size in 32-bit words of a method with 'code_len' bytes of bytecode. */
static inline uint32_t cr_jop_words(uint32_t code_len) {
  return (uint32_t)(((uint64_t)code_len + 3) / 4);
}

/* Load time b of a method of 'n' words on a method-cache miss. */
uint64_t cr_jop_load_miss(const cr_jop_model *m, uint32_t n);

/* Cycles invoke or return 'op' costs with load time 'b' (other
** opcodes: their cost, whatever 'b'). */
uint64_t cr_jop_cost_b(const cr_jop_model *m, unsigned op, uint64_t b);

/* The return opcode of a method with descriptor 'desc' (ireturn for
** Z, B, C, S, I; lreturn, freturn, dreturn, areturn; return for V). */
unsigned cr_jop_return_op(const char *desc);

/*
** Complete cross-profile 'p' (cross-profiling paper, section 3), for
** the method cache disabled: for each node v of method m under a node of
** method p, with k = calls(v) and j the normal returns of v ('returns'
** when the profile has that metric, else k):
**   cycles(parent) += k * max(0, b(n_m) - 37)          when m and p are
**                                                       costed
**   cycles(v)      += j * (C_ret(m) + max(0, b(n_p) - H_ret(m)))
**                                                       when m is costed
** (the second term only when p is costed). A method is costed when it
** has bytecode that the counters saw: neither native nor a library
** method, size > 0. A top-level node has no caller: no invoke part, and
** its return costs C_ret. When the run simulated the method cache
** ('cache_blocks'), it charged every miss itself: only j * C_ret(m) is
** added. Adds the metric "cycles" when missing, marks
** the profile completed. CR_EUSAGE when 'p' is not a cross-profile or is
** completed already; CR_ENOMEM.
*/
int cr_jop_complete(cr_profile *p, cr_diag *d);

/* 1 if method 'm' of a profile is costed (see 'cr_jop_complete'). */
static inline int cr_jop_costed(const cr_prof_method *m) {
  return !m->native && !m->library && m->size > 0;
}

#endif
