/*
** jop_int.h -- internals of the JOP timing model: the table rows.
*/
#ifndef CCCP_JOP_INT_H
#define CCCP_JOP_INT_H

#include "cccp/jop.h"

#define JOP_NOPS 202        /* opcodes 0..201 (goto_w, jsr_w last) */

enum {
  JK_CONST = CR_JOP_CONST, JK_INVOKE = CR_JOP_INVOKE,
  JK_RETURN = CR_JOP_RETURN, JK_SOFT = CR_JOP_SOFTWARE,
  JK_UNSUP = CR_JOP_UNSUPPORTED
};

typedef struct jop_row {
  int op;
  const char *mnemonic;
  int kind;
  int r1w2;                 /* value at r = 1, w = 2; -1: none */
  const char *formula;      /* in r, w, b; "" where none */
} jop_row;

extern const jop_row cr_jop_t2014[JOP_NOPS];
extern const jop_row cr_jop_t2008[JOP_NOPS];

#endif
