/* Lowering of structured control flow (scf.for / if / while / yield / condition) and of
 * func.call / return (callees are inlined). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "asm/asm.h"
#include "asm/diag_print.h"
#include "core/dtype.h"
#include "exec/bind_tile_pipe.h"
#include "exec/lower_impl.h"
#include "exec/tiles.h"
#include "isa/isa.h"

/* ---- scf ---------------------------------------------------------------------------------- */


/* Number of values an op's results name (%r:2 counts 2). */
static int result_count(const pa_op *op) {
  int n = 0;
  for (uint32_t r = 0; r < op->nresults; r++) n += (int)op->results[r].count;
  return n;
}

/* n consecutive slots of the given types; returns the first. */
static int32_t typed_slots(pt_lower *L, const pt_slot_type *types, int n) {
  int32_t first = n ? pt_lw_new_slots(L, types[0], 1) : pt_lw_new_slots(L, pt_lw_i64_type(), 0);
  for (int i = 1; i < n && first >= 0; i++)
    if (pt_lw_new_slots(L, types[i], 1) < 0) return -1; /* consecutive: nothing else allocates in between */
  return first;
}

/* Name the op's results after the consecutive slots first, first + 1, ... */
static void name_results(pt_lower *L, const pa_op *op, int32_t first) {
  int32_t k = 0;
  for (uint32_t r = 0; r < op->nresults; k += (int32_t)op->results[r++].count)
    pt_lw_define(L, op->results[r].name, first + k, (int32_t)op->results[r].count);
}

/* An op that names its results names `want` values: "OP defines N results but HAS want WHAT". */
static int check_named(pt_lower *L, const pa_op *op, int want, const char *has, const char *what, const char *hint) {
  int n = result_count(op);
  if (!n || n == want) return 0;
  return errorf(L, op->loc, "ir.result_count", hint, "%.*s defines %d results but %s %d %s", (int)op->name.n, op->name.s, n,
                has, want, what);
}

/* Has the region an op `name` (its terminator; lower_in_region reports one that is not last)? */
static int has_op(const pa_region *r, const char *name) {
  for (uint32_t b = 0; b < r->nblocks; b++)
    for (uint32_t i = 0; i < r->blocks[b].nops; i++)
      if (pa_str_is(r->blocks[b].ops[i].name, name)) return 1;
  return 0;
}

/* Lower a region of an scf op whose scf.yield sends its values to `ys` (ny of them); a
 * region that gives values must have that scf.yield. */
static int lower_region_yield(pt_lower *L, const pa_op *op, const pa_region *r, const int32_t *args, int nargs,
                              const int32_t *ys, int ny) {
  int rc = pt_lower_ops(L, r, args, nargs, R_YIELD, ys, ny);
  if (ny && !has_op(r, "scf.yield"))
    rc = errorf(L, r->loc, "ir.yield", "end the region with scf.yield of one value per result",
                "%.*s region without scf.yield of %d values", (int)op->name.n, op->name.s, ny);
  return rc;
}

/* Slot of an operand; when it fails (reported), a placeholder of the declared type, so
 * the regions of the op are still checked. */
static int32_t operand_or_stub(pt_lower *L, const pa_item *it, const pa_type *declared, int *rc) {
  int32_t s = pt_lower_operand(L, it);
  if (s >= 0) return s;
  *rc = -1;
  return pt_lw_new_slots(L, pt_lw_placeholder_type(declared), 1);
}

int pt_lower_for(pt_lower *L, const pa_op *op) {
  /* %r... = scf.for %i = %lb to %ub step %s [iter_args(%x = %init, ...) -> (T, ...)] { body } */
  const pa_item *it = op->items, *iv = op->nitems ? &it[0] : NULL;
  const pa_item *ia = op->nitems == 6 && it[5].kind == PA_IT_CALL && pa_str_is(it[5].name, "iter_args") ? &it[5] : NULL;
  if (op->nitems < 5 || (op->nitems > 5 && !ia) || iv->kind != PA_IT_ASSIGN || iv->nargs != 2 ||
      iv->args[0].kind != PA_IT_VALUE || !pa_item_is_word(&it[1], "to") || !pt_is_operand(&it[2]) ||
      !pa_item_is_word(&it[3], "step") || !pt_is_operand(&it[4]) || op->nregions != 1)
    return errorf(L, op->loc, "ir.syntax", "write scf.for %i = %lb to %ub step %s { ... }", "malformed scf.for");
  int n = ia ? (int)ia->nargs : 0, rc = 0;
  if (n > 64) return errorf(L, op->loc, "ir.limit", NULL, "too many iter_args");
  for (int i = 0; i < n; i++)
    if (ia->args[i].kind != PA_IT_ASSIGN || ia->args[i].nargs != 2 || ia->args[i].args[0].kind != PA_IT_VALUE)
      return errorf(L, ia->args[i].loc, "ir.syntax", "write %x = %init", "malformed iter_args");
  if ((int)op->nrtypes != n)
    rc = errorf(L, op->loc, "ir.result_count", "give one result type per iter_args value: -> (T, ...)",
                "scf.for carries %d values but has %u result types", n, op->nrtypes);
  rc |= check_named(L, op, n, "carries", "values", "carry one iter_args value per result");
  int32_t lb = operand_or_stub(L, &iv->args[1], NULL, &rc), ub = operand_or_stub(L, &it[2], NULL, &rc);
  int32_t st = operand_or_stub(L, &it[4], NULL, &rc);
  if (pt_lw_expect_class(L, op, &iv->args[1], lb, 1) || pt_lw_expect_type(L, &it[2], ub, L->p->slots[lb], "upper bound") ||
      pt_lw_expect_type(L, &it[4], st, L->p->slots[lb], "step"))
    rc = -1;
  int32_t iter[64] = {0}, init[64] = {0};
  pt_slot_type types[64] = {{0}};
  for (int i = 0; i < n; i++) {
    const pa_type *rt = i < (int)op->nrtypes ? op->rtypes[i] : NULL;
    pt_slot_type declared = pt_slot_type_of(rt);
    init[i] = operand_or_stub(L, &ia->args[i].args[1], rt, &rc);
    if (rt && pt_lw_expect_type(L, &ia->args[i].args[1], init[i], declared, "initial value")) rc = -1;
    types[i] = declared.kind != PT_VK_OTHER ? declared : L->p->slots[init[i]];
    iter[i] = pt_lw_new_slots(L, types[i], 1);
  }
  pt_lw_copy_slots(L, iter, init, n);
  int32_t ivs = pt_lw_new_slots(L, L->p->slots[lb], 1);
  int32_t head = pt_lower_emit(L, (pt_ins){.code = PT_C_FOR_INIT, .dst = ivs, .a = lb, .b = ub, .src = op});
  int saved = L->nnames;
  pt_lw_define(L, iv->args[0].name, ivs, 1);
  for (int i = 0; i < n; i++) pt_lw_define(L, ia->args[i].args[0].name, iter[i], 1);
  int32_t body = pt_lw_here(L);
  rc |= lower_region_yield(L, op, &op->regions[0], NULL, 0, iter, n);
  pt_lw_pop_names(L, saved);
  pt_lower_emit(L, (pt_ins){.code = PT_C_FOR_NEXT, .a = ivs, .b = ub, .c = st, .target = body, .src = op});
  L->p->code[head].target = pt_lw_here(L);
  if (rc || !op->nresults) return rc;
  int32_t out = typed_slots(L, types, n), outs[64];
  for (int i = 0; i < n; i++) outs[i] = out + i;
  pt_lw_copy_slots(L, outs, iter, n);
  name_results(L, op, out);
  return 0;
}

/* Slots of all value operands of an op (yield / condition / return / call lists). */
static int value_slots(pt_lower *L, const pa_op *op, unsigned from, int32_t *out, int max) {
  int n = 0;
  for (unsigned i = from;; i++) {
    const pa_item *it = pt_operand_item(op, i);
    if (!it) break;
    if (n == max) return errorf(L, op->loc, "ir.limit", NULL, "too many operands");
    if ((out[n++] = pt_lower_operand(L, it)) < 0) return -1;
  }
  return n;
}

int pt_lower_yield(pt_lower *L, const pa_op *op) {
  if (L->region != R_YIELD)
    return errorf(L, op->loc, "ir.syntax", "scf.yield ends the regions of scf.for, scf.if and the do region of scf.while",
                  "scf.yield outside an scf.for, scf.if or scf.while do region");
  int32_t v[64];
  int n = value_slots(L, op, 0, v, 64);
  if (n < 0) return -1;
  if (n != L->nyield)
    return errorf(L, op->loc, "ir.yield", "yield one value per result of the enclosing op", "scf.yield of %d values, %d expected",
                  n, L->nyield);
  if (pt_lw_expect_types(L, op, v, L->yield_slots, n, "yielded value")) return -1;
  pt_lw_copy_slots(L, L->yield_slots, v, n);
  return 0;
}

int pt_lower_if(pt_lower *L, const pa_op *op) {
  /* %r... = scf.if %c [-> (T, ...)] { ... } [else { ... }] */
  const pa_item *c = op->nitems && pt_is_operand(&op->items[0]) ? &op->items[0] : NULL;
  int has_else = op->nitems == 2 && pa_item_is_word(&op->items[1], "else");
  if (!op->nregions)
    return errorf(L, op->loc, "ir.syntax", "write scf.if %cond { ... } [else { ... }]", "scf.if without a region");
  if (!c || op->nregions != 1u + (uint32_t)has_else || op->nitems != op->nregions)
    return errorf(L, op->loc, "ir.syntax", "write scf.if %cond [-> (T, ...)] { ... } [else { ... }]", "malformed scf.if");
  int n = (int)op->nrtypes, rc = 0;
  if (n > 64) return errorf(L, op->loc, "ir.limit", NULL, "too many results");
  rc |= check_named(L, op, n, "has", "result types", "give one result type per result: -> (T, ...)");
  if (n && op->nregions < 2)
    rc = errorf(L, op->loc, "ir.yield", "add an else region that yields the results too",
                "scf.if with results needs an else region");
  int32_t cond = operand_or_stub(L, c, NULL, &rc), res[64];
  if (pt_lw_expect_type(L, c, cond, pt_lw_i1_type(), "condition")) rc = -1;
  pt_slot_type types[64] = {{0}};
  for (int i = 0; i < n; i++) types[i] = pt_slot_type_of(op->rtypes[i]);
  int32_t first = typed_slots(L, types, n);
  for (int i = 0; i < n; i++) res[i] = first + i;
  int32_t jz = pt_lower_emit(L, (pt_ins){.code = PT_C_JZ, .a = cond, .src = op});
  /* Both regions are lowered even when the first fails, so the errors of both are reported. */
  rc |= lower_region_yield(L, op, &op->regions[0], NULL, 0, res, n);
  if (op->nregions > 1) {
    int32_t jmp = pt_lower_emit(L, (pt_ins){.code = PT_C_JMP, .src = op});
    L->p->code[jz].target = pt_lw_here(L);
    rc |= lower_region_yield(L, op, &op->regions[1], NULL, 0, res, n);
    L->p->code[jmp].target = pt_lw_here(L);
  } else {
    L->p->code[jz].target = pt_lw_here(L);
  }
  if (rc) return -1;
  name_results(L, op, first);
  return 0;
}

/* %r... = scf.execute_region [-> (T, ...)] { ... scf.yield %v... }: the region runs once, in
 * place; its scf.yield gives the results. A region of several blocks (cf branches) is not
 * supported: the lowering has no unstructured control flow. */
int pt_lower_execute_region(pt_lower *L, const pa_op *op) {
  if (op->nregions != 1 || op->nitems)
    return errorf(L, op->loc, "ir.syntax", "write scf.execute_region [-> (T, ...)] { ... }", "malformed scf.execute_region");
  if (op->regions[0].nblocks > 1)
    return errorf(L, op->loc, "op.unsupported", "write the region as one block (scf.if for branches)",
                  "not supported yet: scf.execute_region of several blocks");
  int n = (int)op->nrtypes;
  if (n > 64) return errorf(L, op->loc, "ir.limit", NULL, "too many results");
  if (check_named(L, op, n, "has", "result types", "give one result type per result: -> (T, ...)")) return -1;
  pt_slot_type types[64] = {{0}};
  for (int i = 0; i < n; i++) types[i] = pt_slot_type_of(op->rtypes[i]);
  int32_t first = typed_slots(L, types, n), res[64];
  for (int i = 0; i < n; i++) res[i] = first + i;
  if (lower_region_yield(L, op, &op->regions[0], NULL, 0, res, n)) return -1;
  name_results(L, op, first);
  return 0;
}

int pt_lower_condition(pt_lower *L, const pa_op *op) {
  /* scf.condition(%c) %v... : leave with %v as results when %c is false, else pass %v to
   * the after region. */
  const pa_item *c = op->nitems && op->items[0].kind == PA_IT_CALL ? &op->items[0] : NULL;
  if (!c || c->nargs != 1)
    return errorf(L, op->loc, "ir.syntax", "write scf.condition(%c) %v, ... : T, ...", "malformed scf.condition");
  if (L->region != R_COND)
    return errorf(L, op->loc, "ir.syntax", "scf.condition ends the before region of scf.while",
                  "scf.condition outside the before region of scf.while");
  int32_t cond = pt_lower_operand(L, &c->args[0]);
  int32_t v[64];
  int n = value_slots(L, op, 0, v, 64);
  if (cond < 0 || n < 0) return -1;
  if (n != L->nyield)
    return errorf(L, op->loc, "ir.yield", "pass one value per result of scf.while", "scf.condition of %d values, %d expected", n,
                  L->nyield);
  if (pt_lw_expect_type(L, &c->args[0], cond, pt_lw_i1_type(), "condition") | pt_lw_expect_types(L, op, v, L->cond_results, n, "value"))
    return -1;
  int32_t jz = pt_lower_emit(L, (pt_ins){.code = PT_C_JZ, .a = cond, .src = op});
  pt_lw_copy_slots(L, L->cond_after, v, n);
  int32_t skip = pt_lower_emit(L, (pt_ins){.code = PT_C_JMP, .src = op});
  L->p->code[jz].target = pt_lw_here(L);
  pt_lw_copy_slots(L, L->cond_results, v, n);
  L->cond_exit = pt_lower_emit(L, (pt_ins){.code = PT_C_JMP, .src = op});
  L->p->code[skip].target = pt_lw_here(L);
  return 0;
}

int pt_lower_while(pt_lower *L, const pa_op *op) {
  /* %r... = scf.while (%x = %init, ...) : (T, ...) -> (U, ...) { ... scf.condition(%c) %u... }
   * do { ^bb0(%y: U, ...): ... scf.yield %t... } */
  const pa_item *ia = op->nitems == 2 ? &op->items[0] : NULL;
  const pa_type *ft = pt_lw_last_type(op);
  if (op->nregions != 2) return errorf(L, op->loc, "ir.syntax", NULL, "scf.while needs two regions");
  if (!op->nitems || op->nitems > 2 || !pa_item_is_word(&op->items[op->nitems - 1], "do") ||
      (ia && (ia->kind != PA_IT_CALL || ia->name.n)) || !ft || ft->kind != PA_TY_FUNC)
    return errorf(L, op->loc, "ir.syntax", "write scf.while (%x = %init, ...) : (T, ...) -> (U, ...) { ... } do { ... }",
                  "malformed scf.while");
  int nb = ia ? (int)ia->nargs : 0, na = (int)ft->nout, rc = 0;
  if (nb > 64 || na > 64) return errorf(L, op->loc, "ir.limit", NULL, "too many loop values");
  for (int i = 0; i < nb; i++)
    if (ia->args[i].kind != PA_IT_ASSIGN || ia->args[i].nargs != 2 || ia->args[i].args[0].kind != PA_IT_VALUE)
      return errorf(L, ia->args[i].loc, "ir.syntax", "write scf.while (%x = %init, ...)",
                    "scf.while argument without an initial value");
  if ((uint32_t)nb != ft->nin)
    rc = errorf(L, op->loc, "ir.result_count", "give one input type per argument: (T, ...) -> (U, ...)",
                "scf.while has %d arguments but %u input types", nb, ft->nin);
  rc |= check_named(L, op, na, "has", "result types", "give one result type per result: (T, ...) -> (U, ...)");
  const pa_block *entry = op->regions[1].nblocks ? &op->regions[1].blocks[0] : NULL;
  int nafter = entry ? (int)entry->nargs : 0; /* ^bb0(%y: U, ...) */
  if (nafter > 64) return errorf(L, op->loc, "ir.limit", NULL, "too many loop values");
  if (nafter != na)
    rc = errorf(L, op->regions[1].loc, "ir.result_count", "declare ^bb0(%y: U, ...) with one argument per result type",
                "the do region of scf.while has %d arguments but %d result types", nafter, na);
  int32_t before[64] = {0}, init[64] = {0}, after[64] = {0}, res[64];
  pt_slot_type types[64] = {{0}};
  for (int i = 0; i < nb; i++) {
    init[i] = operand_or_stub(L, &ia->args[i].args[1], i < (int)ft->nin ? ft->in[i] : NULL, &rc);
    before[i] = pt_lw_new_slots(L, L->p->slots[init[i]], 1);
  }
  for (int i = 0; i < na; i++) types[i] = pt_slot_type_of(ft->out[i]);
  for (int i = 0; i < (na > nafter ? na : nafter); i++) /* extra block arguments: placeholders */
    after[i] = pt_lw_new_slots(L, i < na ? types[i] : pt_slot_type_of(entry->args[i].type), 1);
  int32_t first = typed_slots(L, types, na);
  for (int i = 0; i < na; i++) res[i] = first + i;
  pt_lw_copy_slots(L, before, init, nb);
  int32_t top = pt_lw_here(L);
  int saved = L->nnames;
  for (int i = 0; i < nb; i++) pt_lw_define(L, ia->args[i].args[0].name, before[i], 1);
  const int32_t *scr = L->cond_results, *sca = L->cond_after;
  int32_t sce = L->cond_exit;
  L->cond_results = res;
  L->cond_after = after;
  L->cond_exit = -1;
  rc |= pt_lower_ops(L, &op->regions[0], NULL, 0, R_COND, NULL, na);
  int32_t exit_jmp = L->cond_exit;
  L->cond_results = scr;
  L->cond_after = sca;
  L->cond_exit = sce;
  pt_lw_pop_names(L, saved);
  if (!has_op(&op->regions[0], "scf.condition"))
    rc = errorf(L, op->loc, "ir.syntax", "end the before region with scf.condition(%c) %v, ...",
                "scf.while without scf.condition");
  /* The do region is lowered even when the before region failed. */
  rc |= lower_region_yield(L, op, &op->regions[1], after, nafter, before, nb);
  if (rc || exit_jmp < 0) return -1;
  pt_lower_emit(L, (pt_ins){.code = PT_C_JMP, .target = top, .src = op});
  L->p->code[exit_jmp].target = pt_lw_here(L);
  name_results(L, op, first);
  return 0;
}

/* ---- functions ------------------------------------------------------------------------- */


int pt_lower_call(pt_lower *L, const pa_op *op) {
  const pa_item *callee = op->nitems ? &op->items[0] : NULL;
  if (!callee || (callee->kind != PA_IT_SYMBOL && callee->kind != PA_IT_CALL))
    return errorf(L, op->loc, "ir.syntax", NULL, "malformed func.call");
  char name[256];
  snprintf(name, sizeof name, "%.*s", (int)callee->name.n, callee->name.s);
  const pa_op *fn = pa_find_func(L->p->ast, name);
  if (!fn) return errorf(L, op->loc, "ir.call", "define or declare the callee in this file", "call of undefined function @%s", name);
  /* Inlining a recursive call would never end (and calls that branch would inline an
   * exponential tree before any depth limit): refuse a callee already being lowered. */
  int recursive = L->fn == fn->func;
  for (const ret_ctx *r = L->ret; r && !recursive; r = r->outer) recursive = r->caller == fn->func;
  if (recursive) return errorf(L, op->loc, "ir.recursion", "kernels cannot recurse", "recursive call of @%s", name);
  if (L->depth > 32) return errorf(L, op->loc, "ir.limit", NULL, "call nesting deeper than 32");
  if (L->p->ncode > (1 << 22))
    return errorf(L, op->loc, "ir.limit", "call the function from fewer places", "over 4M instructions after inlining");
  int32_t args[64];
  const pa_item *argl = callee->kind == PA_IT_CALL ? callee : (op->nitems > 1 ? &op->items[1] : NULL);
  int n = argl ? (int)argl->nargs : 0, nr = (int)fn->func->nresults, rc = 0;
  if (n > 64 || nr > 64) return errorf(L, op->loc, "ir.limit", NULL, "too many call arguments or results");
  for (int i = 0; i < n; i++) {
    args[i] = operand_or_stub(L, &argl->args[i], i < (int)fn->func->nargs ? fn->func->args[i].type : NULL, &rc);
    if (i < (int)fn->func->nargs && pt_lw_expect_type(L, &argl->args[i], args[i], pt_slot_type_of(fn->func->args[i].type), "argument"))
      rc = -1;
  }
  if ((uint32_t)n != fn->func->nargs)
    return errorf(L, op->loc, "ir.call", NULL, "@%s takes %u arguments, %d given", name, fn->func->nargs, n);
  char returns[300];
  snprintf(returns, sizeof returns, "@%s returns", name);
  if (check_named(L, op, nr, returns, "values", "define one result per value the callee returns")) return -1;
  pt_slot_type types[64] = {{0}};
  for (int i = 0; i < nr; i++) types[i] = pt_slot_type_of(fn->func->results[i]);
  int32_t first = pt_lower_define_results(L, op, types, nr), res[64];
  if (fn->func->is_decl) { /* external (`func.func private @f(T)` only): checked, run stops there */
    pt_lower_emit(L, (pt_ins){.code = PT_C_EXTERN, .dst = -1, .src = op});
    return rc;
  }
  for (int i = 0; i < nr; i++) res[i] = first + i;
  ret_ctx ret = {.result_slots = res, .nresults = nr, .caller = L->fn, .outer = L->ret}, *saved_ret = L->ret;
  int saved_barrier = L->barrier, saved_names = L->nnames;
  L->ret = &ret;
  L->barrier = L->nnames;
  L->depth++;
  /* A callee of pto.kernel_kind cube / vector runs on those cores only, as a section
   * (the mixed kernels of PTOAS test/samples/TPushTPop call one of each). */
  const pa_item *kk = fn->attrs ? pa_dict_get(fn->attrs, "pto.kernel_kind") : NULL;
  int vec = kk && kk->kind == PA_IT_ATTR && pa_str_is(kk->body, "vector");
  int32_t sec = kk && kk->kind == PA_IT_ATTR && (vec || pa_str_is(kk->body, "cube"))
                    ? pt_lower_emit(L, (pt_ins){.code = PT_C_SECTION, .sub = (uint8_t)(vec ? 1 + pt_pipe_vector_guard(L, fn) : 0), .src = op})
                    : -1;
  int saved_section = L->section;
  if (sec >= 0) L->section = vec ? 2 : 1;
  rc |= pt_lower_body(L, fn, args);
  L->section = saved_section;
  L->depth--;
  L->ret = saved_ret;
  L->barrier = saved_barrier;
  pt_lw_pop_names(L, saved_names);
  for (int i = 0; i < ret.npatches; i++) L->p->code[ret.patches[i]].target = pt_lw_here(L);
  if (sec >= 0) L->p->code[sec].target = pt_lw_here(L);
  free(ret.patches);
  return rc;
}

int pt_lower_return(pt_lower *L, const pa_op *op) {
  int32_t v[64];
  int n = value_slots(L, op, 0, v, 64);
  if (n < 0) return -1;
  if (n != (int)L->fn->nresults)
    return errorf(L, op->loc, "ir.return", "return one value per result of the function", "return of %d values, %u expected", n,
                  L->fn->nresults);
  for (int i = 0; i < n; i++)
    if (pt_lw_expect_type(L, pt_operand_item(op, (unsigned)i), v[i], pt_slot_type_of(L->fn->results[i]), "returned value")) return -1;
  if (!L->ret) {
    pt_lower_emit(L, (pt_ins){.code = PT_C_RETURN, .src = op});
    return 0;
  }
  pt_lw_copy_slots(L, L->ret->result_slots, v, n);
  ret_ctx *rc = L->ret;
  int32_t *np = room(rc->patches, &rc->cap, rc->npatches + 1, sizeof *np);
  if (!np) return -1;
  rc->patches = np;
  rc->patches[rc->npatches++] = pt_lower_emit(L, (pt_ins){.code = PT_C_JMP, .src = op});
  return 0;
}
