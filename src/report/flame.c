/*
** flame.c -- 'cccp-report flame': an interactive flame graph in one HTML
** file, with its data, script and style inline and nothing loaded from
** anywhere: click a frame to zoom in, type to highlight matching frames,
** hover for the numbers. The page is the template below; the profile goes
** into it as JSON (ASCII only, so that no byte of a name can end the
** script element).
*/
#include <string.h>

#include "report.h"

/* Frame kinds, as the page colours them. ORDER as 'kindColor' below. */
enum { K_ROOT, K_THREAD, K_APP, K_LIB, K_NATIVE };

static const char page_head[] =
    "<!DOCTYPE html>\n"
    "<html lang=\"en\">\n"
    "<head>\n"
    "<meta charset=\"utf-8\">\n"
    "<meta name=\"viewport\" content=\"width=device-width\">\n"
    "<meta name=\"generator\" content=\"cccp-report\">\n"
    "<title>";

static const char page_style[] =
    "</title>\n"
    "<style>\n"
    "body { margin: 0; font: 12px/1.4 sans-serif; color: #222;\n"
    "  background: #fff; }\n"
    "header { padding: 8px 12px; background: #f4f4f4;\n"
    "  border-bottom: 1px solid #ddd; display: flex; flex-wrap: wrap;\n"
    "  gap: 8px 16px; align-items: center; }\n"
    "h1 { font-size: 15px; margin: 0; flex: 1 1 auto; }\n"
    "header input { font: inherit; padding: 2px 6px; width: 16em; }\n"
    "header button { font: inherit; }\n"
    "#matched { color: #a0209f; }\n"
    "#chart { position: relative; margin: 8px 12px; overflow: hidden; }\n"
    ".f { position: absolute; height: 17px; box-sizing: border-box;\n"
    "  border: 1px solid #fff; border-width: 0 1px 1px 0; overflow: hidden;\n"
    "  white-space: nowrap; text-overflow: ellipsis; padding: 0 3px;\n"
    "  font: 11px/16px monospace; cursor: pointer; color: #000; }\n"
    ".f:hover { filter: brightness(0.85); }\n"
    ".f.a { opacity: 0.55; }\n"
    ".f.m { background: #e050e0 !important; }\n"
    "#tip { position: fixed; display: none; pointer-events: none;\n"
    "  background: #fffbe6; border: 1px solid #bbb; padding: 4px 6px;\n"
    "  max-width: 60em; word-break: break-all; z-index: 2;\n"
    "  box-shadow: 1px 1px 4px rgba(0,0,0,.2); }\n"
    "#tip b { font-family: monospace; }\n"
    "#status { margin: 0 12px 12px; color: #555; font-family: monospace;\n"
    "  min-height: 1.4em; word-break: break-all; }\n"
    "</style>\n"
    "</head>\n"
    "<body>\n"
    "<header>\n"
    "<h1 id=\"title\">";

static const char page_body[] =
    "</h1>\n"
    "<span id=\"info\"></span>\n"
    "<input id=\"search\" type=\"search\" placeholder=\"search (text or "
    "/regexp/)\" aria-label=\"search\">\n"
    "<span id=\"matched\"></span>\n"
    "<button id=\"reset\" type=\"button\">reset zoom</button>\n"
    "<button id=\"flip\" type=\"button\">flip</button>\n"
    "</header>\n"
    "<div id=\"chart\" role=\"img\" aria-label=\"flame graph\"></div>\n"
    "<div id=\"status\"></div>\n"
    "<div id=\"tip\"></div>\n"
    "<script id=\"cccp-data\" type=\"application/json\">";

/*
** The page's script. Data: 'names' (frame labels), 'sigs' (the full
** method, for tooltips and search), 'kinds', and 'nodes', four numbers a
** frame in pre-order: name index, total, self, parent index (-1 for the
** root). The state -- zoomed frame, search -- is kept in the URL's
** fragment ("#zoom=LABEL&search=TEXT"), so that a view can be bookmarked;
** opening such a URL clicks the frame as a user would.
*/
static const char page_script[] =
    "</script>\n"
    "<script>\n"
    "(function () {\n"
    "  'use strict';\n"
    "  var D = JSON.parse(document.getElementById('cccp-data').textContent);\n"
    "  var n = D.nodes.length / 4, name = [], total = [], self = [],\n"
    "    parent = [], depth = [], kids = [], i, k;\n"
    "  for (i = 0; i < n; i++) {\n"
    "    name[i] = D.nodes[4 * i]; total[i] = D.nodes[4 * i + 1];\n"
    "    self[i] = D.nodes[4 * i + 2]; parent[i] = D.nodes[4 * i + 3];\n"
    "    kids[i] = [];\n"
    "    depth[i] = parent[i] < 0 ? 0 : depth[parent[i]] + 1;\n"
    "    if (parent[i] >= 0) kids[parent[i]].push(i);\n"
    "  }\n"
    "  for (i = 0; i < n; i++)\n"
    "    kids[i].sort(function (a, b) { return total[b] - total[a] || a - b; });\n"
    "  var chart = document.getElementById('chart'),\n"
    "    tip = document.getElementById('tip'),\n"
    "    status = document.getElementById('status'),\n"
    "    search = document.getElementById('search'),\n"
    "    matchedEl = document.getElementById('matched');\n"
    "  var ROW = 17, focus = 0, flipped = false, match = null, query = '';\n"
    "  var kindColor = [\n"
    "    function () { return '#d8d8d8'; },\n"
    "    function () { return '#c4c4c4'; },\n"
    "    function (h) { return 'hsl(' + (h % 45) + ',80%,' + (58 + h % 12) + '%)'; },\n"
    "    function (h) { return 'hsl(' + (165 + h % 35) + ',45%,' + (58 + h % 12) + '%)'; },\n"
    "    function (h) { return 'hsl(' + (265 + h % 30) + ',40%,' + (66 + h % 10) + '%)'; }\n"
    "  ];\n"
    "  function hash(s) {\n"
    "    var h = 0, j;\n"
    "    for (j = 0; j < s.length; j++) h = (h * 31 + s.charCodeAt(j)) >>> 0;\n"
    "    return h;\n"
    "  }\n"
    "  function label(i) { return D.names[name[i]]; }\n"
    "  /* A comparison: red where the total grew, blue where it shrank,\n"
    "     the deeper the more, against the largest change. */\n"
    "  var maxChange = 0;\n"
    "  if (D.before) for (i = 1; i < n; i++)\n"
    "    maxChange = Math.max(maxChange, Math.abs(total[i] - D.before[i]));\n"
    "  function diffColor(i) {\n"
    "    var c = total[i] - D.before[i], m = maxChange ? Math.abs(c) / maxChange : 0;\n"
    "    if (!c) return '#e8e8e8';\n"
    "    return 'hsl(' + (c > 0 ? 0 : 220) + ',80%,' + Math.round(92 - 42 * m) + '%)';\n"
    "  }\n"
    "  function pct(x) { return total[0] ? (100 * x / total[0]).toFixed(2) + '%' : '0%'; }\n"
    "  function num(x) { return x.toLocaleString('en-US'); }\n"
    "  function describe(i) {\n"
    "    var s = D.sigs[name[i]] || label(i);\n"
    "    var t = D.metric + ': total ' + num(total[i]) + ' (' + pct(total[i]) +\n"
    "      '), self ' + num(self[i]) + ' (' + pct(self[i]) + ')';\n"
    "    if (D.before) t += ', before ' + num(D.before[i]) + ', change ' +\n"
    "      (total[i] >= D.before[i] ? '+' : '') + num(total[i] - D.before[i]);\n"
    "    return [s, t];\n"
    "  }\n"
    "  /* The deepest level under the focus, for the chart's height. */\n"
    "  function maxDepth(f) {\n"
    "    var st = [f], m = depth[f], j, c;\n"
    "    while (st.length) {\n"
    "      j = st.pop();\n"
    "      if (depth[j] > m) m = depth[j];\n"
    "      for (c = 0; c < kids[j].length; c++) st.push(kids[j][c]);\n"
    "    }\n"
    "    return m;\n"
    "  }\n"
    "  function render() {\n"
    "    var W = chart.clientWidth || 1000, md = maxDepth(focus), frag =\n"
    "      document.createDocumentFragment(), a, st, e, x, w, j, cx;\n"
    "    chart.textContent = '';\n"
    "    chart.style.height = (md + 1) * ROW + 'px';\n"
    "    function box(i, x, w, anc) {\n"
    "      var d = document.createElement('div'), h = hash(label(i));\n"
    "      d.className = 'f' + (anc ? ' a' : '') + (match && match[i] ? ' m' : '');\n"
    "      d.style.left = x + 'px';\n"
    "      d.style.width = w + 'px';\n"
    "      d.style.top = (flipped ? md - depth[i] : depth[i]) * ROW + 'px';\n"
    "      d.style.background = D.before ? diffColor(i) : kindColor[D.kinds[name[i]]](h);\n"
    "      d.textContent = label(i);\n"
    "      d.setAttribute('data-i', i);\n"
    "      frag.appendChild(d);\n"
    "    }\n"
    "    for (a = parent[focus]; a >= 0; a = parent[a]) box(a, 0, W, true);\n"
    "    st = [[focus, 0]];\n"
    "    while (st.length) {\n"
    "      e = st.pop(); j = e[0]; x = e[1];\n"
    "      w = total[focus] ? total[j] * W / total[focus] : (j === focus ? W : 0);\n"
    "      if (w < 0.5) continue;\n"
    "      box(j, x, w, false);\n"
    "      cx = x;\n"
    "      for (k = 0; k < kids[j].length; k++) {\n"
    "        st.push([kids[j][k], cx]);\n"
    "        cx += total[focus] ? total[kids[j][k]] * W / total[focus] : 0;\n"
    "      }\n"
    "    }\n"
    "    chart.appendChild(frag);\n"
    "  }\n"
    "  function saveState() {\n"
    "    var s = [];\n"
    "    if (focus) s.push('zoom=' + encodeURIComponent(label(focus)));\n"
    "    if (query) s.push('search=' + encodeURIComponent(query));\n"
    "    try { history.replaceState(null, '', '#' + s.join('&')); } catch (e) {}\n"
    "  }\n"
    "  function zoom(i) { focus = i; render(); saveState(); }\n"
    "  /* Frames matching the query; the matched share counts each matched\n"
    "     subtree once (not again for matches inside it). */\n"
    "  function find(q) {\n"
    "    query = q;\n"
    "    if (!q) { match = null; matchedEl.textContent = ''; render(); saveState(); return; }\n"
    "    var re = null, m = /^\\/(.*)\\/$/.exec(q), j, sum = 0, under = [];\n"
    "    if (m) { try { re = new RegExp(m[1]); } catch (e) { re = null; } }\n"
    "    var lq = q.toLowerCase();\n"
    "    match = [];\n"
    "    for (j = 0; j < n; j++) {\n"
    "      var s = label(j) + ' ' + (D.sigs[name[j]] || '');\n"
    "      match[j] = re ? re.test(s) : s.toLowerCase().indexOf(lq) >= 0;\n"
    "      under[j] = parent[j] >= 0 && (under[parent[j]] || match[parent[j]]);\n"
    "      if (match[j] && !under[j]) sum += total[j];\n"
    "    }\n"
    "    matchedEl.textContent = 'matched: ' + num(sum) + ' ' + D.metric + ' (' + pct(sum) + ')';\n"
    "    render(); saveState();\n"
    "  }\n"
    "  function frameOf(t) {\n"
    "    while (t && t !== chart && !(t.classList && t.classList.contains('f'))) t = t.parentNode;\n"
    "    return t && t !== chart ? +t.getAttribute('data-i') : -1;\n"
    "  }\n"
    "  chart.addEventListener('click', function (ev) {\n"
    "    var i = frameOf(ev.target);\n"
    "    if (i >= 0) zoom(i);\n"
    "  });\n"
    "  chart.addEventListener('mousemove', function (ev) {\n"
    "    var i = frameOf(ev.target), t, b;\n"
    "    if (i < 0) { tip.style.display = 'none'; return; }\n"
    "    t = describe(i);\n"
    "    tip.textContent = '';\n"
    "    b = document.createElement('b'); b.textContent = t[0];\n"
    "    tip.appendChild(b);\n"
    "    tip.appendChild(document.createElement('br'));\n"
    "    tip.appendChild(document.createTextNode(t[1]));\n"
    "    status.textContent = t[0] + '  ' + t[1];\n"
    "    tip.style.display = 'block';\n"
    "    tip.style.left = Math.min(ev.clientX + 12, window.innerWidth - tip.offsetWidth - 4) + 'px';\n"
    "    tip.style.top = (ev.clientY + 16) + 'px';\n"
    "  });\n"
    "  chart.addEventListener('mouseleave', function () { tip.style.display = 'none'; });\n"
    "  search.addEventListener('input', function () { find(search.value); });\n"
    "  document.getElementById('reset').addEventListener('click', function () { zoom(0); });\n"
    "  document.getElementById('flip').addEventListener('click', function () {\n"
    "    flipped = !flipped; render();\n"
    "  });\n"
    "  document.addEventListener('keydown', function (ev) {\n"
    "    if (ev.key === 'Escape') { if (document.activeElement === search) {\n"
    "      search.value = ''; find(''); } else zoom(0); }\n"
    "    else if ((ev.ctrlKey || ev.metaKey) && ev.key === 'f') {\n"
    "      ev.preventDefault(); search.focus(); }\n"
    "  });\n"
    "  window.addEventListener('resize', render);\n"
    "  document.getElementById('info').textContent =\n"
    "    (D.before ? num(D.before[0]) + ' \\u2192 ' : '') + num(total[0]) + ' ' + D.metric +\n"
    "    (D.left ? ', ' + num(D.left) + ' contexts under ' + D.min + ' left out' : '');\n"
    "  render();\n"
    "  /* State from the URL: search, then a click on the frame to zoom. */\n"
    "  var st = {}, parts = location.hash.replace(/^#/, '').split('&'), p, el;\n"
    "  for (p = 0; p < parts.length; p++) {\n"
    "    var kv = parts[p].split('=');\n"
    "    if (kv.length === 2) { try { st[kv[0]] = decodeURIComponent(kv[1]); } catch (e) {} }\n"
    "  }\n"
    "  if (st.search) { search.value = st.search; find(st.search); }\n"
    "  if (st.zoom) {\n"
    "    /* the heaviest frame of that name */\n"
    "    var els = chart.querySelectorAll('.f'), best = -1;\n"
    "    for (p = 0; p < els.length; p++) {\n"
    "      i = +els[p].getAttribute('data-i');\n"
    "      if (els[p].textContent === st.zoom &&\n"
    "          (best < 0 || total[i] > total[best] || (total[i] === total[best] && i < best))) {\n"
    "        best = i; el = els[p];\n"
    "      }\n"
    "    }\n"
    "    if (el) el.click();\n"
    "  }\n"
    "  document.body.setAttribute('data-ready', '1');\n"
    "})();\n"
    "</script>\n"
    "</body>\n"
    "</html>\n";

/* Decode one UTF-8 character at 's'; its code point in '*cp' (U+FFFD for
** a malformed sequence), the bytes it takes. */
static size_t utf8(const unsigned char *s, unsigned long *cp) {
  unsigned long c = s[0];
  size_t n = c < 0x80 ? 1 : (c & 0xE0) == 0xC0 ? 2 : (c & 0xF0) == 0xE0 ? 3
         : (c & 0xF8) == 0xF0 ? 4 : 0;
  if (n == 0) {
    *cp = 0xFFFD;
    return 1;
  }
  if (n == 1) {
    *cp = c;
    return 1;
  }
  c &= 0x7F >> n;
  for (size_t i = 1; i < n; i++) {
    if ((s[i] & 0xC0) != 0x80) {
      *cp = 0xFFFD;
      return i;
    }
    c = c << 6 | (s[i] & 0x3F);
  }
  static const unsigned long least[] = {0, 0, 0x80, 0x800, 0x10000};
  if (c < least[n] || c > 0x10FFFF || (c >= 0xD800 && c <= 0xDFFF))
    c = 0xFFFD;
  *cp = c;
  return n;
}

/*
** The characters of a JSON string, ASCII only: quotes, backslashes,
** control characters, '<', '>' and '&' (so that nothing reads as markup
** inside the script element) and everything beyond ASCII as \u escapes.
*/
static void json_chars(FILE *f, const char *s) {
  const unsigned char *c = (const unsigned char *)s;
  while (*c) {
    unsigned long cp;
    c += utf8(c, &cp);
    if (cp == '"' || cp == '\\') fprintf(f, "\\%c", (int)cp);
    else if (cp >= 0x20 && cp < 0x7F && cp != '<' && cp != '>' && cp != '&')
      putc((int)cp, f);
    else if (cp < 0x10000) fprintf(f, "\\u%04lx", cp);
    else {
      cp -= 0x10000;
      fprintf(f, "\\u%04lx\\u%04lx", 0xD800 + (cp >> 10),
              0xDC00 + (cp & 0x3FF));
    }
  }
}

static void json_str(FILE *f, const char *s) {
  putc('"', f);
  json_chars(f, s);
  putc('"', f);
}

/* Text for HTML: markup characters as entities, beyond ASCII as numeric
** references, control characters as '?'. */
static void html(FILE *f, const char *s) {
  const unsigned char *c = (const unsigned char *)s;
  while (*c) {
    unsigned long cp;
    c += utf8(c, &cp);
    if (cp == '<') fputs("&lt;", f);
    else if (cp == '>') fputs("&gt;", f);
    else if (cp == '&') fputs("&amp;", f);
    else if (cp == '"') fputs("&quot;", f);
    else if (cp < 0x20 || cp == 0x7F) putc('?', f);
    else if (cp < 0x7F) putc((int)cp, f);
    else fprintf(f, "&#x%lx;", cp);
  }
}

/* '"pkg/Cls.name"' or, with 'desc', '"pkg/Cls.name(desc)"'. */
static void json_method(FILE *f, const cr_prof_method *m, int desc) {
  putc('"', f);
  json_chars(f, m->cls);
  putc('.', f);
  json_chars(f, m->name);
  if (desc) json_chars(f, m->desc);
  putc('"', f);
}

/*
** The frames after the root, in pre-order per tree ('st' holds the output
** index of each open frame): with 'before' 0 as four numbers a frame
** (name, total, self, parent), with 'before' 1 the frame's total before
** (for a comparison), in the same order.
*/
static int emit(FILE *out, const rp_view *v, uint64_t min,
                const uint32_t *nameof, size_t nused, int before,
                uint32_t **st, size_t *cap) {
  const cr_profile *p = v->p;
  size_t emitted = 1;
  for (size_t t = 0; t < p->ntrees; t++) {
    size_t root = 0;
    if (!v->merged) {
      if (v->ttotal[t] < min) continue;
      if (before)
        fprintf(out, ",%llu", (unsigned long long)v->tbefore[t]);
      else
        fprintf(out, ",\n%zu,%llu,0,0", nused + 1 + t,
                (unsigned long long)v->ttotal[t]);
      root = emitted++;
    }
    uint32_t n = p->trees[t].child;
    size_t depth = 0;
    while (n) {
      const cr_prof_node *x = &p->nodes[n];
      int shown = v->total[n] >= min;
      if (shown) {
        if (depth == *cap) {
          size_t c = *cap ? *cap * 2 : 256;
          uint32_t *s2 = cr_realloc(*st, c * sizeof *s2);
          if (!s2) return CR_ENOMEM;
          *st = s2;
          *cap = c;
        }
        if (before)
          fprintf(out, ",%llu", (unsigned long long)v->before[n]);
        else
          fprintf(out, ",\n%u,%llu,%llu,%zu", nameof[x->method],
                  (unsigned long long)v->total[n],
                  (unsigned long long)rp_self(v, n),
                  depth ? (size_t)(*st)[depth - 1] : root);
        (*st)[depth++] = (uint32_t)emitted++;
      }
      if (shown && x->child) {
        n = x->child;
        continue;
      }
      /* Leave 'n' (popped only if it was pushed), then climb. */
      if (shown) depth--;
      while (n && !p->nodes[n].next) {
        n = p->nodes[n].parent;
        if (n) depth--;
      }
      if (n) n = p->nodes[n].next;
    }
  }
  return 0;
}

/*
** The page: the template around one JSON object. Frames are the root
** ("all"), one per thread unless the threads are merged, then the
** contexts whose total reaches the threshold, in pre-order (a context
** under it is left out with everything below it, which is under it too).
*/
int rp_cmd_flame(const rp_opts *o, rp_view *v, FILE *out) {
  const cr_profile *p = v->p;
  const rp_min *mn = rp_min_opt(o);
  uint64_t min = rp_min_value(mn, v->grand);
  /* Names: 0 the root, then the methods shown in first-use order, then
     the threads. 'nameof' maps a method to its name + 1. */
  uint32_t *nameof = cr_calloc(p->nmethods + 1, sizeof *nameof);
  uint32_t *used = cr_malloc((p->nmethods + 1) * sizeof *used);
  uint32_t *st = NULL;
  size_t cap = 0, nused = 0, left = 0;
  if (!nameof || !used) goto nomem;
  for (size_t i = 1; i <= p->nnodes; i++) {
    uint32_t m = p->nodes[i].method;
    if (v->total[i] >= min && !nameof[m]) {
      used[nused++] = m;
      nameof[m] = (uint32_t)nused;
    } else if (v->total[i] < min && (!p->nodes[i].parent ||
                                     v->total[p->nodes[i].parent] >= min)) {
      left++;
    }
  }
  char title[1200];
  if (o->title) snprintf(title, sizeof title, "%s", o->title);
  else snprintf(title, sizeof title, "%s: %s", v->label, v->mname);
  char minstr[64];
  snprintf(minstr, sizeof minstr, "%g%s", mn->value, mn->percent ? "%" : "");

  fputs(page_head, out);
  html(out, title);
  fputs(page_style, out);
  html(out, title);
  fputs(page_body, out);
  fputs("{\"title\":", out);
  json_str(out, title);
  fputs(",\"metric\":", out);
  json_str(out, v->mname);
  fprintf(out, ",\"left\":%zu,\"min\":", left);
  json_str(out, minstr);
  fputs(",\n\"names\":[\"all\"", out);
  for (size_t i = 0; i < nused; i++) {
    putc(',', out);
    json_method(out, &p->methods[used[i]], 0);
  }
  if (!v->merged)
    for (size_t t = 0; t < p->ntrees; t++) {
      fputs(",\"[", out);
      json_chars(out, p->trees[t].thread);
      fputs("]\"", out);
    }
  fputs("],\n\"sigs\":[\"\"", out);
  for (size_t i = 0; i < nused; i++) {
    putc(',', out);
    json_method(out, &p->methods[used[i]], 1);
  }
  if (!v->merged)
    for (size_t t = 0; t < p->ntrees; t++) fputs(",\"\"", out);
  fprintf(out, "],\n\"kinds\":[%d", K_ROOT);
  for (size_t i = 0; i < nused; i++) {
    const cr_prof_method *m = &p->methods[used[i]];
    fprintf(out, ",%d", m->native ? K_NATIVE : m->library ? K_LIB : K_APP);
  }
  if (!v->merged)
    for (size_t t = 0; t < p->ntrees; t++) fprintf(out, ",%d", K_THREAD);
  fprintf(out, "],\n\"nodes\":[0,%llu,0,-1", (unsigned long long)v->grand);
  if (emit(out, v, min, nameof, nused, 0, &st, &cap)) goto nomem;
  fputs("]", out);
  if (v->before) {
    fprintf(out, ",\n\"before\":[%llu", (unsigned long long)v->gbefore);
    if (emit(out, v, min, nameof, nused, 1, &st, &cap)) goto nomem;
    fputs("]", out);
  }
  fputs("}", out);
  fputs(page_script, out);
  cr_free(nameof);
  cr_free(used);
  cr_free(st);
  return RP_EXIT_OK;
nomem:
  rp_error("out of memory");
  cr_free(nameof);
  cr_free(used);
  cr_free(st);
  return RP_EXIT_OUTPUT;
}
