/* Binders of the tile ops (see bind.h for the two-mode contract). The syntax of each op is
 * its assemblyFormat in PTOAS include/PTO/IR/PTOOps.td: destination-passing style
 * `pto.tX ins(%a, %b : Ta, Tb) outs(%d : Td) {attr = #pto<kind value>}`; enum attributes
 * also in the `#pto.kind<value>` spelling. */
#include <string.h>

#include "asm/asm.h"
#include "core/optable.h"
#include "exec/bind_tile.h"
#include "exec/lower.h"

/* ---- helpers ------------------------------------------------------------------------------ */

/* Two types agree: tiles in loc, element type and shape; views in element type. PTOAS
 * verifies the whole type; the rest (valid shape, layouts) may legitimately be spelled
 * differently at a use (e.g. `?` for a static valid dimension). */
static int same_place(const pa_type *a, const pa_type *b) {
  if (a->kind == PA_TY_TILE_BUF && b->kind == PA_TY_TILE_BUF)
    return a->tb.loc == b->tb.loc && pa_type_equal(a->tb.dtype, b->tb.dtype) && a->tb.rows == b->tb.rows &&
           a->tb.cols == b->tb.cols;
  if (a->kind == PA_TY_TILE_BUF || b->kind == PA_TY_TILE_BUF) return 0;
  return a->elem && b->elem && pa_type_equal(a->elem, b->elem);
}

/* Operand i of clause `ins` / `outs` (NULL if absent: the accessors then report it). While
 * lowering, the type written beside a tile or view operand must agree with its own. */
static const pa_item *io(pt_bind *b, const pa_op *op, const char *clause, unsigned i) {
  const pa_item *c = pa_op_clause(op, clause);
  const pa_item *it = c && c->kind == PA_IT_CALL && i < c->nargs ? &c->args[i] : NULL;
  unsigned t = i; /* the types pair with the operands, not with keywords (`fp %f : T`) */
  for (unsigned k = 0; it && k < i; k++) t -= c->args[k].kind == PA_IT_WORD;
  const pa_type *written = it && c->types && t < c->ntypes ? c->types[t] : NULL, *own = pt_bind_value_type(b, it);
  if (written && own && !same_place(written, own)) {
    char w[256], o[256];
    pa_type_print(written, w, sizeof w);
    pa_type_print(own, o, sizeof o);
    pt_bind_error(b, it, "bind.type", "write the operand's own type (loc, dtype and shape)",
                  "'%.*s' is declared %s here but is %s", (int)it->text.n, it->text.s, w, o);
  }
  return it;
}

static unsigned io_count(const pa_op *op, const char *clause) {
  const pa_item *c = pa_op_clause(op, clause);
  return c && c->kind == PA_IT_CALL ? c->nargs : 0;
}

static int expect_io(pt_bind *b, const pa_op *op, unsigned nins, unsigned nouts) {
  unsigned ni = io_count(op, "ins"), no = io_count(op, "outs");
  if (ni == nins && no == nouts) return 0;
  return pt_bind_error(b, NULL, "bind.arity", "see the op's ins(...) outs(...) operands in PTOOps.td",
                       "expects ins(%u operands) outs(%u), got ins(%u) outs(%u)", nins, nouts, ni, no);
}

/* PTOAS's optional operands after a keyword in ins(...): `ins(%s, %r, %c : T, index, index fp %f : F
 * pre_quant %q : i64)` (the parser keeps each keyword as a word item before its operand).
 * at[k] = the index of the operand of keyword kws[k], 0 when absent. Returns the number of
 * operands before the first keyword, or -1 (reported) for another word or a missing operand. */
static int ins_keywords(pt_bind *b, const pa_op *op, const char *const *kws, unsigned n, unsigned *at) {
  const pa_item *c = pa_op_clause(op, "ins");
  unsigned nargs = c && c->kind == PA_IT_CALL ? c->nargs : 0, lead = nargs;
  memset(at, 0, n * sizeof *at);
  for (unsigned i = 0; i < nargs; i++) {
    const pa_item *w = &c->args[i];
    if (w->kind != PA_IT_WORD) continue;
    unsigned k = 0;
    while (k < n && !pa_item_is_word(w, kws[k])) k++;
    if (k == n || at[k] || i + 1 >= nargs || c->args[i + 1].kind != PA_IT_VALUE)
      return pt_bind_error(b, w, "bind.keyword", "see the op's assemblyFormat in PTOOps.td",
                           "unexpected '%.*s' in ins(...)", (int)w->text.n, w->text.s);
    lead = lead < i ? lead : i;
    at[k] = ++i;
  }
  return (int)lead;
}

/* ins(...) has lo..hi operands before its keywords (lead: ins_keywords) and outs(...) one. */
static int expect_lead(pt_bind *b, const pa_op *op, int lead, unsigned lo, unsigned hi) {
  unsigned no = io_count(op, "outs");
  if (lead < 0) return -1;
  if ((unsigned)lead >= lo && (unsigned)lead <= hi && no == 1) return 0;
  return pt_bind_error(b, NULL, "bind.arity", "see the op's ins(...) outs(...) operands in PTOOps.td",
                       "expects ins(%u to %u operands, then keyword operands) outs(1), got ins(%d) outs(%u)", lo, hi,
                       lead, no);
}

/* Variant flag of the op's row (OPF_*: core/optable.h). */
static int has_flag(const pt_bind *b, unsigned flag) { return (pt_op_flags(b->opc) & flag) != 0; }

/* The value of `key` in the op's {...} dictionaries, or in the one attached to an operand of
 * its ins(...) clause (`ins(%src {rmode = ...} : T)`, PTOAS's spelling of tcvt and tcmp);
 * NULL when absent. */
static const pa_item *attr_value(const pa_op *op, const char *key) {
  const pa_item *c = pa_op_clause(op, "ins");
  for (uint32_t k = 0; k < op->nitems; k++) {
    const pa_item *v = op->items[k].kind == PA_IT_DICT ? pa_dict_get(&op->items[k], key) : NULL;
    if (v) return v;
  }
  for (uint32_t k = 0; c && c->kind == PA_IT_CALL && k < c->nargs; k++) {
    const pa_item *v = c->args[k].attrs ? pa_dict_get(c->args[k].attrs, key) : NULL;
    if (v) return v;
  }
  return NULL;
}

/* Enum attribute `key` of the op (attr_value): the index of its value in names[]
 * (`#pto<kind value>` or `#pto.kind<value>`); def when absent, -1 (reported) when unknown. */
static int enum_attr(pt_bind *b, const pa_op *op, const char *key, const char *const *names, int n, int def) {
  const pa_item *v = attr_value(op, key);
  if (!v) return def;
  const pa_item *w = v->kind == PA_IT_ATTR && v->nargs ? &v->args[v->nargs - 1] : NULL;
  for (int i = 0; w && i < n; i++)
    if (names[i] && pa_item_is_word(w, names[i])) return i;
  pt_bind_error(b, v, "bind.keyword", "see the attribute's values in PTOAttrs.td", "unsupported %s '%.*s'", key,
                (int)v->text.n, v->text.s);
  return -1;
}

/* Shared with bind_tile_elem.c (bind_tile.h). */
const pa_item *pt_tile_io(pt_bind *b, const pa_op *op, const char *clause, unsigned i) { return io(b, op, clause, i); }
unsigned pt_tile_io_count(const pa_op *op, const char *clause) { return io_count(op, clause); }
const pa_item *pt_tile_attr(const pa_op *op, const char *key) { return attr_value(op, key); }
int pt_tile_enum_attr(pt_bind *b, const pa_op *op, const char *key, const char *const *names, int n, int def) {
  return enum_attr(b, op, key, names, n, def);
}

/* Clauses of PTOOps.td that ptosim does not model yet. */
static int reject_clauses(pt_bind *b, const pa_op *op, const char *const *keys, int n) {
  for (int i = 0; i < n; i++) {
    const pa_item *c = pa_op_clause(op, keys[i]);
    if (c) return pt_bind_error(b, c, "op.unsupported", "drop the clause", "not supported yet: clause %s", keys[i]);
  }
  return 0;
}

static const char *const relu_words[] = {[PTOSIM_RELU_NO_RELU] = "no_relu", [PTOSIM_RELU_NORMAL] = "normal_relu"};

/* ---- data movement (src/isa/tile_move.c) ---------------------------------------------------- */

/* pto.tload / pto.tprefetch ins(%view) outs(%tile) */
int bind_ptosim_tload_params(pt_bind *b, const pa_op *op, ptosim_tload_params *p) {
  static const char *const extra[] = {"pad_mode", "pad_value", "left_padding_num", "right_padding_num",
                                      "init_out_buffer", "init_condition"};
  if (expect_io(b, op, 1, 1) || reject_clauses(b, op, extra, 6)) return -1;
  p->dst = pt_bind_tile(b, io(b, op, "outs", 0));
  p->src = pt_bind_view(b, io(b, op, "ins", 0), &p->dst);
  return 0;
}

/* pto.tstore ins(%tile [fp %fp : F] [, %preQuantScalar : i64]) outs(%view) {atomicType, reluPreMode,
 * stPhase}; pto.tstore_fp ins(%tile, %fp) outs(%view) */
int bind_ptosim_tstore_params(pt_bind *b, const pa_op *op, ptosim_tstore_params *p) {
  static const char *const kw[] = {"fp"};
  unsigned at[1] = {0};
  int fp = has_flag(b, OPF_FP), lead = fp ? 0 : ins_keywords(b, op, kw, 1, at);
  if (fp ? expect_io(b, op, 2, 1) : expect_lead(b, op, lead, 1, 2)) return -1;
  p->src = pt_bind_tile(b, io(b, op, "ins", 0));
  p->has_fp = at[0] != 0;
  if (fp || p->has_fp) p->fp = pt_bind_tile(b, io(b, op, "ins", fp ? 1 : at[0]));
  p->has_quant_scalar = lead == 2;
  if (p->has_quant_scalar) p->quant_scalar = (uint64_t)pt_bind_int(b, io(b, op, "ins", 1));
  p->dst = pt_bind_view(b, io(b, op, "outs", 0), &p->src);
  static const char *const atomic[] = {"atomic_none", "atomic_add"};
  static const char *const phase[] = {[PTOSIM_UNIT_FLAG_NONE] = "unspecified", [PTOSIM_UNIT_FLAG_CHECK_ONLY] = "partial",
                                      [PTOSIM_UNIT_FLAG_CHECK_AND_CLEAR] = "final"};
  int a = enum_attr(b, op, "atomicType", atomic, 2, 0), r = enum_attr(b, op, "reluPreMode", relu_words, 3, 0);
  int ph = enum_attr(b, op, "stPhase", phase, PTOSIM_UNIT_FLAG_CHECK_AND_CLEAR + 1, 0);
  p->atomic = a == 1 ? PTOSIM_ATOMIC_ADD : PTOSIM_ATOMIC_NONE;
  p->relu = r > 0 ? (ptosim_relu_mode)r : PTOSIM_RELU_NONE;
  p->phase = ph > 0 ? (ptosim_unit_flag)ph : PTOSIM_UNIT_FLAG_NONE;
  return 0;
}

/* The index tile's valid shape selects the mode (ptosim/tile_move.h ptosim_coalesce). */
static ptosim_coalesce coalesce_of(const ptosim_tile *idx, const ptosim_tile *data) {
  int elem = idx->valid_rows == data->valid_rows && idx->valid_cols == data->valid_cols;
  return elem ? PTOSIM_COALESCE_ELEM : PTOSIM_COALESCE_ROW;
}

/* pto.mgather ins(%table, %idx) outs(%dst) {gatherOob}: a vec index tile; the GM -> L1 form
 * ins(%table, %idx [, %scratch]) outs(%mat) {coalesce} with a GM index view (elem mode: the
 * GM scratch; coalesce defaults to elem with a scratch, else row). */
int bind_ptosim_mgather_params(pt_bind *b, const pa_op *op, ptosim_mgather_params *p) {
  const pa_item *c = pa_op_clause(op, "ins");
  const pa_type *it = c && c->kind == PA_IT_CALL && c->types && c->ntypes > 1 ? c->types[1] : NULL;
  p->gm_idx = it && it->kind != PA_TY_TILE_BUF;
  unsigned ni = io_count(op, "ins");
  if (expect_io(b, op, p->gm_idx && ni == 3 ? 3 : 2, 1)) return -1;
  p->dst = pt_bind_tile(b, io(b, op, "outs", 0));
  p->table = pt_bind_view(b, io(b, op, "ins", 0), &p->dst);
  static const char *const co[] = {"row", "elem"}, *const oob[] = {"undefined", "clamp", "wrap", "zero"};
  if (p->gm_idx) {
    p->idx_gm = pt_bind_view(b, io(b, op, "ins", 1), NULL);
    if (ni == 3) p->scratch = pt_bind_view(b, io(b, op, "ins", 2), &p->dst);
    int m = enum_attr(b, op, "coalesce", co, 2, ni == 3);
    if (m < 0) return -1;
    if (m != (ni == 3))
      return pt_bind_error(b, NULL, "bind.arity", "coalesce elem takes ins(%table, %idx, %scratch), row no scratch",
                           "coalesce %s with%s a scratch operand", co[m], ni == 3 ? "" : "out");
    p->coalesce = m ? PTOSIM_COALESCE_ELEM : PTOSIM_COALESCE_ROW;
  } else {
    p->idx = pt_bind_tile(b, io(b, op, "ins", 1));
    p->coalesce = coalesce_of(&p->idx, &p->dst);
  }
  int o = enum_attr(b, op, "gatherOob", oob, 4, 0);
  p->oob = o > 0 ? (ptosim_gather_oob)o : PTOSIM_GATHER_UNDEFINED;
  return 0;
}

/* pto.mscatter ins(%src, %idx) outs(%table) {scatterAtomicOp, scatterOob} */
int bind_ptosim_mscatter_params(pt_bind *b, const pa_op *op, ptosim_mscatter_params *p) {
  if (expect_io(b, op, 2, 1)) return -1;
  p->src = pt_bind_tile(b, io(b, op, "ins", 0));
  p->idx = pt_bind_tile(b, io(b, op, "ins", 1));
  p->table = pt_bind_view(b, io(b, op, "outs", 0), &p->src);
  p->coalesce = coalesce_of(&p->idx, &p->src);
  static const char *const atomic[] = {"none", "add", "max", "min"};
  static const char *const oob[] = {"undefined", "skip", "clamp", "wrap"};
  int a = enum_attr(b, op, "scatterAtomicOp", atomic, 4, 0), o = enum_attr(b, op, "scatterOob", oob, 4, 0);
  p->atomic = a > 0 ? (ptosim_atomic_op)a : PTOSIM_ATOMIC_NONE;
  p->oob = o > 0 ? (ptosim_scatter_oob)o : PTOSIM_SCATTER_UNDEFINED;
  return 0;
}

/* ---- layout (src/isa/tile_layout.c) ------------------------------------------------------- */

/* ins(%a [, %b]) outs(%d), all tiles (b NULL: one input). */
static int bind_tiles(pt_bind *b, const pa_op *op, ptosim_tile *in0, ptosim_tile *in1, ptosim_tile *out) {
  if (expect_io(b, op, in1 ? 2 : 1, 1)) return -1;
  *in0 = pt_bind_tile(b, io(b, op, "ins", 0));
  if (in1) *in1 = pt_bind_tile(b, io(b, op, "ins", 1));
  *out = pt_bind_tile(b, io(b, op, "outs", 0));
  return 0;
}

/* pto.ttrans ins(%src [, %tmp]) outs(%dst) (tmp optional in PTOOps.td TTransOp) */
int bind_ptosim_ttrans_params(pt_bind *b, const pa_op *op, ptosim_ttrans_params *p) {
  p->no_tmp = io_count(op, "ins") == 1;
  return bind_tiles(b, op, &p->src, p->no_tmp ? NULL : &p->tmp, &p->dst);
}

/* pto.tfillpad / _inplace / _expand ins(%src) outs(%dst) */
int bind_ptosim_tfillpad_params(pt_bind *b, const pa_op *op, ptosim_tfillpad_params *p) {
  return bind_tiles(b, op, &p->src, NULL, &p->dst);
}

/* %r = pto.treshape %src : T -> R */
int bind_ptosim_treshape_params(pt_bind *b, const pa_op *op, ptosim_treshape_params *p) {
  p->src = pt_bind_tile(b, pt_operand_item(op, 0));
  p->result = pt_bind_result_tile(b);
  return 0;
}

/* pto.tget_scale_addr ins(%src : L) outs(%dst : S): dst is the tile object the op places. */
int bind_ptosim_tget_scale_addr_params(pt_bind *b, const pa_op *op, ptosim_tget_scale_addr_params *p) {
  if (expect_io(b, op, 1, 1)) return -1;
  p->src = pt_bind_tile(b, io(b, op, "ins", 0));
  p->dst = pt_bind_tile_ref(b, io(b, op, "outs", 0));
  return 0;
}

/* pto.tconcat ins(%src0, %src1) outs(%dst) */
int bind_ptosim_tconcat_params(pt_bind *b, const pa_op *op, ptosim_tconcat_params *p) {
  return bind_tiles(b, op, &p->src0, &p->src1, &p->dst);
}

/* ---- matrix (src/isa/tile_matrix.c, tile_mov.c) --------------------------------------------- */

/* pto.tmatmul / pto.tgemv [.mx] [.acc | .bias]: ins([%acc_in,] %a [, %a_scale], %b [, %b_scale]
 * [, %bias]) outs(%dst) {accPhase}. MX scale tiles are spelled loc=scaling; they live in the
 * MX scale buffers L0A_MX / L0B_MX. */
int bind_ptosim_tmatmul_params(pt_bind *b, const pa_op *op, ptosim_tmatmul_params *p) {
  int acc = has_flag(b, OPF_ACC), bias = has_flag(b, OPF_BIAS), mx = has_flag(b, OPF_MX);
  if (expect_io(b, op, 2u + (unsigned)acc + (unsigned)bias + 2u * (unsigned)mx, 1)) return -1;
  unsigned i = 0;
  if (acc) p->acc_in = pt_bind_tile(b, io(b, op, "ins", i++));
  p->lhs = pt_bind_tile(b, io(b, op, "ins", i++));
  if (mx) p->lhs_scale = pt_bind_tile(b, io(b, op, "ins", i++));
  p->rhs = pt_bind_tile(b, io(b, op, "ins", i++));
  if (mx) p->rhs_scale = pt_bind_tile(b, io(b, op, "ins", i++));
  if (bias) p->bias = pt_bind_tile(b, io(b, op, "ins", i++));
  p->dst = pt_bind_tile(b, io(b, op, "outs", 0));
  if (p->lhs_scale.space == PTOSIM_FB) p->lhs_scale.space = PTOSIM_L0A_MX;
  if (p->rhs_scale.space == PTOSIM_FB) p->rhs_scale.space = PTOSIM_L0B_MX;
  static const char *const phase[] = {[PTOSIM_ACC_PHASE_UNSPECIFIED] = "unspecified",
                                      [PTOSIM_ACC_PHASE_PARTIAL] = "partial", [PTOSIM_ACC_PHASE_FINAL] = "final"};
  int ph = enum_attr(b, op, "accPhase", phase, PTOSIM_ACC_PHASE_FINAL + 1, 0);
  p->phase = ph > 0 ? (ptosim_acc_phase)ph : PTOSIM_ACC_PHASE_UNSPECIFIED;
  return 0;
}

/* pto.textract ins(%src, %row, %col [, %preQuantScalar] : T, index, index [, i64] [fp %fp : F]);
 * pto.tinsert ins(%src, %row, %col : T, index, index [fp %fp : F] [pre_quant %q : i64])
 * {tinsertMode}: PTOOps.td TExtractOp / TInsertOp (the fp tile and the quant scalar optional). */
static int bind_indexed(pt_bind *b, const pa_op *op, ptosim_tmov_params *p) {
  static const char *const kw[] = {"fp", "pre_quant"}, *const split[] = {[2] = "split2", [4] = "split4"};
  unsigned at[2], ins = b->opc == PTOSIM_OP_tinsert;
  int lead = ins_keywords(b, op, kw, 1 + ins, at);
  if (expect_lead(b, op, lead, 3, 4 - ins)) return -1;
  p->src = pt_bind_tile(b, io(b, op, "ins", 0));
  p->index_row = pt_bind_int(b, io(b, op, "ins", 1));
  p->index_col = pt_bind_int(b, io(b, op, "ins", 2));
  p->has_fp = at[0] != 0;
  if (p->has_fp) p->fp = pt_bind_tile(b, io(b, op, "ins", at[0]));
  unsigned q = lead == 4 ? 3 : ins ? at[1] : 0;
  p->has_quant_scalar = q != 0;
  if (q) p->quant_scalar = (uint64_t)pt_bind_int(b, io(b, op, "ins", q));
  p->insert_split = ins ? enum_attr(b, op, "tinsertMode", split, 5, 0) : 0;
  return p->insert_split < 0 ? -1 : 0;
}

/* pto.tmov ins(%src [, %fp] [, %preQuantScalar : i64]) outs(%dst); pto.tmov.fp ins(%src, %fp)
 * outs(%dst); pto.textract_fp / pto.tinsert_fp ins(%src, %fp, %row, %col) outs(%dst). */
static int bind_mov(pt_bind *b, const pa_op *op, ptosim_tmov_params *p, int indexed, int fp_form) {
  unsigned ni = io_count(op, "ins"), want = 1u + (unsigned)fp_form + 2u * (unsigned)indexed;
  if (!indexed && !fp_form) want = ni >= 1 && ni <= 3 ? ni : 1; /* tmov: optional fp and quant scalar */
  if (expect_io(b, op, want, 1)) return -1;
  p->src = pt_bind_tile(b, io(b, op, "ins", 0));
  unsigned i = 1;
  if (fp_form) {
    p->has_fp = true;
    p->fp = pt_bind_tile(b, io(b, op, "ins", i++));
  }
  if (indexed) {
    p->index_row = pt_bind_int(b, io(b, op, "ins", i++));
    p->index_col = pt_bind_int(b, io(b, op, "ins", i++));
  }
  /* tmov's optional operands: a tile is the fp tile, an integer the quant scalar. */
  const pa_item *c = pa_op_clause(op, "ins");
  for (; !indexed && !fp_form && i < ni; i++) {
    const pa_type *t = c->types && i < c->ntypes ? c->types[i] : NULL;
    if (t && t->kind == PA_TY_TILE_BUF) {
      p->has_fp = true;
      p->fp = pt_bind_tile(b, io(b, op, "ins", i));
    } else {
      p->has_quant_scalar = true;
      p->quant_scalar = (uint64_t)pt_bind_int(b, io(b, op, "ins", i));
    }
  }
  return 0;
}

/* The tmov family: operands (bind_indexed, bind_mov), then outs(%dst) {accToVecMode, reluPreMode}. */
int bind_ptosim_tmov_params(pt_bind *b, const pa_op *op, ptosim_tmov_params *p) {
  int indexed = has_flag(b, OPF_INDEXED), fp_form = has_flag(b, OPF_FP);
  if (indexed && !fp_form ? bind_indexed(b, op, p) : bind_mov(b, op, p, indexed, fp_form)) return -1;
  p->dst = pt_bind_tile(b, io(b, op, "outs", 0));
  static const char *const a2v[] = {"single_mode_vec0", "single_mode_vec1", "dual_mode_split_m", "dual_mode_split_n"};
  int m = enum_attr(b, op, "accToVecMode", a2v, 4, 0), r = enum_attr(b, op, "reluPreMode", relu_words, 3, 0);
  p->acc_to_vec = m > 0 ? (ptosim_acc_to_vec_mode)m : PTOSIM_A2V_SINGLE_VEC0;
  p->relu = r > 0 ? (ptosim_relu_mode)r : PTOSIM_RELU_NONE;
  return 0;
}

/* ---- mode configuration (src/isa/tile_mode.c) ---------------------------------------------- */

/* pto.settf32mode / pto.sethf32mode {enable = true | false, mode = #pto<round_mode ROUND | RINT>}
 * (pto-isa settf32mode.md / sethf32mode.md; mode defaults to CAST_ROUND, as SETTF32MODE's
 * template argument does). */
int bind_ptosim_tmode_params(pt_bind *b, const pa_op *op, ptosim_tmode_params *p) {
  if (expect_io(b, op, 0, 0)) return -1;
  const pa_item *en = attr_value(op, "enable");
  if (!en || !(pa_item_is_word(en, "true") || pa_item_is_word(en, "false")))
    return pt_bind_error(b, en, "bind.attr", "write {enable = true} or {enable = false}", "expects enable = true | false");
  p->enable = pa_item_is_word(en, "true");
  static const char *const modes[] = {[PTOSIM_TMODE_ROUND] = "ROUND", [PTOSIM_TMODE_RINT] = "RINT"};
  int m = enum_attr(b, op, "mode", modes, 2, PTOSIM_TMODE_ROUND);
  p->mode = (ptosim_tmode_round)m;
  return m < 0 ? -1 : 0;
}

/* ---- interleaving (src/isa/tile_irregular.c) ------------------------------------------------ */

/* pto.tinterleave ins(%src0, %src1 : T, T) outs(%dst0, %dst1 : T, T); pto.tdeinterleave the
 * same or ins(%src : T) (pto-isa TINTERLEAVE.md / TDEINTERLEAVE.md, AS Level 2). */
int bind_ptosim_tinterleave_params(pt_bind *b, const pa_op *op, ptosim_tinterleave_params *p) {
  p->single = b->opc == PTOSIM_OP_tdeinterleave && io_count(op, "ins") == 1;
  if (expect_io(b, op, p->single ? 1 : 2, 2)) return -1;
  p->src0 = pt_bind_tile(b, io(b, op, "ins", 0));
  if (!p->single) p->src1 = pt_bind_tile(b, io(b, op, "ins", 1));
  p->dst0 = pt_bind_tile(b, io(b, op, "outs", 0));
  p->dst1 = pt_bind_tile(b, io(b, op, "outs", 1));
  return 0;
}
