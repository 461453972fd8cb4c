/*
** pprof.c -- 'cccp-report pprof': the profile as pprof reads it, a
** gzipped protocol buffer of the message perftools.profiles.Profile
** (profile.proto of the pprof project), written here without a protobuf
** library: every metric a sample type, every context with an own value a
** sample (its frames leaf first, its thread a label), every method one
** function at one location.
**
**   Profile  1 sample_type (ValueType: 1 type, 2 unit)   2 sample
**            4 location  5 function  6 string_table  14 default_sample_type
**   Sample   1 location_id (packed)  2 value (packed)  3 label
**   Label    1 key  2 str
**   Location 1 id  4 line (Line: 1 function_id)
**   Function 1 id  2 name  3 system_name
*/
#include <string.h>

#include <zlib.h>

#include "report.h"

/* Wire types. */
enum { WT_VARINT = 0, WT_LEN = 2 };

/* gzip to a FILE, as a stream; 'err' is sticky. */
typedef struct gz {
  z_stream z;
  FILE *f;
  int err;
  unsigned char out[1 << 16];
} gz;

static void gz_flush(gz *g, int mode) {
  if (g->err) return;
  int r;
  do {
    g->z.next_out = g->out;
    g->z.avail_out = sizeof g->out;
    r = deflate(&g->z, mode);
    if (r == Z_STREAM_ERROR) {
      g->err = 1;
      return;
    }
    size_t n = sizeof g->out - g->z.avail_out;
    if (n && fwrite(g->out, 1, n, g->f) != n) {
      g->err = 1;
      return;
    }
  } while (g->z.avail_out == 0 || (mode == Z_FINISH && r != Z_STREAM_END));
}

static void gz_write(gz *g, const void *p, size_t n) {
  if (g->err) return;
  g->z.next_in = (unsigned char *)p;
  g->z.avail_in = (uInt)n;
  while (g->z.avail_in && !g->err) gz_flush(g, Z_NO_FLUSH);
}

/* ------------------------------------------------------------ encoding */

static void varint(cr_buf *b, uint64_t v) {
  while (v >= 0x80) {
    cr_buf_u1(b, (uint32_t)(v & 0x7F) | 0x80);
    v >>= 7;
  }
  cr_buf_u1(b, (uint32_t)v);
}

static void key(cr_buf *b, int field, int wt) {
  varint(b, (uint64_t)field << 3 | (uint64_t)wt);
}

static void field_varint(cr_buf *b, int field, uint64_t v) {
  key(b, field, WT_VARINT);
  varint(b, v);
}

static void field_bytes(cr_buf *b, int field, const void *p, size_t n) {
  key(b, field, WT_LEN);
  varint(b, n);
  cr_buf_put(b, p, n);
}

/* A length-delimited field of the top-level message, from 'msg', to 'g'. */
static void top_field(gz *g, cr_buf *hdr, int field, const cr_buf *msg) {
  cr_buf_reset(hdr);
  key(hdr, field, WT_LEN);
  varint(hdr, msg->len);
  gz_write(g, hdr->data, hdr->len);
  gz_write(g, msg->data, msg->len);
}

/* A string of the table: bytes as they are (profile strings are UTF-8);
** 'name'.'sub'(desc) pieces are joined. */
static void string3(gz *g, cr_buf *b, cr_buf *hdr, const char *x,
                    const char *y, const char *z) {
  cr_buf_reset(b);
  cr_buf_puts(b, x);
  if (y) {
    cr_buf_u1(b, '.');
    cr_buf_puts(b, y);
  }
  if (z) cr_buf_puts(b, z);
  top_field(g, hdr, 6, b);
}

static uint64_t clamp(uint64_t v) {
  return v > (uint64_t)INT64_MAX ? (uint64_t)INT64_MAX : v;
}

/*
** String table layout (indices): 0 "", 1 "count", 2 "thread", 3.. the
** metrics, then two per method (name, signature: methods in id order,
** all of them, so that the index is a formula), then one per thread.
*/
int rp_cmd_pprof(const rp_opts *o, rp_view *v, FILE *out) {
  (void)o;
  const cr_profile *p = v->p;
  size_t nk = p->nmetrics;
  size_t s_metric = 3, s_method = s_metric + nk;
  size_t s_thread = s_method + 2 * p->nmethods;
  uint8_t *used = cr_calloc(p->nmethods + 1, 1);
  uint32_t *st = NULL;
  size_t cap = 0;
  int rc = RP_EXIT_OK;
  gz *g = cr_calloc(1, sizeof *g);
  cr_buf m, sub, hdr;
  cr_buf_init(&m);
  cr_buf_init(&sub);
  cr_buf_init(&hdr);
  if (!used || !g) goto nomem;
  g->f = out;
  if (deflateInit2(&g->z, 1, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) !=
      Z_OK)
    goto nomem;

  /* Sample types: every metric, unit "count". */
  for (size_t k = 0; k < nk; k++) {
    cr_buf_reset(&m);
    field_varint(&m, 1, s_metric + k);
    field_varint(&m, 2, 1);
    top_field(g, &hdr, 1, &m);
  }
  cr_buf_reset(&hdr);
  field_varint(&hdr, 14, s_metric + (size_t)v->metric);
  gz_write(g, hdr.data, hdr.len);

  /* Samples: pre-order per tree, 'st' the methods on the path. */
  for (size_t t = 0; t < p->ntrees; t++) {
    uint32_t n = p->trees[t].child;
    size_t depth = 0;
    while (n) {
      const cr_prof_node *x = &p->nodes[n];
      if (depth == cap) {
        size_t c = cap ? cap * 2 : 256;
        uint32_t *s2 = cr_realloc(st, c * sizeof *s2);
        if (!s2) goto nomem;
        st = s2;
        cap = c;
      }
      st[depth++] = x->method;
      used[x->method] = 1;
      int any = 0;
      for (size_t k = 0; k < nk && !any; k++)
        any = cr_profile_value(p, k, n) != 0;
      if (any) {
        cr_buf_reset(&m);
        cr_buf_reset(&sub);
        for (size_t i = depth; i-- > 0;) varint(&sub, st[i]);
        field_bytes(&m, 1, sub.data, sub.len);
        cr_buf_reset(&sub);
        for (size_t k = 0; k < nk; k++)
          varint(&sub, clamp(cr_profile_value(p, k, n)));
        field_bytes(&m, 2, sub.data, sub.len);
        if (!v->merged) {
          cr_buf_reset(&sub);
          field_varint(&sub, 1, 2);
          field_varint(&sub, 2, s_thread + t);
          field_bytes(&m, 3, sub.data, sub.len);
        }
        if (m.err || sub.err) goto nomem;
        top_field(g, &hdr, 2, &m);
      }
      n = rp_preorder_next(p, n, &depth);
    }
  }

  /* A location and a function per method met. */
  for (uint32_t id = 1; id <= p->nmethods; id++) {
    if (!used[id]) continue;
    cr_buf_reset(&m);
    cr_buf_reset(&sub);
    field_varint(&m, 1, id);
    field_varint(&sub, 1, id);
    field_bytes(&m, 4, sub.data, sub.len);
    top_field(g, &hdr, 4, &m);
    cr_buf_reset(&m);
    field_varint(&m, 1, id);
    field_varint(&m, 2, s_method + 2 * (id - 1));
    field_varint(&m, 3, s_method + 2 * (id - 1) + 1);
    top_field(g, &hdr, 5, &m);
  }

  /* The string table. */
  static const char *const fixed[] = {"", "count", "thread"};
  for (size_t i = 0; i < 3; i++) string3(g, &m, &hdr, fixed[i], NULL, NULL);
  for (size_t k = 0; k < nk; k++)
    string3(g, &m, &hdr, p->metric[k], NULL, NULL);
  for (uint32_t id = 1; id <= p->nmethods; id++) {
    const cr_prof_method *x = &p->methods[id];
    string3(g, &m, &hdr, x->cls, x->name, NULL);
    string3(g, &m, &hdr, x->cls, x->name, x->desc);
  }
  for (size_t t = 0; t < p->ntrees; t++)
    string3(g, &m, &hdr, p->trees[t].thread, NULL, NULL);
  if (m.err || hdr.err) goto nomem;
  gz_flush(g, Z_FINISH);
  if (g->err) {
    rp_error("cannot write the profile");
    rc = RP_EXIT_OUTPUT;
  }
  goto out;
nomem:
  rp_error("out of memory");
  rc = RP_EXIT_OUTPUT;
out:
  if (g) deflateEnd(&g->z);
  cr_free(g);
  cr_free(used);
  cr_free(st);
  cr_buf_free(&m);
  cr_buf_free(&sub);
  cr_buf_free(&hdr);
  return rc;
}
