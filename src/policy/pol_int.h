/*
** pol_int.h -- policy internals shared by policy.c and policy_xml.c.
*/
#ifndef CCCP_POL_INT_H
#define CCCP_POL_INT_H

#include "cccp/policy.h"

typedef struct cr_pol__rule {
  cr_pol_rule r;                /* strings in the policy's arena */
  unsigned char lit_cls, lit_name, lit_desc; /* 1 literal, 2 "*", 0 glob */
} cr_pol__rule;

struct cr_policy {
  cr_arena *a;                  /* rule strings */
  cr_pol__rule *v;              /* malloc'd array */
  size_t n, cap;
};

extern const char *const cr_pol__kindname[CR_POL__COUNT];
cr_policy *cr_pol__alloc(void);

#endif
