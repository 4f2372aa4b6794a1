/* Binders of the tile reduce and expand ops (see bind.h for the two-mode contract). Syntax:
 * PTOAS include/PTO/IR/PTOOps.td and lib/PTO/IR/PTO.cpp, destination-passing style
 *   pto.trowsum ins(%src [, %tmp] : Ts [, Tt]) outs(%dst : Td)
 *   pto.tcolsum ins(%src [, %tmp {isBinary = true}] : ...) outs(%dst : Td) [{isBinary = ...}]
 *   pto.trowexpandmul ins(%src0, %src1 [, %tmp] : ...) outs(%dst : Td)
 * Whether an op takes a tmp tile is checked by its executor (rule <op>.tmp). */
#include "asm/asm.h"
#include "core/dtype.h"
#include "exec/bind_tile.h"
#include "exec/bind_tile_elem.h"
#include "exec/bind_tile_reduce.h"
#include "exec/lower.h"

static int arity(pt_bind *b, const pa_op *op, unsigned lo, unsigned hi) {
  unsigned ni = pt_tile_io_count(op, "ins"), no = pt_tile_io_count(op, "outs");
  if (ni >= lo && ni <= hi && no == 1) return 0;
  return pt_bind_error(b, NULL, "bind.arity", "see the op's ins(...) outs(...) operands in PTOOps.td",
                       "expects ins(%u to %u operands) outs(1), got ins(%u) outs(%u)", lo, hi, ni, no);
}

/* Attribute `key` in the {...} after an ins operand or after the op (NULL if absent). */
static const pa_item *attr(const pa_op *op, const char *key) {
  const pa_item *c = pa_op_clause(op, "ins"), *v = NULL;
  for (uint32_t i = 0; c && c->kind == PA_IT_CALL && i < c->nargs && !v; i++)
    if (c->args[i].attrs) v = pa_dict_get(c->args[i].attrs, key);
  for (uint32_t k = 0; k < op->nitems && !v; k++)
    if (op->items[k].kind == PA_IT_DICT) v = pa_dict_get(&op->items[k], key);
  return v;
}

static bool bool_attr(const pa_op *op, const char *key) {
  const pa_item *v = attr(op, key);
  return v && pa_item_is_word(v, "true");
}

/* An integer attribute (`1`, `1 : i32`); def when absent, else a bind.keyword error. */
static int64_t int_attr(pt_bind *b, const pa_op *op, const char *key, int64_t def) {
  const pa_item *v = attr(op, key);
  if (!v) return def;
  if (v->kind == PA_IT_INT) return v->v.i;
  pt_bind_error(b, v, "bind.keyword", "write an integer", "%s must be an integer", key);
  return def;
}

/* ins(%src [, %tmp]) outs(%dst) */
int bind_ptosim_treduce_params(pt_bind *b, const pa_op *op, ptosim_treduce_params *p) {
  if (arity(b, op, 1, 2)) return -1;
  p->src = pt_bind_tile(b, pt_tile_io(b, op, "ins", 0));
  p->has_tmp = pt_tile_io_count(op, "ins") == 2;
  if (p->has_tmp) p->tmp = pt_bind_tile(b, pt_tile_io(b, op, "ins", 1));
  p->dst = pt_bind_tile(b, pt_tile_io(b, op, "outs", 0));
  p->binary = bool_attr(op, "isBinary");
  return 0;
}

/* trowexpand / tcolexpand ins(%src0) outs(%dst); the binary forms and tpart* ins(%src0, %src1 [, %tmp]) outs(%dst) */
int bind_ptosim_texpand_params(pt_bind *b, const pa_op *op, ptosim_texpand_params *p) {
  int unary = b->opc == PTOSIM_OP_trowexpand || b->opc == PTOSIM_OP_tcolexpand;
  if (unary ? arity(b, op, 1, 1) : arity(b, op, 2, 3)) return -1;
  unsigned ni = pt_tile_io_count(op, "ins");
  p->src0 = pt_bind_tile(b, pt_tile_io(b, op, "ins", 0));
  if (ni >= 2) p->src1 = pt_bind_tile(b, pt_tile_io(b, op, "ins", 1));
  p->has_tmp = ni == 3;
  if (p->has_tmp) p->tmp = pt_bind_tile(b, pt_tile_io(b, op, "ins", 2));
  p->dst = pt_bind_tile(b, pt_tile_io(b, op, "outs", 0));
  return pt_bind_precision(b, op, p->has_tmp, &p->high_precision); /* the div forms' precisionType */
}

/* pto.tci ins(%start {descending = B} : iN) outs(%dst) */
int bind_ptosim_tci_params(pt_bind *b, const pa_op *op, ptosim_tci_params *p) {
  if (arity(b, op, 1, 2)) return -1;
  p->start = pt_bind_int(b, pt_tile_io(b, op, "ins", 0));
  p->has_tmp = pt_tile_io_count(op, "ins") == 2;
  if (p->has_tmp) p->tmp = pt_bind_tile(b, pt_tile_io(b, op, "ins", 1));
  p->dst = pt_bind_tile(b, pt_tile_io(b, op, "outs", 0));
  p->descending = bool_attr(op, "descending");
  return 0;
}

/* pto.ttri ins(%diagonal {upperOrLower = U} : iN) outs(%dst) */
int bind_ptosim_ttri_params(pt_bind *b, const pa_op *op, ptosim_ttri_params *p) {
  if (arity(b, op, 1, 1)) return -1;
  p->diagonal = pt_bind_int(b, pt_tile_io(b, op, "ins", 0));
  p->dst = pt_bind_tile(b, pt_tile_io(b, op, "outs", 0));
  p->upper = (int32_t)int_attr(b, op, "upperOrLower", 0);
  return 0;
}

/* %v = pto.tgetval ins(%src, %offset : T, index) outs : E. The tile's element type (static:
 * its declared type while lowering, the same dtype when running) says whether the result is
 * a float or an integer slot; the result's declared type E must agree (ir.type). */
int bind_ptosim_tgetval_params(pt_bind *b, const pa_op *op, ptosim_tgetval_params *p) {
  unsigned ni = pt_tile_io_count(op, "ins");
  if (ni != 2)
    return pt_bind_error(b, NULL, "bind.arity", "write ins(%src, %offset : T, index) outs : E",
                         "expects ins(2 operands), got %u", ni);
  const pa_item *src = pt_tile_io(b, op, "ins", 0);
  p->src = pt_bind_tile(b, src);
  p->offset = pt_bind_int(b, pt_tile_io(b, op, "ins", 1));
  const pa_type *t = pt_bind_value_type(b, src);
  bool fl = pt_bind_lowering(b) ? t && t->kind == PA_TY_TILE_BUF && t->tb.dtype && t->tb.dtype->kind == PA_TY_FLOAT
                                : pt_dtype_is_float(p->src.dtype);
  if (fl)
    p->fvalue = pt_bind_out_float(b, 0);
  else
    p->ivalue = pt_bind_out_int(b, 0);
  return 0;
}

/* pto.tsetval ins(%offset, %val : index, E) outs(%dst) */
int bind_ptosim_tsetval_params(pt_bind *b, const pa_op *op, ptosim_tsetval_params *p) {
  if (arity(b, op, 2, 2)) return -1;
  p->offset = pt_bind_int(b, pt_tile_io(b, op, "ins", 0));
  p->value = pt_bind_scalar(b, pt_tile_io(b, op, "ins", 1));
  p->dst = pt_bind_tile(b, pt_tile_io(b, op, "outs", 0));
  return 0;
}

/* The mask pattern of tgather / tscatter: `{maskPattern = #pto.mask_pattern<P0101>}` after the src
 * operand in ins, or `maskPattern = ...` / `{maskPattern = ...}` after outs (PTO.cpp TGatherOp::parse);
 * PTOSIM_MP_INDEX when absent. */
static int mask_pattern(pt_bind *b, const pa_op *op) {
  static const char *const names[] = {"", "P0101", "P1010", "P0001", "P0010", "P0100", "P1000", "P1111"};
  const pa_item *c = pa_op_clause(op, "ins"), *v = NULL;
  for (uint32_t i = 0; c && c->kind == PA_IT_CALL && i < c->nargs && !v; i++) /* `%src, {...}`: %src's attributes */
    v = c->args[i].kind == PA_IT_DICT ? pa_dict_get(&c->args[i], "maskPattern")
        : c->args[i].attrs         ? pa_dict_get(c->args[i].attrs, "maskPattern")
                                   : NULL;
  for (uint32_t k = 0; k < op->nitems && !v; k++) {
    const pa_item *it = &op->items[k];
    if (it->kind == PA_IT_DICT) v = pa_dict_get(it, "maskPattern");
    if (it->kind == PA_IT_ASSIGN && it->nargs == 2 && pa_item_is_word(&it->args[0], "maskPattern")) v = &it->args[1];
  }
  if (!v) return PTOSIM_MP_INDEX;
  const pa_item *w = v->kind == PA_IT_ATTR && v->nargs ? &v->args[v->nargs - 1] : v;
  for (int i = 1; i < 8; i++)
    if (pa_item_is_word(w, names[i])) return i;
  pt_bind_error(b, v, "bind.keyword", "write #pto.mask_pattern<P0101> (P0101 P1010 P0001 P0010 P0100 P1000 P1111)",
                "unknown maskPattern '%.*s'", (int)v->text.n, v->text.s);
  return -1;
}

/* The mask forms ins(%src, {maskPattern = ...} : T [, "row" | "col"]) outs(%dst): the axis is
 * the string after the types (PTO.cpp TGatherOp / TScatterOp::parse), row when absent. */
static int masked_form(pt_bind *b, const pa_op *op, ptosim_tile *src, ptosim_tile *dst, ptosim_mask_axis *axis) {
  if (arity(b, op, 1, 2)) return -1;
  const pa_item *a = pt_tile_io_count(op, "ins") == 2 ? &pa_op_clause(op, "ins")->args[1] : NULL;
  if (a && !(a->kind == PA_IT_STRING && (pa_str_is(a->name, "row") || pa_str_is(a->name, "col"))))
    return pt_bind_error(b, a, "bind.keyword", "write \"row\" or \"col\" after the src type",
                         "expected the mask axis \"row\" or \"col\", got '%.*s'", (int)a->text.n, a->text.s);
  *axis = a && pa_str_is(a->name, "col") ? PTOSIM_AXIS_COL : PTOSIM_AXIS_ROW;
  *src = pt_bind_tile(b, pt_tile_io(b, op, "ins", 0));
  *dst = pt_bind_tile(b, pt_tile_io(b, op, "outs", 0));
  return 0;
}

/* pto.tgather ins(%src, %indices [, %tmp]) outs(%dst) or the mask form (masked_form);
 * the compare form (kValue, cdst) is not supported yet. */
int bind_ptosim_tgather_params(pt_bind *b, const pa_op *op, ptosim_tgather_params *p) {
  int m = mask_pattern(b, op);
  if (m < 0) return -1;
  const pa_item *outs = pa_op_clause(op, "outs");
  if (outs && outs->kind == PA_IT_CALL && outs->nargs == 2)
    return pt_bind_error(b, outs, "op.unsupported", "use the index or mask-pattern form",
                         "not supported yet: the compare form of tgather (cdst, kValue)");
  p->pattern = (ptosim_mask_pattern)m;
  if (m != PTOSIM_MP_INDEX) return masked_form(b, op, &p->src, &p->dst, &p->axis);
  if (arity(b, op, 2, 3)) return -1;
  p->indices = pt_bind_tile(b, pt_tile_io(b, op, "ins", 1));
  p->has_tmp = pt_tile_io_count(op, "ins") == 3;
  if (p->has_tmp) p->tmp = pt_bind_tile(b, pt_tile_io(b, op, "ins", 2));
  p->src = pt_bind_tile(b, pt_tile_io(b, op, "ins", 0));
  p->dst = pt_bind_tile(b, pt_tile_io(b, op, "outs", 0));
  return 0;
}

/* ins(%a, %b) outs(%d), all tiles. */
static int two_in_one_out(pt_bind *b, const pa_op *op, ptosim_tile *a, ptosim_tile *bt, ptosim_tile *d) {
  if (arity(b, op, 2, 2)) return -1;
  *a = pt_bind_tile(b, pt_tile_io(b, op, "ins", 0));
  *bt = pt_bind_tile(b, pt_tile_io(b, op, "ins", 1));
  *d = pt_bind_tile(b, pt_tile_io(b, op, "outs", 0));
  return 0;
}

/* pto.tgatherb ins(%src, %offsets) outs(%dst); pto.tscatter ins(%src, %indexes) outs(%dst) or
 * its mask form (masked_form). */
int bind_ptosim_tindex_params(pt_bind *b, const pa_op *op, ptosim_tindex_params *p) {
  int m = b->opc == PTOSIM_OP_tscatter ? mask_pattern(b, op) : PTOSIM_MP_INDEX;
  if (m < 0) return -1;
  p->pattern = (ptosim_mask_pattern)m;
  if (m != PTOSIM_MP_INDEX && pt_tile_io_count(op, "ins") != 2) /* PTOAS TScatterOp::verify */
    return pt_bind_error(b, NULL, "bind.arity", "write the axis after the src type: ins(%src, {maskPattern = ...} : T, \"row\")",
                         "a mask-pattern tscatter needs the axis \"row\" or \"col\"");
  if (m != PTOSIM_MP_INDEX) return masked_form(b, op, &p->src, &p->dst, &p->axis);
  return two_in_one_out(b, op, &p->src, &p->index, &p->dst);
}

/* pto.tconcatidx ins(%src0, %src1, %idx0, %idx1) outs(%dst);
 * pto.tpartargmax / tpartargmin ins(%src0, %src1, %idx0, %idx1) outs(%dst, %dst_idx) (tonibohnlein PTOOps.td) */
int bind_ptosim_tconcatidx_params(pt_bind *b, const pa_op *op, ptosim_tconcatidx_params *p) {
  unsigned ni = pt_tile_io_count(op, "ins"), no = pt_tile_io_count(op, "outs");
  unsigned want = b->opc == PTOSIM_OP_tconcatidx ? 1 : 2;
  if (ni != 4 || no != want)
    return pt_bind_error(b, NULL, "bind.arity", "see the op's ins(...) outs(...) operands in PTOOps.td",
                         "expects ins(4 operands) outs(%u), got ins(%u) outs(%u)", want, ni, no);
  ptosim_tile *in[] = {&p->src0, &p->src1, &p->idx0, &p->idx1};
  for (unsigned i = 0; i < 4; i++) *in[i] = pt_bind_tile(b, pt_tile_io(b, op, "ins", i));
  p->dst = pt_bind_tile(b, pt_tile_io(b, op, "outs", 0));
  if (want == 2) p->dst_idx = pt_bind_tile(b, pt_tile_io(b, op, "outs", 1));
  return 0;
}

/* The `executed` operand of tmrgsort format 2 is declared vector<4xi16> (PTO.cpp TMrgSortOp). */
static bool is_executed_type(const pa_type *t) {
  return t && t->kind == PA_TY_VECTOR && t->rank == 1 && t->dims[0] == 4 && t->elem && t->elem->kind == PA_TY_INT &&
         t->elem->width == 16;
}

/* pto.tmrgsort, PTOAS's two forms (PTO.cpp TMrgSortOp::parse):
 *   format 1: ins(%src, %blockLen : T, iN) outs(%dst : T)
 *   format 2: ins(%src0, %src1 [, %src2 [, %src3]], %tmp {exhausted = B} : T...) outs(%dst, %executed : T, vector<4xi16>)
 *             or `%srcN no_tmp {exhausted = B}` instead of the tmp (PTOAS then allocates one; the merge
 *             itself needs no staging tile, so ptosim runs without it).
 * %executed is an SSA vector value that the emitted C++ passes by reference as its
 * MrgSortExecutedNumList; no op after can read the counts written there (SSA), so ptosim checks
 * its type and leaves it unwritten (the counts are available through the C API). */
int bind_ptosim_tmrgsort_params(pt_bind *b, const pa_op *op, ptosim_tmrgsort_params *p) {
  unsigned ni = pt_tile_io_count(op, "ins"), no = pt_tile_io_count(op, "outs");
  if (no == 1) {
    if (arity(b, op, 2, 2)) return -1;
    p->nsrc = 1;
    p->src[0] = pt_bind_tile(b, pt_tile_io(b, op, "ins", 0));
    p->block_len = pt_bind_int(b, pt_tile_io(b, op, "ins", 1));
    p->dst = pt_bind_tile(b, pt_tile_io(b, op, "outs", 0));
    return 0;
  }
  const pa_item *last = ni ? pt_tile_io(b, op, "ins", ni - 1) : NULL;
  p->no_tmp = last && pa_item_is_word(last, "no_tmp");
  p->nsrc = (int32_t)ni - 1; /* the tmp or the no_tmp marker is last */
  if (no != 2 || p->nsrc < 2 || p->nsrc > 4)
    return pt_bind_error(b, NULL, "bind.arity",
                         "format 1: ins(%src, %blockLen) outs(%dst); format 2: ins(2 to 4 srcs, %tmp or no_tmp) "
                         "outs(%dst, %executed)",
                         "tmrgsort got ins(%u) outs(%u)", ni, no);
  for (int i = 0; i < p->nsrc; i++) p->src[i] = pt_bind_tile(b, pt_tile_io(b, op, "ins", (unsigned)i));
  if (!p->no_tmp) p->tmp = pt_bind_tile(b, last);
  p->dst = pt_bind_tile(b, pt_tile_io(b, op, "outs", 0));
  const pa_item *c = pa_op_clause(op, "outs"), *ex = &c->args[1];
  if (pt_bind_lowering(b) && (ex->kind != PA_IT_VALUE || !(c->ntypes == 2 && is_executed_type(c->types[1]))))
    return pt_bind_error(b, ex, "bind.type", "pass a value declared vector<4xi16>",
                         "tmrgsort's executed operand is not a vector<4xi16> value");
  (void)pt_bind_type(b, ex); /* while lowering: reports an undefined value */
  p->exhausted = bool_attr(op, "exhausted");
  return 0;
}

/* pto.thistogram ins(%src, %idx) outs(%dst) {isMSB = true|false} (default true) */
int bind_ptosim_thistogram_params(pt_bind *b, const pa_op *op, ptosim_thistogram_params *p) {
  if (two_in_one_out(b, op, &p->src, &p->idx, &p->dst)) return -1;
  const pa_item *v = attr(op, "isMSB");
  p->is_msb = !v || pa_item_is_word(v, "true");
  return 0;
}

/* pto.tquant ins(%src, %fp [, %offset]) outs(%dst [, %tmp]) {quant_type = #pto<quant_type INT8_SYM | INT8_ASYM>};
 * pto.tdequant ins(%src, %scale, %offset) outs(%dst) */
int bind_ptosim_tquant_params(pt_bind *b, const pa_op *op, ptosim_tquant_params *p) {
  int deq = b->opc == PTOSIM_OP_tdequant;
  unsigned ni = pt_tile_io_count(op, "ins"), no = pt_tile_io_count(op, "outs");
  if (deq ? arity(b, op, 3, 3) : ni < 2 || ni > 3 || no < 1 || no > 2)
    return deq ? -1
               : pt_bind_error(b, NULL, "bind.arity", "write ins(%src, %fp [, %offset]) outs(%dst [, %tmp])",
                               "expects ins(2 to 3 operands) outs(1 or 2), got ins(%u) outs(%u)", ni, no);
  p->src = pt_bind_tile(b, pt_tile_io(b, op, "ins", 0));
  p->scale = pt_bind_tile(b, pt_tile_io(b, op, "ins", 1));
  if (ni == 3) p->offset = pt_bind_tile(b, pt_tile_io(b, op, "ins", 2));
  p->dst = pt_bind_tile(b, pt_tile_io(b, op, "outs", 0));
  p->has_tmp = no == 2;
  if (p->has_tmp) p->tmp = pt_bind_tile(b, pt_tile_io(b, op, "outs", 1));
  if (deq) return 0;
  const pa_item *v = attr(op, "quant_type");
  const pa_item *w = v && v->kind == PA_IT_ATTR && v->nargs ? &v->args[v->nargs - 1] : v;
  if (!w || !(pa_item_is_word(w, "INT8_SYM") || pa_item_is_word(w, "INT8_ASYM")))
    return pt_bind_error(b, v, "bind.keyword", "write {quant_type = #pto<quant_type INT8_SYM>} (or INT8_ASYM)",
                         "missing or unsupported quant_type");
  p->quant = pa_item_is_word(w, "INT8_ASYM") ? PTOSIM_QUANT_INT8_ASYM : PTOSIM_QUANT_INT8_SYM;
  if ((p->quant == PTOSIM_QUANT_INT8_ASYM) != (pt_tile_io_count(op, "ins") == 3))
    return pt_bind_error(b, NULL, "bind.arity", "INT8_ASYM takes the offset tile, INT8_SYM does not",
                         "quant_type and the offset operand disagree");
  return 0;
}

/* pto.tquant.mx ins(%src : T) outs(%dst, %exp, %max, %scaling [, %exp_zz] : ...) {quant_type =
 * #pto<quant_type MXFP8 | MXFP4_E2M1>, quantScaleAlg = #pto<quant_scale_alg ocp | nv> (ocp),
 * grpAxis = #pto<mx_group_axis axis0 | axis1> (axis1), interleave = true | false (false),
 * storeMode = #pto<vec_store_mode ..> (with exp_zz)} */
int bind_ptosim_tquant_mx_params(pt_bind *b, const pa_op *op, ptosim_tquant_mx_params *p) {
  static const char *const quant[] = {NULL, NULL, "MXFP8", "MXFP4_E2M1"}, *const alg[] = {"ocp", "nv"},
                           *const axis[] = {"axis0", "axis1"};
  unsigned no = pt_tile_io_count(op, "outs");
  if (pt_tile_io_count(op, "ins") != 1 || (no != 4 && no != 5))
    return pt_bind_error(b, NULL, "bind.arity", "pto.tquant.mx ins(%src) outs(%dst, %exp, %max, %scaling [, %exp_zz])",
                         "expects ins(1 operand) outs(4 or 5)");
  p->src = pt_bind_tile(b, pt_tile_io(b, op, "ins", 0));
  ptosim_tile *out[] = {&p->dst, &p->exp, &p->max, &p->scaling, &p->exp_zz};
  for (unsigned i = 0; i < no; i++) *out[i] = pt_bind_tile(b, pt_tile_io(b, op, "outs", i));
  p->has_exp_zz = no == 5;
  if ((attr(op, "storeMode") != NULL) != p->has_exp_zz)
    return pt_bind_error(b, NULL, "bind.attr", "write storeMode exactly when the exp_zz operand is given",
                         "storeMode and exp_zz disagree");
  int q = pt_tile_enum_attr(b, op, "quant_type", quant, 4, -1);
  if (q < 2)
    return q == -1 && !attr(op, "quant_type")
               ? pt_bind_error(b, NULL, "bind.attr", "write {quant_type = #pto<quant_type MXFP8>}", "missing quant_type")
               : -1;
  p->quant = (ptosim_quant_type)q;
  int a = pt_tile_enum_attr(b, op, "quantScaleAlg", alg, 2, 0), g = pt_tile_enum_attr(b, op, "grpAxis", axis, 2, 1);
  if (a < 0 || g < 0) return -1;
  p->alg = (ptosim_mx_scale_alg)a;
  p->grp_axis = g;
  p->interleave = bool_attr(op, "interleave");
  return 0;
}

/* pto.trandom ins(%k0, %k1, %c0, %c1, %c2, %c3 {rounds = R} : iN x 6) outs(%dst) (rounds default 10) */
int bind_ptosim_trandom_params(pt_bind *b, const pa_op *op, ptosim_trandom_params *p) {
  if (arity(b, op, 6, 6)) return -1;
  for (unsigned i = 0; i < 2; i++) p->key[i] = (uint32_t)pt_bind_int(b, pt_tile_io(b, op, "ins", i));
  for (unsigned i = 0; i < 4; i++) p->counter[i] = (uint32_t)pt_bind_int(b, pt_tile_io(b, op, "ins", 2 + i));
  p->dst = pt_bind_tile(b, pt_tile_io(b, op, "outs", 0));
  p->rounds = (int32_t)int_attr(b, op, "rounds", 10);
  return 0;
}

/* pto.tprint ins(%src [, %tmp] : T [, !pto.partition_tensor_view<..>]) {printFormat = N : i32 |
 * #pto<print_format widthW_precisionP>}: tiles (GM views are not supported yet). The format
 * (0..2) is checked; ptosim prints in its own fixed format (tile_reduce.h). */
int bind_ptosim_tprint_params(pt_bind *b, const pa_op *op, ptosim_tprint_params *p) {
  static const char *const formats[] = {"width8_precision4", "width8_precision2", "width10_precision6"};
  unsigned ni = pt_tile_io_count(op, "ins");
  if (ni != 1 && ni != 2)
    return pt_bind_error(b, NULL, "bind.arity", "write ins(%src [, %tmp] : T [, view type])", "expects ins(1 or 2 operands)");
  const pa_item *it = pt_tile_io(b, op, "ins", 0);
  const pa_type *t = pt_bind_value_type(b, it);
  if (t && t->kind != PA_TY_TILE_BUF)
    return pt_bind_error(b, it, "op.unsupported", "print a tile (tload the view first)",
                         "not supported yet: tprint of a tensor view");
  p->src = pt_bind_tile(b, it);
  p->has_tmp = ni == 2;
  if (p->has_tmp) p->tmp = pt_bind_view(b, pt_tile_io(b, op, "ins", 1), &p->src);
  const pa_item *f = attr(op, "printFormat");
  if (f && f->kind == PA_IT_INT ? f->v.i < 0 || f->v.i > 2 : pt_tile_enum_attr(b, op, "printFormat", formats, 3, 0) < 0)
    return pt_bind_error(b, f, "bind.keyword", "printFormat is 0, 1 or 2 (#pto<print_format width8_precision4>, ...)",
                         "unsupported printFormat");
  return 0;
}
