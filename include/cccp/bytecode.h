/*
** bytecode.h -- the instruction IR (JVMS chapter 6): the opcode table,
** decoding a Code attribute into a list of instructions with labels,
** editing, relocation (short/long branches, switch padding, wide locals)
** and writing the result back into the class model.
**
** Kinds of types. 'cr_insn', 'cr_switch', 'cr_tcb' are transparent plain
** data; 'cr_body' is transparent too, but grow its lists only through the
** functions below. Everything lives in the class arena; nothing has a
** '_free'.
*/
#ifndef CCCP_BYTECODE_H
#define CCCP_BYTECODE_H

#include <stddef.h>
#include <stdint.h>

#include "cccp/classfile.h"

/* -------------------------------------------------------------- opcodes */

/*
** Operand formats (bytes after the opcode):
**   NONE    -                       S1     s1 (bipush)
**   LOCAL   u1 index (wide: u2)     S2     s2 (sipush)
**   IINC    u1 index, s1 (wide: u2, s2)   U1   u1 (newarray atype)
**   CP1     u1 pool index (ldc)     CP2    u2 pool index
**   IFACE   u2, u1 count, 0         INDY   u2, 0, 0
**   MULTI   u2, u1 dimensions       BR2    s2 branch   BR4   s4 branch
**   TSWITCH, LSWITCH  padding, then the switch tables
**   WIDE    the prefix (never in the IR)
**   BAD     not an opcode (0: table rows left out read as BAD)
*/
enum {
  CR_FMT_BAD, CR_FMT_NONE, CR_FMT_LOCAL, CR_FMT_IINC, CR_FMT_S1, CR_FMT_S2,
  CR_FMT_U1, CR_FMT_CP1, CR_FMT_CP2, CR_FMT_IFACE, CR_FMT_INDY, CR_FMT_MULTI,
  CR_FMT_BR2, CR_FMT_BR4, CR_FMT_TSWITCH, CR_FMT_LSWITCH, CR_FMT_WIDE
};

/* Opcode flags. */
enum {
  CR_OPF_COND = 1 << 0,     /* conditional branch (if*) */
  CR_OPF_GOTO = 1 << 1,     /* goto, goto_w */
  CR_OPF_JSR = 1 << 2,      /* jsr, jsr_w */
  CR_OPF_SWITCH = 1 << 3,   /* tableswitch, lookupswitch */
  CR_OPF_RETURN = 1 << 4,   /* *return */
  CR_OPF_THROW = 1 << 5,    /* athrow */
  CR_OPF_RET = 1 << 6,      /* ret */
  CR_OPF_INVOKE = 1 << 7,   /* invoke* */
  CR_OPF_FIELD = 1 << 8,    /* get/put field/static */
  CR_OPF_LOAD = 1 << 9,     /* reads a local (iload..aload_3) */
  CR_OPF_STORE = 1 << 10,   /* writes a local (istore..astore_3) */
  CR_OPF_TWO = 1 << 11,     /* the local is a long or double (2 slots) */
  CR_OPF_NOFALL = 1 << 12   /* never falls through to the next insn */
};

/*
** The opcode table: X(NAME, "mnemonic", format, pops, pushes, flags) in
** opcode order (ORDER JVMS). 'pops'/'pushes' count stack slots (long and
** double take two); -1 means it depends on the operand (invokes, fields,
** multianewarray).
*/
#define CR__BR (CR_OPF_COND)
#define CR__NF (CR_OPF_NOFALL)
#define CR__LD (CR_OPF_LOAD)
#define CR__LD2 (CR_OPF_LOAD | CR_OPF_TWO)
#define CR__ST (CR_OPF_STORE)
#define CR__ST2 (CR_OPF_STORE | CR_OPF_TWO)
#define CR__RT (CR_OPF_RETURN | CR_OPF_NOFALL)
#define CR_OPCODES(X)                                                      \
  X(NOP, "nop", NONE, 0, 0, 0)                                             \
  X(ACONST_NULL, "aconst_null", NONE, 0, 1, 0)                             \
  X(ICONST_M1, "iconst_m1", NONE, 0, 1, 0)                                 \
  X(ICONST_0, "iconst_0", NONE, 0, 1, 0)                                   \
  X(ICONST_1, "iconst_1", NONE, 0, 1, 0)                                   \
  X(ICONST_2, "iconst_2", NONE, 0, 1, 0)                                   \
  X(ICONST_3, "iconst_3", NONE, 0, 1, 0)                                   \
  X(ICONST_4, "iconst_4", NONE, 0, 1, 0)                                   \
  X(ICONST_5, "iconst_5", NONE, 0, 1, 0)                                   \
  X(LCONST_0, "lconst_0", NONE, 0, 2, 0)                                   \
  X(LCONST_1, "lconst_1", NONE, 0, 2, 0)                                   \
  X(FCONST_0, "fconst_0", NONE, 0, 1, 0)                                   \
  X(FCONST_1, "fconst_1", NONE, 0, 1, 0)                                   \
  X(FCONST_2, "fconst_2", NONE, 0, 1, 0)                                   \
  X(DCONST_0, "dconst_0", NONE, 0, 2, 0)                                   \
  X(DCONST_1, "dconst_1", NONE, 0, 2, 0)                                   \
  X(BIPUSH, "bipush", S1, 0, 1, 0)                                         \
  X(SIPUSH, "sipush", S2, 0, 1, 0)                                         \
  X(LDC, "ldc", CP1, 0, 1, 0)                                              \
  X(LDC_W, "ldc_w", CP2, 0, 1, 0)                                          \
  X(LDC2_W, "ldc2_w", CP2, 0, 2, 0)                                        \
  X(ILOAD, "iload", LOCAL, 0, 1, CR__LD)                                   \
  X(LLOAD, "lload", LOCAL, 0, 2, CR__LD2)                                  \
  X(FLOAD, "fload", LOCAL, 0, 1, CR__LD)                                   \
  X(DLOAD, "dload", LOCAL, 0, 2, CR__LD2)                                  \
  X(ALOAD, "aload", LOCAL, 0, 1, CR__LD)                                   \
  X(ILOAD_0, "iload_0", NONE, 0, 1, CR__LD)                                \
  X(ILOAD_1, "iload_1", NONE, 0, 1, CR__LD)                                \
  X(ILOAD_2, "iload_2", NONE, 0, 1, CR__LD)                                \
  X(ILOAD_3, "iload_3", NONE, 0, 1, CR__LD)                                \
  X(LLOAD_0, "lload_0", NONE, 0, 2, CR__LD2)                               \
  X(LLOAD_1, "lload_1", NONE, 0, 2, CR__LD2)                               \
  X(LLOAD_2, "lload_2", NONE, 0, 2, CR__LD2)                               \
  X(LLOAD_3, "lload_3", NONE, 0, 2, CR__LD2)                               \
  X(FLOAD_0, "fload_0", NONE, 0, 1, CR__LD)                                \
  X(FLOAD_1, "fload_1", NONE, 0, 1, CR__LD)                                \
  X(FLOAD_2, "fload_2", NONE, 0, 1, CR__LD)                                \
  X(FLOAD_3, "fload_3", NONE, 0, 1, CR__LD)                                \
  X(DLOAD_0, "dload_0", NONE, 0, 2, CR__LD2)                               \
  X(DLOAD_1, "dload_1", NONE, 0, 2, CR__LD2)                               \
  X(DLOAD_2, "dload_2", NONE, 0, 2, CR__LD2)                               \
  X(DLOAD_3, "dload_3", NONE, 0, 2, CR__LD2)                               \
  X(ALOAD_0, "aload_0", NONE, 0, 1, CR__LD)                                \
  X(ALOAD_1, "aload_1", NONE, 0, 1, CR__LD)                                \
  X(ALOAD_2, "aload_2", NONE, 0, 1, CR__LD)                                \
  X(ALOAD_3, "aload_3", NONE, 0, 1, CR__LD)                                \
  X(IALOAD, "iaload", NONE, 2, 1, 0)                                       \
  X(LALOAD, "laload", NONE, 2, 2, 0)                                       \
  X(FALOAD, "faload", NONE, 2, 1, 0)                                       \
  X(DALOAD, "daload", NONE, 2, 2, 0)                                       \
  X(AALOAD, "aaload", NONE, 2, 1, 0)                                       \
  X(BALOAD, "baload", NONE, 2, 1, 0)                                       \
  X(CALOAD, "caload", NONE, 2, 1, 0)                                       \
  X(SALOAD, "saload", NONE, 2, 1, 0)                                       \
  X(ISTORE, "istore", LOCAL, 1, 0, CR__ST)                                 \
  X(LSTORE, "lstore", LOCAL, 2, 0, CR__ST2)                                \
  X(FSTORE, "fstore", LOCAL, 1, 0, CR__ST)                                 \
  X(DSTORE, "dstore", LOCAL, 2, 0, CR__ST2)                                \
  X(ASTORE, "astore", LOCAL, 1, 0, CR__ST)                                 \
  X(ISTORE_0, "istore_0", NONE, 1, 0, CR__ST)                              \
  X(ISTORE_1, "istore_1", NONE, 1, 0, CR__ST)                              \
  X(ISTORE_2, "istore_2", NONE, 1, 0, CR__ST)                              \
  X(ISTORE_3, "istore_3", NONE, 1, 0, CR__ST)                              \
  X(LSTORE_0, "lstore_0", NONE, 2, 0, CR__ST2)                             \
  X(LSTORE_1, "lstore_1", NONE, 2, 0, CR__ST2)                             \
  X(LSTORE_2, "lstore_2", NONE, 2, 0, CR__ST2)                             \
  X(LSTORE_3, "lstore_3", NONE, 2, 0, CR__ST2)                             \
  X(FSTORE_0, "fstore_0", NONE, 1, 0, CR__ST)                              \
  X(FSTORE_1, "fstore_1", NONE, 1, 0, CR__ST)                              \
  X(FSTORE_2, "fstore_2", NONE, 1, 0, CR__ST)                              \
  X(FSTORE_3, "fstore_3", NONE, 1, 0, CR__ST)                              \
  X(DSTORE_0, "dstore_0", NONE, 2, 0, CR__ST2)                             \
  X(DSTORE_1, "dstore_1", NONE, 2, 0, CR__ST2)                             \
  X(DSTORE_2, "dstore_2", NONE, 2, 0, CR__ST2)                             \
  X(DSTORE_3, "dstore_3", NONE, 2, 0, CR__ST2)                             \
  X(ASTORE_0, "astore_0", NONE, 1, 0, CR__ST)                              \
  X(ASTORE_1, "astore_1", NONE, 1, 0, CR__ST)                              \
  X(ASTORE_2, "astore_2", NONE, 1, 0, CR__ST)                              \
  X(ASTORE_3, "astore_3", NONE, 1, 0, CR__ST)                              \
  X(IASTORE, "iastore", NONE, 3, 0, 0)                                     \
  X(LASTORE, "lastore", NONE, 4, 0, 0)                                     \
  X(FASTORE, "fastore", NONE, 3, 0, 0)                                     \
  X(DASTORE, "dastore", NONE, 4, 0, 0)                                     \
  X(AASTORE, "aastore", NONE, 3, 0, 0)                                     \
  X(BASTORE, "bastore", NONE, 3, 0, 0)                                     \
  X(CASTORE, "castore", NONE, 3, 0, 0)                                     \
  X(SASTORE, "sastore", NONE, 3, 0, 0)                                     \
  X(POP, "pop", NONE, 1, 0, 0)                                             \
  X(POP2, "pop2", NONE, 2, 0, 0)                                           \
  X(DUP, "dup", NONE, 1, 2, 0)                                             \
  X(DUP_X1, "dup_x1", NONE, 2, 3, 0)                                       \
  X(DUP_X2, "dup_x2", NONE, 3, 4, 0)                                       \
  X(DUP2, "dup2", NONE, 2, 4, 0)                                           \
  X(DUP2_X1, "dup2_x1", NONE, 3, 5, 0)                                     \
  X(DUP2_X2, "dup2_x2", NONE, 4, 6, 0)                                     \
  X(SWAP, "swap", NONE, 2, 2, 0)                                           \
  X(IADD, "iadd", NONE, 2, 1, 0)                                           \
  X(LADD, "ladd", NONE, 4, 2, 0)                                           \
  X(FADD, "fadd", NONE, 2, 1, 0)                                           \
  X(DADD, "dadd", NONE, 4, 2, 0)                                           \
  X(ISUB, "isub", NONE, 2, 1, 0)                                           \
  X(LSUB, "lsub", NONE, 4, 2, 0)                                           \
  X(FSUB, "fsub", NONE, 2, 1, 0)                                           \
  X(DSUB, "dsub", NONE, 4, 2, 0)                                           \
  X(IMUL, "imul", NONE, 2, 1, 0)                                           \
  X(LMUL, "lmul", NONE, 4, 2, 0)                                           \
  X(FMUL, "fmul", NONE, 2, 1, 0)                                           \
  X(DMUL, "dmul", NONE, 4, 2, 0)                                           \
  X(IDIV, "idiv", NONE, 2, 1, 0)                                           \
  X(LDIV, "ldiv", NONE, 4, 2, 0)                                           \
  X(FDIV, "fdiv", NONE, 2, 1, 0)                                           \
  X(DDIV, "ddiv", NONE, 4, 2, 0)                                           \
  X(IREM, "irem", NONE, 2, 1, 0)                                           \
  X(LREM, "lrem", NONE, 4, 2, 0)                                           \
  X(FREM, "frem", NONE, 2, 1, 0)                                           \
  X(DREM, "drem", NONE, 4, 2, 0)                                           \
  X(INEG, "ineg", NONE, 1, 1, 0)                                           \
  X(LNEG, "lneg", NONE, 2, 2, 0)                                           \
  X(FNEG, "fneg", NONE, 1, 1, 0)                                           \
  X(DNEG, "dneg", NONE, 2, 2, 0)                                           \
  X(ISHL, "ishl", NONE, 2, 1, 0)                                           \
  X(LSHL, "lshl", NONE, 3, 2, 0)                                           \
  X(ISHR, "ishr", NONE, 2, 1, 0)                                           \
  X(LSHR, "lshr", NONE, 3, 2, 0)                                           \
  X(IUSHR, "iushr", NONE, 2, 1, 0)                                         \
  X(LUSHR, "lushr", NONE, 3, 2, 0)                                         \
  X(IAND, "iand", NONE, 2, 1, 0)                                           \
  X(LAND, "land", NONE, 4, 2, 0)                                           \
  X(IOR, "ior", NONE, 2, 1, 0)                                             \
  X(LOR, "lor", NONE, 4, 2, 0)                                             \
  X(IXOR, "ixor", NONE, 2, 1, 0)                                           \
  X(LXOR, "lxor", NONE, 4, 2, 0)                                           \
  X(IINC, "iinc", IINC, 0, 0, 0)                                           \
  X(I2L, "i2l", NONE, 1, 2, 0)                                             \
  X(I2F, "i2f", NONE, 1, 1, 0)                                             \
  X(I2D, "i2d", NONE, 1, 2, 0)                                             \
  X(L2I, "l2i", NONE, 2, 1, 0)                                             \
  X(L2F, "l2f", NONE, 2, 1, 0)                                             \
  X(L2D, "l2d", NONE, 2, 2, 0)                                             \
  X(F2I, "f2i", NONE, 1, 1, 0)                                             \
  X(F2L, "f2l", NONE, 1, 2, 0)                                             \
  X(F2D, "f2d", NONE, 1, 2, 0)                                             \
  X(D2I, "d2i", NONE, 2, 1, 0)                                             \
  X(D2L, "d2l", NONE, 2, 2, 0)                                             \
  X(D2F, "d2f", NONE, 2, 1, 0)                                             \
  X(I2B, "i2b", NONE, 1, 1, 0)                                             \
  X(I2C, "i2c", NONE, 1, 1, 0)                                             \
  X(I2S, "i2s", NONE, 1, 1, 0)                                             \
  X(LCMP, "lcmp", NONE, 4, 1, 0)                                           \
  X(FCMPL, "fcmpl", NONE, 2, 1, 0)                                         \
  X(FCMPG, "fcmpg", NONE, 2, 1, 0)                                         \
  X(DCMPL, "dcmpl", NONE, 4, 1, 0)                                         \
  X(DCMPG, "dcmpg", NONE, 4, 1, 0)                                         \
  X(IFEQ, "ifeq", BR2, 1, 0, CR__BR)                                       \
  X(IFNE, "ifne", BR2, 1, 0, CR__BR)                                       \
  X(IFLT, "iflt", BR2, 1, 0, CR__BR)                                       \
  X(IFGE, "ifge", BR2, 1, 0, CR__BR)                                       \
  X(IFGT, "ifgt", BR2, 1, 0, CR__BR)                                       \
  X(IFLE, "ifle", BR2, 1, 0, CR__BR)                                       \
  X(IF_ICMPEQ, "if_icmpeq", BR2, 2, 0, CR__BR)                             \
  X(IF_ICMPNE, "if_icmpne", BR2, 2, 0, CR__BR)                             \
  X(IF_ICMPLT, "if_icmplt", BR2, 2, 0, CR__BR)                             \
  X(IF_ICMPGE, "if_icmpge", BR2, 2, 0, CR__BR)                             \
  X(IF_ICMPGT, "if_icmpgt", BR2, 2, 0, CR__BR)                             \
  X(IF_ICMPLE, "if_icmple", BR2, 2, 0, CR__BR)                             \
  X(IF_ACMPEQ, "if_acmpeq", BR2, 2, 0, CR__BR)                             \
  X(IF_ACMPNE, "if_acmpne", BR2, 2, 0, CR__BR)                             \
  X(GOTO, "goto", BR2, 0, 0, CR_OPF_GOTO | CR__NF)                         \
  X(JSR, "jsr", BR2, 0, 1, CR_OPF_JSR)                                     \
  X(RET, "ret", LOCAL, 0, 0, CR_OPF_RET | CR__NF)                          \
  X(TABLESWITCH, "tableswitch", TSWITCH, 1, 0, CR_OPF_SWITCH | CR__NF)     \
  X(LOOKUPSWITCH, "lookupswitch", LSWITCH, 1, 0, CR_OPF_SWITCH | CR__NF)   \
  X(IRETURN, "ireturn", NONE, 1, 0, CR__RT)                                \
  X(LRETURN, "lreturn", NONE, 2, 0, CR__RT)                                \
  X(FRETURN, "freturn", NONE, 1, 0, CR__RT)                                \
  X(DRETURN, "dreturn", NONE, 2, 0, CR__RT)                                \
  X(ARETURN, "areturn", NONE, 1, 0, CR__RT)                                \
  X(RETURN, "return", NONE, 0, 0, CR__RT)                                  \
  X(GETSTATIC, "getstatic", CP2, -1, -1, CR_OPF_FIELD)                     \
  X(PUTSTATIC, "putstatic", CP2, -1, -1, CR_OPF_FIELD)                     \
  X(GETFIELD, "getfield", CP2, -1, -1, CR_OPF_FIELD)                       \
  X(PUTFIELD, "putfield", CP2, -1, -1, CR_OPF_FIELD)                       \
  X(INVOKEVIRTUAL, "invokevirtual", CP2, -1, -1, CR_OPF_INVOKE)            \
  X(INVOKESPECIAL, "invokespecial", CP2, -1, -1, CR_OPF_INVOKE)            \
  X(INVOKESTATIC, "invokestatic", CP2, -1, -1, CR_OPF_INVOKE)              \
  X(INVOKEINTERFACE, "invokeinterface", IFACE, -1, -1, CR_OPF_INVOKE)      \
  X(INVOKEDYNAMIC, "invokedynamic", INDY, -1, -1, CR_OPF_INVOKE)           \
  X(NEW, "new", CP2, 0, 1, 0)                                              \
  X(NEWARRAY, "newarray", U1, 1, 1, 0)                                     \
  X(ANEWARRAY, "anewarray", CP2, 1, 1, 0)                                  \
  X(ARRAYLENGTH, "arraylength", NONE, 1, 1, 0)                             \
  X(ATHROW, "athrow", NONE, 1, 0, CR_OPF_THROW | CR__NF)                   \
  X(CHECKCAST, "checkcast", CP2, 1, 1, 0)                                  \
  X(INSTANCEOF, "instanceof", CP2, 1, 1, 0)                                \
  X(MONITORENTER, "monitorenter", NONE, 1, 0, 0)                           \
  X(MONITOREXIT, "monitorexit", NONE, 1, 0, 0)                             \
  X(WIDE, "wide", WIDE, 0, 0, 0)                                           \
  X(MULTIANEWARRAY, "multianewarray", MULTI, -1, 1, 0)                     \
  X(IFNULL, "ifnull", BR2, 1, 0, CR__BR)                                   \
  X(IFNONNULL, "ifnonnull", BR2, 1, 0, CR__BR)                             \
  X(GOTO_W, "goto_w", BR4, 0, 0, CR_OPF_GOTO | CR__NF)                     \
  X(JSR_W, "jsr_w", BR4, 0, 1, CR_OPF_JSR)

enum {
#define CR__OPENUM(name, mn, fmt, pop, push, fl) CR_OP_##name,
  CR_OPCODES(CR__OPENUM)
#undef CR__OPENUM
  CR_OP__COUNT,             /* 202: first value that is not an opcode */
  CR_OP_LABEL = 256         /* pseudo-instruction: a position in the code */
};

typedef struct cr_opinfo {
  const char *name;         /* mnemonic; "label" for CR_OP_LABEL, "?" for
                               values that are not opcodes */
  uint8_t fmt;              /* CR_FMT_* */
  int8_t pop, push;         /* stack slots, -1 when operand-dependent */
  uint16_t flags;           /* CR_OPF_* */
} cr_opinfo;

/* The table, indexed by opcode; row 256 is CR_OP_LABEL (fmt BAD, size 0)
** and the rows of non-opcodes have fmt BAD. Use 'cr_op_info'. */
extern const cr_opinfo cr__optab[257];

/* Row 'op' of the opcode table (any 'op'; out of range reads as BAD). */
static inline const cr_opinfo *cr_op_info(unsigned op) {
  return &cr__optab[op <= 256 ? op : 255];
}

/* ----------------------------------------------------------------- the IR */

typedef struct cr_insn cr_insn;

/* Targets of a tableswitch (keys low..low+n-1) or lookupswitch ('keys'). */
typedef struct cr_switch {
  uint32_t n;               /* number of cases */
  int32_t low;              /* tableswitch: first key */
  int32_t *keys;            /* lookupswitch: the n keys (sorted) */
  cr_insn **targets;        /* n labels */
  cr_insn *dflt;            /* default label */
} cr_switch;

/*
** One instruction, or a label (op CR_OP_LABEL, size 0). Operands:
**   LOCAL, implied-index loads/stores   a = local index
**   IINC      a = index, b = increment     S1, S2, U1   a = value
**   CP1, CP2, INDY   a = pool index        IFACE   a = index, b = count
**   MULTI     a = index, b = dimensions
**   BR2, BR4  'target' = a label           *SWITCH  'sw'
** 'wide' asks for the 'wide' prefix even where it is not needed (kept
** from the input so that unchanged code re-encodes identically); it is
** added anyway when an index or increment needs it. 'ldc' becomes 'ldc_w'
** when its index passes 255. After 'cr_body_layout', 'off' is the new
** offset and 'lng' says whether a BR2 branch took its long form.
*/
struct cr_insn {
  cr_insn *prev, *next;
  uint16_t op;              /* opcode or CR_OP_LABEL */
  uint8_t wide;             /* force the 'wide' prefix */
  uint8_t lng;              /* layout: long form (goto_w, inverted if) */
  uint8_t dead;             /* analysis: unreachable, encoded as nops */
  uint32_t off;             /* decoded offset; after layout the new one */
  int32_t a, b;             /* operands, see above */
  uint32_t orig;            /* decoded offset + 1, kept through layout;
                               0 for a node made after decoding */
  cr_insn *target;          /* branch target label */
  cr_switch *sw;            /* switch tables */
  uint32_t id;              /* serial number, unique within the body */
  uint32_t aux;             /* scratch for passes (block index, ...) */
};

/* An exception-table entry over labels. */
typedef struct cr_tcb {
  cr_insn *start, *end, *handler;  /* labels; 'end' exclusive */
  uint16_t type;            /* Class index, 0 for any */
  uint16_t orig;            /* index in the decoded table (for 'catch'
                               type-annotation targets) */
} cr_tcb;

/* A bytecode offset stored in an attribute of the Code attribute, to be
** rewritten from labels on commit: *field = end->off - (start ? start->off
** : 0). */
typedef struct cr_fixup {
  uint16_t *field;
  cr_insn *end, *start;
} cr_fixup;

/*
** A method body being edited. 'first'..'last' is the instruction list.
** 'fixups' rebind LineNumberTable, LocalVariable(Type)Table and type
** annotation offsets. Layout results: 'code_len', 'nlong' (branches
** widened) and 'locals_top'. Instructions the analysis marks 'dead' are
** encoded as nop...nop athrow over the bytes of each run of them (ASM's
** rule).
*/
typedef struct cr_body {
  cr_class *cls;
  cr_member *m;
  cr_code *code;            /* the Code attribute decoded from */
  cr_arena *a;
  cr_insn *first, *last;
  uint32_t ninsn;           /* nodes made (ids are < this) */
  cr_tcb *tcb;
  uint32_t ntcb, ctcb;
  cr_fixup *fix;
  uint32_t nfix, cfix;
  uint16_t **catch_fix;     /* 'catch' type-annotation targets (exception
                               table indices, remapped on commit) */
  uint32_t ncatch, ccatch;
  uint32_t code_len;        /* after layout */
  uint32_t nlong;           /* after layout: branches in long form */
  uint32_t locals_top;      /* after decode or layout: one past the
                               highest local slot an instruction uses */
  uint16_t max_stack, max_locals;  /* set by whoever computes them */
  uint8_t has_jsr;          /* contains jsr/jsr_w/ret */
  uint8_t force_long;       /* layout: every branch in long form */
  uint8_t force_wide;       /* layout: 'wide' on every LOCAL/IINC insn */
  const char *smt_desc;     /* the descriptor the decoded code's
                               StackMapTable was written for when it is
                               not m's (a twin given the original's
                               code); NULL: m's */
  cr_insn *line_at;         /* a label: commit adds a LineNumberTable
                               attribute of one entry, this offset and
                               'line' (NULL: none) */
  uint16_t line;
  const uint8_t *oflags;    /* decode's facts per original offset, for
                               'cr_body_check_frames' (internal) */
  uint32_t bad_frame;       /* 1 + the offset of the first StackMapTable
                               frame that starts no instruction; 0: none */
} cr_body;

/* Length of the instruction at offset 'off' of the 'n' bytes of 'code',
** 0 when it is truncated, undefined or badly formed (a scan of the code
** without decoding it). */
uint32_t cr_code_insn_len(const uint8_t *code, uint32_t off, uint32_t n);

/*
** Decode the Code attribute of method 'm' of 'c' into a body in arena
** 'a'. Every branch/switch target, exception-range boundary and handler,
** and every offset in LineNumberTable, LocalVariable(Type)Table and the
** Code's type annotations gets a label (offsets inside an instruction
** snap to its start). CR_EFORMAT with the bytecode offset for truncated
** or undefined instructions and for targets outside the code or inside
** an instruction. Nothing in 'c' changes. The body and everything the
** analysis and layout need live in 'a', which may be scratch memory
** freed after 'cr_body_commit': what the class keeps goes to its own
** arena.
*/
int cr_body_decode(cr_body **out, cr_class *c, cr_member *m, cr_arena *a,
                   cr_diag *d);

/*
** For a body just decoded: CR_EFORMAT when HotSpot's verifier would
** refuse the code's StackMapTable as it stands (a frame that starts no
** instruction, "bad offset"; from class version 51 on, a branch target,
** exception handler or instruction after an unconditional jump without a
** frame, "Expecting a stackmap frame"). Code whose frames are computed
** afresh would otherwise run where the original does not.
*/
int cr_body_check_frames(const cr_body *b, cr_diag *d);

/*
** A copy of body 'src' in arena 'a' for method 'm' of the same class,
** whose Code attribute was parsed from the same bytes as the one 'src'
** was decoded from (a method given a copy of another's code): its
** instructions (ids kept), exception table and line entry, and fixups
** bound to the tables of m's own Code attribute, which must hold the
** same entries in the same order. Saves decoding and editing a body
** twice. The 'n' pointers of 'xl' into 'src' (NULL allowed) are replaced
** by their copies. CR_EUSAGE (nothing made) when m's tables differ or
** 'src' refers to a node it does not hold.
*/
int cr_body_clone(cr_body **out, const cr_body *src, cr_member *m,
                  cr_arena *a, cr_insn **xl, size_t n, cr_diag *d);

/* A new unlinked instruction (operands zero) or label; NULL on OOM. */
cr_insn *cr_insn_new(cr_body *b, unsigned op);
cr_insn *cr_label_new(cr_body *b);
/* Link 'i' before / after 'at' ('at' NULL: at the end / the start). */
void cr_body_insert_before(cr_body *b, cr_insn *at, cr_insn *i);
void cr_body_insert_after(cr_body *b, cr_insn *at, cr_insn *i);
/* Unlink 'i' (a label must no longer be referenced). */
void cr_body_remove(cr_body *b, cr_insn *i);
/* Add an exception-table entry at the end of the table. */
int cr_body_add_tcb(cr_body *b, cr_insn *start, cr_insn *end,
                    cr_insn *handler, uint16_t type, cr_diag *d);

/* Local slot of a local-variable instruction (implied or explicit). */
int cr_insn_local(const cr_insn *i);
/* The opposite of conditional branch 'op' (ifeq <-> ifne, ...). */
unsigned cr_op_invert(unsigned op);

/*
** Assign offsets: start with short branches (long for 'goto_w'/'jsr_w'
** and, with 'force_long', for all), widen every branch that does not
** reach (goto -> goto_w, jsr -> jsr_w, if<c> L -> if<!c> +8; goto_w L),
** recompute switch padding, repeat to a fixpoint. CR_ETOOLARGE when the
** code passes 65535 bytes.
*/
int cr_body_layout(cr_body *b, cr_diag *d);

/* Byte size of 'i' at offset 'off' in the current layout. */
uint32_t cr_insn_size(const cr_body *b, const cr_insn *i, uint32_t off);

/*
** Max locals needed by the instructions and the descriptor (at least
** the original 'max_locals', which may cover debug-only slots).
** 'cr_body_max_locals_laid' is the same right after 'cr_body_layout' or
** 'cr_body_decode' (before any edit), without a pass over the
** instructions.
*/
uint32_t cr_body_max_locals(const cr_body *b);
uint32_t cr_body_max_locals_laid(const cr_body *b);

/*
** Stack depth analysis for code without frames (class version < 50, or
** code with jsr/ret): sets 'max_stack'. A 'jsr' returns to its successor
** with the depth it had. CR_EFORMAT for inconsistent depths.
*/
int cr_body_max_stack(cr_body *b, cr_diag *d);

/*
** Encode the laid-out body and store it into the Code attribute: code
** bytes, max_stack/max_locals from 'b', the exception table, rebound
** offsets, 'smt' as StackMapTable (added when absent; the attribute
** is removed when 'smt' is NULL or empty) and the line entry 'line_at'. Allocates in the class arena
** before changing anything, so on error the Code attribute is intact.
*/
int cr_body_commit(cr_body *b, cr_stackmap *smt, cr_diag *d);

/*
** Descriptor (pool bytes, '*len' set) of the field, method or call site
** referenced by a CP2/IFACE/INDY instruction, or of a Dynamic constant;
** NULL when the pool entry is not of that kind.
*/
const char *cr_insn_desc(const cr_body *b, const cr_insn *i, size_t *len);
/* Name (pool bytes) of the member referenced by 'i', as above. */
const char *cr_insn_name(const cr_body *b, const cr_insn *i, size_t *len);

/* "name(desc)" of the body's method, for messages (arena string). */
const char *cr_body_where(const cr_body *b);

#endif
