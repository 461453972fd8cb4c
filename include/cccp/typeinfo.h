/*
** typeinfo.h -- the one narrow hook through which the frame computation
** asks about the class hierarchy (ASM's getCommonSuperClass lesson): the
** analysis never sees the hierarchy database itself.
*/
#ifndef CCCP_TYPEINFO_H
#define CCCP_TYPEINFO_H

/*
** 'lookup' finds class 'name' (internal form, "java/lang/String"). On
** success it sets '*super' to the internal name of the direct superclass
** (NULL for java/lang/Object; java/lang/Object for interfaces) and
** '*is_interface', and returns 0; for an unknown class it returns
** CR_ENOTFOUND and sets nothing. The strings live as long as 'ctx'.
** Must be safe to call from several threads at once. Transparent.
*/
typedef struct cr_typeinfo {
  void *ctx;
  int (*lookup)(void *ctx, const char *name, const char **super,
                int *is_interface);
} cr_typeinfo;

#endif
