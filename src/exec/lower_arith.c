/* Lowering of the arith dialect: constants, binary ops, compares, select, casts. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "asm/asm.h"
#include "asm/diag_print.h"
#include "core/dtype.h"
#include "exec/lower_impl.h"
#include "exec/tiles.h"
#include "isa/isa.h"

/* ---- arith -------------------------------------------------------------------------------- */

static const named_sub binops[] = {
    {"arith.addi", PT_B_ADD},         {"arith.subi", PT_B_SUB},         {"arith.muli", PT_B_MUL},
    {"arith.divsi", PT_B_DIVS},       {"arith.divui", PT_B_DIVU},       {"arith.remsi", PT_B_REMS},
    {"arith.remui", PT_B_REMU},       {"arith.andi", PT_B_AND},         {"arith.ori", PT_B_OR},
    {"arith.xori", PT_B_XOR},         {"arith.shli", PT_B_SHL},         {"arith.shrsi", PT_B_SHRS},
    {"arith.shrui", PT_B_SHRU},       {"arith.maxsi", PT_B_MAXS},       {"arith.minsi", PT_B_MINS},
    {"arith.maxui", PT_B_MAXU},       {"arith.minui", PT_B_MINU},       {"arith.ceildivsi", PT_B_CEILDIVS},
    {"arith.floordivsi", PT_B_FLOORDIVS}, {"arith.ceildivui", PT_B_CEILDIVU}, {"arith.addf", PT_B_ADDF},
    {"arith.subf", PT_B_SUBF},        {"arith.mulf", PT_B_MULF},        {"arith.divf", PT_B_DIVF},
    {"arith.maximumf", PT_B_MAXF},    {"arith.maxnumf", PT_B_MAXF},     {"arith.maxf", PT_B_MAXF},
    {"arith.minimumf", PT_B_MINF},    {"arith.minnumf", PT_B_MINF},     {"arith.minf", PT_B_MINF},
    {"arith.remf", PT_B_REMF}};

static const named_sub casts[] = {
    {"arith.index_cast", 0}, {"arith.index_castui", 1}, {"arith.extsi", 0}, {"arith.extui", 1}, {"arith.trunci", 0},
    {"arith.sitofp", 2},     {"arith.uitofp", 3},       {"arith.fptosi", 4}, {"arith.fptoui", 5}, {"arith.extf", 6},
    {"arith.truncf", 6},     {"arith.bitcast", 7},      {"llvm.bitcast", 7}};

int pt_lw_find_sub(const named_sub *t, size_t n, pa_str name) {
  for (size_t i = 0; i < n; i++)
    if (pa_str_is(name, t[i].name)) return t[i].sub;
  return -1;
}

static const char *const cmpi_preds[] = {"eq", "ne", "slt", "sle", "sgt", "sge", "ult", "ule", "ugt", "uge"};
static const char *const cmpf_preds[] = {"false", "oeq", "ogt", "oge", "olt", "ole", "one", "ord",
                                         "ueq",   "ugt", "uge", "ult", "ule", "une", "uno", "true"};

static int word_index(const pa_item *it, const char *const *w, int n) {
  for (int i = 0; it && i < n; i++)
    if (pa_item_is_word(it, w[i])) return i;
  return -1;
}

/* Whether literal `it` fits element type e: an integer within iN's range (signless: either
 * reading, -2^(N-1) .. 2^N - 1, as MLIR parses them), a float or integer for a float type. */
static int dense_leaf_fits(const pa_item *it, const pa_type *e) {
  if (e->kind == PA_TY_FLOAT) return it->kind == PA_IT_FLOAT || it->kind == PA_IT_INT;
  if (it->kind != PA_IT_INT) return 0;
  if (e->width >= 64) return 1;
  int64_t hi = (int64_t)((e->sign == PA_SIGNED ? 1ull << (e->width - 1) : 1ull << e->width) - 1);
  int64_t lo = e->sign == PA_UNSIGNED ? 0 : -(int64_t)(1ull << (e->width - 1));
  return it->v.i >= lo && it->v.i <= hi;
}

/* Whether the nested lists of `it` from dimension d on have the vector's shape, every leaf
 * fitting the element type. */
static int dense_fits(const pa_item *it, const pa_type *t, int32_t d) {
  if (d == t->rank) return it->kind != PA_IT_LIST && dense_leaf_fits(it, t->elem);
  if (it->kind != PA_IT_LIST || it->nargs != (uint64_t)t->dims[d]) return 0;
  for (uint32_t i = 0; i < it->nargs; i++)
    if (!dense_fits(&it->args[i], t, d + 1)) return 0;
  return 1;
}

/* %v = arith.constant dense<[a, b, ...]> | dense<s> : vector<N x T> (MLIR DenseElementsAttr: one
 * literal per element, nested by dimension, or one splat literal). No ptosim op reads the
 * elements of a vector value: the one that takes one, tmrgsort format 2, writes its executed
 * operand (pto-isa TMrgSort.hpp fills MrgSortExecutedNumList from VMS4_SR) and never reads it.
 * So the literal is checked against the type and the value is kept opaque (PT_VK_OTHER). */
static int lower_dense(pt_lower *L, const pa_op *op, const pa_item *v) {
  const pa_type *t = pt_lower_result_type(op, 0);
  int ok = t && t->kind == PA_TY_VECTOR && t->rank >= 1 && t->elem &&
           (t->elem->kind == PA_TY_INT || t->elem->kind == PA_TY_FLOAT) && v->nargs == 1;
  for (int32_t d = 0; ok && d < t->rank; d++) ok = t->dims[d] > 0;
  if (ok && v->args[0].kind != PA_IT_LIST) ok = dense_leaf_fits(&v->args[0], t->elem); /* a splat */
  else if (ok) ok = dense_fits(&v->args[0], t, 0);
  if (!ok)
    return errorf(L, op->loc, "ir.dense", "write dense<[one literal per element]> or dense<one literal> : vector<N x T>",
                  "arith.constant dense<...> does not fit its vector type");
  pt_slot_type rt = {.kind = PT_VK_OTHER};
  pt_lower_define_results(L, op, &rt, 1);
  return 0;
}

int pt_lower_arith(pt_lower *L, const pa_op *op) {
  pt_slot_type rt = pt_slot_type_of(pt_lower_result_type(op, 0));
  if (pa_str_is(op->name, "arith.constant")) {
    const pa_item *v = op->nitems ? &op->items[0] : NULL;
    if (v && v->kind == PA_IT_ANGLE && pa_str_is(v->name, "dense")) return lower_dense(L, op, v);
    pt_ins c = {.code = PT_C_CONST, .src = op};
    if (v && v->kind == PA_IT_INT) c.imm.i = v->v.i;
    else if (v && v->kind == PA_IT_FLOAT) c.imm.f = v->v.f;
    else if (v && (pa_item_is_word(v, "true") || pa_item_is_word(v, "false"))) {
      c.imm.i = pa_item_is_word(v, "true");
      rt = (pt_slot_type){.kind = PT_VK_INT, .bits = 1};
    } else
      return errorf(L, op->loc, "op.unsupported", "use a scalar integer or float constant",
                    "not supported yet: arith.constant of this form");
    if (rt.kind == PT_VK_FLOAT && v->kind == PA_IT_INT) c.imm.f = (double)v->v.i;
    if (rt.kind == PT_VK_OTHER) rt = pt_lw_i64_type();
    c.dst = pt_lower_define_results(L, op, &rt, 1);
    pt_lower_emit(L, c);
    return 0;
  }
  int sub = pt_lw_find_sub(binops, sizeof binops / sizeof binops[0], op->name);
  if (sub >= 0) {
    pt_ins b = {.code = PT_C_BIN, .sub = (uint8_t)sub, .src = op};
    b.a = pt_lower_operand(L, pt_operand_item(op, 0));
    b.b = pt_lower_operand(L, pt_operand_item(op, 1));
    if (b.a < 0 || b.b < 0) return -1;
    if (rt.kind == PT_VK_OTHER) rt = L->p->slots[b.a];
    if (pt_lw_expect_class(L, op, pt_operand_item(op, 0), b.a, sub < PT_B_ADDF) ||
        pt_lw_expect_type(L, pt_operand_item(op, 0), b.a, rt, "operand") || pt_lw_expect_type(L, pt_operand_item(op, 1), b.b, rt, "operand"))
      return -1;
    b.bits = rt.bits;
    b.flags = rt.is_unsigned;
    b.dst = pt_lower_define_results(L, op, &rt, 1);
    pt_lower_emit(L, b);
    return 0;
  }
  int is_cmpi = pa_str_is(op->name, "arith.cmpi"), is_cmpf = pa_str_is(op->name, "arith.cmpf");
  if (is_cmpi || is_cmpf) {
    int pred = word_index(op->nitems ? &op->items[0] : NULL, is_cmpi ? cmpi_preds : cmpf_preds, is_cmpi ? 10 : 16);
    if (pred < 0) return errorf(L, op->loc, "ir.predicate", "use an arith comparison predicate such as slt", "unknown predicate");
    pt_ins c = {.code = (uint8_t)(is_cmpi ? PT_C_CMPI : PT_C_CMPF), .sub = (uint8_t)pred, .src = op};
    c.a = pt_lower_operand(L, pt_operand_item(op, 0));
    c.b = pt_lower_operand(L, pt_operand_item(op, 1));
    if (c.a < 0 || c.b < 0) return -1;
    if (pt_lw_expect_class(L, op, pt_operand_item(op, 0), c.a, is_cmpi) ||
        pt_lw_expect_type(L, pt_operand_item(op, 1), c.b, L->p->slots[c.a], "operand"))
      return -1;
    c.bits = L->p->slots[c.a].bits;
    pt_slot_type bt = {.kind = PT_VK_INT, .bits = 1};
    c.dst = pt_lower_define_results(L, op, &bt, 1);
    pt_lower_emit(L, c);
    return 0;
  }
  if (pa_str_is(op->name, "arith.select")) {
    pt_ins s = {.code = PT_C_SELECT, .src = op};
    s.a = pt_lower_operand(L, pt_operand_item(op, 0));
    s.b = pt_lower_operand(L, pt_operand_item(op, 1));
    s.c = pt_lower_operand(L, pt_operand_item(op, 2));
    if (s.a < 0 || s.b < 0 || s.c < 0) return -1;
    rt = L->p->slots[s.b];
    if (pt_lw_expect_type(L, pt_operand_item(op, 0), s.a, pt_lw_i1_type(), "condition") ||
        pt_lw_expect_type(L, pt_operand_item(op, 2), s.c, rt, "operand"))
      return -1;
    s.dst = pt_lower_define_results(L, op, &rt, 1);
    pt_lower_emit(L, s);
    return 0;
  }
  if (pa_str_is(op->name, "arith.negf")) {
    pt_ins s = {.code = PT_C_NEGF, .src = op};
    if ((s.a = pt_lower_operand(L, pt_operand_item(op, 0))) < 0) return -1;
    if (pt_lw_expect_class(L, op, pt_operand_item(op, 0), s.a, 0)) return -1;
    rt = L->p->slots[s.a];
    s.bits = rt.bits;
    s.dst = pt_lower_define_results(L, op, &rt, 1);
    pt_lower_emit(L, s);
    return 0;
  }
  if (pa_str_is(op->name, "builtin.unrealized_conversion_cast")) { /* %y = ... %x : T to U */
    /* PTOAS leaves it between integers of one width that differ in signedness only (i32 to
     * ui32): the bits are kept. Other pairs (memref to pointer, ...) have no ptosim model. */
    pt_ins c = {.code = PT_C_CAST, .sub = 0, .src = op};
    if ((c.a = pt_lower_operand(L, pt_operand_item(op, 0))) < 0) return -1;
    pt_slot_type st = L->p->slots[c.a];
    char g[32], w[32];
    if (st.kind != PT_VK_INT || rt.kind != PT_VK_INT || st.bits != rt.bits || st.is_index || rt.is_index)
      return errorf(L, op->loc, "op.unsupported", "ptosim models this cast between integers of one width (i32 to ui32)",
                    "not supported yet: builtin.unrealized_conversion_cast from %s to %s", pt_slot_type_name(st, g, sizeof g),
                    pt_slot_type_name(rt, w, sizeof w));
    c.bits = rt.bits;
    c.dst = pt_lower_define_results(L, op, &rt, 1);
    pt_lower_emit(L, c);
    return 0;
  }
  sub = pt_lw_find_sub(casts, sizeof casts / sizeof casts[0], op->name);
  if (sub >= 0) {
    pt_ins c = {.code = PT_C_CAST, .sub = (uint8_t)sub, .src = op};
    if ((c.a = pt_lower_operand(L, pt_operand_item(op, 0))) < 0) return -1;
    if (rt.kind == PT_VK_OTHER) return errorf(L, op->loc, "ir.type", "write `%x : T to U`", "cast without a result type");
    /* source and result classes: int -> int (index / ext / trunc), int -> float, float ->
     * int, float -> float; bitcast (arith, llvm) keeps the width of two scalar types */
    static const signed char from_int[8] = {1, 1, 1, 1, 0, 0, 0, -1}, to_int[8] = {1, 1, 0, 0, 1, 1, 0, -1};
    char g[32], w[32];
    pt_slot_type st = L->p->slots[c.a];
    int scalar = (st.kind == PT_VK_INT || st.kind == PT_VK_FLOAT) && (rt.kind == PT_VK_INT || rt.kind == PT_VK_FLOAT);
    int bad = from_int[sub] < 0 ? !scalar || st.bits != rt.bits
              : st.kind != PT_VK_OTHER && (st.kind != PT_VK_INT && st.kind != PT_VK_FLOAT ? 1
              : (st.kind == PT_VK_INT) != from_int[sub] || (rt.kind == PT_VK_INT) != to_int[sub]);
    if (bad)
      return errorf(L, op->loc, "ir.type", from_int[sub] < 0 ? "bitcast between scalar types of one width" : "pick the cast that matches the two types",
                    "%.*s cannot convert %s to %s", (int)op->name.n, op->name.s, pt_slot_type_name(st, g, sizeof g),
                    pt_slot_type_name(rt, w, sizeof w));
    if (from_int[sub] < 0 && st.kind == PT_VK_FLOAT && rt.kind == PT_VK_FLOAT && st.dt != rt.dt) {
      /* f16 <-> bf16: through the integer of the width (the interpreter's bitcast moves bits
       * only between an integer and a float) */
      pt_slot_type it = {.kind = PT_VK_INT, .bits = st.bits};
      pt_ins t = c;
      t.bits = st.bits, t.flags = st.bits;
      if ((t.dst = pt_lw_new_slots(L, it, 1)) < 0) return -1;
      pt_lower_emit(L, t);
      c.a = t.dst;
    }
    c.bits = rt.bits;
    c.flags = L->p->slots[c.a].bits; /* source width */
    c.dst = pt_lower_define_results(L, op, &rt, 1);
    pt_lower_emit(L, c);
    return 0;
  }
  return errorf(L, op->loc, "op.unsupported", NULL, "not supported yet: %.*s", (int)op->name.n, op->name.s);
}
