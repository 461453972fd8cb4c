/*
** policy_xml.c -- read user policy files (libxml2). Nothing outside the
** file is ever read: no network, no DTD, no entity substitution, and a
** document with a DOCTYPE is refused before libxml2 sees it (in an
** encoding the byte scan cannot read, as soon as libxml2 meets it).
** libxml2 prints nothing; its allocation failures are CR_ENOMEM.
*/
#include <string.h>

#include <libxml/parser.h>
#include <libxml/tree.h>

#include "cccp/policy.h"
#include "pol_int.h"

#define MAX_POLICY_FILE ((size_t)16 << 20)

/* The attributes each kind takes (ORDER cr_pol_kind). */
#define SEED_ATTRS                                                         \
  {"class", "name", "desc", "annotation", "native", "virtual", "sigpoly",  \
   "id", "why", NULL}
static const char *const attrs[CR_POL__COUNT][10] = {
  SEED_ATTRS, SEED_ATTRS, SEED_ATTRS, SEED_ATTRS,
  {"class", "from", "to", "after", "id", "why", "remove", NULL},
  {"class", "name", "desc", "id", "why", "remove", NULL},
  {"class", "name", "desc", "id", "why", "remove", NULL},
  {"class", "name", "desc", "call", "id", "why", "remove", NULL},
  {"class", "name", "desc", "id", "why", "remove", NULL},
};
#undef SEED_ATTRS

static int known_attr(cr_pol_kind k, const char *n) {
  for (int i = 0; attrs[k][i]; i++)
    if (strcmp(attrs[k][i], n) == 0) return 1;
  return 0;
}

/*
** Attribute 'name' of 'e' into '*out' (xmlFree it; NULL when absent).
** libxml2 returns NULL as well when it cannot copy the value: that is
** CR_ENOMEM, not a missing attribute.
*/
static int prop(xmlChar **out, xmlNode *e, const char *name, cr_diag *d) {
  *out = xmlGetProp(e, (const xmlChar *)name);
  if (!*out && xmlHasProp(e, (const xmlChar *)name))
    return cr_diag_set(d, CR_ENOMEM, -1, "out of memory");
  return 0;
}

/* "0"/"1" qualifier into '*out'; -1 when absent. */
static int flag(signed char *out, xmlNode *e, const char *name,
                const char *where, cr_diag *d) {
  xmlChar *v;
  *out = -1;
  int rc = prop(&v, e, name, d);
  if (rc || !v) return rc;
  if (strcmp((char *)v, "1") == 0) *out = 1;
  else if (strcmp((char *)v, "0") == 0) *out = 0;
  else
    rc = cr_diag_set(d, CR_EFORMAT, -1, "%s:%ld: %s=\"%s\" must be 0 or 1",
                     where, xmlGetLineNo(e), name, (char *)v);
  xmlFree(v);
  return rc;
}

/* One rule element into 'p'. */
static int rule(cr_policy *p, xmlNode *e, const char *where, cr_diag *d) {
  cr_pol_rule r;
  memset(&r, 0, sizeof r);
  int k;
  for (k = 0; k < CR_POL__COUNT; k++)
    if (strcmp((const char *)e->name, cr_pol__kindname[k]) == 0) break;
  if (k == CR_POL__COUNT)
    return cr_diag_set(d, CR_EFORMAT, -1,
                       "%s:%ld: unknown element <%s> (expected "
                       "nonoverloadable, nonwrappable, overloadable, "
                       "wrappable, redirect, thread-entry, upcall, "
                       "insert-call or thread-field)", where, xmlGetLineNo(e),
                       (const char *)e->name);
  r.kind = (cr_pol_kind)k;
  for (xmlAttr *a = e->properties; a; a = a->next)
    if (!known_attr(r.kind, (const char *)a->name))
      return cr_diag_set(d, CR_EFORMAT, -1,
                         "%s:%ld: unknown attribute '%s' on <%s>", where,
                         xmlGetLineNo(e), (const char *)a->name,
                         (const char *)e->name);
  for (xmlNode *c = e->children; c; c = c->next)
    if (c->type == XML_ELEMENT_NODE)
      return cr_diag_set(d, CR_EFORMAT, -1, "%s:%ld: <%s> must be empty",
                         where, xmlGetLineNo(c), (const char *)e->name);
  int rc;
  signed char remove, after;
  if ((rc = flag(&r.native, e, "native", where, d)) ||
      (rc = flag(&r.virt, e, "virtual", where, d)) ||
      (rc = flag(&r.sigpoly, e, "sigpoly", where, d)) ||
      (rc = flag(&remove, e, "remove", where, d)) ||
      (rc = flag(&after, e, "after", where, d)))
    return rc;
  r.remove = remove > 0;
  r.after = after > 0;
  enum { NV = 9 };
  xmlChar *v[NV] = {NULL};
  static const char *const sn[NV] = {"class", "name", "desc", "annotation",
                                     "id", "why", "from", "to", "call"};
  for (int i = 0; i < NV && !rc; i++) rc = prop(&v[i], e, sn[i], d);
  if (rc) goto out;
  char origin[600];
  snprintf(origin, sizeof origin, "%s:%ld", where, xmlGetLineNo(e));
  r.cls = (char *)v[0];
  r.name = (char *)v[1];
  r.desc = (char *)v[2];
  r.annotation = (char *)v[3];
  r.id = v[4] ? (char *)v[4] : "user";
  r.why = (char *)v[5];
  r.call = (char *)v[8];
  r.origin = origin;
  /* "owner.name(desc)", literal in an entry, patterns in a removal */
  cr_diag pd;
  cr_diag_clear(&pd);
  for (int i = 6; i <= 7 && !rc; i++) {
    if (!v[i]) continue;
    rc = cr_policy_parse_ref(i == 6 ? &r.from : &r.to, p->a,
                             (const char *)v[i], !r.remove, &pd);
    if (rc == CR_EFORMAT)
      rc = cr_diag_set(d, CR_EFORMAT, -1, "%s: <%s> %s: %s", origin,
                       (const char *)e->name, sn[i], pd.msg);
    else if (rc)
      rc = cr_diag_set(d, rc, -1, "%s", pd.msg);
  }
  if (!rc && (rc = cr_policy_add(p, &r, &pd)))
    /* what the policy finds wrong in a file is the file's format */
    rc = cr_diag_set(d, rc == CR_EUSAGE ? CR_EFORMAT : rc, -1, "%s",
                     pd.msg);
out:
  for (int i = 0; i < NV; i++) xmlFree(v[i]);
  return rc;
}

/* libxml2 reports some errors (out of memory, encoding errors) on its
** global channels whatever XML_PARSE_NOERROR says: while parsing, these
** go nowhere instead of to stderr. */
static void quiet(void *ctx, const char *msg, ...) {
  (void)ctx;
  (void)msg;
}

/* What the hooks below saw while parsing ('ctx->_private'). */
typedef struct seen { int oom, doctype; } seen;

/*
** Every error of the parser context comes here. libxml2 may hand back a
** partial but "well-formed" tree after an allocation failed, or report it
** as some other error: a failure seen here makes the whole load CR_ENOMEM
** instead.
*/
static void record(void *data, xmlErrorPtr e) {
  xmlParserCtxtPtr ctx = data;
  if (e && e->code == XML_ERR_NO_MEMORY && ctx && ctx->_private)
    ((seen *)ctx->_private)->oom = 1;
}

/*
** A DOCTYPE, in whatever encoding the byte scan of 'parse' cannot see
** (UTF-16, say): stop before its internal subset declares any entity.
*/
static void doctype(void *data, const xmlChar *name, const xmlChar *ext,
                    const xmlChar *sys) {
  xmlParserCtxtPtr ctx = data;
  (void)name;
  (void)ext;
  (void)sys;
  ((seen *)ctx->_private)->doctype = 1;
  xmlStopParser(ctx);
}

static int parse(cr_policy *p, const char *xml, size_t len,
                 const char *where, cr_diag *d) {
  if (len > MAX_POLICY_FILE)
    return cr_diag_set(d, CR_ETOOLARGE, -1, "%s: policy file over 16 MiB",
                       where);
  /* Refuse DTDs outright: no entity of any kind can then be declared. */
  for (size_t i = 0; i + 9 <= len; i++)
    if (xml[i] == '<' && memcmp(xml + i, "<!DOCTYPE", 9) == 0)
      return cr_diag_set(d, CR_EFORMAT, (long)i,
                         "%s: DOCTYPE is not allowed in a policy file",
                         where);
  xmlInitParser();
  xmlGenericErrorFunc olderr = xmlGenericError;
  void *olderrctx = xmlGenericErrorContext;
  xmlStructuredErrorFunc oldserr = xmlStructuredError;
  void *oldserrctx = xmlStructuredErrorContext;
  xmlSetGenericErrorFunc(NULL, quiet);
  xmlSetStructuredErrorFunc(NULL, NULL);
  xmlDocPtr doc = NULL;
  int rc = 0;
  xmlParserCtxtPtr ctx = xmlNewParserCtxt();
  if (!ctx) {
    rc = cr_diag_set(d, CR_ENOMEM, -1, "out of memory");
    goto out;
  }
  seen sn = {0, 0};
  ctx->_private = &sn;
  ctx->sax->serror = record;
  ctx->sax->internalSubset = doctype;
  doc = xmlCtxtReadMemory(
      ctx, xml, (int)len, where, NULL,
      XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING);
  xmlErrorPtr err = xmlCtxtGetLastError(ctx);
  if (sn.doctype) {
    rc = cr_diag_set(d, CR_EFORMAT, -1,
                     "%s: DOCTYPE is not allowed in a policy file", where);
    goto out;
  }
  /* no document and no error: its input buffer could not be allocated */
  if (sn.oom || ctx->errNo == XML_ERR_NO_MEMORY ||
      (!doc && (!err || err->code == XML_ERR_OK))) {
    rc = cr_diag_set(d, CR_ENOMEM, -1, "%s: out of memory", where);
    goto out;
  }
  if (!doc) {
    char msg[256] = "not well-formed";
    if (err && err->message) {
      snprintf(msg, sizeof msg, "%s", err->message);
      size_t n = strlen(msg);
      while (n && (msg[n - 1] == '\n' || msg[n - 1] == ' ')) msg[--n] = 0;
    }
    rc = cr_diag_set(d, CR_EFORMAT, -1, "%s:%d: malformed XML: %s", where,
                     err ? err->line : 0, msg);
    goto out;
  }
  xmlNode *root = xmlDocGetRootElement(doc);
  if (!root || strcmp((const char *)root->name, "policy") != 0) {
    rc = cr_diag_set(d, CR_EFORMAT, -1,
                     "%s: the root element must be <policy>", where);
    goto out;
  }
  xmlChar *ver;
  rc = prop(&ver, root, "version", d);
  if (ver && strcmp((char *)ver, "1") != 0)
    rc = cr_diag_set(d, CR_EUNSUPPORTED, -1,
                     "%s: policy version \"%s\" is not supported (1 is)",
                     where, (char *)ver);
  xmlFree(ver);
  for (xmlAttr *a = root->properties; !rc && a; a = a->next)
    if (strcmp((const char *)a->name, "version") != 0)
      rc = cr_diag_set(d, CR_EFORMAT, -1,
                       "%s:%ld: unknown attribute '%s' on <policy>", where,
                       xmlGetLineNo(root), (const char *)a->name);
  for (xmlNode *c = root->children; !rc && c; c = c->next) {
    if (c->type == XML_ELEMENT_NODE) {
      rc = rule(p, c, where, d);
    } else if (c->type == XML_TEXT_NODE || c->type == XML_CDATA_SECTION_NODE) {
      for (const xmlChar *s = c->content; s && *s; s++)
        if (*s != ' ' && *s != '\t' && *s != '\n' && *s != '\r') {
          rc = cr_diag_set(d, CR_EFORMAT, -1,
                           "%s:%ld: text is not allowed in <policy>", where,
                           xmlGetLineNo(c));
          break;
        }
    } else if (c->type == XML_ENTITY_REF_NODE) {
      rc = cr_diag_set(d, CR_EFORMAT, -1,
                       "%s:%ld: entity references are not allowed", where,
                       xmlGetLineNo(c));
    }
  }
out:
  if (doc) xmlFreeDoc(doc);
  if (ctx) xmlFreeParserCtxt(ctx);
  xmlSetGenericErrorFunc(olderrctx, olderr);
  xmlSetStructuredErrorFunc(oldserrctx, oldserr);
  return rc;
}

/* Parse into a scratch policy, then append: all or nothing. */
int cr_policy_load_mem(cr_policy *p, const char *xml, size_t len,
                       const char *name, cr_diag *d) {
  cr_policy *tmp = cr_pol__alloc();
  if (!tmp) return cr_diag_set(d, CR_ENOMEM, -1, "out of memory");
  size_t n0 = p->n;
  int rc = parse(tmp, xml, len, name ? name : "policy", d);
  for (size_t i = 0; !rc && i < tmp->n; i++)
    rc = cr_policy_add(p, &tmp->v[i].r, d);
  if (rc) p->n = n0;          /* strings stay in the arena, unused */
  cr_policy_free(tmp);
  return rc;
}

int cr_policy_load(cr_policy *p, const char *path, cr_diag *d) {
  uint8_t *buf;
  size_t len;
  int rc = cr_read_file(&buf, &len, path, d);
  if (rc) return rc;
  rc = cr_policy_load_mem(p, (const char *)buf, len, path, d);
  cr_free(buf);
  return rc;
}
