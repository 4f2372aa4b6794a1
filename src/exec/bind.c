/* Binders: .pto op text -> op parameter structs (see bind.h for the two-mode contract).
 * One binder per parameter struct of include/ptosim/ops.h; the op table's params column
 * selects it. Operand order follows each op's syntax in the spec pages
 * (vpto docs/isa/micro-isa/02-dma-copy.md, 16-cube-matmul.md, isa-legacy/02-dma-copy.md). */
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "asm/asm.h"
#include "core/dtype.h"
#include "core/optable.h"
#include "exec/bind_tile.h"
#include "exec/bind_tile_reduce.h"
#include "exec/bind_tile_elem.h"
#include "exec/bind_quant.h"
#include "exec/bind_tile_pipe.h"
#include "exec/bind_ub_vec.h"
#include "exec/bind_vec.h"
#include "exec/bind_vec_reduce.h"
#include "exec/bind_vec_sfu.h"
#include "exec/lower.h"
#include "exec/tiles.h"

/* ---- the pt_bind accessors ------------------------------------------------------------ */

int pt_bind_lowering(const pt_bind *b) { return b->lowering; }

int pt_bind_error(pt_bind *b, const pa_item *at, const char *rule, const char *hint, const char *fmt, ...) {
  if (b->lowering && !b->failed) {
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    char full[600];
    snprintf(full, sizeof full, "%.*s: %s", (int)b->op->name.n, b->op->name.s, msg);
    pt_lower_error(b->L, at ? at->loc : b->op->loc, rule, hint, full);
  }
  b->failed = 1;
  return -1;
}

/* Static type of an operand item while lowering: the slot's type, i64 / f32 for literals. */
static pt_slot_type item_type(pt_bind *b, const pa_item *it) {
  pt_slot_type t = {.kind = PT_VK_INT, .bits = 64, .dt = PTOSIM_DT_I64};
  if (it && it->kind == PA_IT_FLOAT) t = (pt_slot_type){.kind = PT_VK_FLOAT, .bits = 32, .dt = PTOSIM_DT_F32};
  if (it && it->kind == PA_IT_VALUE) {
    int32_t s = pt_lower_resolve(b->L, it);
    if (s >= 0) t = b->prog->slots[s];
  }
  return t;
}

/* The next operand: while lowering, resolve and record it (with its static type); while
 * running, fetch the record. Returns NULL after an error. */
static const pt_operand *next_operand_record(pt_bind *b) {
  return b->pos < b->count ? &b->prog->operands[b->first + b->pos++] : NULL;
}

static const pt_operand *next_operand(pt_bind *b, const pa_item *it) {
  if (!b->lowering) return next_operand_record(b);
  if (!it) {
    pt_bind_error(b, NULL, "bind.arity", "check the op's syntax in the spec", "missing operand");
    return NULL;
  }
  pt_operand o = {.slot = -1, .t = item_type(b, it)};
  switch (it->kind) {
  case PA_IT_VALUE:
    if ((o.slot = pt_lower_resolve(b->L, it)) < 0) {
      b->failed = 1;
      return NULL;
    }
    break;
  case PA_IT_INT: o.k.i = it->v.i; break;
  case PA_IT_FLOAT: o.k.f = it->v.f; break;
  default:
    if (pa_item_is_word(it, "true") || pa_item_is_word(it, "false")) {
      o.k.i = pa_item_is_word(it, "true");
      o.t.bits = 1;
      break;
    }
    pt_bind_error(b, it, "bind.operand", "pass an SSA value or a literal", "expected an operand, got '%.*s'",
                  (int)it->text.n, it->text.s);
    return NULL;
  }
  if (pt_lower_add_operand(b->L, o)) {
    pt_bind_error(b, it, "bind.nomem", NULL, "out of memory");
    return NULL;
  }
  b->count++;
  return &b->prog->operands[b->prog->noperands - 1];
}

static pt_val operand_value(pt_bind *b, const pt_operand *o) {
  pt_val zero;
  memset(&zero, 0, sizeof zero);
  if (!o || b->lowering) return zero;
  if (o->slot < 0) return o->k;
  return b->probe ? b->probe[o - &b->prog->operands[b->first]] : b->slots[o->slot];
}

/* Probing: a field is about to be derived from a run-time operand value (converted,
 * compared, looked up), so the op has no copy-only plan. */
static void derives(pt_bind *b, const pt_operand *o) {
  if (o && o->slot >= 0) b->derived = 1;
}

static const pt_operand *typed_operand(pt_bind *b, const pa_item *it, pt_vkind want, const char *what) {
  const pt_operand *o = next_operand(b, it);
  static const char *const hints[] = {[PT_VK_INT] = "pass an integer or index value",
                                      [PT_VK_PTR] = "pass a !pto.ptr<T, space> value",
                                      [PT_VK_TILE] = "pass a tile made by pto.alloc_tile",
                                      [PT_VK_VIEW] = "pass a view made by pto.make_tensor_view / pto.partition_view",
                                      [PT_VK_VREG] = "pass a !pto.vreg<NxT> value",
                                      [PT_VK_MASK] = "pass a !pto.mask<bG> value (pset, pge, plt, vcmp, ...)",
                                      [PT_VK_ALIGN] = "pass a !pto.align value (init_align, vldas, ...)"};
  if (b->lowering && o && o->t.kind == PT_VK_OTHER) /* memref, vector<...>: valid MLIR */
    pt_bind_error(b, it, "op.unsupported", "ptosim models !pto pointers, tiles and views, integers and floats",
                  "not supported yet: operand '%.*s' of a type ptosim does not model", (int)it->text.n, it->text.s);
  else if (b->lowering && o && o->t.kind != want)
    pt_bind_error(b, it, "bind.type", hints[want], "operand '%.*s' must be %s", (int)it->text.n, it->text.s, what);
  return o;
}

int64_t pt_bind_int(pt_bind *b, const pa_item *it) {
  return operand_value(b, typed_operand(b, it, PT_VK_INT, "an integer")).i;
}

bool pt_bind_bool(pt_bind *b, const pa_item *it) {
  const pt_operand *o = typed_operand(b, it, PT_VK_INT, "an integer");
  derives(b, o);
  return operand_value(b, o).i != 0;
}

ptosim_ptr pt_bind_ptr(pt_bind *b, const pa_item *it) {
  return operand_value(b, typed_operand(b, it, PT_VK_PTR, "a pointer")).p;
}

ptosim_scalar pt_bind_scalar(pt_bind *b, const pa_item *it) {
  const pt_operand *o = next_operand(b, it);
  ptosim_scalar s = {.dtype = PTOSIM_DT_NONE, .bits = 0};
  if (!o) return s;
  derives(b, o);
  pt_val v = operand_value(b, o);
  s.dtype = o->t.dt;
  if (o->t.kind != PT_VK_FLOAT) {
    s.bits = (uint64_t)v.i;
    if (s.dtype == PTOSIM_DT_NONE) s.dtype = PTOSIM_DT_I64;
    return s;
  }
  float f = (float)v.f;
  if (s.dtype == PTOSIM_DT_F16) {
    s.bits = pt_f32_to_f16(f, PT_RND_RINT, PT_SAT_OFF);
  } else if (s.dtype == PTOSIM_DT_BF16) {
    s.bits = pt_f32_to_bf16(f, PT_RND_RINT, PT_SAT_OFF);
  } else {
    uint32_t u;
    memcpy(&u, &f, 4);
    s.dtype = PTOSIM_DT_F32;
    s.bits = u;
  }
  return s;
}

ptosim_tile pt_bind_tile(pt_bind *b, const pa_item *it) {
  const pt_operand *o = typed_operand(b, it, PT_VK_TILE, "a tile");
  ptosim_tile t;
  memset(&t, 0, sizeof t);
  derives(b, o);
  return o && !b->lowering && !b->probe ? b->objs[b->slots[o->slot].i].tile : t;
}

ptosim_tile *pt_bind_tile_ref(pt_bind *b, const pa_item *it) {
  static ptosim_tile scratch; /* lowering or probing: the executor never runs */
  const pt_operand *o = typed_operand(b, it, PT_VK_TILE, "a tile");
  derives(b, o);
  return o && !b->lowering && !b->probe ? &b->objs[b->slots[o->slot].i].tile : &scratch;
}

ptosim_gm_view pt_bind_view(pt_bind *b, const pa_item *it, const ptosim_tile *consumer) {
  const pt_operand *o = typed_operand(b, it, PT_VK_VIEW, "a tensor view");
  ptosim_gm_view v;
  memset(&v, 0, sizeof v);
  derives(b, o);
  if (!o || b->lowering || b->probe) return v;
  const pt_obj *obj = &b->objs[b->slots[o->slot].i];
  v = obj->view;
  /* A shape ND and DN both describe takes the layout of the vec tile it is moved to or
   * from (PTOAS InferPTOLayout.cpp, maybeRepairMinor2DLoadStoreLayout). */
  if (obj->layout_given < 0 && consumer && consumer->space == PTOSIM_UB)
    pt_view_infer_layout(&v, consumer->blayout == PTOSIM_BL_COL_MAJOR ? PTOSIM_GL_DN : PTOSIM_GL_ND);
  return v;
}

ptosim_gm_view *pt_bind_view_ref(pt_bind *b, const pa_item *it) {
  static ptosim_gm_view scratch; /* lowering or probing: the executor never runs */
  const pt_operand *o = typed_operand(b, it, PT_VK_VIEW, "a tensor view");
  derives(b, o);
  return o && !b->lowering && !b->probe ? &b->objs[b->slots[o->slot].i].view : &scratch;
}

static void *wide_operand(pt_bind *b, const pa_item *it, pt_vkind kind, const char *what, pt_slot_type *t) {
  const pt_operand *o = typed_operand(b, it, kind, what);
  if (t) *t = o ? o->t : (pt_slot_type){.kind = PT_VK_OTHER};
  return o && !b->lowering ? operand_value(b, o).w : NULL;
}

const ptosim_vreg *pt_bind_vreg(pt_bind *b, const pa_item *it, ptosim_dtype *elem) {
  pt_slot_type t;
  const ptosim_vreg *r = wide_operand(b, it, PT_VK_VREG, "a vector register", &t);
  if (elem) *elem = t.kind == PT_VK_VREG ? t.dt : PTOSIM_DT_NONE;
  return r;
}

const ptosim_vmask *pt_bind_mask(pt_bind *b, const pa_item *it, unsigned *gran) {
  pt_slot_type t;
  const ptosim_vmask *r = wide_operand(b, it, PT_VK_MASK, "a predicate", &t);
  if (gran) *gran = t.kind == PT_VK_MASK ? t.bits : 0;
  return r;
}

const ptosim_valign *pt_bind_align(pt_bind *b, const pa_item *it) {
  return wide_operand(b, it, PT_VK_ALIGN, "an alignment state", NULL);
}

pt_slot_type pt_bind_type(pt_bind *b, const pa_item *it) {
  pt_slot_type none = {.kind = PT_VK_OTHER};
  return b->lowering && it ? item_type(b, it) : none;
}

pt_slot_type pt_bind_out_type(pt_bind *b, unsigned k) {
  pt_slot_type t = {.kind = PT_VK_OTHER};
  return b->lowering ? pt_slot_type_of(pt_lower_result_type(b->op, k)) : t;
}

/* Result k as the next operand record: while lowering, the op's results are defined from
 * their declared types (on the first call) and result k is recorded with its type checked
 * against `kind`; while running, the record gives the result's slot. */
static const pt_operand *out_operand(pt_bind *b, unsigned k, int kind) {
  if (!b->lowering) return next_operand_record(b);
  if (!b->outs_defined) {
    b->outs_defined = 1;
    pt_slot_type t[8];
    unsigned n = 0;
    while (n < 8 && pt_lower_result_type(b->op, n)) {
      t[n] = pt_slot_type_of(pt_lower_result_type(b->op, n));
      n++;
    }
    b->out_first = pt_lower_define_results(b->L, b->op, t, (int)n);
  }
  pt_slot_type want = {.kind = (uint8_t)kind}, got = pt_bind_out_type(b, k);
  char w[40];
  if (got.kind != kind && !got.stub) {
    pt_bind_error(b, NULL, "ir.type", "declare the op's results after `->` as the spec lists them", "result %u must be %s",
                  k, kind == PT_VK_INT ? "an integer" : kind == PT_VK_PTR ? "a pointer" : kind == PT_VK_VREG ? "a vector register" : pt_slot_type_name(want, w, sizeof w));
    return NULL;
  }
  pt_operand o = {.slot = b->out_first + (int32_t)k, .t = got};
  if (pt_lower_add_operand(b->L, o)) {
    pt_bind_error(b, NULL, "bind.nomem", NULL, "out of memory");
    return NULL;
  }
  b->count++;
  return &b->prog->operands[b->prog->noperands - 1];
}

void *pt_bind_out(pt_bind *b, unsigned k, int kind, pt_slot_type *type) {
  static ptosim_valign scratch; /* lowering: the executor never runs; large enough for every kind */
  const pt_operand *o = out_operand(b, k, kind);
  if (type) *type = o ? o->t : (pt_slot_type){.kind = PT_VK_OTHER};
  return o && !b->lowering ? operand_value(b, o).w : &scratch;
}

/* The slot of an integer or pointer result, by address; while probing, the probe value
 * (a marker) stands for the address, which a plan patches in (pt_plan_apply). */
static void *out_slot(pt_bind *b, unsigned k, int kind) {
  static pt_val scratch; /* lowering: the executor never runs */
  const pt_operand *o = out_operand(b, k, kind);
  if (b->lowering && o) b->prog->operands[b->prog->noperands - 1].by_address = 1;
  if (!o || b->lowering) return &scratch;
  return b->probe ? (void *)(uintptr_t)operand_value(b, o).i : (void *)&b->slots[o->slot];
}

/* pt_val's members all start at its first byte: the slot's address is theirs. */
ptosim_ptr *pt_bind_out_ptr(pt_bind *b, unsigned k) { return out_slot(b, k, PT_VK_PTR); }
int64_t *pt_bind_out_int(pt_bind *b, unsigned k) { return out_slot(b, k, PT_VK_INT); }

double *pt_bind_out_float(pt_bind *b, unsigned k) { return out_slot(b, k, PT_VK_FLOAT); }

const pa_type *pt_bind_value_type(pt_bind *b, const pa_item *it) {
  if (!b->lowering || !it || it->kind != PA_IT_VALUE) return NULL;
  int32_t s = pt_lower_resolve(b->L, it);
  return s < 0 ? NULL : b->prog->slots[s].decl;
}

/* The object of the op's result: the program's copy while running, NULL while probing or
 * lowering; lowering defines it from the result type (view: a tensor view of a static
 * shape, else a tile type), reporting ir.type for another. */
static pt_obj *result_obj(pt_bind *b, int view) {
  if (b->probe) b->derived = 1;
  if (b->probe || !b->lowering) {
    pt_obj *o = b->probe ? NULL : &b->objs[b->res_obj];
    if (o) *o = b->prog->objs[b->res_obj];
    return o;
  }
  const pa_type *t = pt_lower_result_type(b->op, 0);
  pt_obj tmpl = {0};
  if (view ? pt_view_obj_of_type(t, &tmpl) != 0 : !t || t->kind != PA_TY_TILE_BUF) {
    pt_bind_error(b, NULL, "ir.type", view ? "give the result type after `->`: !pto.tensor_view<MxNxT> of a static shape" : "give the result type after `->`",
                  "missing or wrong result %s type", view ? "view" : "tile");
    return NULL;
  }
  if (!view) tmpl.tile = pt_tile_of_type(t);
  pt_slot_type st = pt_slot_type_of(t);
  b->res_obj = pt_lower_new_obj(b->L, &tmpl);
  b->res_slot = pt_lower_define_results(b->L, b->op, &st, 1);
  return NULL;
}

ptosim_tile *pt_bind_result_tile(pt_bind *b) {
  static ptosim_tile scratch; /* lowering: the executor never runs, the value is unused */
  pt_obj *o = result_obj(b, 0);
  return o ? &o->tile : &scratch;
}

ptosim_gm_view *pt_bind_result_view(pt_bind *b) {
  static ptosim_gm_view scratch;
  pt_obj *o = result_obj(b, 1);
  return o ? &o->view : &scratch;
}

uint64_t *pt_bind_result_int(pt_bind *b) {
  static uint64_t scratch; /* lowering: the executor never runs */
  if (b->probe) b->derived = 1;
  if (b->probe) return &scratch;
  if (!b->lowering) return (uint64_t *)&b->slots[b->res_slot].i;
  pt_slot_type t = pt_slot_type_of(pt_lower_result_type(b->op, 0));
  if (t.kind != PT_VK_INT || t.bits != 64) {
    pt_bind_error(b, NULL, "ir.type", "write `: i64` after the op", "the result must be an i64");
    t = (pt_slot_type){.kind = PT_VK_INT, .bits = 64, .dt = PTOSIM_DT_I64};
  }
  b->res_slot = pt_lower_define_results(b->L, b->op, &t, 1);
  return &scratch;
}

/* ---- item helpers ----------------------------------------------------------------------- */

static unsigned npos(const pa_op *op) {
  unsigned n = 0;
  for (uint32_t k = 0; k < op->nitems; k++) n += (unsigned)pt_is_operand(&op->items[k]);
  return n;
}

/* Argument i of clause call `c` (NULL if absent). */
static const pa_item *clause_arg(const pa_item *c, unsigned i) { return c && c->kind == PA_IT_CALL && i < c->nargs ? &c->args[i] : NULL; }

static int has_word(const pa_op *op, const char *w) {
  for (uint32_t k = 0; k < op->nitems; k++)
    if (pa_item_is_word(&op->items[k], w)) return 1;
  return 0;
}

/* `{key = true}` attribute (also the unit form `{key}`). */
static int dict_flag(const pa_op *op, const char *key) {
  for (uint32_t k = 0; k < op->nitems; k++) {
    if (op->items[k].kind != PA_IT_DICT) continue;
    const pa_item *v = pa_dict_get(&op->items[k], key);
    if (v) return v->kind == PA_IT_WORD ? !pa_item_is_word(v, "false") : v->kind == PA_IT_INT ? v->v.i != 0 : 1;
  }
  return 0;
}

static int expect_arity(pt_bind *b, const pa_op *op, unsigned lo, unsigned hi) {
  unsigned n = npos(op);
  if (n >= lo && n <= hi) return 0;
  return pt_bind_error(b, NULL, "bind.arity", "check the op's operand list in the spec",
                       "expects %u%s operands before its clauses, got %u", lo, hi > lo ? " or more" : "", n);
}

/* Word argument of a clause (e.g. unit_flag(check_only)) matched against names[]. */
static int word_arg(pt_bind *b, const pa_item *it, const char *const *names, int n) {
  for (int i = 0; it && i < n; i++)
    if (pa_item_is_word(it, names[i])) return i;
  pt_bind_error(b, it, "bind.keyword", "use one of the keywords the spec lists", "unknown keyword '%.*s'",
                it ? (int)it->text.n : 0, it ? it->text.s : "");
  return 0;
}

static int bind_loop(pt_bind *b, const pa_item *c, ptosim_loop *l) {
  if (!c || c->nargs != 3)
    return pt_bind_error(b, c, "bind.clause", "write all three operands: (count, src_stride, dst_stride)",
                         "clause needs three operands");
  l->count = pt_bind_int(b, clause_arg(c, 0));
  l->src_stride = pt_bind_int(b, clause_arg(c, 1));
  l->dst_stride = pt_bind_int(b, clause_arg(c, 2));
  return 0;
}

/* ---- binders, one per params struct -------------------------------------------------- */

/* mte_gm_ub %src, %dst, %l2, %len nburst(..) loop(..)* pad(v[, l, r]);
 * mte_ub_gm / mte_gm_l1 / mte_l1_ub %src, %dst, %len nburst(..) loop(..)* */
static int bind_ptosim_dma_params(pt_bind *b, const pa_op *op, ptosim_dma_params *p) {
  int gm_ub = b->opc == PTOSIM_OP_mte_gm_ub;
  if (expect_arity(b, op, gm_ub ? 4 : 3, gm_ub ? 4 : 3)) return -1;
  p->src = pt_bind_ptr(b, pt_operand_item(op, 0));
  p->dst = pt_bind_ptr(b, pt_operand_item(op, 1));
  if (gm_ub) p->l2_cache_ctl = pt_bind_int(b, pt_operand_item(op, 2));
  p->len_burst = pt_bind_int(b, pt_operand_item(op, gm_ub ? 3 : 2));
  const pa_item *nb = pa_op_clause(op, "nburst");
  if (!nb) return pt_bind_error(b, NULL, "bind.clause", "add nburst(%count, %src_stride, %dst_stride)", "nburst(...) is required");
  if (bind_loop(b, nb, &p->nburst)) return -1;
  for (uint32_t k = 0; k < op->nitems; k++) {
    const pa_item *it = &op->items[k];
    if (it->kind != PA_IT_CALL) continue;
    if (pa_str_is(it->name, "loop")) {
      if (p->nloops == PTOSIM_MAX_LOOPS)
        return pt_bind_error(b, it, "dma.nloops", "merge loop groups", "more than %d loop groups", PTOSIM_MAX_LOOPS);
      if (bind_loop(b, it, &p->loops[p->nloops++])) return -1;
    } else if (pa_str_is(it->name, "pad")) {
      if (it->nargs != 1 && it->nargs != 3)
        return pt_bind_error(b, it, "dma.pad_counts", "write pad(%value) or pad(%value, %left, %right)",
                             "pad(...) takes 1 or 3 operands");
      p->has_pad = true;
      p->pad_bits = pt_bind_scalar(b, clause_arg(it, 0)).bits;
      if (it->nargs == 3) {
        p->left_pad = pt_bind_int(b, clause_arg(it, 1));
        p->right_pad = pt_bind_int(b, clause_arg(it, 2));
      }
    } else if (!pa_str_is(it->name, "nburst")) {
      return pt_bind_error(b, it, "bind.clause", "the grouped DMA ops take nburst, loop and pad clauses",
                           "unknown clause '%.*s'", (int)it->name.n, it->name.s);
    }
  }
  return 0;
}

/* %src, %dst, %len nburst(%count, %src_gap, %dst_gap) */
static int bind_ptosim_gap_copy_params(pt_bind *b, const pa_op *op, ptosim_gap_copy_params *p) {
  if (expect_arity(b, op, 3, 3)) return -1;
  p->src = pt_bind_ptr(b, pt_operand_item(op, 0));
  p->dst = pt_bind_ptr(b, pt_operand_item(op, 1));
  p->len_burst = pt_bind_int(b, pt_operand_item(op, 2));
  ptosim_loop l = {0};
  if (bind_loop(b, pa_op_clause(op, "nburst"), &l)) return -1;
  p->count = l.count;
  p->src_gap = l.src_stride;
  p->dst_gap = l.dst_stride;
  return 0;
}

static int bind_ptosim_frac_params(pt_bind *b, const pa_op *op, ptosim_frac_params *p) {
  if (expect_arity(b, op, 2, 2)) return -1;
  p->src = pt_bind_ptr(b, pt_operand_item(op, 0));
  p->dst = pt_bind_ptr(b, pt_operand_item(op, 1));
  if (has_word(op, "dn2nz")) p->mode = PTOSIM_DN2NZ;
  else if (!has_word(op, "nd2nz")) return pt_bind_error(b, NULL, "bind.clause", "write nd2nz or dn2nz", "missing layout mode");
  const pa_item *shape = pa_op_clause(op, "shape"), *src = pa_op_clause(op, "src_layout"),
                *grp = pa_op_clause(op, "dst_group"), *ctrl = pa_op_clause(op, "ctrl");
  if (!shape || shape->nargs != 2 || !src || src->nargs < 1 || src->nargs > 2 || !grp || grp->nargs != 4 || !ctrl ||
      ctrl->nargs != 2)
    return pt_bind_error(b, NULL, "bind.clause", "write shape(n, d), src_layout(inner[, outer]), dst_group(count, l2, l3, l4), ctrl(l2cache, smallc0)",
                         "missing or malformed clause");
  p->n_value = pt_bind_int(b, clause_arg(shape, 0));
  p->d_value = pt_bind_int(b, clause_arg(shape, 1));
  p->src_inner_stride = pt_bind_int(b, clause_arg(src, 0));
  if (src->nargs == 2) p->src_outer_stride = pt_bind_int(b, clause_arg(src, 1));
  p->group_count = pt_bind_int(b, clause_arg(grp, 0));
  p->dst_loop2_stride = pt_bind_int(b, clause_arg(grp, 1));
  p->dst_loop3_stride = pt_bind_int(b, clause_arg(grp, 2));
  p->dst_loop4_stride = pt_bind_int(b, clause_arg(grp, 3));
  p->l2_cache_ctrl = pt_bind_int(b, clause_arg(ctrl, 0));
  p->smallc0_en = pt_bind_bool(b, clause_arg(ctrl, 1));
  return 0;
}

static int bind_ptosim_l0_load_params(pt_bind *b, const pa_op *op, ptosim_l0_load_params *p) {
  if (expect_arity(b, op, 4, 6)) return -1;
  p->src = pt_bind_ptr(b, pt_operand_item(op, 0));
  p->dst = pt_bind_ptr(b, pt_operand_item(op, 1));
  p->rows = pt_bind_int(b, pt_operand_item(op, 2));
  p->cols = pt_bind_int(b, pt_operand_item(op, 3));
  if (npos(op) > 4) p->start_row = pt_bind_int(b, pt_operand_item(op, 4));
  if (npos(op) > 5) p->start_col = pt_bind_int(b, pt_operand_item(op, 5));
  p->transpose = dict_flag(op, "transpose");
  return 0;
}

/* %src, %dst, %m, %k [, %start_row, %start_col] (vpto-dev: four operands; tonibohnlein: its
 * six-operand shape-derived form; its eight-operand full form is load_cbuf_to_ca_mx's). */
static int bind_ptosim_mx_load_params(pt_bind *b, const pa_op *op, ptosim_mx_load_params *p) {
  unsigned n = npos(op);
  if (n != 4 && n != 6)
    return pt_bind_error(b, NULL, "bind.arity", "write %src, %dst, %m, %k [, %start_row, %start_col]",
                         "expects 4 or 6 operands before its clauses, got %u", n);
  p->src = pt_bind_ptr(b, pt_operand_item(op, 0));
  p->dst = pt_bind_ptr(b, pt_operand_item(op, 1));
  p->a = pt_bind_int(b, pt_operand_item(op, 2));
  p->b = pt_bind_int(b, pt_operand_item(op, 3));
  if (n == 6) {
    p->start_row = pt_bind_int(b, pt_operand_item(op, 4));
    p->start_col = pt_bind_int(b, pt_operand_item(op, 5));
  }
  return 0;
}

static const char *const unit_flag_words[] = {"", "check_only", "check_and_set", "check_and_clear"};

static int bind_ptosim_mad_params(pt_bind *b, const pa_op *op, ptosim_mad_params *p) {
  int bias = op->name.n >= 5 && !memcmp(op->name.s + op->name.n - 5, "_bias", 5);
  unsigned i = 0;
  if (expect_arity(b, op, bias ? 7 : 6, bias ? 7 : 6)) return -1;
  p->lhs = pt_bind_ptr(b, pt_operand_item(op, i++));
  p->rhs = pt_bind_ptr(b, pt_operand_item(op, i++));
  p->dst = pt_bind_ptr(b, pt_operand_item(op, i++));
  if (bias) p->bias = pt_bind_ptr(b, pt_operand_item(op, i++));
  p->m = pt_bind_int(b, pt_operand_item(op, i++));
  p->n = pt_bind_int(b, pt_operand_item(op, i++));
  p->k = pt_bind_int(b, pt_operand_item(op, i++));
  const pa_item *uf = pa_op_clause(op, "unit_flag"), *tf = pa_op_clause(op, "tf32_mode");
  if (uf) p->unit_flag = (ptosim_unit_flag)word_arg(b, clause_arg(uf, 0), unit_flag_words, 4);
  static const char *const tf32[] = {"", "round_even", "round_away"};
  if (tf) p->tf32 = (ptosim_tf32_mode)word_arg(b, clause_arg(tf, 0), tf32, 3);
  p->disable_gemv = has_word(op, "disable_gemv");
  p->n_dir = has_word(op, "n_dir");
  p->sat = has_word(op, "sat") ? PTOSIM_SAT_SAT : has_word(op, "nosat") ? PTOSIM_SAT_NOSAT : PTOSIM_SAT_DEFAULT;
  return 0;
}

/* Spelling of each pre-quant mode, in ptosim_quant_mode order. */
static const char *const quant_words[PTOSIM_QUANT_COUNT] = {
    "", "f32_f16", "qf322hif8_pre_vec", "qf322hif8_pre_scalar", "qf322hif8_pre_hybrid_vec",
    "qf322hif8_pre_hybrid_scalar", "deqs32_int_vec", "deqs32_int_scalar", "req8_vec", "req8_scalar", "deqf16_vec",
    "deqf16_scalar", "qf322fp8_pre_vec", "qf322fp8_pre_scalar", "qf322f32_pre_vec", "qf322f32_pre_scalar", "f32_bf16",
    "qf162b8_pre_vec", "qf162b8_pre_scalar", "qf162s4_pre_vec", "qf162s4_pre_scalar", "req4_vec", "req4_scalar",
    "qf322b8_pre_vec", "qf322b8_pre_scalar", "qf322s4_pre_vec", "qf322s4_pre_scalar", "deqs16_vec", "deqs16_scalar",
    "qf162s16_pre_vec", "qf162s16_pre_scalar", "qf322f16_pre_vec", "qf322f16_pre_scalar", "qf322bf16_pre_vec",
    "qf322bf16_pre_scalar", "qs322bf16_pre_vec", "qs322bf16_pre_scalar"};

/* A payload operand: an fb pointer for vector modes, a scalar otherwise (by static type). */
static void bind_payload(pt_bind *b, const pa_item *it, ptosim_ptr *vec, ptosim_scalar *scalar, int is_vec) {
  if (is_vec) *vec = pt_bind_ptr(b, it);
  else *scalar = pt_bind_scalar(b, it);
}

static int bind_ptosim_fixpipe_params(pt_bind *b, const pa_op *op, ptosim_fixpipe_params *p) {
  int gm = b->opc == PTOSIM_OP_mte_l0c_gm, ub = b->opc == PTOSIM_OP_mte_l0c_ub;
  if (expect_arity(b, op, gm ? 8 : 6, gm ? 8 : 6)) return -1;
  p->src = pt_bind_ptr(b, pt_operand_item(op, 0));
  p->dst = pt_bind_ptr(b, pt_operand_item(op, 1));
  p->m = pt_bind_int(b, pt_operand_item(op, 2));
  p->n = pt_bind_int(b, pt_operand_item(op, 3));
  p->src_stride = pt_bind_int(b, pt_operand_item(op, 4));
  p->dst_stride = pt_bind_int(b, pt_operand_item(op, 5));
  if (gm) {
    p->sid = pt_bind_int(b, pt_operand_item(op, 6));
    p->l2_cache_ctrl = pt_bind_int(b, pt_operand_item(op, 7));
  }
  for (uint32_t k = 0; k < op->nitems; k++) {
    const pa_item *it = &op->items[k];
    if (pt_is_operand(it) || it->kind == PA_IT_DICT) continue;
    if (it->kind == PA_IT_CALL && pa_str_is(it->name, "dst_mode") && ub) {
      const pa_item *a = clause_arg(it, 0);
      if (a && pa_item_is_word(a, "split_m")) p->dst_mode = PTOSIM_DST_SPLIT_M;
      else if (a && pa_item_is_word(a, "split_n")) p->dst_mode = PTOSIM_DST_SPLIT_N;
      else p->sub_blockid = pt_bind_int(b, a);
    } else if (it->kind == PA_IT_CALL && pa_str_is(it->name, "unit_flag")) {
      p->unit_flag = (ptosim_unit_flag)word_arg(b, clause_arg(it, 0), unit_flag_words, 4);
    } else if (it->kind == PA_IT_CALL && pa_str_is(it->name, "pre_quant")) {
      const pa_item *mode = pa_item_find(it->args, it->nargs, "mode");
      p->quant = (ptosim_quant_mode)word_arg(b, mode && mode->nargs == 2 ? &mode->args[1] : NULL, quant_words,
                                             PTOSIM_QUANT_COUNT);
      const char *w = quant_words[p->quant];
      bind_payload(b, clause_arg(it, 0), &p->quant_vec, &p->quant_scalar, strstr(w, "_vec") != NULL);
    } else if (it->kind == PA_IT_CALL && pa_str_is(it->name, "pre_relu")) {
      static const char *const relu[] = {"", "no_relu", "normal_relu", "scalar_relu", "vector_relu"};
      const pa_item *mode = pa_item_find(it->args, it->nargs, "mode"), *clip = pa_item_find(it->args, it->nargs, "clip");
      p->relu = (ptosim_relu_mode)word_arg(b, mode && mode->nargs == 2 ? &mode->args[1] : NULL, relu, 5);
      if (it->nargs && pt_is_operand(&it->args[0]))
        bind_payload(b, &it->args[0], &p->relu_vec, &p->relu_scalar, p->relu == PTOSIM_RELU_VECTOR);
      if (clip && clip->nargs == 2) {
        p->has_clip = true;
        p->clip = pt_bind_scalar(b, &clip->args[1]);
      }
    } else if (pa_item_is_word(it, "nz2nd")) {
      p->layout = PTOSIM_FIX_NZ2ND;
    } else if (it->kind == PA_IT_CALL && pa_str_is(it->name, "nz2dn")) {
      p->layout = PTOSIM_FIX_NZ2DN;
      p->loop0_src_stride = pt_bind_int(b, clause_arg(it, 0));
    } else if (pa_item_is_word(it, "nz2nz") || (it->kind == PA_IT_CALL && pa_str_is(it->name, "nz2nz"))) {
      p->layout = PTOSIM_FIX_NZ2NZ;
      if (it->kind == PA_IT_CALL && it->nargs) p->split = pt_bind_int(b, clause_arg(it, 0));
    } else if (it->kind == PA_IT_CALL && pa_str_is(it->name, "loop3")) {
      p->has_loop3 = true;
      if (bind_loop(b, it, &p->loop3)) return -1;
    } else if (pa_item_is_word(it, "sat")) {
      p->sat = PTOSIM_SAT_SAT;
    } else if (it->kind == PA_IT_CALL && pa_str_is(it->name, "sat")) {
      p->sat = PTOSIM_SAT_SAT_PRESERVE_NAN;
    } else if (pa_item_is_word(it, "nosat")) {
      p->sat = PTOSIM_SAT_NOSAT;
    } else if (it->kind == PA_IT_CALL && pa_str_is(it->name, "atomic") && gm) {
      static const char *const ops[] = {"", "add", "max", "min"};
      const pa_item *ty = pa_item_find(it->args, it->nargs, "type"), *o = pa_item_find(it->args, it->nargs, "op");
      p->atomic = (ptosim_atomic_op)word_arg(b, o && o->nargs == 2 ? &o->args[1] : NULL, ops, 4);
      if (ty && ty->nargs == 2) {
        const pa_item *t = &ty->args[1];
        const char *s = t->kind == PA_IT_TYPE && t->type ? t->type->text.s : t->text.s;
        size_t n = t->kind == PA_IT_TYPE && t->type ? t->type->text.n : t->text.n;
        p->atomic_type = !strncmp(s, "s32", n) ? PTOSIM_DT_I32 : !strncmp(s, "s16", n) ? PTOSIM_DT_I16
                         : !strncmp(s, "s8", n) ? PTOSIM_DT_I8 : pt_dtype_parse(s, (unsigned)n);
      }
    } else {
      return pt_bind_error(b, it, "bind.clause", "see the FIXPIPE clause list of the spec", "unknown clause '%.*s'",
                           (int)it->text.n, it->text.s);
    }
  }
  return 0;
}

/* Structs whose text form is a plain operand list in field order. */
typedef enum { F_PTR, F_INT, F_BOOL, F_U64 } field_kind;
typedef struct field {
  size_t off;
  field_kind kind;
} field;

static int bind_fields(pt_bind *b, const pa_op *op, void *p, const field *f, unsigned n) {
  if (expect_arity(b, op, n, n)) return -1;
  for (unsigned i = 0; i < n; i++) {
    char *dst = (char *)p + f[i].off;
    const pa_item *it = pt_operand_item(op, i);
    if (f[i].kind == F_PTR) {
      ptosim_ptr v = pt_bind_ptr(b, it);
      memcpy(dst, &v, sizeof v);
    } else if (f[i].kind == F_BOOL) {
      bool v = pt_bind_bool(b, it);
      memcpy(dst, &v, sizeof v);
    } else {
      int64_t v = pt_bind_int(b, it);
      memcpy(dst, &v, sizeof v);
    }
  }
  return 0;
}

#define FIELD(T, name, kind) {offsetof(T, name), kind}
#define BIND_FIELDS(T, ...)                                             \
  static int bind_##T(pt_bind *b, const pa_op *op, T *p) {              \
    static const field f[] = {__VA_ARGS__};                              \
    return bind_fields(b, op, p, f, (unsigned)(sizeof f / sizeof f[0])); \
  }

BIND_FIELDS(ptosim_copy_gm_ub_params, FIELD(ptosim_copy_gm_ub_params, src, F_PTR),
            FIELD(ptosim_copy_gm_ub_params, dst, F_PTR), FIELD(ptosim_copy_gm_ub_params, sid, F_INT),
            FIELD(ptosim_copy_gm_ub_params, n_burst, F_INT), FIELD(ptosim_copy_gm_ub_params, len_burst, F_INT),
            FIELD(ptosim_copy_gm_ub_params, left_pad, F_INT), FIELD(ptosim_copy_gm_ub_params, right_pad, F_INT),
            FIELD(ptosim_copy_gm_ub_params, data_select, F_BOOL), FIELD(ptosim_copy_gm_ub_params, l2_cache_ctl, F_INT),
            FIELD(ptosim_copy_gm_ub_params, src_stride, F_INT), FIELD(ptosim_copy_gm_ub_params, dst_stride, F_INT))
BIND_FIELDS(ptosim_copy_ub_gm_params, FIELD(ptosim_copy_ub_gm_params, src, F_PTR),
            FIELD(ptosim_copy_ub_gm_params, dst, F_PTR), FIELD(ptosim_copy_ub_gm_params, sid, F_INT),
            FIELD(ptosim_copy_ub_gm_params, n_burst, F_INT), FIELD(ptosim_copy_ub_gm_params, len_burst, F_INT),
            FIELD(ptosim_copy_ub_gm_params, reserved, F_INT), FIELD(ptosim_copy_ub_gm_params, dst_stride, F_INT),
            FIELD(ptosim_copy_ub_gm_params, src_stride, F_INT))
BIND_FIELDS(ptosim_copy_gm_l1_params, FIELD(ptosim_copy_gm_l1_params, src, F_PTR),
            FIELD(ptosim_copy_gm_l1_params, dst, F_PTR), FIELD(ptosim_copy_gm_l1_params, n_burst, F_INT),
            FIELD(ptosim_copy_gm_l1_params, len_burst, F_INT), FIELD(ptosim_copy_gm_l1_params, src_stride, F_INT),
            FIELD(ptosim_copy_gm_l1_params, dst_stride, F_INT))
BIND_FIELDS(ptosim_copy_gap_params, FIELD(ptosim_copy_gap_params, src, F_PTR), FIELD(ptosim_copy_gap_params, dst, F_PTR),
            FIELD(ptosim_copy_gap_params, sid, F_INT), FIELD(ptosim_copy_gap_params, n_burst, F_INT),
            FIELD(ptosim_copy_gap_params, len_burst, F_INT), FIELD(ptosim_copy_gap_params, src_gap, F_INT),
            FIELD(ptosim_copy_gap_params, dst_gap, F_INT))
/* Text order is loop2 first (see ops.h). */
BIND_FIELDS(ptosim_loop_size_params, FIELD(ptosim_loop_size_params, loop2_count, F_INT),
            FIELD(ptosim_loop_size_params, loop1_count, F_INT))
BIND_FIELDS(ptosim_loop_stride_params, FIELD(ptosim_loop_stride_params, src_stride, F_INT),
            FIELD(ptosim_loop_stride_params, dst_stride, F_INT))
BIND_FIELDS(ptosim_loop_reg_params, FIELD(ptosim_loop_reg_params, value, F_U64))

static int bind_ptosim_l0_raw_params(pt_bind *b, const pa_op *op, ptosim_l0_raw_params *p) {
  static const field f[] = {FIELD(ptosim_l0_raw_params, src, F_PTR),        FIELD(ptosim_l0_raw_params, dst, F_PTR),
                            FIELD(ptosim_l0_raw_params, m_start, F_INT),    FIELD(ptosim_l0_raw_params, k_start, F_INT),
                            FIELD(ptosim_l0_raw_params, m_step, F_INT),     FIELD(ptosim_l0_raw_params, k_step, F_INT),
                            FIELD(ptosim_l0_raw_params, src_stride, F_INT), FIELD(ptosim_l0_raw_params, dst_stride, F_INT)};
  p->transpose = dict_flag(op, "transpose");
  return bind_fields(b, op, p, f, 8);
}

static int bind_ptosim_reg_read_params(pt_bind *b, const pa_op *op, ptosim_reg_read_params *p) {
  if (expect_arity(b, op, 0, 0)) return -1;
  p->out = pt_bind_result_int(b);
  return 0;
}

/* pto.set_atomic_<op> / pto.set_atomic_<type>: the spelling names the field (no operands). */
static int bind_ptosim_atomic_mode_params(pt_bind *b, const pa_op *op, ptosim_atomic_mode_params *p) {
  static const struct { const char *name; ptosim_atomic_op op; ptosim_dtype type; } modes[] = {
      {"pto.set_atomic_none", PTOSIM_ATOMIC_NONE, PTOSIM_DT_NONE}, {"pto.set_atomic_add", PTOSIM_ATOMIC_ADD, PTOSIM_DT_NONE},
      {"pto.set_atomic_max", PTOSIM_ATOMIC_MAX, PTOSIM_DT_NONE},   {"pto.set_atomic_min", PTOSIM_ATOMIC_MIN, PTOSIM_DT_NONE},
      {"pto.set_atomic_f32", PTOSIM_ATOMIC_NONE, PTOSIM_DT_F32},   {"pto.set_atomic_f16", PTOSIM_ATOMIC_NONE, PTOSIM_DT_F16},
      {"pto.set_atomic_bf16", PTOSIM_ATOMIC_NONE, PTOSIM_DT_BF16}, {"pto.set_atomic_s32", PTOSIM_ATOMIC_NONE, PTOSIM_DT_I32},
      {"pto.set_atomic_s16", PTOSIM_ATOMIC_NONE, PTOSIM_DT_I16},   {"pto.set_atomic_s8", PTOSIM_ATOMIC_NONE, PTOSIM_DT_I8}};
  if (expect_arity(b, op, 0, 0)) return -1;
  for (size_t i = 0; i < sizeof modes / sizeof *modes; i++)
    if (pa_str_is(op->name, modes[i].name)) {
      p->op = modes[i].op;
      p->type = modes[i].type;
    }
  return 0;
}

static int bind_ptosim_pad_val_params(pt_bind *b, const pa_op *op, ptosim_pad_val_params *p) {
  if (expect_arity(b, op, 1, 1)) return -1;
  ptosim_scalar s = pt_bind_scalar(b, pt_operand_item(op, 0));
  p->dtype = s.dtype;
  p->bits = s.bits;
  return 0;
}

/* ---- synchronization ------------------------------------------------------------------- */

/* The symbol an item spells: "PIPE_V", PIPE_V, <PIPE_V>, #pto.pipe<PIPE_V>,
 * #pto.sync_op_type<TLOAD>; empty if it is none of these. */
static pa_str item_symbol(const pa_item *it) {
  pa_str none = {0};
  if (!it) return none;
  if (it->kind == PA_IT_STRING || it->kind == PA_IT_WORD) return it->name;
  if ((it->kind == PA_IT_ANGLE || it->kind == PA_IT_ATTR || it->kind == PA_IT_LIST) && it->nargs == 1)
    return item_symbol(&it->args[0]);
  return none;
}

/* A pipe, or a high-level sync op type standing for the pipe that runs it (PTOAS
 * lib/PTO/IR/PTOSyncUtils.cpp mapSyncOpTypeToPipe; record_event, wait_event,
 * barrier_sync, get_buf and rls_buf accept both). */
static ptosim_pipe bind_pipe(pt_bind *b, const pa_item *it) {
  static const struct {
    const char *name;
    ptosim_pipe pipe;
  } op_types[] = {{"TLOAD", PTOSIM_PIPE_MTE2},    {"TSTORE_VEC", PTOSIM_PIPE_MTE3}, {"TSTORE_ACC", PTOSIM_PIPE_FIX},
                  {"TMOV_M2L", PTOSIM_PIPE_MTE1}, {"TMOV_M2B", PTOSIM_PIPE_MTE1},   {"TMOV_M2S", PTOSIM_PIPE_FIX},
                  {"TMOV_M2V", PTOSIM_PIPE_V},    {"TMOV_V2M", PTOSIM_PIPE_FIX},    {"TMATMUL", PTOSIM_PIPE_M},
                  {"TVEC", PTOSIM_PIPE_V},        {"TVECWAIT_EVENT", PTOSIM_PIPE_V}};
  pa_str s = item_symbol(it);
  for (int i = 0; i <= PTOSIM_PIPE_ALL; i++)
    if (pa_str_is(s, ptosim_pipe_name((ptosim_pipe)i))) return (ptosim_pipe)i;
  for (size_t i = 0; i < sizeof op_types / sizeof op_types[0]; i++)
    if (pa_str_is(s, op_types[i].name)) return op_types[i].pipe;
  pt_bind_error(b, it, "bind.pipe", "name a pipe: PIPE_S, PIPE_MTE1, PIPE_MTE2, PIPE_MTE3, PIPE_M, PIPE_V, PIPE_FIX or PIPE_ALL",
                "expected a pipe, got '%.*s'", it ? (int)it->text.n : 0, it ? it->text.s : "");
  return PTOSIM_PIPE_S;
}

/* An event id: EVENT_ID<n> (any of the symbol spellings), or an operand. */
static int64_t bind_event(pt_bind *b, const pa_item *it) {
  pa_str s = item_symbol(it);
  if (s.n > 8 && !memcmp(s.s, "EVENT_ID", 8)) {
    int64_t v = 0;
    for (size_t i = 8; i < s.n; i++) {
      if (s.s[i] < '0' || s.s[i] > '9' || v > 1000) return pt_bind_error(b, it, "bind.event", "write EVENT_ID0..EVENT_ID7", "bad event id");
      v = v * 10 + (s.s[i] - '0');
    }
    return v;
  }
  return pt_bind_int(b, it);
}

/* set_flag["SRC", "DST", "EVENT_IDn"] (also <PIPE_X> spellings, and an index id for _dyn) */
static int bind_ptosim_flag_params(pt_bind *b, const pa_op *op, ptosim_flag_params *p) {
  const pa_item *l = op->nitems ? &op->items[0] : NULL;
  if (!l || l->kind != PA_IT_LIST || l->nargs != 3)
    return pt_bind_error(b, l, "bind.syntax", "write [\"PIPE_SRC\", \"PIPE_DST\", \"EVENT_IDn\"]",
                         "expects [src pipe, dst pipe, event id]");
  p->src_pipe = bind_pipe(b, &l->args[0]);
  p->dst_pipe = bind_pipe(b, &l->args[1]);
  p->event_id = bind_event(b, &l->args[2]);
  return 0;
}

/* pipe_barrier "PIPE_X" / barrier #pto.pipe<PIPE_X> / barrier <PIPE_X> / barrier(pipe_all) */
static int bind_ptosim_pipe_params(pt_bind *b, const pa_op *op, ptosim_pipe_params *p) {
  const pa_item *it = op->nitems ? &op->items[0] : NULL;
  if (it && it->kind == PA_IT_CALL && it->nargs == 1 && pa_item_is_word(&it->args[0], "pipe_all")) {
    p->pipe = PTOSIM_PIPE_ALL;
    return 0;
  }
  p->pipe = bind_pipe(b, it);
  return 0;
}

/* get_buf / rls_buf "PIPE_X", %buf_id[, %mode] : i64, i64 (ids may be literals); the tile
 * level spells it get_buf[#pto.pipe_event_type<TLOAD>, id] (mode 0). */
static int bind_ptosim_buf_params(pt_bind *b, const pa_op *op, ptosim_buf_params *p) {
  const pa_item *l = op->nitems ? &op->items[0] : NULL;
  if (l && l->kind == PA_IT_LIST && l->nargs == 2) {
    p->pipe = bind_pipe(b, &l->args[0]);
    p->buf_id = pt_bind_int(b, &l->args[1]);
    return 0;
  }
  if (expect_arity(b, op, 1, 2)) return -1;
  p->pipe = bind_pipe(b, op->nitems ? &op->items[0] : NULL);
  p->buf_id = pt_bind_int(b, pt_operand_item(op, 0));
  if (npos(op) == 2) p->mode = pt_bind_int(b, pt_operand_item(op, 1));
  return 0;
}

static int bind_ptosim_mem_bar_params(pt_bind *b, const pa_op *op, ptosim_mem_bar_params *p) {
  static const char *const names[] = {"VV_ALL", "VST_VLD", "VLD_VST", "VST_VST", "VS_ALL", "VST_LD",
                                      "VLD_ST", "VST_ST",  "SV_ALL",  "ST_VLD",  "LD_VST", "ST_VST"};
  pa_str s = item_symbol(op->nitems ? &op->items[0] : NULL);
  for (int i = 0; i < PTOSIM_MB_COUNT; i++)
    if (pa_str_is(s, names[i])) {
      p->kind = (ptosim_mem_bar_kind)i;
      return 0;
    }
  return pt_bind_error(b, op->nitems ? &op->items[0] : NULL, "bind.keyword", "see the barrier types of 01-pipeline-sync.md",
                       "unknown barrier type");
}

/* sync.set / sync.wait / set_intra_block / wait_intra_block <PIPE_X>, %id_or_literal */
static int bind_ptosim_core_sync_params(pt_bind *b, const pa_op *op, ptosim_core_sync_params *p) {
  if (expect_arity(b, op, 1, 1)) return -1;
  p->pipe = bind_pipe(b, op->nitems ? &op->items[0] : NULL);
  p->id = pt_bind_int(b, pt_operand_item(op, 0));
  return 0;
}

/* ---- dispatch by op ------------------------------------------------------------------- */

typedef int (*binder_fn)(pt_bind *, const pa_op *, void *);

/* Adapters to one signature, one per params struct that has a text binder. */
#define TEXT_BINDERS(X)                                                                                         \
  X(ptosim_dma_params) X(ptosim_gap_copy_params) X(ptosim_frac_params) X(ptosim_l0_load_params)                  \
  X(ptosim_mx_load_params) X(ptosim_mad_params) X(ptosim_fixpipe_params) X(ptosim_copy_gm_ub_params)              \
  X(ptosim_copy_ub_gm_params) X(ptosim_copy_gm_l1_params) X(ptosim_copy_gap_params) X(ptosim_loop_size_params)    \
  X(ptosim_loop_stride_params) X(ptosim_loop_reg_params) X(ptosim_l0_raw_params) X(ptosim_pad_val_params)         \
  X(ptosim_flag_params) X(ptosim_pipe_params) X(ptosim_buf_params) X(ptosim_mem_bar_params)                       \
  X(ptosim_core_sync_params) X(ptosim_reg_read_params) X(ptosim_atomic_mode_params) TILE_TEXT_BINDERS(X) VEC_TEXT_BINDERS(X) UB_VEC_TEXT_BINDERS(X) \
  VEC_SFU_TEXT_BINDERS(X) TILE_ELEM_TEXT_BINDERS(X) VEC_REDUCE_TEXT_BINDERS(X) TILE_REDUCE_TEXT_BINDERS(X) \
  TILE_PIPE_TEXT_BINDERS(X) QUANT_TEXT_BINDERS(X)
#define ADAPT(T) \
  static int adapt_##T(pt_bind *b, const pa_op *op, void *p) { return bind_##T(b, op, (T *)p); }
TEXT_BINDERS(ADAPT)
#undef ADAPT

/* Ops without a text form (the text column says CAPI). */
static int bind_unsupported(pt_bind *b, const pa_op *op, void *p) {
  (void)p;
  (void)op;
  return pt_bind_error(b, NULL, "op.unsupported", "PTOAS has no text form for it: call it through the C API",
                       "not supported yet in .pto text (C API only)");
}

/* The binder of a TEXT row is the one of its params struct: a row whose struct has none
 * does not compile. */
#define GENERIC_CASE(T) T * : adapt_##T,
#define BINDER_TEXT(T) _Generic((T *)0, TEXT_BINDERS(GENERIC_CASE) int *: NULL)
#define BINDER_LOWERED(T) bind_unsupported
#define BINDER_CAPI(T) bind_unsupported

static const binder_fn binders[PTOSIM_OP_COUNT] = {
#define PTOSIM_OP(id, spelling, family, pipe, unit, params_t, exec, text, cost, flags, formula) \
  [PTOSIM_OP_##id] = BINDER_##text(params_t),
#include "isa/ops.def"
#undef PTOSIM_OP
};

int pt_bind_op(pt_bind *b, ptosim_opcode opc, const pa_op *op, void *params) {
  b->op = op;
  b->opc = opc;
  if ((unsigned)opc >= PTOSIM_OP_COUNT || !binders[opc]) return pt_bind_error(b, NULL, "bind.op", NULL, "no binder");
  return binders[opc](b, op, params) || b->failed ? -1 : 0;
}

int ptosim_op_in_text(ptosim_opcode opc) {
  pt_op_text t = pt_op_text_of(opc);
  return t == PT_TEXT_TEXT || t == PT_TEXT_LOWERED;
}

/* ---- binding plans ------------------------------------------------------------------------ */

/* Probe value of operand k in probe set `set` (1, 2: distinct markers in every byte that
 * an integer or an address can carry; 0: zero), typed as the operand's static type. */
static pt_val probe_value(const pt_operand *o, int k, int set) {
  pt_val v;
  memset(&v, 0, sizeof v);
  if (o->t.kind == PT_VK_PTR) v.p = ptosim_ptr_make(o->t.space, o->t.dt, 0);
  /* 16-byte aligned, as a marker may stand for the address of a slot */
  if (set) v.i = (int64_t)((0x05EA100000000000ull * (uint64_t)set + 0x0000100010001001ull * (uint64_t)(k + 1) + (uint64_t)set) << 4);
  return v;
}

/* Bind op into params (execution mode) with the operand values of probe set `set`; -1 when
 * the binder failed or derived a field from a run-time value. */
static int probe_bind(const ptosim_program *prog, ptosim_opcode opc, const pa_op *op, int32_t first, int32_t count,
                      int set, pt_val *vals, unsigned char *params) {
  for (int32_t k = 0; k < count; k++) vals[k] = probe_value(&prog->operands[first + k], k, set);
  pt_bind b = {.lowering = 0, .prog = (ptosim_program *)prog, .first = first, .count = count, .probe = vals,
               .res_slot = -1, .res_obj = -1};
  memset(params, 0, PT_PARAMS_MAX);
  return pt_bind_op(&b, opc, op, params) || b.derived || b.pos != count ? -1 : 0;
}

pt_plan *pt_plan_build(const ptosim_program *prog, ptosim_opcode opc, const pa_op *op, int32_t first, int32_t count) {
  size_t size = pt_op_params_size(opc);
  if (count > 64 || size > PT_PARAMS_MAX) return NULL;
  pt_val vals[64];
  unsigned char p1[PT_PARAMS_MAX], p2[PT_PARAMS_MAX], q[PT_PARAMS_MAX];
  pt_patch patch[64];
  int32_t from[64]; /* the operand each patch was found for */
  uint32_t np = 0;
  for (int32_t k = 0; k < count; k++) {
    pt_vkind kind = (pt_vkind)prog->operands[first + k].t.kind;
    if (prog->operands[first + k].slot >= 0 && kind != PT_VK_INT && kind != PT_VK_PTR && !pt_wide_size(kind)) return NULL;
  }
  if (probe_bind(prog, opc, op, first, count, 1, vals, p1)) return NULL;
  /* Each run-time operand's marker must appear, 8-byte aligned, where the binder copied
   * it: an integer or a wide value's storage pointer as 8 bytes, a pointer as a whole
   * ptosim_ptr (address first), a result taken by address as the pointer (len 0). */
  for (int32_t k = 0; k < count; k++) {
    const pt_operand *o = &prog->operands[first + k];
    if (o->slot < 0) continue;
    uint16_t len = o->by_address ? 0 : o->t.kind == PT_VK_PTR ? (uint16_t)sizeof(ptosim_ptr) : (uint16_t)sizeof(int64_t);
    int found = 0;
    for (size_t off = 0; off + (len ? len : 8) <= size; off += 8) {
      if (memcmp(p1 + off, &vals[k], len ? len : 8)) continue;
      if (np == 64) return NULL;
      from[np] = k;
      patch[np++] = (pt_patch){.off = (uint16_t)off, .len = len, .slot = o->slot};
      found = 1;
    }
    if (!found) return NULL;
  }
  /* Verify: the template patched with the values of sets 2 and 0 equals the binder's
   * params for them, byte for byte. */
  for (int set = 2; set >= 0; set -= 2) {
    if (probe_bind(prog, opc, op, first, count, set, vals, p2)) return NULL;
    memcpy(q, p1, size);
    for (uint32_t i = 0; i < np; i++) memcpy(q + patch[i].off, &vals[from[i]], patch[i].len ? patch[i].len : 8);
    if (memcmp(q, p2, size)) return NULL;
  }
  pt_plan *pl = malloc(sizeof *pl + np * sizeof *patch + size);
  if (!pl) return NULL;
  pl->size = (uint32_t)size;
  pl->npatch = np;
  memcpy(pl->patch, patch, np * sizeof *patch);
  memcpy((unsigned char *)(pl->patch + np), p1, size);
  return pl;
}
