/*
** xml.c -- XML attribute values from class-file strings. Names in class
** files are modified UTF-8 (JVMS 4.4.7: NUL as C0 80, supplementary
** characters as two 3-byte surrogates) and, in hostile inputs, anything;
** XML 1.0 wants well-formed UTF-8 of characters it allows (section 2.2),
** even in character references.
*/
#include "cccp/util.h"

/* Continuation byte. */
static int cont(unsigned char c) { return (c & 0xC0) == 0x80; }

/* Decode one character at 'p' (NUL-terminated): its code point in '*c'
** (~0 when the bytes are not a character), the bytes it takes. */
static size_t decode(const unsigned char *p, unsigned long *c) {
  if (p[0] < 0x80) {
    *c = p[0];
    return 1;
  }
  if ((p[0] & 0xE0) == 0xC0 && cont(p[1])) {
    *c = (unsigned long)(p[0] & 0x1F) << 6 | (p[1] & 0x3F);
    return 2;
  }
  if ((p[0] & 0xF0) == 0xE0 && cont(p[1]) && cont(p[2])) {
    *c = (unsigned long)(p[0] & 0x0F) << 12 | (unsigned long)(p[1] & 0x3F) << 6 |
         (p[2] & 0x3F);
    if (*c >= 0xD800 && *c <= 0xDBFF && p[3] == 0xED && cont(p[4]) &&
        cont(p[5])) {
      unsigned long lo = 0xD000 | (unsigned long)(p[4] & 0x3F) << 6 |
                         (p[5] & 0x3F);
      if (lo >= 0xDC00 && lo <= 0xDFFF) {
        *c = 0x10000 + ((*c - 0xD800) << 10) + (lo - 0xDC00);
        return 6;
      }
    }
    return 3;
  }
  if ((p[0] & 0xF8) == 0xF0 && cont(p[1]) && cont(p[2]) && cont(p[3])) {
    *c = (unsigned long)(p[0] & 0x07) << 18 | (unsigned long)(p[1] & 0x3F) << 12 |
         (unsigned long)(p[2] & 0x3F) << 6 | (p[3] & 0x3F);
    return 4;
  }
  *c = ~0ul;
  return 1;
}

/* XML 1.0 Char, less tab, newline and carriage return (escaped apart). */
static int xml_char(unsigned long c) {
  return (c >= 0x20 && c <= 0xD7FF) || (c >= 0xE000 && c <= 0xFFFD) ||
         (c >= 0x10000 && c <= 0x10FFFF);
}

void cr_xml_attr(FILE *f, const char *s) {
  const unsigned char *p = (const unsigned char *)s;
  while (*p) {
    unsigned long c;
    p += decode(p, &c);
    switch (c) {
    case '&': fputs("&amp;", f); continue;
    case '<': fputs("&lt;", f); continue;
    case '>': fputs("&gt;", f); continue;
    case '"': fputs("&quot;", f); continue;
    case '\t': fputs("&#9;", f); continue;
    case '\n': fputs("&#10;", f); continue;
    case '\r': fputs("&#13;", f); continue;
    default: break;
    }
    if (!xml_char(c)) {
      fputc('?', f);
    } else if (c < 0x80) {
      fputc((int)c, f);
    } else if (c < 0x800) {
      fputc((int)(0xC0 | c >> 6), f);
      fputc((int)(0x80 | (c & 0x3F)), f);
    } else if (c < 0x10000) {
      fputc((int)(0xE0 | c >> 12), f);
      fputc((int)(0x80 | (c >> 6 & 0x3F)), f);
      fputc((int)(0x80 | (c & 0x3F)), f);
    } else {
      fputc((int)(0xF0 | c >> 18), f);
      fputc((int)(0x80 | (c >> 12 & 0x3F)), f);
      fputc((int)(0x80 | (c >> 6 & 0x3F)), f);
      fputc((int)(0x80 | (c & 0x3F)), f);
    }
  }
}
