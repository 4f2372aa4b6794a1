/* Lowering of pto ops: table ops through their binders, scalar loads and stores, pointer
 * casts, block queries, sections and vector scopes, and not-yet / unknown op reports. */
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

/* ---- pto ops ------------------------------------------------------------------------------- */

enum { Q_BLOCK_IDX, Q_BLOCK_NUM, Q_SUBBLOCK_IDX, Q_SUBBLOCK_NUM };

static const named_sub queries[] = {{"pto.get_block_idx", Q_BLOCK_IDX},
                                    {"pto.get_block_num", Q_BLOCK_NUM},
                                    {"pto.get_subblock_idx", Q_SUBBLOCK_IDX},
                                    {"pto.get_subblock_num", Q_SUBBLOCK_NUM}};

/* The value operands of op in syntax order, into v (at most max): with subscripts, clause
 * arguments and keyed clause arguments (`%p[%i]`, `nburst(%a, %b, %c)`, `pre_relu(clip = %c)`)
 * when `all`, else the top-level ones only. */
static int syntax_values(const pa_op *op, int all, const pa_item **v, int max) {
  int n = 0;
  for (uint32_t k = 0; k < op->nitems; k++) {
    const pa_item *it = &op->items[k];
    if (pt_is_operand(it) && n < max) v[n++] = it;
    if (!all || (it->kind != PA_IT_CALL && it->kind != PA_IT_VALUE)) continue;
    for (uint32_t j = 0; j < it->nargs; j++) {
      const pa_item *a = &it->args[j];
      if (a->kind == PA_IT_ASSIGN && a->nargs == 2) a = &a->args[1];
      if (pt_is_operand(a) && n < max) v[n++] = a;
    }
  }
  return n;
}

/* Operands v[0..n) against the types t[0..n) (MLIR verifies them). */
static int compare_types(pt_lower *L, const pa_item *const *v, const pa_type *const *t, int n) {
  int rc = 0;
  for (int i = 0; i < n; i++) {
    if (v[i]->kind != PA_IT_VALUE) continue;
    pa_item base = *v[i]; /* %p[%i]: the type of %p */
    base.nargs = 0;
    int32_t s = pt_lower_resolve(L, &base);
    if (s >= 0) rc |= pt_lw_expect_type(L, v[i], s, pt_slot_type_of(t[i]), "operand");
  }
  return rc;
}

/* The trailing `: T1, T2, ...` of a table op. The ops' formats name, in order: every top-level
 * operand, or every value operand (subscripts and clause arguments too), or only the leading
 * operands (vsunpack's source, the short DMA form's two pointers), or, for an op without
 * operands, its results; a functional type `(T, ...) -> (...)` (the `functional-type`
 * formats of the .td files) names the top-level operands. A list with clause words (`loop i64, i64, i64`) is the op's own format,
 * read by its binder. Each type is compared with the operand it names; a list that fits no
 * reading is an error. */
static int check_operand_types(pt_lower *L, const pa_op *op) {
  enum { MAX = 64 };
  const pa_item *top[MAX], *all[MAX];
  const pa_type *t[MAX];
  uint32_t n = op->ntypes;
  if (!n || n > MAX) return 0;
  for (uint32_t i = 0; i < n; i++) {
    if (op->types[i].kind != PA_IT_TYPE) return 0;
    t[i] = op->types[i].type;
  }
  int ntop = syntax_values(op, 0, top, MAX), nall = syntax_values(op, 1, all, MAX);
  if (n == 1 && t[0]->kind == PA_TY_FUNC) {
    if ((int)t[0]->nin == ntop) return compare_types(L, top, t[0]->in, ntop);
    n = t[0]->nin;
  } else if ((int)n == nall) {
    return compare_types(L, all, t, nall);
  } else if ((int)n <= ntop) {
    return compare_types(L, top, t, (int)n);
  } else if (!ntop && n == op->nresults) {
    return 0;
  }
  return errorf(L, op->loc, "ir.type", "write one type per operand, in operand order",
                "%.*s lists %u operand types, but has %d operands (%d with subscripts and clause arguments)",
                (int)op->name.n, op->name.s, n, ntop, nall);
}

static int lower_table_op(pt_lower *L, const pa_op *op, ptosim_opcode opc) {
  pt_bind b = {.lowering = 1, .L = L, .prog = L->p, .first = L->p->noperands, .res_slot = -1, .res_obj = -1};
  unsigned char params[PT_PARAMS_MAX];
  if (pt_op_params_size(opc) > sizeof params) return errorf(L, op->loc, "ir.limit", NULL, "params too large");
  memset(params, 0, sizeof params);
  if (pt_bind_op(&b, opc, op, params) || check_operand_types(L, op)) return -1;
  for (int32_t k = 0; k < b.count && !L->vec_depth && !L->helper_scope; k++) {
    int32_t slot = L->p->operands[b.first + k].slot;
    if (slot >= 0 && pt_wide_size(L->p->slots[slot].kind))
      return errorf(L, op->loc, "vec.scope", "put the op inside pto.vecscope { ... }",
                    "%.*s uses vector registers, predicates or align states outside a vector scope", (int)op->name.n, op->name.s);
  }
  pt_plan *plan = b.res_slot < 0 && b.res_obj < 0 ? pt_plan_build(L->p, opc, op, b.first, b.count) : NULL;
  if (pt_lower_emit(L, (pt_ins){.code = PT_C_PTO, .opc = opc, .op_first = b.first, .op_count = b.count, .src = op,
                       .dst = b.res_slot, .obj = b.res_obj, .plan = plan}) < 0)
    free(plan);
  return 0;
}

/* pto.load %p[%i] : !pto.ptr<T, s> -> T  /  pto.store %v, %p[%i] : !pto.ptr<T, s>, T; `dev`:
 * pto.ld_dev / pto.st_dev, the same access on a GM pointer to an i8..i64 (they bypass the
 * scalar data cache, which ptosim does not model; VPTO.cpp verifyLdStDevAccess). */
static int lower_mem(pt_lower *L, const pa_op *op, int store, int dev) {
  const pa_item *v = store ? pt_operand_item(op, 0) : NULL, *p = pt_operand_item(op, store ? 1 : 0);
  if (!p || p->kind != PA_IT_VALUE || p->nargs != 1 || (store && !v))
    return errorf(L, op->loc, "ir.syntax", "write %p[%index]", "malformed %.*s", (int)op->name.n, op->name.s);
  pt_ins m = {.code = (uint8_t)(store ? PT_C_STORE : PT_C_LOAD), .sub = (uint8_t)(L->vec_depth > 0), .src = op};
  m.b = pt_lower_resolve(L, p);
  m.c = pt_lower_operand(L, &p->args[0]);
  if (m.b < 0 || m.c < 0) return -1;
  if (dev && (L->p->slots[m.b].kind != PT_VK_PTR || L->p->slots[m.b].space != PTOSIM_GM))
    return errorf(L, p->loc, "ir.type", "ld_dev / st_dev access GM: use pto.load / pto.store for other memories",
                  "%.*s needs a GM pointer", (int)op->name.n, op->name.s);
  if (dev) { /* the pointer's element type is the value's (verifyVPTOScalarAccessTypes) */
    ptosim_dtype dt = L->p->slots[m.b].dt;
    unsigned bytes = pt_dtype_is_float(dt) ? 0 : pt_dtype_size(dt);
    if (bytes != 1 && bytes != 2 && bytes != 4 && bytes != 8)
      return errorf(L, op->loc, "ir.type", "ld_dev / st_dev move i8, i16, i32 or i64 values", "%.*s of a value that is not i8, i16, i32 or i64",
                    (int)op->name.n, op->name.s);
  }
  if (store) {
    if ((m.a = pt_lower_operand(L, v)) < 0) return -1;
  } else {
    pt_slot_type t = pt_slot_type_of(pt_lower_result_type(op, 0));
    if (t.kind != PT_VK_INT && t.kind != PT_VK_FLOAT) return errorf(L, op->loc, "ir.type", NULL, "pto.load needs a scalar result type");
    m.dst = pt_lower_define_results(L, op, &t, 1);
  }
  pt_lower_emit(L, m);
  return 0;
}

/* The enum operand k of a cache op, as a string ("ALL") or an attribute (#pto.dsb_mem<ALL>):
 * its index in names (count n), -1 when absent, -2 when not one of them. */
static int cache_enum(const pa_op *op, unsigned k, const char *const *names, int n) {
  unsigned seen = 0;
  for (uint32_t i = 0; i < op->nitems; i++) {
    const pa_item *it = &op->items[i];
    if ((it->kind != PA_IT_STRING && it->kind != PA_IT_ATTR) || seen++ != k) continue;
    pa_str w = it->kind == PA_IT_STRING ? it->name : it->body;
    for (int j = 0; j < n; j++)
      if (pa_str_is(w, names[j])) return j;
    return -2;
  }
  return -1;
}

/* pto.dsb "ALL" and pto.dcci %ptr "SINGLE_CACHE_LINE"[, "CACHELINE_OUT"] : !pto.ptr<T, gm|ub>:
 * checked, then nothing to run: ptosim's scalar accesses complete in program order and it
 * has no data cache (PTOAttrs.td DsbMem, DcciCacheLine, DcciDst). */
static int lower_cache_op(pt_lower *L, const pa_op *op) {
  static const char *const mem[] = {"ALL", "DDR", "UB", "SEQ"}, *const line[] = {"SINGLE_CACHE_LINE", "ENTIRE_DATA_CACHE"},
                           *const dst[] = {"CACHELINE_ALL", "CACHELINE_UB", "CACHELINE_OUT", "CACHELINE_ATOMIC"};
  if (pa_str_is(op->name, "pto.dsb")) {
    if (cache_enum(op, 0, mem, 4) < 0)
      return errorf(L, op->loc, "bind.keyword", "write \"ALL\", \"DDR\", \"UB\" or \"SEQ\"", "pto.dsb needs a memory domain");
    return 0;
  }
  const pa_item *p = pt_operand_item(op, 0);
  int32_t s = p ? pt_lower_operand(L, p) : -1;
  if (s < 0) return errorf(L, op->loc, "bind.arity", "write pto.dcci %ptr \"SINGLE_CACHE_LINE\"", "pto.dcci needs a pointer");
  ptosim_space sp = L->p->slots[s].space;
  if (L->p->slots[s].kind != PT_VK_PTR || (sp != PTOSIM_GM && sp != PTOSIM_UB))
    return errorf(L, p->loc, "ir.type", "pass a GM or UB pointer", "pto.dcci needs a GM or UB pointer");
  if (cache_enum(op, 0, line, 2) < 0 || cache_enum(op, 1, dst, 4) == -2)
    return errorf(L, op->loc, "bind.keyword", "write \"SINGLE_CACHE_LINE\" or \"ENTIRE_DATA_CACHE\", then optionally CACHELINE_ALL/UB/OUT/ATOMIC",
                  "pto.dcci needs a cache-line selection");
  return 0;
}

/* %a = pto.ptrtoint %p : !pto.ptr<T, s> -> i64  /  %p = pto.inttoptr %a : i64 -> !pto.ptr<T, s>:
 * the byte address of a pointer and back (PTOAS PTO.cpp PtrToIntOp / IntToPtrOp verifiers:
 * the integer is an i64; inttoptr's element type is a float or an 8..64-bit integer, not index). */
static int lower_int_ptr(pt_lower *L, const pa_op *op, int to_int) {
  const pa_item *a = pt_operand_item(op, 0);
  pt_ins c = {.code = (uint8_t)(to_int ? PT_C_PTRTOINT : PT_C_CASTPTR), .bits = 64, .src = op};
  if ((c.a = pt_lower_operand(L, a)) < 0) return -1;
  pt_slot_type in = L->p->slots[c.a], t = pt_slot_type_of(pt_lower_result_type(op, 0));
  int int64_in = in.kind == PT_VK_INT && in.bits == 64 && !in.is_index, int64_out = t.kind == PT_VK_INT && t.bits == 64 && !t.is_index;
  if (to_int ? in.kind != PT_VK_PTR || !int64_out : !int64_in || t.kind != PT_VK_PTR)
    return errorf(L, op->loc, "ir.type", to_int ? "write pto.ptrtoint %p : !pto.ptr<T, s> -> i64" : "write pto.inttoptr %a : i64 -> !pto.ptr<T, s>",
                  "%.*s converts between a pointer and an i64", (int)op->name.n, op->name.s);
  if (!to_int && t.dt == PTOSIM_DT_NONE)
    return errorf(L, op->loc, "ir.type", "point to a float or an 8, 16, 32 or 64-bit integer", "pto.inttoptr: unsupported element type");
  if (!to_int) c.imm.p = ptosim_ptr_make(t.space, t.dt, 0);
  c.dst = pt_lower_define_results(L, op, &t, 1);
  pt_lower_emit(L, c);
  return 0;
}

/* pto.set_ffts %p : !pto.ptr<i64 | i8>: the base address of the FFTS unit that A2/A3's
 * cross-core flags (ffts_cross_core_sync: TPush / TPop, SyncAll) go through; PTOAS emits
 * set_ffts_base_addr((uint64_t)p) (PTOToEmitC.cpp). ptosim's flags between cores need no
 * address, so the op is checked (SetFFTsOp::verify: a pointer to a 64- or 8-bit integer, the
 * type written matching the operand) and does nothing. */
static int lower_set_ffts(pt_lower *L, const pa_op *op) {
  const pa_item *a = pt_operand_item(op, 0);
  int32_t s = pt_lower_operand(L, a);
  if (s < 0) return -1;
  pt_slot_type t = L->p->slots[s];
  const pa_type *w = pt_lw_last_type(op);
  int int64_8 = t.dt == PTOSIM_DT_I64 || t.dt == PTOSIM_DT_U64 || t.dt == PTOSIM_DT_I8 || t.dt == PTOSIM_DT_U8;
  if (pt_operand_item(op, 1) || t.kind != PT_VK_PTR || !int64_8)
    return errorf(L, op->loc, "ir.type", "write pto.set_ffts %p : !pto.ptr<i64>", "pto.set_ffts takes one pointer to an i64 or i8");
  return w ? pt_lw_expect_type(L, a, s, pt_slot_type_of(w), "operand") : 0;
}

/* pto.fence.barrier_all #pto.fence_scope<gm|all>: PTOAS (PTOToEmitC.cpp PTOFenceToEmitC) drains
 * every pipe in a vector kernel or section, else MTE2, MTE3 and FIX, then issues dsb(DDR); the
 * drains are pto.pipe_barrier ops here, the dsb is nothing (ptosim has no data cache). Code
 * of a cube kernel or section drains MTE2 and FIX (the cube core has no MTE3 pipe); code whose
 * core is known only at run time (no kernel kind, outside sections) drains every pipe, which
 * the vector core needs and which exists on both cores. Scope local_memory has no lowering
 * in PTOAS. */
static int lower_fence(pt_lower *L, const pa_op *op) {
  const pa_item *s = op->nitems ? &op->items[0] : NULL;
  int ok = s && s->kind == PA_IT_ATTR && pa_str_is(s->name, "pto.fence_scope") && (pa_str_is(s->body, "gm") || pa_str_is(s->body, "all"));
  if (!ok)
    return errorf(L, op->loc, s && s->kind == PA_IT_ATTR && pa_str_is(s->body, "local_memory") ? "op.unsupported" : "bind.keyword",
                  "write pto.fence.barrier_all #pto.fence_scope<gm> (or <all>)", "pto.fence.barrier_all needs scope gm or all");
  static const ptosim_pipe all[] = {PTOSIM_PIPE_ALL}, cube[] = {PTOSIM_PIPE_MTE2, PTOSIM_PIPE_FIX};
  int v = L->section ? L->section == 2 : L->p->kernel_kind != 1, n = v ? 1 : 2;
  for (int i = 0; i < n; i++) {
    pt_plan *pl = calloc(1, sizeof *pl + sizeof(ptosim_pipe_params));
    if (!pl) return -1;
    pl->size = sizeof(ptosim_pipe_params);
    ptosim_pipe_params pp = {.pipe = v ? all[i] : cube[i]};
    memcpy(pl->patch, &pp, sizeof pp); /* the template follows the (zero) patches */
    if (pt_lower_emit(L, (pt_ins){.code = PT_C_PTO, .opc = PTOSIM_OP_pipe_barrier, .dst = -1, .obj = -1, .src = op, .plan = pl}) < 0) {
      free(pl);
      return -1;
    }
  }
  return 0;
}

/* Local and event-id arrays (PTOAS PTOOps.td DeclareLocalArrayOp, LocalArrayGet/SetOp,
 * DeclareEventIdArrayOp, EventIdArrayGet/SetOp): a stack array of scalars, lowered to one
 * handle slot (kind OTHER, decl = the array type) followed by one slot per element, row-major;
 * get and set index it at run time, each index checked against its dimension. */
enum { ARRAY_MAX_ELEMS = 1 << 16 };

/* %a = pto.declare_local_array -> !pto.local_array<dims x T>  /  pto.declare_eventid_array -> !pto.eventid_array<N> */
static int lower_array_decl(pt_lower *L, const pa_op *op, pa_type_kind want) {
  const pa_type *t = pt_lower_result_type(op, 0);
  if (!t || t->kind != want)
    return errorf(L, op->loc, "ir.type", "write %a = pto.declare_local_array -> !pto.local_array<16xi32> (eventid: -> !pto.eventid_array<4>)",
                  "%.*s needs a result of its array type", (int)op->name.n, op->name.s);
  int64_t n = 1;
  for (int32_t i = 0; i < t->rank; i++) {
    if (t->dims[i] > ARRAY_MAX_ELEMS / n)
      return errorf(L, op->loc, "ir.limit", "keep local arrays small (they live in scalar registers / stack)",
                    "local array of more than %d elements", ARRAY_MAX_ELEMS);
    n *= t->dims[i];
  }
  pt_slot_type et = pt_slot_type_of(t->elem), ht = {.kind = PT_VK_OTHER, .decl = t};
  if (et.kind != PT_VK_INT && et.kind != PT_VK_FLOAT)
    return errorf(L, op->loc, "op.unsupported", "ptosim's scalars are the integers, index, f16, bf16, f32 and f64",
                  "not supported yet: local arrays of this element type");
  int32_t h = pt_lower_define_results(L, op, &ht, 1);
  return h < 0 || pt_lw_new_slots(L, et, (int)n) != h + 1 ? -1 : 0;
}

/* %r = pto.local_array_get %a[%i, ...] : !pto.local_array<..> -> T  /  pto.local_array_set %a[%i, ...], %v : ..., T
 * %e = pto.eventid_array_get %a[%i] : !pto.eventid_array<N>  /  pto.eventid_array_set %a[%i], %e : ... (index elements) */
static int lower_array_access(pt_lower *L, const pa_op *op, pa_type_kind want, int set) {
  const pa_item *a = pt_operand_item(op, 0), *v = set ? pt_operand_item(op, 1) : NULL;
  if (!a || a->kind != PA_IT_VALUE || !a->nargs || (set && !v))
    return errorf(L, op->loc, "ir.syntax", set ? "write %a[%i, ...], %v : type" : "write %a[%i, ...] : type",
                  "malformed %.*s", (int)op->name.n, op->name.s);
  pa_item base = *a; /* %a[%i]: the array %a */
  base.nargs = 0;
  int32_t h = pt_lower_resolve(L, &base);
  if (h < 0) return -1;
  const pa_type *t = L->p->slots[h].kind == PT_VK_OTHER ? L->p->slots[h].decl : NULL;
  if (!t || t->kind != want)
    return errorf(L, a->loc, "ir.type", "pass the result of pto.declare_local_array (declare_eventid_array for eventid ops) in this function",
                  "%.*s: '%.*s' is not an array of its kind declared here", (int)op->name.n, op->name.s, (int)base.text.n, base.text.s);
  if ((int32_t)a->nargs != t->rank)
    return errorf(L, a->loc, "ir.type", "give one index per dimension", "%.*s: %u indices for an array of rank %d", (int)op->name.n,
                  op->name.s, a->nargs, t->rank);
  pt_ins x = {.code = (uint8_t)(set ? PT_C_ASET : PT_C_AGET), .a = h, .dst = -1, .op_first = L->p->noperands,
              .op_count = t->rank, .src = op};
  for (uint32_t k = 0; k < a->nargs; k++) {
    int32_t s = pt_lower_operand(L, &a->args[k]);
    if (s < 0 || pt_lw_expect_class(L, op, &a->args[k], s, 1) || pt_lower_add_operand(L, (pt_operand){.slot = s, .t = L->p->slots[s]}))
      return -1;
  }
  pt_slot_type et = L->p->slots[h + 1];
  if (set) {
    if ((x.c = pt_lower_operand(L, v)) < 0 || pt_lw_expect_type(L, v, x.c, et, "value")) return -1;
  } else {
    const pa_type *rt = op->nrtypes ? op->rtypes[0] : NULL;
    if (rt && !pa_type_equal(rt, t->elem))
      return errorf(L, op->loc, "ir.type", "the result type is the array's element type", "%.*s: result type differs from the element type",
                    (int)op->name.n, op->name.s);
    x.dst = pt_lower_define_results(L, op, &et, 1);
  }
  pt_lower_emit(L, x);
  return 0;
}

/* Edit distance between a and b (both shorter than 64), capped at 9. */
static int distance(const char *a, const char *b) {
  size_t na = strlen(a), nb = strlen(b);
  if (na >= 64 || nb >= 64) return 9;
  int row[64];
  for (size_t j = 0; j <= nb; j++) row[j] = (int)j;
  for (size_t i = 1; i <= na; i++) {
    int diag = row[0];
    row[0] = (int)i;
    for (size_t j = 1; j <= nb; j++) {
      int up = row[j], best = diag + (a[i - 1] != b[j - 1]);
      if (up + 1 < best) best = up + 1;
      if (row[j - 1] + 1 < best) best = row[j - 1] + 1;
      diag = up;
      row[j] = best;
    }
  }
  return row[nb] > 9 ? 9 : row[nb];
}

/* A pto op that is not in the op table: a typo, with the nearest spelling as a hint. */
static int unknown_op(pt_lower *L, const pa_op *op, const char *name) {
  const char *best = NULL;
  int bd = 9;
  for (int i = 0; i < PTOSIM_OP_COUNT; i++) {
    const char *c = ptosim_op_spelling((ptosim_opcode)i);
    int d = distance(name, c);
    if (d < bd) bd = d, best = c;
  }
  char hint[160];
  if (best && bd <= 2 + (int)strlen(name) / 8) snprintf(hint, sizeof hint, "did you mean '%s'?", best);
  else snprintf(hint, sizeof hint, "`ptosim ops` lists the ops ptosim runs");
  errorf(L, op->loc, "op.unknown", hint, "unknown op '%s'", name);
  return 1;
}

/* pto.vecscope { ... } / pto.strict_vecscope(%a, ...) { ^bb0(%x, ...): ... } : (T, ...) -> ():
 * one vector-function launch (vpto-spec.md "Execution Scopes"). Its body runs inline on the
 * vector core (every op in it names its pipe); scopes do not nest; the strict form sees only
 * its block arguments. */
static int lower_vecscope(pt_lower *L, const pa_op *op, int strict) {
  if (op->nregions != 1) return errorf(L, op->loc, "ir.syntax", NULL, "a vector scope has one region");
  if (L->vec_depth)
    return errorf(L, op->loc, "vec.scope_nested", "close the enclosing vector scope first (scf.for inside one is fine)",
                  "vector scopes do not nest");
  int32_t args[64];
  int nargs = 0;
  const pa_item *list = NULL; /* the operand list `(%a, %b)` */
  for (uint32_t k = 0; strict && k < op->nitems && !list; k++)
    if (op->items[k].kind == PA_IT_CALL && !op->items[k].name.n) list = &op->items[k];
  for (uint32_t i = 0; list && i < list->nargs; i++) {
    if (nargs == 64) return errorf(L, op->loc, "ir.limit", NULL, "more than 64 scope operands");
    if ((args[nargs++] = pt_lower_operand(L, &list->args[i])) < 0) return -1;
  }
  int saved = L->nnames, saved_barrier = L->barrier, saved_outer = L->strict_outer;
  if (strict) {
    L->strict_outer = L->barrier;
    L->barrier = L->nnames;
  }
  L->vec_depth++;
  int rc = pt_lower_region(L, &op->regions[0], args, nargs);
  L->vec_depth--;
  L->barrier = saved_barrier;
  L->strict_outer = saved_outer;
  pt_lw_pop_names(L, saved);
  return rc;
}

int pt_lower_pto(pt_lower *L, const pa_op *op) {
  char name[128];
  snprintf(name, sizeof name, "%.*s", (int)op->name.n, op->name.s);
  if (pa_str_is(op->name, "pto.load") || pa_str_is(op->name, "pto.load_scalar")) return lower_mem(L, op, 0, 0);
  if (pa_str_is(op->name, "pto.store") || pa_str_is(op->name, "pto.store_scalar")) return lower_mem(L, op, 1, 0);
  if (pa_str_is(op->name, "pto.ld_dev")) return lower_mem(L, op, 0, 1);
  if (pa_str_is(op->name, "pto.st_dev")) return lower_mem(L, op, 1, 1);
  if (pa_str_is(op->name, "pto.dsb") || pa_str_is(op->name, "pto.dcci")) return lower_cache_op(L, op);
  int bitop = pa_str_is(op->name, "pto.sbitset1");
  if (bitop || pa_str_is(op->name, "pto.sbitset0")) { /* %r = pto.sbitset1 %v, %bit : i64, i64 -> i64 */
    pt_ins b = {.code = PT_C_BIN, .sub = (uint8_t)(bitop ? PT_B_BITSET1 : PT_B_BITSET0), .bits = 64, .src = op};
    if ((b.a = pt_lower_operand(L, pt_operand_item(op, 0))) < 0 || (b.b = pt_lower_operand(L, pt_operand_item(op, 1))) < 0) return -1;
    pt_slot_type t = pt_lw_i64_type();
    if (pt_lw_expect_type(L, pt_operand_item(op, 0), b.a, t, "operand") || pt_lw_expect_type(L, pt_operand_item(op, 1), b.b, t, "bit index"))
      return -1;
    b.dst = pt_lower_define_results(L, op, &t, 1);
    pt_lower_emit(L, b);
    return 0;
  }
  int pipe = pt_lower_pipe_op(L, op); /* reserve_buffer / import_reserved_buffer */
  if (pipe <= 0) return pipe;
  ptosim_opcode opc = pt_op_lookup_n(op->name.s, op->name.n);
  pt_op_text text = pt_op_text_of(opc);
  if (text == PT_TEXT_TEXT || text == PT_TEXT_CAPI) return lower_table_op(L, op, opc);
  if (opc != PTOSIM_OP_COUNT && text == PT_TEXT_NONE)
    return errorf(L, op->loc, "op.unsupported", "`ptosim ops --status not-yet` lists the ops not implemented yet",
                  "not supported yet: %s", name);
  int rc = pt_lower_obj_op(L, op);
  if (rc <= 0) return rc;
  if (opc == PTOSIM_OP_declare_local_array || opc == PTOSIM_OP_declare_eventid_array)
    return lower_array_decl(L, op, opc == PTOSIM_OP_declare_local_array ? PA_TY_LOCAL_ARRAY : PA_TY_EVENTID_ARRAY);
  if (opc == PTOSIM_OP_local_array_get || opc == PTOSIM_OP_local_array_set)
    return lower_array_access(L, op, PA_TY_LOCAL_ARRAY, opc == PTOSIM_OP_local_array_set);
  if (opc == PTOSIM_OP_eventid_array_get || opc == PTOSIM_OP_eventid_array_set)
    return lower_array_access(L, op, PA_TY_EVENTID_ARRAY, opc == PTOSIM_OP_eventid_array_set);
  if (opc == PTOSIM_OP_fence_barrier_all) return lower_fence(L, op);
  if (opc == PTOSIM_OP_set_ffts) return lower_set_ffts(L, op);
  if (opc == PTOSIM_OP_ptrtoint || opc == PTOSIM_OP_inttoptr) return lower_int_ptr(L, op, opc == PTOSIM_OP_ptrtoint);
  if (pa_str_is(op->name, "pto.castptr") || pa_str_is(op->name, "pto.addptr")) {
    int add = pa_str_is(op->name, "pto.addptr");
    pt_ins c = {.code = (uint8_t)(add ? PT_C_ADDPTR : PT_C_CASTPTR), .src = op};
    if ((c.a = pt_lower_operand(L, pt_operand_item(op, 0))) < 0) return -1;
    if (add && (c.b = pt_lower_operand(L, pt_operand_item(op, 1))) < 0) return -1;
    pt_slot_type t = pt_slot_type_of(pt_lower_result_type(op, 0)), in = L->p->slots[c.a];
    /* castptr forms (PTOAS PTOOps.td CastPtrOp): integer -> ptr, ptr -> integer (the
     * address), ptr -> ptr of another element type within one memory space. */
    if (!add && t.kind == PT_VK_INT && in.kind == PT_VK_PTR) {
      c.code = PT_C_PTRTOINT;
      c.bits = t.bits;
      c.dst = pt_lower_define_results(L, op, &t, 1);
      pt_lower_emit(L, c);
      return 0;
    }
    if (t.kind != PT_VK_PTR) return errorf(L, op->loc, "ir.type", "give the result type: -> !pto.ptr<T, space> or an integer", "%s needs a pointer result type", name);
    if (pt_lw_check_ptr_elem(L, pt_lower_result_type(op, 0), op->loc)) return -1;
    if (!add && in.kind == PT_VK_PTR && in.space != t.space)
      return errorf(L, op->loc, "ir.type", "cast through an integer only where the hardware shares the address", "%s cannot change the memory space (%s -> %s)",
                    name, pt_space_name(in.space), pt_space_name(t.space));
    c.imm.p = ptosim_ptr_make(t.space, t.dt, 0);
    c.dst = pt_lower_define_results(L, op, &t, 1);
    pt_lower_emit(L, c);
    return 0;
  }
  int q = pt_lw_find_sub(queries, sizeof queries / sizeof queries[0], op->name);
  if (q >= 0) {
    pt_slot_type t = pt_slot_type_of(pt_lower_result_type(op, 0));
    if (t.kind != PT_VK_INT) t = pt_lw_i64_type();
    pt_ins c = {.code = PT_C_QUERY, .sub = (uint8_t)q, .bits = t.bits, .src = op};
    c.dst = pt_lower_define_results(L, op, &t, 1);
    pt_lower_emit(L, c);
    return 0;
  }
  if (opc == PTOSIM_OP_vecscope || opc == PTOSIM_OP_strict_vecscope) return lower_vecscope(L, op, opc == PTOSIM_OP_strict_vecscope);
  int cube = pa_str_is(op->name, "pto.section.cube");
  if (cube || pa_str_is(op->name, "pto.section.vector")) {
    if (op->nregions != 1) return errorf(L, op->loc, "ir.syntax", NULL, "a section has one region");
    int32_t sec = pt_lower_emit(L, (pt_ins){.code = PT_C_SECTION, .sub = (uint8_t)(cube ? 0 : 1 + pt_pipe_vector_guard(L, op)), .src = op});
    int saved = L->nnames, saved_section = L->section;
    L->section = cube ? 1 : 2;
    int rc = pt_lower_region(L, &op->regions[0], NULL, 0);
    L->section = saved_section;
    if (rc) return -1;
    pt_lw_pop_names(L, saved);
    L->p->code[sec].target = pt_lw_here(L);
    return 0;
  }
  if (opc == PTOSIM_OP_COUNT) return unknown_op(L, op, name) ? -1 : 0;
  return errorf(L, op->loc, "op.unsupported", "this op is parsed but ptosim cannot execute it yet",
                "not supported yet: %s", name);
}
