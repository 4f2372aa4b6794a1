/* MLIR's generic op form `"pto.op"(%a, %b, ...) <{props}> {attrs} : (A, B, ...) -> (R...)`
 * rewritten into the item shape of the op's custom form, so the binders read one shape.
 *
 * The mapping is mechanical: the properties' operandSegmentSizes cut the operand list into
 * the op's ODS operands (PTOOps.td `arguments`, in order; one value each when the op has no
 * segments), each operand goes to the clause its assemblyFormat prints it in, with its type
 * from the function type, and the properties and attributes become the op's {...}
 * dictionary. Only the clause of each ODS operand is per op, as the assemblyFormats place
 * operands in an order of their own (tmov's dst is its second ODS operand but sits in
 * outs(...) after the optional ins(...) operands). Ops outside the table stay generic (the
 * lowering refuses them). */
#include <stdlib.h>
#include <string.h>

#include "asm/parser.h"

/* Per ODS operand, space-separated: `ins`, `outs`, `()` (the bare operand list of
 * `{attrs}(%a : T, ...)`), or `ins:KW` (in ins(...) after keyword KW: `fp %fp : F`). */
typedef struct gen_form {
  const char *op, *operands;
} gen_form;

static const gen_form k_forms[] = {
    {"pto.tmov", "ins outs ins ins"},                          /* src dst fp? preQuantScalar? */
    {"pto.tinsert", "ins ins ins outs ins:fp ins:pre_quant"},  /* src indexRow indexCol dst fp? preQuantScalar? */
    {"pto.initialize_l2g2l_pipe", "() () ()"},                 /* gm_addr local_addr? peer_local_addr? */
    {"pto.initialize_l2l_pipe", "() ()"},                      /* local_addr peer_local_addr? */
};

enum { GEN_MAX = 8 }; /* ODS operands of the forms above */

typedef struct gen_slot {
  char clause[8];  /* "ins", "outs", "" */
  const char *kw;  /* keyword before the operand, NULL when none */
  size_t kwn;
} gen_slot;

static unsigned split_form(const char *s, gen_slot *slot) {
  unsigned n = 0;
  while (*s && n < GEN_MAX) {
    size_t len = strcspn(s, " "), c = strcspn(s, ": ");
    gen_slot *g = &slot[n++];
    memset(g, 0, sizeof *g);
    if (s[0] != '(') memcpy(g->clause, s, c < sizeof g->clause ? c : sizeof g->clause - 1);
    if (c < len) g->kw = s + c + 1, g->kwn = len - c - 1;
    s += len + (s[len] == ' ');
  }
  return n;
}

static void gen_fail(pa_parser *p, const pa_op *op, const char *hint, const char *msg) {
  pa_tok at = {0};
  at.kind = TK_IDENT;
  at.line = op->loc.line, at.col = op->loc.col;
  at.off = (uint32_t)(op->name.s - p->src);
  at.len = (uint32_t)op->name.n;
  pa_error(p, &at, "parse.generic", hint, "%.*s in generic form: %s", (int)op->name.n, op->name.s, msg);
}

/* The sizes of `array<i32: a, b, ...>` into seg (at most cap); -1 when malformed. */
static int segment_sizes(const pa_item *v, int64_t *seg, unsigned cap) {
  if (!v || v->kind != PA_IT_ANGLE || !pa_str_is(v->name, "array")) return -1;
  const char *s = memchr(v->body.s, ':', v->body.n), *end = v->body.s + v->body.n;
  if (!s) return -1;
  unsigned n = 0;
  for (s++; s < end && n < cap; n++) {
    char *e;
    long k = strtol(s, &e, 10);
    if (e == s || k < 0 || k > 1) return -1; /* Optional operands only: 0 or 1 value each */
    seg[n] = k;
    while (e < end && (*e == ' ' || *e == '\t' || *e == '\r' || *e == '\n' || *e == ',')) e++;
    s = e;
  }
  return s < end ? -1 : (int)n;
}

/* The {...} dictionary: the entries of <{props}>, then of {attrs}, but operandSegmentSizes. */
static pa_item *merged_dict(pa_parser *p, const pa_item *props, const pa_item *attrs) {
  uint32_t n = (props ? props->nargs : 0) + (attrs ? attrs->nargs : 0), k = 0;
  pa_item *d = pa_alloc(p, sizeof *d), *e = n ? pa_alloc(p, n * sizeof *e) : NULL;
  if (!d || (n && !e)) return NULL;
  const pa_item *from[] = {props, attrs};
  for (int f = 0; f < 2; f++)
    for (uint32_t i = 0; from[f] && i < from[f]->nargs; i++)
      if (!pa_str_is(from[f]->args[i].name, "operandSegmentSizes")) e[k++] = from[f]->args[i];
  d->kind = PA_IT_DICT;
  d->loc = props ? props->loc : attrs ? attrs->loc : (pa_loc){0, 0};
  d->text = props ? props->text : attrs ? attrs->text : (pa_str){NULL, 0};
  d->result_no = -1;
  d->nargs = k;
  d->args = e;
  return d;
}

/* One clause: the operands of slots named `clause`, keywords as words before their operand. */
static int build_clause(pa_parser *p, const char *clause, const gen_slot *slot, const int64_t *seg, unsigned nslot,
                        const pa_item *vals, const pa_type *const *types, const pa_item *list, pa_item *out) {
  unsigned nv = 0, nw = 0;
  for (unsigned s = 0; s < nslot; s++)
    if (seg[s] && !strcmp(slot[s].clause, clause)) nv++, nw += slot[s].kw != NULL;
  memset(out, 0, sizeof *out);
  if (!nv) return 0;
  pa_item *a = pa_alloc(p, (nv + nw) * sizeof *a);
  const pa_type **t = pa_alloc(p, nv * sizeof *t);
  if (!a || !t) return -1;
  out->kind = PA_IT_CALL;
  out->loc = list->loc;
  out->text = list->text;
  out->name.s = clause, out->name.n = strlen(clause);
  out->result_no = -1;
  out->args = a;
  out->types = t;
  for (unsigned s = 0, v = 0; s < nslot; v += (unsigned)seg[s++]) {
    if (!seg[s] || strcmp(slot[s].clause, clause)) continue;
    if (slot[s].kw) {
      pa_item *w = &a[out->nargs++];
      w->kind = PA_IT_WORD;
      w->loc = vals[v].loc;
      w->text.s = w->name.s = slot[s].kw, w->text.n = w->name.n = slot[s].kwn;
      w->result_no = -1;
    }
    a[out->nargs++] = vals[v];
    t[out->ntypes++] = types[v];
  }
  return 1;
}

/* The operand list, properties and attributes of the generic op into *list, *props, *attrs,
 * its function type into *ft, and its ODS operand sizes into seg; NULL, or the complaint. */
static const char *gen_parts(const pa_op *op, unsigned nslot, const pa_item **list, const pa_item **props,
                             const pa_item **attrs, const pa_type **ft, int64_t *seg) {
  for (uint32_t i = 0; i < op->nitems; i++) {
    const pa_item *it = &op->items[i];
    if (it->kind == PA_IT_CALL && !it->name.n && !*list) *list = it;
    else if (it->kind == PA_IT_ANGLE && !it->name.n && it->nargs == 1 && it->args[0].kind == PA_IT_DICT && !*props)
      *props = &it->args[0];
    else if (it->kind == PA_IT_DICT && !*attrs) *attrs = it;
    else return "an item other than (operands), <{properties}> and {attributes}";
  }
  *ft = op->ntypes == 1 && op->types[0].kind == PA_IT_TYPE ? op->types[0].type : NULL;
  uint32_t nv = *list ? (*list)->nargs : 0;
  if (!*ft || (*ft)->kind != PA_TY_FUNC || (*ft)->nin != nv) return "the function type does not give one type per operand";
  const pa_item *sizes = *props ? pa_dict_get(*props, "operandSegmentSizes") : NULL;
  if (!sizes && *attrs) sizes = pa_dict_get(*attrs, "operandSegmentSizes"); /* MLIR before properties */
  if (sizes && segment_sizes(sizes, seg, GEN_MAX) != (int)nslot) return "operandSegmentSizes is not one 0 / 1 per ODS operand";
  unsigned total = 0;
  for (unsigned s = 0; s < nslot; s++) total += (unsigned)(seg[s] = sizes ? seg[s] : s < nv);
  return total == nv && seg[0] ? NULL : "the operand count does not match the op's operands";
}

void pa_generic_to_custom(pa_parser *p, pa_op *op) {
  const gen_form *f = NULL;
  for (size_t i = 0; i < sizeof k_forms / sizeof k_forms[0] && !f; i++)
    if (pa_str_is(op->name, k_forms[i].op)) f = &k_forms[i];
  if (!f) return; /* stays generic */
  gen_slot slot[GEN_MAX];
  int64_t seg[GEN_MAX];
  unsigned nslot = split_form(f->operands, slot);
  const pa_item *list = NULL, *props = NULL, *attrs = NULL;
  const pa_type *ft = NULL;
  const char *bad = gen_parts(op, nslot, &list, &props, &attrs, &ft, seg);
  if (bad) {
    gen_fail(p, op, "write \"pto.op\"(%a, ...) <{operandSegmentSizes = array<i32: ...>, ...}> : (T, ...) -> (R...), "
             "the operands as PTOOps.td's arguments list them", bad);
    return;
  }
  pa_item built[4], *items = pa_alloc(p, sizeof built);
  uint32_t n = 0;
  static const char *const clauses[] = {"", "ins", "outs"};
  for (int c = 0; c < 3; c++) {
    int r = build_clause(p, clauses[c], slot, seg, nslot, list->args, ft->in, list, &built[n]);
    if (r < 0) return;
    n += (uint32_t)r;
  }
  pa_item *d = props || attrs ? merged_dict(p, props, attrs) : NULL;
  if (!items || ((props || attrs) && !d)) return;
  if (d) built[n++] = *d;
  memcpy(items, built, n * sizeof *items);
  op->items = items;
  op->nitems = n;
  op->types = NULL;
  op->ntypes = 0;
  op->rtypes = ft->out;
  op->nrtypes = ft->nout;
  op->generic = 0;
}
