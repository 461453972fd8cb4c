/*
** policy_xml.c -- read user policy files (libxml2). Nothing outside the
** file is ever read: no network, no DTD, no entity substitution, and a
** document with a DOCTYPE is refused before libxml2 sees it.
*/
#include <string.h>

#include <libxml/parser.h>
#include <libxml/tree.h>

#include "cccp/policy.h"
#include "pol_int.h"

#define MAX_POLICY_FILE ((size_t)16 << 20)

static const char *const attrs[] = {
  "class", "name", "desc", "annotation", "native", "virtual", "sigpoly",
  "id", "why", NULL
};

static int known_attr(const char *n) {
  for (int i = 0; attrs[i]; i++)
    if (strcmp(attrs[i], n) == 0) return 1;
  return 0;
}

/* "0"/"1" qualifier into '*out'; -1 when absent. */
static int flag(signed char *out, xmlNode *e, const char *name,
                const char *where, cr_diag *d) {
  xmlChar *v = xmlGetProp(e, (const xmlChar *)name);
  *out = -1;
  if (!v) return 0;
  int rc = 0;
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
                       "nonoverloadable, nonwrappable, overloadable or "
                       "wrappable)", where, xmlGetLineNo(e),
                       (const char *)e->name);
  r.kind = (cr_pol_kind)k;
  for (xmlAttr *a = e->properties; a; a = a->next)
    if (!known_attr((const char *)a->name))
      return cr_diag_set(d, CR_EFORMAT, -1,
                         "%s:%ld: unknown attribute '%s' on <%s>", where,
                         xmlGetLineNo(e), (const char *)a->name,
                         (const char *)e->name);
  for (xmlNode *c = e->children; c; c = c->next)
    if (c->type == XML_ELEMENT_NODE)
      return cr_diag_set(d, CR_EFORMAT, -1, "%s:%ld: <%s> must be empty",
                         where, xmlGetLineNo(c), (const char *)e->name);
  int rc;
  if ((rc = flag(&r.native, e, "native", where, d)) ||
      (rc = flag(&r.virt, e, "virtual", where, d)) ||
      (rc = flag(&r.sigpoly, e, "sigpoly", where, d)))
    return rc;
  xmlChar *v[6];
  static const char *const sn[6] = {"class", "name", "desc", "annotation",
                                    "id", "why"};
  for (int i = 0; i < 6; i++) v[i] = xmlGetProp(e, (const xmlChar *)sn[i]);
  char origin[600];
  snprintf(origin, sizeof origin, "%s:%ld", where, xmlGetLineNo(e));
  r.cls = (char *)v[0];
  r.name = (char *)v[1];
  r.desc = (char *)v[2];
  r.annotation = (char *)v[3];
  r.id = v[4] ? (char *)v[4] : "user";
  r.why = (char *)v[5];
  r.origin = origin;
  rc = cr_policy_add(p, &r, d);
  for (int i = 0; i < 6; i++) xmlFree(v[i]);
  return rc;
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
  xmlParserCtxtPtr ctx = xmlNewParserCtxt();
  if (!ctx) return cr_diag_set(d, CR_ENOMEM, -1, "out of memory");
  xmlDocPtr doc = xmlCtxtReadMemory(
      ctx, xml, (int)len, where, NULL,
      XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING);
  int rc = 0;
  if (!doc) {
    xmlErrorPtr err = xmlCtxtGetLastError(ctx);
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
  xmlChar *ver = xmlGetProp(root, (const xmlChar *)"version");
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
  xmlFreeParserCtxt(ctx);
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
