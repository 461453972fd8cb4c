/*
** classfile.h -- the lossless class-file model (JVMS chapter 4): parse,
** write back byte-identically, constant-pool find-or-add, descriptors and
** modified UTF-8.
**
** Ownership: 'cr_cf_parse' allocates the whole model in the caller's arena
** and references the input bytes zero-copy, so the input buffer must
** outlive the arena's use of the class. Nothing here has a '_free': free
** the arena.
**
** Kinds of types. 'cr_cpool' is opaque (it keeps a hash index in step with
** its entries): read it through 'cr_cp_*' getters, grow it only through the
** 'cr_cp_add_*' functions (append-only; existing entries never change).
** Everything else ('cr_class', 'cr_member', 'cr_attr' and the attribute
** structs) is transparent plain data that later stages edit in place;
** arrays they point to live in the class arena, so to grow one, allocate a
** new array in the same arena and copy. Counts are 'uint32_t' so edits can
** overflow the class-file limits; 'cr_cf_write' then fails with
** CR_ETOOLARGE instead of truncating.
*/
#ifndef CCCP_CLASSFILE_H
#define CCCP_CLASSFILE_H

#include <stddef.h>
#include <stdint.h>

#include "cccp/util.h"

typedef struct cr_class cr_class;
typedef struct cr_cpool cr_cpool;

/* ---------------------------------------------------------------- pool */

/* Constant-pool tags (JVMS 4.4). Tag 0 marks slot 0 and the unusable slot
** after a Long or Double. */
enum {
  CR_CP_UTF8 = 1, CR_CP_INTEGER = 3, CR_CP_FLOAT = 4, CR_CP_LONG = 5,
  CR_CP_DOUBLE = 6, CR_CP_CLASS = 7, CR_CP_STRING = 8, CR_CP_FIELDREF = 9,
  CR_CP_METHODREF = 10, CR_CP_IMETHODREF = 11, CR_CP_NAMEANDTYPE = 12,
  CR_CP_METHODHANDLE = 15, CR_CP_METHODTYPE = 16, CR_CP_DYNAMIC = 17,
  CR_CP_INVOKEDYNAMIC = 18, CR_CP_MODULE = 19, CR_CP_PACKAGE = 20
};

/* MethodHandle reference kinds (JVMS 5.4.3.5). */
enum {
  CR_REF_GETFIELD = 1, CR_REF_GETSTATIC, CR_REF_PUTFIELD, CR_REF_PUTSTATIC,
  CR_REF_INVOKEVIRTUAL, CR_REF_INVOKESTATIC, CR_REF_INVOKESPECIAL,
  CR_REF_NEWINVOKESPECIAL, CR_REF_INVOKEINTERFACE
};

/*
** One constant-pool entry. Transparent, read-only (entries are shared with
** the hash index). Operands by tag:
**   Utf8            'utf8'/'len' (modified UTF-8, NOT NUL-terminated)
**   Integer, Float  'u4' (raw bits)       Long, Double  'u8' (raw bits)
**   Class, String, MethodType, Module, Package          'a' = Utf8 index
**   Fieldref, Methodref, InterfaceMethodref  'a' = Class, 'b' = NameAndType
**   NameAndType                      'a' = name Utf8, 'b' = descriptor Utf8
**   MethodHandle                     'kind' = reference_kind, 'a' = ref
**   Dynamic, InvokeDynamic           'a' = bootstrap index, 'b' = NameAndType
*/
typedef struct cr_cpentry {
  uint8_t tag;          /* CR_CP_*, 0 for unusable slots */
  uint8_t kind;         /* MethodHandle reference_kind */
  uint16_t a, b;        /* index operands, see above */
  uint32_t len;         /* Utf8 byte length */
  uint32_t off;         /* byte offset of the entry in the input, 0 if added */
  union {
    const char *utf8;   /* Utf8 bytes (input or arena) */
    uint32_t u4;
    uint64_t u8;
  } v;
} cr_cpentry;

/* Number of slots including slot 0 (the file's constant_pool_count). */
uint32_t cr_cp_count(const cr_cpool *cp);
/* Entry 'i', or NULL if 'i' is 0, out of range or the slot is unusable. */
const cr_cpentry *cr_cp_get(const cr_cpool *cp, uint32_t i);
/* Tag of entry 'i', 0 when 'cr_cp_get' would return NULL. */
int cr_cp_tag(const cr_cpool *cp, uint32_t i);
/* Bytes of Utf8 entry 'i' (zero-copy, not NUL-terminated), or NULL when
** 'i' is not a Utf8 entry. */
const char *cr_cp_utf8(const cr_cpool *cp, uint32_t i, size_t *len);
/*
** Utf8 entry 'i' as a NUL-terminated modified-UTF-8 string (equal to UTF-8
** for names without U+0000 or supplementary characters), copied into the
** class arena on first use and cached. NULL if 'i' is not Utf8 or on OOM.
*/
const char *cr_cp_str(cr_cpool *cp, uint32_t i);
/* Name of Class entry 'i' ("java/lang/String") as by 'cr_cp_str'. */
const char *cr_cp_class_name(cr_cpool *cp, uint32_t i);
/* 1 if Utf8 entry 'i' equals the UTF-8 C string 's', else 0. */
int cr_cp_eq(const cr_cpool *cp, uint32_t i, const char *s);

/*
** Find-or-add. Each returns the index of an entry equal to the one asked
** for, appending it when absent; or a negative CR_E* code with 'd' set:
** CR_ETOOLARGE when the pool would pass 65535 slots, CR_ENOMEM, CR_EFORMAT
** for a string that is not valid UTF-8, CR_EUSAGE for a bad method-handle
** kind or reference. The first call builds a hash index
** over the pool (O(n)); later calls are O(1). Strings are UTF-8 C strings
** and are encoded to modified UTF-8; one that is not UTF-8 but modified
** UTF-8 already (a name from 'cr_cp_str') is taken as it is.
*/
int cr_cp_add(cr_cpool *cp, const cr_cpentry *e, cr_diag *d);
int cr_cp_add_utf8(cr_cpool *cp, const char *s, cr_diag *d);
int cr_cp_add_utf8n(cr_cpool *cp, const char *mutf8, size_t len,
                    cr_diag *d);  /* bytes already in modified UTF-8 */
int cr_cp_add_class(cr_cpool *cp, const char *name, cr_diag *d);
int cr_cp_add_string(cr_cpool *cp, const char *s, cr_diag *d);
int cr_cp_add_methodtype(cr_cpool *cp, const char *desc, cr_diag *d);
int cr_cp_add_nat(cr_cpool *cp, const char *name, const char *desc,
                  cr_diag *d);
int cr_cp_add_fieldref(cr_cpool *cp, const char *cls, const char *name,
                       const char *desc, cr_diag *d);
int cr_cp_add_methodref(cr_cpool *cp, const char *cls, const char *name,
                        const char *desc, cr_diag *d);
int cr_cp_add_imethodref(cr_cpool *cp, const char *cls, const char *name,
                         const char *desc, cr_diag *d);
int cr_cp_add_methodhandle(cr_cpool *cp, int kind, uint32_t ref,
                           cr_diag *d);
int cr_cp_add_int(cr_cpool *cp, int32_t v, cr_diag *d);
int cr_cp_add_float(cr_cpool *cp, uint32_t bits, cr_diag *d);
int cr_cp_add_long(cr_cpool *cp, int64_t v, cr_diag *d);
int cr_cp_add_double(cr_cpool *cp, uint64_t bits, cr_diag *d);

/* ---------------------------------------------------------- attributes */

/* Attribute kinds; ORDER matches the name table in attr.c. */
typedef enum cr_attr_kind {
  CR_ATTR_OTHER = 0,    /* kept verbatim in 'raw' (incl. SourceDebugExt.) */
  CR_ATTR_CODE, CR_ATTR_STACKMAPTABLE, CR_ATTR_LINENUMBERTABLE,
  CR_ATTR_LOCALVARIABLETABLE, CR_ATTR_LOCALVARIABLETYPETABLE,
  CR_ATTR_EXCEPTIONS, CR_ATTR_SIGNATURE, CR_ATTR_BOOTSTRAPMETHODS,
  CR_ATTR_CONSTANTVALUE, CR_ATTR_SOURCEFILE, CR_ATTR_INNERCLASSES,
  CR_ATTR_ENCLOSINGMETHOD, CR_ATTR_NESTHOST, CR_ATTR_NESTMEMBERS,
  CR_ATTR_PERMITTEDSUBCLASSES, CR_ATTR_RECORD, CR_ATTR_MODULE,
  CR_ATTR_MODULEPACKAGES, CR_ATTR_MODULEMAINCLASS, CR_ATTR_METHODPARAMETERS,
  CR_ATTR_ANNOTATIONDEFAULT, CR_ATTR_RVANNOTATIONS, CR_ATTR_RIANNOTATIONS,
  CR_ATTR_RVPARAMANNOTATIONS, CR_ATTR_RIPARAMANNOTATIONS,
  CR_ATTR_RVTYPEANNOTATIONS, CR_ATTR_RITYPEANNOTATIONS, CR_ATTR_SYNTHETIC,
  CR_ATTR_DEPRECATED,
  CR_ATTR__COUNT
} cr_attr_kind;

typedef struct cr_attr cr_attr;
typedef struct cr_annotation cr_annotation;
typedef struct cr_elemval cr_elemval;

/* An ordered attribute list (order is kept on write). */
typedef struct cr_attrs {
  uint32_t n;
  cr_attr *v;
} cr_attrs;

/* A list of u2 constant-pool indices (or other u2 values). */
typedef struct cr_u2list {
  uint32_t n;
  uint16_t *v;
} cr_u2list;

typedef struct cr_exc {          /* Code exception_table entry */
  uint16_t start, end, handler;  /* bytecode offsets */
  uint16_t catch_type;           /* Class index or 0 (any) */
} cr_exc;

typedef struct cr_code {
  uint16_t max_stack, max_locals;
  uint32_t code_len;             /* 1..65535 */
  const uint8_t *code;           /* zero-copy or arena */
  uint32_t nexc;
  cr_exc *exc;
  cr_attrs attrs;                /* LineNumberTable, StackMapTable, ... */
} cr_code;

/*
** Verification type (JVMS 4.10.1.2). 'tag' is the item tag; 'v' is the
** Class index for ITEM_Object (7) or the 'new' offset for
** ITEM_Uninitialized (8), otherwise 0.
*/
enum {
  CR_VT_TOP, CR_VT_INTEGER, CR_VT_FLOAT, CR_VT_DOUBLE, CR_VT_LONG,
  CR_VT_NULL, CR_VT_UNINITTHIS, CR_VT_OBJECT, CR_VT_UNINIT
};
typedef struct cr_vtype {
  uint8_t tag;
  uint16_t v;
} cr_vtype;

/*
** One stack map frame, keeping the exact encoding chosen by the compiler.
**   type 0..63     same                  delta = type
**   type 64..127   same_locals_1_stack   delta = type-64, stack[1]
**   type 247       same_locals_1_stack_extended          stack[1]
**   type 248..250  chop                  chops 251-type locals
**   type 251       same_frame_extended
**   type 252..254  append                locals[type-251]
**   type 255       full_frame            locals[], stack[]
** 'delta' is offset_delta for every kind (implied ones included).
*/
typedef struct cr_frame {
  uint8_t type;
  uint16_t delta;
  uint16_t nlocals, nstack;
  cr_vtype *locals, *stack;
} cr_frame;

typedef struct cr_stackmap {
  uint32_t n;
  cr_frame *v;
} cr_stackmap;

typedef struct cr_linenum { uint16_t pc, line; } cr_linenum;
typedef struct cr_linenums { uint32_t n; cr_linenum *v; } cr_linenums;

typedef struct cr_localvar {     /* LocalVariable(Type)Table entry */
  uint16_t start, len;           /* bytecode range */
  uint16_t name, desc;           /* Utf8 (desc is a signature in LVTT) */
  uint16_t index;                /* local slot */
} cr_localvar;
typedef struct cr_localvars { uint32_t n; cr_localvar *v; } cr_localvars;

typedef struct cr_bsm {
  uint16_t mh;                   /* MethodHandle index */
  cr_u2list args;                /* loadable constants */
} cr_bsm;
typedef struct cr_bsms { uint32_t n; cr_bsm *v; } cr_bsms;

typedef struct cr_innerclass {
  uint16_t inner, outer;         /* Class, Class or 0 */
  uint16_t name, flags;          /* Utf8 or 0, access flags */
} cr_innerclass;
typedef struct cr_innerclasses { uint32_t n; cr_innerclass *v; }
    cr_innerclasses;

typedef struct cr_component {    /* Record component */
  uint16_t name, desc;
  cr_attrs attrs;
} cr_component;
typedef struct cr_record { uint32_t n; cr_component *v; } cr_record;

typedef struct cr_modreq { uint16_t module, flags, version; } cr_modreq;
typedef struct cr_modexp {       /* exports and opens */
  uint16_t package, flags;
  cr_u2list to;                  /* Module indices */
} cr_modexp;
typedef struct cr_modprov {
  uint16_t service;              /* Class */
  cr_u2list with;                /* Class indices */
} cr_modprov;
typedef struct cr_module {
  uint16_t name, flags, version; /* Module, flags, Utf8 or 0 */
  uint32_t nrequires, nexports, nopens, nprovides;
  cr_modreq *requires;
  cr_modexp *exports, *opens;
  cr_u2list uses;
  cr_modprov *provides;
} cr_module;

typedef struct cr_methodparam { uint16_t name, flags; } cr_methodparam;
typedef struct cr_methodparams { uint32_t n; cr_methodparam *v; }
    cr_methodparams;           /* n <= 255 on write */

/*
** Annotation element value. 'tag' is the JVMS character: B C D F I J S Z s
** use 'cst' (const_value_index), c uses 'cst' (class_info_index, a Utf8),
** e uses 'enm', @ uses 'ann', [ uses 'arr'.
*/
typedef struct cr_elempair {
  uint16_t name;                 /* Utf8 */
  cr_elemval *value;
} cr_elempair;

struct cr_annotation {
  uint16_t type;                 /* Utf8 field descriptor */
  uint32_t n;
  cr_elempair *pairs;
};

struct cr_elemval {
  uint8_t tag;
  union {
    uint16_t cst;
    struct { uint16_t type, name; } enm;
    cr_annotation *ann;
    struct { uint32_t n; cr_elemval *v; } arr;
  } u;
};

typedef struct cr_annots { uint32_t n; cr_annotation *v; } cr_annots;
typedef struct cr_paramannots { uint32_t n; cr_annots *v; } cr_paramannots;

/*
** Type annotation (JVMS 4.7.20). 'target' selects the target_info form:
**   0x00 0x01        type_parameter        a = index
**   0x10             supertype             a = index
**   0x11 0x12        type_parameter_bound  a = param index, b = bound
**   0x13 0x14 0x15   empty
**   0x16             formal_parameter      a = index
**   0x17             throws                a = index
**   0x40 0x41        localvar              'lv' table (bytecode ranges)
**   0x42             catch                 a = exception_table index
**   0x43..0x46       offset                a = bytecode offset
**   0x47..0x4B       type_argument         a = bytecode offset, b = arg
*/
typedef struct cr_lvtarget { uint16_t start, len, index; } cr_lvtarget;
typedef struct cr_typepath { uint8_t kind, arg; } cr_typepath;
typedef struct cr_typeannot {
  uint8_t target;
  uint16_t a;
  uint8_t b;
  uint32_t nlv;
  cr_lvtarget *lv;
  uint32_t npath;                /* <= 255 */
  cr_typepath *path;
  cr_annotation ann;
} cr_typeannot;
typedef struct cr_typeannots { uint32_t n; cr_typeannot *v; }
    cr_typeannots;

/*
** An attribute. 'name' is its Utf8 index; 'kind' says which member of 'u'
** holds the parsed contents. CR_ATTR_OTHER keeps the info bytes in
** 'raw'/'len'; for other kinds 'raw'/'len' record the original bytes
** (informational; the writer ignores them and serialises 'u').
*/
struct cr_attr {
  uint16_t name;
  uint8_t kind;                  /* cr_attr_kind */
  uint32_t len;
  const uint8_t *raw;
  union {
    uint16_t index;              /* Signature, ConstantValue, SourceFile,
                                    NestHost, ModuleMainClass */
    cr_u2list list;              /* Exceptions, NestMembers,
                                    PermittedSubclasses, ModulePackages */
    struct { uint16_t cls, method; } enclosing;  /* EnclosingMethod */
    cr_code *code;
    cr_stackmap *smt;
    cr_linenums *lines;
    cr_localvars *vars;          /* LocalVariable(Type)Table */
    cr_bsms *bsms;
    cr_innerclasses *inner;
    cr_record *record;
    cr_module *module;
    cr_methodparams *params;
    cr_elemval *defval;          /* AnnotationDefault */
    cr_annots *annots;           /* Runtime(In)VisibleAnnotations */
    cr_paramannots *pannots;     /* Runtime(In)VisibleParameterAnnotations */
    cr_typeannots *tannots;      /* Runtime(In)VisibleTypeAnnotations */
  } u;
};

/* First attribute of 'kind' in 'as', or NULL. */
cr_attr *cr_attrs_find(const cr_attrs *as, cr_attr_kind kind);
/* The JVMS name of 'kind' ("Code"), or NULL for CR_ATTR_OTHER. */
const char *cr_attr_kind_name(cr_attr_kind kind);

/* ------------------------------------------------------------ the class */

typedef struct cr_member {       /* field_info or method_info */
  uint16_t flags;
  uint16_t name, desc;           /* Utf8 indices */
  cr_attrs attrs;
} cr_member;

struct cr_class {
  uint16_t minor, major;
  cr_cpool *cp;
  uint16_t flags;
  uint16_t this_class, super_class;  /* Class, Class or 0 */
  cr_u2list interfaces;          /* Class indices */
  uint32_t nfields, nmethods;
  cr_member *fields, *methods;
  cr_attrs attrs;
  cr_arena *arena;               /* where the model lives */
  const uint8_t *bytes;          /* the input (borrowed) */
  size_t len;
  uint8_t header_only;           /* from 'cr_cf_parse_header' */
};

/*
** Parse 'len' bytes of a class file into a model allocated in 'a'.
** Accepts versions 45.0 through 69.0 (Java 1.1 to 25); anything newer is
** CR_EUNSUPPORTED. Malformed bytes give CR_EFORMAT with the byte offset
** and what is wrong in 'd'. Never reads outside [bytes, bytes+len).
*/
int cr_cf_parse(cr_class **out, cr_arena *a, const uint8_t *bytes,
                size_t len, cr_diag *d);
/*
** Just the header, for whole-program facts that need no more (the
** hierarchy that frame joins consult): version, the constant pool
** (checked as by 'cr_cf_parse'), flags, this_class, super_class and
** interfaces. The class has no fields, methods or attributes and
** 'header_only' set: 'cr_cf_write' refuses it. Errors after the
** interfaces are left for a full parse to find.
*/
int cr_cf_parse_header(cr_class **out, cr_arena *a, const uint8_t *bytes,
                       size_t len, cr_diag *d);

/*
** A fresh model of attribute 'at' of the parsed class 'c' (known kinds
** only, e.g. a method's Code), parsed again from the bytes it came from
** ('at->raw', which must still be set) into '*out', allocated in 'a'.
** The copy shares nothing that edits change in place (the tables whose
** offsets a committed body rewrites), so that a second body can be made
** from the original code after the first was committed, without
** parsing the whole class again. The pool of 'c' may have grown since
** the parse. 'c' itself is not changed.
*/
int cr_cf_reparse_attr(const cr_class *c, cr_arena *a, const cr_attr *at,
                       cr_attr *out, cr_diag *d);

/*
** Append the class file of 'c' to 'out'. An unmodified parsed class gives
** exactly the bytes it was parsed from. CR_ETOOLARGE when a count or
** length passes its class-file limit, CR_ENOMEM when 'out' cannot grow.
*/
int cr_cf_write(cr_buf *out, const cr_class *c, cr_diag *d);

/* Internal name of the class ("java/lang/Object"), in the model's arena. */
const char *cr_cf_this_name(const cr_class *c);

/* Name and descriptor of a member as by 'cr_cp_str' (arena, cached). */
const char *cr_member_name(const cr_class *c, const cr_member *m);
const char *cr_member_desc(const cr_class *c, const cr_member *m);
/* The method's Code attribute contents, or NULL (abstract, native). */
cr_code *cr_member_code(const cr_member *m);

/* --------------------------------------------------------- descriptors */

/*
** Descriptors (JVMS 4.3) are given as pointer and length (pool bytes are
** not NUL-terminated). Class names inside 'L...;' must be non-empty
** internal names; arrays have at most 255 dimensions.
*/
/* Length of the field descriptor at the start of 's', or 0 if none. */
size_t cr_desc_field_len(const char *s, size_t n);
int cr_desc_is_field(const char *s, size_t n);   /* 1 valid, 0 not */
int cr_desc_is_method(const char *s, size_t n);  /* 1 valid, 0 not */
/* Argument slots of a method descriptor (long/double count 2, no
** 'this'), or -1 if it is not a valid method descriptor. */
int cr_desc_arg_slots(const char *s, size_t n);
/* Slots taken by a value of the field type starting with 'c': 0 for 'V',
** 2 for 'J'/'D', 1 otherwise. */
int cr_desc_slots(char c);
/* Return type of a valid method descriptor (points into 's'), its length
** in '*len'; NULL if 's' is not a valid method descriptor. */
const char *cr_desc_ret(const char *s, size_t n, size_t *len);

/* Iterator over the parameters of a method descriptor. Transparent. */
typedef struct cr_desc_iter {
  const char *p, *end;
} cr_desc_iter;
/* Start at the '(' of 's'; returns 0, or -1 if 's' does not start '('. */
int cr_desc_iter_init(cr_desc_iter *it, const char *s, size_t n);
/* Next parameter type into '*type'/'*len': 1 yielded, 0 at ')', -1 bad. */
int cr_desc_next(cr_desc_iter *it, const char **type, size_t *len);

/* ------------------------------------------------------ modified UTF-8 */

/*
** Modified UTF-8 (JVMS 4.4.7): no 0x00 bytes, U+0000 as C0 80, no 4-byte
** forms (supplementary characters are surrogate pairs, 3 bytes each).
*/
/* -1 if 's' is valid modified UTF-8, else the offset of the first bad byte. */
long cr_mutf8_check(const char *s, size_t n);
/* Decode to UTF-16 into 'out' (capacity 'cap' units); returns the number of
** units (which may exceed 'cap': nothing past 'cap' is written), or -1 if
** 's' is not valid. */
long cr_mutf8_to_utf16(uint16_t *out, size_t cap, const char *s, size_t n);
/* Bytes the UTF-8 string 'u' needs in modified UTF-8; -1 if 'u' is not
** valid UTF-8. 'cr_mutf8_encode' then writes them (no NUL) into 'out'. */
long cr_mutf8_enclen(const char *u, size_t n);
void cr_mutf8_encode(char *out, const char *u, size_t n);
/* 1 if modified-UTF-8 's' and UTF-8 C string 'u' are the same text. */
int cr_mutf8_eq(const char *s, size_t n, const char *u);

#endif
