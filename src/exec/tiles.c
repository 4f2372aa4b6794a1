/* Tiles and GM views in .pto text: the ops that make, place and reshape them (PTOAS
 * include/PTO/IR/PTOOps.td: AllocTileOp, MakeTensorViewOp, PartitionViewOp, SubViewOp,
 * SubsetOp, TAssignOp, BitcastOp, SetValidShapeOp, GetValidShapeOp, GetTensorViewDim/StrideOp;
 * pto-isa TALIAS).
 * They move no data: each computes a ptosim_tile or ptosim_gm_view into the object its
 * result owns (see pt_obj in prog.h). */
#include <stdio.h>
#include <string.h>

#include "asm/asm.h"
#include "core/diag.h"
#include "core/dtype.h"
#include "core/profile.h"
#include "asm/parser.h" /* pa_arena_alloc: the inferred result type of pto.subset */
#include "exec/tiles.h"

enum obj_sub {
  OBJ_ALLOC,        /* operands [addr] [valid_row] [valid_col] (flags: which are present) */
  OBJ_TENSOR_VIEW,  /* ptr, shape x bits, strides x bits; flags: 1 + layout when spelled */
  OBJ_PARTITION,    /* view, offsets x bits, sizes x bits */
  OBJ_TILE_SUBVIEW, /* tile, row offset, col offset [valid_row, valid_col] */
  OBJ_TASSIGN,      /* tile, addr */
  OBJ_BITCAST,      /* tile */
  OBJ_SET_VALID,    /* tile, valid_row, valid_col */
  OBJ_GET_VALID,    /* tile -> dst, dst + 1 */
  OBJ_VIEW_DIM,     /* view, dim -> dst */
  OBJ_VIEW_STRIDE,  /* view, dim -> dst */
  OBJ_MEMREF_ALLOC, /* memref.alloc: lowered as OBJ_ALLOC of the tile its type describes */
  OBJ_DECLARE,      /* pto.declare_tile: lowered as OBJ_ALLOC at address 0 (a pto.tpop places it) */
  OBJ_SUBSET,       /* tile, row offset, col offset; the sizes are the result type's shape, a / b
                       the parent type's rows / cols */
  OBJ_TALIAS,       /* tile -> new object, or (flags ALIAS_DPS) tile, dst tile */
  OBJ_MULTI_ALLOC,  /* as OBJ_ALLOC; the object is slot 0, bits = the number of slots */
  OBJ_MULTI_GET,    /* multi tile, slot; bits = the number of slots */
  OBJ_DECLARE_GLOBAL, /* pto.declare_global: a view of its type's shape at GM 0 (a pto.talloc / tpop places it) */
  OBJ_VIEW_PARAM,    /* a kernel parameter of a view type: ptr (the host's buffer); the view is the type's */
  OBJ_BUF_ADDR       /* tile -> dst: a pointer to the tile's data */
};

enum { HAS_ADDR = 1, HAS_VROW = 2, HAS_VCOL = 4, ALIAS_DPS = 1 };

/* ---- types ---------------------------------------------------------------------------- */

ptosim_tile pt_tile_of_type(const pa_type *t) {
  const pa_tile_buf *tb = &t->tb;
  ptosim_tile r = {
      .space = pt_space_of_aspace(tb->loc),
      .dtype = pt_elem_dtype(tb->dtype),
      .rows = (int32_t)tb->rows,
      .cols = (int32_t)tb->cols,
      .blayout = tb->blayout == PA_BL_COL_MAJOR ? PTOSIM_BL_COL_MAJOR : PTOSIM_BL_ROW_MAJOR,
      .slayout = (ptosim_slayout)tb->slayout, /* pa_slayout and ptosim_slayout share the order */
      .fractal = (int32_t)tb->fractal,
      .pad = (ptosim_pad_value)tb->pad,
      .compact = (int32_t)tb->compact,
  };
  r.valid_rows = tb->v_row == PA_DYN ? r.rows : (int32_t)tb->v_row;
  r.valid_cols = tb->v_col == PA_DYN ? r.cols : (int32_t)tb->v_col;
  r.dyn_valid = (tb->v_row == PA_DYN ? PTOSIM_DYN_VALID_ROWS : 0) | (tb->v_col == PA_DYN ? PTOSIM_DYN_VALID_COLS : 0);
  return r;
}

/* Bytes of a tile's rows x cols elements; UINT64_MAX when that does not fit 64 bits
 * (rows x cols < 2^62, times up to 64 bits per element). */
uint64_t pt_tile_bytes(const ptosim_tile *t) {
  uint64_t elems = (uint64_t)t->rows * (uint64_t)t->cols, bits = pt_dtype_bits(t->dtype);
  if (bits && elems > (UINT64_MAX - 7) / bits) return UINT64_MAX;
  return (elems * bits + 7) / 8;
}

void pt_view_infer_layout(ptosim_gm_view *v, ptosim_gm_layout prefer) {
  const int64_t *sh = v->shape, *st = v->stride;
  int64_t es = pt_dtype_size(v->dtype);
  if (sh[2] == 16 && 16 * sh[3] * es == 512 && st[4] == 1 && st[3] == sh[4]) {
    v->layout = PTOSIM_GL_NZ;
    return;
  }
  int64_t rows = sh[3], cols = sh[4], rs = st[3], cs = st[4];
  int nd = (cols == 1 || cs == 1) && (rows == 1 || (cols == 1 ? rs == 1 : rs == cols));
  int dn = (rows == 1 || rs == 1) && (cols == 1 || (rows == 1 ? cs == 1 : cs == rows));
  if (nd && dn && (prefer == PTOSIM_GL_ND || prefer == PTOSIM_GL_DN)) v->layout = prefer;
  else if (nd && dn) v->layout = cols == 1 && rows != 1 ? PTOSIM_GL_DN : PTOSIM_GL_ND;
  else v->layout = dn ? PTOSIM_GL_DN : PTOSIM_GL_ND;
}

/* ---- lowering --------------------------------------------------------------------------- */

static const char *const obj_names[] = {
    [OBJ_ALLOC] = "pto.alloc_tile",        [OBJ_TENSOR_VIEW] = "pto.make_tensor_view",
    [OBJ_PARTITION] = "pto.partition_view", [OBJ_TILE_SUBVIEW] = "pto.subview",
    [OBJ_TASSIGN] = "pto.tassign",          [OBJ_BITCAST] = "pto.bitcast",
    [OBJ_SET_VALID] = "pto.set_validshape", [OBJ_GET_VALID] = "pto.get_validshape",
    [OBJ_VIEW_DIM] = "pto.get_tensor_view_dim", [OBJ_VIEW_STRIDE] = "pto.get_tensor_view_stride",
    [OBJ_MEMREF_ALLOC] = "memref.alloc",      [OBJ_DECLARE] = "pto.declare_tile",
    [OBJ_SUBSET] = "pto.subset",
    [OBJ_TALIAS] = "pto.talias",            [OBJ_MULTI_ALLOC] = "pto.alloc_multi_tile",
    [OBJ_MULTI_GET] = "pto.multi_tile_get", [OBJ_DECLARE_GLOBAL] = "pto.declare_global",
    [OBJ_VIEW_PARAM] = "view parameter",   [OBJ_BUF_ADDR] = "pto.tile_buf_addr"};

typedef struct obj_low {
  pt_lower *L;
  const pa_op *op;
  pt_ins in;
  pt_bind b; /* records the operands and checks their kinds, as for the table ops */
  int failed;
} obj_low;

/* Append operand `it` (an SSA value or a literal) to the instruction, expecting kind `want`. */
static void add(obj_low *o, const pa_item *it, pt_vkind want) {
  if (o->failed) return;
  switch (want) {
  case PT_VK_PTR: pt_bind_ptr(&o->b, it); break;
  case PT_VK_TILE: pt_bind_tile(&o->b, it); break;
  case PT_VK_VIEW: pt_bind_view(&o->b, it, NULL); break;
  default: pt_bind_int(&o->b, it); break;
  }
  if (o->b.failed) o->failed = -1;
}

/* Operands of a `key = [a, b, ...]` clause; returns their count. */
static int add_list(obj_low *o, const char *key, pt_vkind want) {
  /* `key = [..]`, or `key [..]` (the tile form of pto.subview) */
  const pa_item *c = pa_op_clause(o->op, key), *l = NULL;
  if (c && c->kind == PA_IT_ASSIGN && c->nargs == 2) l = &c->args[1];
  else if (c && c->kind == PA_IT_WORD && c + 1 < o->op->items + o->op->nitems) l = c + 1;
  if (!l || l->kind != PA_IT_LIST) {
    if (!o->failed)
      o->failed = pt_lower_errorf(o->L, o->op->loc, "bind.clause", "see the op's syntax in PTOOps.td",
                                  "%.*s: missing `%s = [...]`", (int)o->op->name.n, o->op->name.s, key);
    return 0;
  }
  for (uint32_t i = 0; i < l->nargs; i++) add(o, &l->args[i], want);
  return (int)l->nargs;
}

static const pa_type *result_type_of(obj_low *o, pa_type_kind kind) {
  const pa_type *t = pt_lower_result_type(o->op, 0);
  if (!o->failed && (!t || t->kind != kind))
    o->failed = pt_lower_errorf(o->L, o->op->loc, "ir.type", "give the result type after `:` or `->`",
                                "%.*s: missing or wrong result type", (int)o->op->name.n, o->op->name.s);
  return o->failed ? NULL : t;
}

/* Define the op's single result (of type t) as a new object with static part `tmpl`. */
static void result_obj(obj_low *o, const pa_type *t, const pt_obj *tmpl) {
  pt_slot_type st = pt_slot_type_of(t);
  o->in.obj = pt_lower_new_obj(o->L, tmpl);
  o->in.dst = pt_lower_define_results(o->L, o->op, &st, 1);
}

static int find_sub(const pa_op *op) {
  for (int i = 0; i < (int)(sizeof obj_names / sizeof obj_names[0]); i++)
    if (pa_str_is(op->name, obj_names[i])) return i;
  return -1;
}

/* A tile type's static checks, at its op. */
static void check_tile_type(obj_low *o, const pa_type *t) {
  ptosim_tile r = pt_tile_of_type(t);
  if (!o->failed && (r.dtype == PTOSIM_DT_NONE || r.rows <= 0 || r.cols <= 0))
    o->failed = pt_lower_errorf(o->L, o->op->loc, "tile.type", "use a dtype ptosim knows and a positive shape",
                                "%.*s: unsupported tile element type or shape", (int)o->op->name.n, o->op->name.s);
}

/* A tile without addr (pto.alloc_tile, memref.alloc; `count` slots of a multi tile): the
 * next free bytes of its space, aligned as the profile requires (bump placement), and the
 * instruction marked PT_INS_PLANNED. A space the bump overflows is placed again by liveness
 * once the function is lowered (plan.c); a tile larger than the whole space never fits. */
static void place_without_addr(obj_low *o, ptosim_tile *t, unsigned count) {
  if (o->failed) return;
  ptosim_program *p = pt_lower_program(o->L);
  const pt_profile *prof = pt_profile_get(p->target);
  uint64_t *next = &p->alloc_next[t->space], a = prof->align[t->space], cap = prof->capacity[t->space], bytes = pt_tile_bytes(t);
  if (bytes > cap / count) {
    o->failed = pt_lower_errorf(o->L, o->op->loc, "tile.capacity", "use a smaller tile or another memory",
                                "%s: %u tile(s) of %llu bytes never fit %s, which has %llu bytes on %s", obj_names[o->in.sub], count,
                                (unsigned long long)bytes, pt_space_name(t->space), (unsigned long long)cap, prof->name);
    return;
  }
  t->addr = (*next + a - 1) / a * a; /* *next <= the sum of tiles of at most cap bytes each: no overflow */
  *next = t->addr + bytes * count;
  o->in.flags |= PT_INS_PLANNED;
}

/* pto.alloc_tile, and pto.alloc_multi_tile (toni PTOOps.td AllocMultiTileOp, PTO_IR_manual
 * `pto.alloc_multi_tile`): N slots of the slot tile's bytes, slot k at addr + k * bytes; the
 * object is slot 0. The manual's verifier rules: 2 <= N <= 16, no row_plus_one slots (their
 * strided footprint exceeds the slot bytes). */
static void lower_alloc(obj_low *o) {
  int multi = o->in.sub == OBJ_MULTI_ALLOC;
  const pa_type *t = result_type_of(o, multi ? PA_TY_MULTI_TILE_BUF : PA_TY_TILE_BUF);
  if (!t) return;
  check_tile_type(o, t);
  if (multi && !o->failed && (t->count < 2 || t->count > 16 || t->tb.compact == 2))
    o->failed = pt_lower_errorf(o->L, o->op->loc, "tile.multi", "give 2 to 16 slots of a layout other than compact=row_plus_one",
                                "pto.alloc_multi_tile: %u slots of compact mode %u", (unsigned)t->count, (unsigned)t->tb.compact);
  o->in.bits = (uint8_t)(multi ? t->count : 1);
  static const char *const keys[] = {"addr", "valid_row", "valid_col"};
  for (int i = 0; i < 3; i++) {
    const pa_item *c = pa_op_clause(o->op, keys[i]);
    if (!c) continue;
    add(o, c->kind == PA_IT_ASSIGN && c->nargs == 2 ? &c->args[1] : NULL, PT_VK_INT);
    o->in.flags |= (uint8_t)(1u << i);
  }
  for (uint32_t i = 0; i < o->op->nitems && !o->failed; i++) { /* a misspelt key is no address */
    const pa_item *it = &o->op->items[i];
    if (it->kind != PA_IT_DICT && !pa_str_is(it->name, keys[0]) && !pa_str_is(it->name, keys[1]) &&
        !pa_str_is(it->name, keys[2]))
      o->failed = pt_lower_errorf(o->L, it->loc, "bind.clause", "the clauses are addr = %a, valid_row = %r and valid_col = %c",
                                  "%s: unknown clause '%.*s'", obj_names[o->in.sub], (int)it->text.n, it->text.s);
  }
  pt_obj tmpl = {.tile = pt_tile_of_type(t)};
  if (!(o->in.flags & HAS_ADDR)) place_without_addr(o, &tmpl.tile, o->in.bits);
  result_obj(o, t, &tmpl);
}

/* %t = pto.declare_tile -> T: a tile of type T whose address a later op gives (pto.tpop). */
static void lower_declare(obj_low *o) {
  const pa_type *t = result_type_of(o, PA_TY_TILE_BUF);
  if (!t) return;
  check_tile_type(o, t);
  pt_obj tmpl = {.tile = pt_tile_of_type(t)};
  o->in.sub = OBJ_ALLOC;
  result_obj(o, t, &tmpl);
}

pa_str pt_memref_space(const pa_type *t) {
  pa_str none = {"", 0};
  for (uint32_t i = 0; t && t->kind == PA_TY_MEMREF && i < t->nextra; i++)
    if (t->extra[i].kind == PA_IT_ATTR && pa_str_is(t->extra[i].name, "pto.address_space")) return t->extra[i].body;
  return none;
}

/* The `strided<[s0, s1, ...], offset: o>` layout of a memref type: each static stride into
 * stride[k] (k < rank, `?` leaves stride[k] as it is) and a static offset into *offset (`?`
 * leaves it). Returns -1 when the text is not of that form or a value is negative. */
static int memref_strides(const pa_type *t, int64_t *stride, int64_t *offset) {
  const pa_item *l = NULL;
  for (uint32_t i = 0; i < t->nextra; i++)
    if (t->extra[i].kind == PA_IT_ANGLE && pa_str_is(t->extra[i].name, "strided")) l = &t->extra[i];
  if (!l) return 0;
  const char *c = l->body.s, *end = c + l->body.n;
  int64_t *dst = stride;
  for (int k = 0; c < end; c++) {
    if (*c == '?') k++;
    else if (*c >= '0' && *c <= '9') {
      int64_t v = 0;
      for (; c < end && *c >= '0' && *c <= '9'; c++)
        if (v > (INT64_MAX - 9) / 10) return -1;
        else v = v * 10 + (*c - '0');
      c--;
      if (dst == offset) *offset = v;
      else if (k < t->rank) dst[k++] = v;
      else return -1;
    } else if (*c == '-') return -1;
    else if (*c == ']') dst = offset; /* what follows is `, offset: o` */
  }
  return 0;
}

int pt_view_obj_of_type(const pa_type *t, pt_obj *o) {
  memset(o, 0, sizeof *o);
  int memref = t && t->kind == PA_TY_MEMREF && pa_str_is(pt_memref_space(t), "gm");
  if (!t || (t->kind != PA_TY_TENSOR_VIEW && t->kind != PA_TY_PART_VIEW && !memref) || t->rank < 1 || t->rank > PTOSIM_VIEW_DIMS) return -1;
  ptosim_gm_view *v = &o->view;
  v->dtype = pt_elem_dtype(t->elem);
  o->rank = (int8_t)t->rank;
  for (int i = PTOSIM_VIEW_DIMS - 1, k = t->rank - 1; i >= 0; i--, k--) {
    v->shape[i] = k >= 0 ? t->dims[k] : 1;
    if (v->shape[i] <= 0 || v->shape[i] > INT32_MAX) return -1; /* `?` or out of range */
    v->stride[i] = i == PTOSIM_VIEW_DIMS - 1 ? 1 : v->shape[i + 1] * v->stride[i + 1]; /* both <= 2^31 - 1 */
    if (v->stride[i] > INT32_MAX) return -1;
  }
  int64_t offset = 0; /* elements; kept in v->addr as bytes (the base is added at run time) */
  if (memref && memref_strides(t, v->stride + PTOSIM_VIEW_DIMS - t->rank, &offset)) return -1;
  for (int i = 0; i < PTOSIM_VIEW_DIMS; i++)
    if (v->stride[i] > INT32_MAX) return -1;
  if (offset > INT32_MAX) return -1;
  v->addr = (uint64_t)offset * pt_dtype_size(v->dtype);
  pt_view_infer_layout(v, PTOSIM_GL_ND);
  return v->dtype == PTOSIM_DT_NONE ? -1 : 0;
}

int pt_lower_view_param(pt_lower *L, const pa_op *func, const pa_arg *arg, int32_t ptr_slot, int32_t view_slot) {
  pt_obj tmpl;
  if (pt_view_obj_of_type(arg->type, &tmpl)) {
    pt_lower_errorf(L, arg->loc, "run.param_type", "give the view a static shape, non-negative static strides and a known element type",
                    "a view parameter of the entry function needs a static shape");
    return -1;
  }
  ptosim_program *p = pt_lower_program(L);
  pt_ins in = {.code = PT_C_OBJ, .sub = OBJ_VIEW_PARAM, .src = func, .dst = view_slot, .op_first = p->noperands, .op_count = 1};
  if (pt_lower_add_operand(L, (pt_operand){.slot = ptr_slot, .t = p->slots[ptr_slot]})) return -1;
  in.obj = pt_lower_new_obj(L, &tmpl);
  return pt_lower_emit(L, in) < 0 ? -1 : 0;
}

/* %e = pto.declare_global -> !pto.tensor_view<MxNxT>: a row-major view of that static shape
 * whose GM address a later op gives (pto.talloc, pto.tpop). */
static void lower_declare_global(obj_low *o) {
  const pa_type *t = pt_lower_result_type(o->op, 0);
  pt_obj tmpl;
  if (pt_view_obj_of_type(t, &tmpl)) {
    o->failed = pt_lower_errorf(o->L, o->op->loc, "view.type", "write -> !pto.tensor_view<MxNxT> of a static shape and a known dtype",
                                "pto.declare_global: the result is not a tensor view of a static shape");
    return;
  }
  result_obj(o, t, &tmpl);
}

/* %b = memref.alloc() : memref<RxCxT, #pto.address_space<vec>> (older PTOAS samples): a
 * row-major tile of that shape in that space, placed as alloc_tile without addr places it.
 * A 1-D memref is one row. */
static void lower_memref_alloc(obj_low *o) {
  const pa_type *t = result_type_of(o, PA_TY_MEMREF);
  if (!t) return;
  pa_str sp = pt_memref_space(t);
  static const char *const locs[] = {"vec", "mat", "left", "right", "acc"};
  static const pa_aspace spaces[] = {PA_AS_VEC, PA_AS_MAT, PA_AS_LEFT, PA_AS_RIGHT, PA_AS_ACC};
  int loc = -1;
  for (int i = 0; i < 5; i++)
    if (pa_str_is(sp, locs[i])) loc = i;
  if (loc < 0 || t->rank < 1 || t->rank > 2 || t->dims[0] == PA_DYN || t->dims[t->rank - 1] == PA_DYN) {
    o->failed = pt_lower_errorf(o->L, o->op->loc, "op.unsupported", "give a static 1-D or 2-D shape and #pto.address_space<vec|mat|left|right|acc>",
                                "not supported yet: memref.alloc of this type (only local buffers of a static shape become tiles)");
    return;
  }
  pt_obj tmpl = {.tile = {.space = pt_space_of_aspace(spaces[loc]), .dtype = pt_elem_dtype(t->elem), .rows = t->rank == 2 ? (int32_t)t->dims[0] : 1,
                          .cols = (int32_t)t->dims[t->rank - 1], .fractal = 512}};
  tmpl.tile.valid_rows = tmpl.tile.rows;
  tmpl.tile.valid_cols = tmpl.tile.cols;
  pt_slot_type st = {.kind = PT_VK_TILE, .dt = tmpl.tile.dtype, .space = tmpl.tile.space, .decl = t};
  if (tmpl.tile.dtype == PTOSIM_DT_NONE)
    o->failed = pt_lower_errorf(o->L, o->op->loc, "tile.type", "use an element type ptosim knows", "memref.alloc: unsupported element type");
  place_without_addr(o, &tmpl.tile, 1);
  if (o->failed) return;
  o->in.sub = OBJ_ALLOC;
  o->in.obj = pt_lower_new_obj(o->L, &tmpl);
  o->in.dst = pt_lower_define_results(o->L, o->op, &st, 1);
}

static void lower_tensor_view(obj_low *o) {
  const pa_type *t = result_type_of(o, PA_TY_TENSOR_VIEW);
  add(o, pt_operand_item(o->op, 0), PT_VK_PTR);
  int n = add_list(o, "shape", PT_VK_INT);
  if (add_list(o, "strides", PT_VK_INT) != n || n < 1 || n > PTOSIM_VIEW_DIMS) {
    if (!o->failed)
      o->failed = pt_lower_errorf(o->L, o->op->loc, "view.rank", "give 1 to 5 dimensions, one stride each",
                                  "pto.make_tensor_view: shape and strides must have the same 1 to 5 entries");
    return;
  }
  o->in.bits = (uint8_t)n;
  for (uint32_t k = 0; k < o->op->nitems; k++) {
    const pa_item *d = &o->op->items[k], *l = d->kind == PA_IT_DICT ? pa_dict_get(d, "layout") : NULL;
    if (!l) continue;
    /* PTOAS's Layout enum (tonibohnlein PTOAttrs.td PTO_LayoutEnum), flags = 1 + the ptosim layout */
    static const struct {
      const char *name;
      ptosim_gm_layout layout;
    } names[] = {{"nd", PTOSIM_GL_ND}, {"dn", PTOSIM_GL_DN}, {"nz", PTOSIM_GL_NZ},
                 {"mx_a_zz", PTOSIM_GL_MX_A_ZZ}, {"mx_b_nn", PTOSIM_GL_MX_B_NN}};
    for (size_t i = 0; i < sizeof names / sizeof *names; i++)
      if (l->kind == PA_IT_ATTR && l->nargs && pa_item_is_word(&l->args[l->nargs - 1], names[i].name))
        o->in.flags = (uint8_t)(1 + names[i].layout);
    if (!o->in.flags && !o->failed)
      o->failed = pt_lower_errorf(o->L, l->loc, "view.layout", "write #pto.layout<nd>, <dn>, <nz>, <mx_a_zz> or <mx_b_nn>",
                                  "pto.make_tensor_view: unknown layout '%.*s'", (int)l->text.n, l->text.s);
  }
  if (t && !o->failed) {
    pt_obj tmpl = {.rank = (int8_t)n, .view = {.dtype = pt_elem_dtype(t->elem)}};
    result_obj(o, t, &tmpl);
  }
}

/* pto.partition_view %v, offsets = [..], sizes = [..] and the older pto.subview of a view
 * (sizes as literals). */
static void lower_partition(obj_low *o) {
  const pa_item *src = pt_operand_item(o->op, 0);
  add(o, src, PT_VK_VIEW);
  int n = add_list(o, "offsets", PT_VK_INT);
  if (add_list(o, "sizes", PT_VK_INT) != n && !o->failed)
    o->failed = pt_lower_errorf(o->L, o->op->loc, "view.rank", "give one size per offset",
                                "%.*s: offsets and sizes differ in length", (int)o->op->name.n, o->op->name.s);
  if (o->failed) return;
  o->in.bits = (uint8_t)n;
  pt_obj tmpl = {.rank = (int8_t)n};
  const ptosim_program *p = pt_lower_program(o->L);
  const pa_type *t = pt_lower_result_type(o->op, 0); /* `-> T`, else the source's type */
  if (!t || pt_slot_type_of(t).kind != PT_VK_VIEW) t = p->slots[p->operands[o->in.op_first].slot].decl;
  result_obj(o, t, &tmpl);
}

/* %s = pto.subview %tile[%r, %c] sizes [R, C] [valid = ...] : T -> R */
static void lower_tile_subview(obj_low *o, const pa_item *src) {
  const pa_type *t = result_type_of(o, PA_TY_TILE_BUF);
  add(o, src, PT_VK_TILE);
  if (src->nargs != 2 && !o->failed)
    o->failed = pt_lower_errorf(o->L, src->loc, "bind.arity", "write %tile[%row, %col]", "pto.subview: needs two offsets");
  for (uint32_t i = 0; i < src->nargs && i < 2; i++) add(o, &src->args[i], PT_VK_INT);
  const pa_item *vr = pa_op_clause(o->op, "valid_row"), *vc = pa_op_clause(o->op, "valid_col");
  if (vr && vc && vr->kind == PA_IT_ASSIGN && vc->kind == PA_IT_ASSIGN) {
    add(o, &vr->args[1], PT_VK_INT);
    add(o, &vc->args[1], PT_VK_INT);
    o->in.flags = HAS_VROW | HAS_VCOL;
  }
  if (!t || o->failed) return;
  check_tile_type(o, t);
  pt_obj tmpl = {.tile = pt_tile_of_type(t)};
  result_obj(o, t, &tmpl);
}

/* %s = pto.subset %tile[%r, %c] sizes [R, C] : T (PTOAS SubsetOp). The type after `:` is the
 * parent's; the result's (PTOAS infers it) is the parent's with shape R x C, made here in the
 * AST's arena so that later uses are checked against it. */
static void lower_subset(obj_low *o, const pa_item *src) {
  add(o, src, PT_VK_TILE);
  if (src->nargs != 2 && !o->failed)
    o->failed = pt_lower_errorf(o->L, src->loc, "bind.arity", "write %tile[%row, %col]", "pto.subset: needs two offsets");
  for (uint32_t i = 0; i < src->nargs && i < 2; i++) add(o, &src->args[i], PT_VK_INT);
  const pa_item *c = pa_op_clause(o->op, "sizes");
  const pa_item *l = c && c->kind == PA_IT_WORD && c + 1 < o->op->items + o->op->nitems ? c + 1 : NULL;
  int ok = l && l->kind == PA_IT_LIST && l->nargs == 2;
  for (uint32_t i = 0; ok && i < 2; i++) ok = l->args[i].kind == PA_IT_INT && l->args[i].v.i > 0 && l->args[i].v.i <= INT32_MAX;
  if (!ok && !o->failed)
    o->failed = pt_lower_errorf(o->L, o->op->loc, "bind.clause", "write sizes [ROWS, COLS] with two positive integers",
                                "pto.subset: missing or malformed `sizes [R, C]`");
  const pa_type *parent = o->failed ? NULL : pt_bind_value_type(&o->b, src);
  if (!parent || parent->kind != PA_TY_TILE_BUF) return;
  pa_type *t = pa_arena_alloc(pt_lower_program(o->L)->ast->arena, sizeof *t);
  if (!t) {
    o->failed = pt_lower_errorf(o->L, o->op->loc, "bind.nomem", NULL, "pto.subset: out of memory");
    return;
  }
  *t = *parent;
  t->text = (pa_str){0};
  t->tb.rows = t->tb.v_row = l->args[0].v.i;
  t->tb.cols = t->tb.v_col = l->args[1].v.i;
  o->in.a = (int32_t)parent->tb.rows; /* the parent's own shape: a window's tile keeps its stride instead */
  o->in.b = (int32_t)parent->tb.cols;
  pt_obj tmpl = {.tile = pt_tile_of_type(t)};
  result_obj(o, t, &tmpl);
}

static void lower_retile(obj_low *o, int with_addr);

/* %s = pto.multi_tile_get %m[%k] : MT -> T, T the slot type of MT (toni MultiTileGetOp). */
static void lower_multi_get(obj_low *o, const pa_item *src) {
  const pa_type *t = result_type_of(o, PA_TY_TILE_BUF);
  add(o, src, PT_VK_TILE);
  if (src->nargs == 1) add(o, &src->args[0], PT_VK_INT);
  else if (!o->failed)
    o->failed = pt_lower_errorf(o->L, src->loc, "bind.arity", "write %multi[%slot]", "pto.multi_tile_get: needs one slot index");
  const pa_type *m = o->failed ? NULL : pt_bind_value_type(&o->b, src);
  if (!t || !m) return;
  pa_type slot = *m;
  slot.kind = PA_TY_TILE_BUF;
  slot.count = 0;
  if (m->kind != PA_TY_MULTI_TILE_BUF || !pa_type_equal(&slot, t)) {
    o->failed = pt_lower_errorf(o->L, o->op->loc, "ir.type", "pick from a pto.alloc_multi_tile value, with its slot type after `->`",
                                "pto.multi_tile_get: the result type must be the slot type of a !pto.multi_tile_buf source");
    return;
  }
  o->in.bits = (uint8_t)m->count;
  check_tile_type(o, t);
  pt_obj tmpl = {.tile = pt_tile_of_type(t)};
  result_obj(o, t, &tmpl);
}

/* pto.talias (pto-isa TALIAS(dst, src), docs/isa/tile/sync-and-config.md): an alias view of
 * the source's storage. `%d = pto.talias %s : T -> U` makes a new tile of type U;
 * `pto.talias ins(%s : T) outs(%d : U)` points the existing tile %d (and its aliases) there. */
static void lower_talias(obj_low *o) {
  const pa_item *ins = pa_op_clause(o->op, "ins"), *outs = pa_op_clause(o->op, "outs");
  if (!ins && !outs) {
    lower_retile(o, 0);
    return;
  }
  if (!(ins && outs && ins->kind == PA_IT_CALL && outs->kind == PA_IT_CALL && ins->nargs == 1 && outs->nargs == 1)) {
    o->failed = pt_lower_errorf(o->L, o->op->loc, "bind.arity", "write pto.talias ins(%src : T) outs(%dst : U)",
                                "pto.talias: needs one tile in ins(...) and one in outs(...)");
    return;
  }
  add(o, &ins->args[0], PT_VK_TILE);
  add(o, &outs->args[0], PT_VK_TILE);
  o->in.flags = ALIAS_DPS;
}

/* tassign / bitcast / talias: a tile result of the op's result type. */
static void lower_retile(obj_low *o, int with_addr) {
  const pa_type *t = result_type_of(o, PA_TY_TILE_BUF);
  add(o, pt_operand_item(o->op, 0), PT_VK_TILE);
  if (with_addr) add(o, pt_operand_item(o->op, 1), PT_VK_INT);
  if (!t || o->failed) return;
  check_tile_type(o, t);
  pt_obj tmpl = {.tile = pt_tile_of_type(t)};
  result_obj(o, t, &tmpl);
}

static void lower_query(obj_low *o, pt_vkind src_kind, int nresults) {
  add(o, pt_operand_item(o->op, 0), src_kind);
  if (nresults == 1) add(o, pt_operand_item(o->op, 1), PT_VK_INT);
  /* PTOOps.td: valid_row / valid_col, dims and strides are index results */
  const pt_slot_type index = {.kind = PT_VK_INT, .bits = 64, .is_index = 1, .dt = PTOSIM_DT_I64};
  pt_slot_type idx[2] = {index, index};
  o->in.dst = pt_lower_define_results(o->L, o->op, idx, nresults);
}

/* %p = pto.tile_buf_addr %tile : T -> !pto.ptr<E, space> (tonibohnlein VPTOOps.td TileBufAddrOp,
 * Pure): the address of the tile's data as a pointer; E and space are the tile's
 * (TileBufAddrOp::verify). The memref result form is not modelled. */
static void lower_buf_addr(obj_low *o, const pa_item *tile) {
  add(o, tile, PT_VK_TILE);
  const pa_type *tt = tile ? pt_bind_value_type(&o->b, tile) : NULL, *rt = pt_lower_result_type(o->op, 0);
  if (!o->failed && rt && rt->kind == PA_TY_MEMREF)
    o->failed = pt_lower_errorf(o->L, o->op->loc, "op.unsupported", "ask for a !pto.ptr<T, space> result",
                                "not supported yet: pto.tile_buf_addr with a memref result");
  rt = result_type_of(o, PA_TY_PTR);
  if (o->failed) return;
  pt_slot_type t = pt_slot_type_of(rt);
  if (tt && tt->kind == PA_TY_TILE_BUF && (t.dt != pt_elem_dtype(tt->tb.dtype) || t.space != pt_space_of_aspace(tt->tb.loc))) {
    o->failed = pt_lower_errorf(o->L, o->op->loc, "ir.type", "give the pointer the tile's element type and memory",
                                "pto.tile_buf_addr: a pointer to %s in %s from a tile of %s in %s", pt_dtype_name(t.dt),
                                pt_space_name(t.space), pt_dtype_name(pt_elem_dtype(tt->tb.dtype)),
                                pt_space_name(pt_space_of_aspace(tt->tb.loc)));
    return;
  }
  o->in.dst = pt_lower_define_results(o->L, o->op, &t, 1);
}

int pt_lower_obj_op(pt_lower *L, const pa_op *op) {
  int sub = find_sub(op);
  if (sub < 0) return 1;
  ptosim_program *p = pt_lower_program(L);
  obj_low o = {.L = L, .op = op, .in = {.code = PT_C_OBJ, .sub = (uint8_t)sub, .src = op, .dst = -1, .obj = -1, .op_first = p->noperands},
               .b = {.lowering = 1, .L = L, .prog = p, .first = p->noperands, .op = op, .res_slot = -1, .res_obj = -1}};
  const pa_item *first = pt_operand_item(op, 0);
  switch (sub) {
  case OBJ_ALLOC:
  case OBJ_MULTI_ALLOC: lower_alloc(&o); break;
  case OBJ_MULTI_GET:
    if (first && first->kind == PA_IT_VALUE) lower_multi_get(&o, first);
    else o.failed = pt_lower_errorf(L, op->loc, "bind.arity", "write %multi[%slot]", "pto.multi_tile_get: needs a multi tile and a slot");
    break;
  case OBJ_MEMREF_ALLOC: lower_memref_alloc(&o); break;
  case OBJ_DECLARE: lower_declare(&o); break;
  case OBJ_DECLARE_GLOBAL: lower_declare_global(&o); break;
  case OBJ_TENSOR_VIEW: lower_tensor_view(&o); break;
  case OBJ_PARTITION: lower_partition(&o); break;
  case OBJ_TILE_SUBVIEW:
    if (first && first->kind == PA_IT_VALUE && first->nargs) {
      lower_tile_subview(&o, first);
    } else {
      o.in.sub = OBJ_PARTITION;
      lower_partition(&o);
    }
    break;
  case OBJ_SUBSET:
    if (first && first->kind == PA_IT_VALUE) lower_subset(&o, first);
    else o.failed = pt_lower_errorf(L, op->loc, "bind.arity", "write %tile[%row, %col]", "pto.subset: needs a tile and two offsets");
    break;
  case OBJ_TALIAS: lower_talias(&o); break;
  case OBJ_TASSIGN: lower_retile(&o, 1); break;
  case OBJ_BITCAST: lower_retile(&o, 0); break;
  case OBJ_SET_VALID:
    add(&o, first, PT_VK_TILE);
    add(&o, pt_operand_item(op, 1), PT_VK_INT);
    add(&o, pt_operand_item(op, 2), PT_VK_INT);
    break;
  case OBJ_GET_VALID: lower_query(&o, PT_VK_TILE, 2); break;
  case OBJ_BUF_ADDR: lower_buf_addr(&o, first); break;
  default: lower_query(&o, PT_VK_VIEW, 1); break;
  }
  if (o.failed) return -1; /* lower_ops gives the results placeholders */
  o.in.op_count = o.b.count;
  pt_lower_emit(L, o.in);
  return 0;
}

/* ---- what the planner (plan.c) reads ---------------------------------------------------------- */

int pt_obj_alias(const ptosim_program *p, const pt_ins *in, int32_t *a, int32_t *b) {
  if (in->code != PT_C_OBJ || in->op_count < 1) return 0;
  switch ((enum obj_sub)in->sub) {
  case OBJ_TILE_SUBVIEW:
  case OBJ_SUBSET:
  case OBJ_BITCAST:
  case OBJ_MULTI_GET:
  case OBJ_TALIAS: break;
  default: return 0;
  }
  *a = p->operands[in->op_first].slot;
  *b = in->sub == OBJ_TALIAS && (in->flags & ALIAS_DPS) ? p->operands[in->op_first + 1].slot : in->dst;
  return *a >= 0 && *b >= 0;
}

int pt_obj_escapes(const pt_ins *in) { return in->code == PT_C_OBJ && in->sub == OBJ_BUF_ADDR; }

uint64_t pt_obj_placed_bytes(const ptosim_program *p, const pt_ins *in) {
  return pt_tile_bytes(&p->objs[in->obj].tile) * (in->sub == OBJ_MULTI_ALLOC ? in->bits : 1u);
}

/* ---- execution ---------------------------------------------------------------------------- */

typedef struct obj_run {
  const ptosim_program *p;
  ptosim_core *core;
  pt_val *slots;
  pt_obj *objs;
  const pt_ins *in;
} obj_run;

/* Operand k: a slot's value or a literal (as bind.c records them). */
static pt_val arg(const obj_run *r, int k) {
  const pt_operand *o = &r->p->operands[r->in->op_first + k];
  return o->slot < 0 ? o->k : r->slots[o->slot];
}
static pt_obj *arg_obj(const obj_run *r, int k) { return &r->objs[arg(r, k).i]; }

static ptosim_status fail(const obj_run *r, ptosim_status st, const char *rule, const char *hint, const char *msg) {
  pt_ctx x = {.m = r->core->m, .core = r->core, .op = PTOSIM_OP_COUNT,
              .loc = {r->p->ast->file, (int)r->in->src->loc.line, (int)r->in->src->loc.col}};
  return pt_fail(&x, st, rule, hint, "%s: %s", obj_names[r->in->sub], msg);
}

/* The result object, initialised from its static part. */
static pt_obj *result(const obj_run *r) {
  pt_obj *o = &r->objs[r->in->obj];
  *o = r->p->objs[r->in->obj];
  r->slots[r->in->dst].i = r->in->obj;
  return o;
}

static ptosim_status check_valid(const obj_run *r, const ptosim_tile *t) {
  char msg[160];
  if (t->valid_rows >= 0 && t->valid_rows <= t->rows && t->valid_cols >= 0 && t->valid_cols <= t->cols) return PTOSIM_OK;
  snprintf(msg, sizeof msg, "valid region %dx%d outside the %dx%d tile", t->valid_rows, t->valid_cols, t->rows, t->cols);
  return fail(r, PTOSIM_E_VERIFY, "tile.valid", "keep 0 <= valid_row <= rows and 0 <= valid_col <= cols", msg);
}

/* A tile placed at its address: the profile's alignment and capacity (pto-isa
 * docs/isa/tile/ops/sync-and-config/tassign.md), and the target's L0A base layout (PTOAS
 * resolveTileBufBLayout: loc=left is row_major on A2/A3, col_major on A5). */
static ptosim_status place(const obj_run *r, ptosim_tile *t) {
  const ptosim_machine *m = r->core->m;
  if (t->space == PTOSIM_L0A) t->blayout = m->target == PTOSIM_TARGET_A2A3 ? PTOSIM_BL_ROW_MAJOR : PTOSIM_BL_COL_MAJOR;
  uint64_t a = m->prof->align[t->space], cap = m->prof->capacity[t->space], end = t->addr + pt_tile_bytes(t);
  char msg[200];
  if (a && t->addr % a) {
    snprintf(msg, sizeof msg, "address %llu of a %s tile is not a multiple of %llu bytes", (unsigned long long)t->addr,
             pt_space_name(t->space), (unsigned long long)a);
    return fail(r, PTOSIM_E_VERIFY, "tile.addr_align", "align tile addresses as the target profile requires", msg);
  }
  if (end > cap || end < t->addr) {
    snprintf(msg, sizeof msg, "bytes [%llu, %llu) of %s exceed its %llu bytes on %s", (unsigned long long)t->addr,
             (unsigned long long)end, pt_space_name(t->space), (unsigned long long)cap, m->prof->name);
    return fail(r, PTOSIM_E_VERIFY, "tile.capacity", "place the tile inside the memory", msg);
  }
  return check_valid(r, t);
}

static ptosim_status run_alloc(const obj_run *r) {
  ptosim_tile *t = &result(r)->tile, last;
  int k = 0;
  if (r->in->flags & HAS_ADDR) t->addr = (uint64_t)arg(r, k++).i;
  if (r->in->flags & HAS_VROW) t->valid_rows = (int32_t)arg(r, k++).i;
  if (r->in->flags & HAS_VCOL) t->valid_cols = (int32_t)arg(r, k++).i;
  if (r->in->sub == OBJ_MULTI_ALLOC) { /* the last slot must fit too */
    last = *t;
    last.addr += pt_tile_bytes(t) * (r->in->bits - 1u);
    PT_TRY(place(r, &last));
  }
  return place(r, t);
}

/* pto.multi_tile_get: slot k of a multi tile, at the slot-0 address + k * slot bytes. */
static ptosim_status run_multi_get(const obj_run *r) {
  ptosim_tile src = arg_obj(r, 0)->tile, *t = &result(r)->tile;
  int64_t k = arg(r, 1).i;
  if (k < 0 || k >= r->in->bits) {
    char msg[120];
    snprintf(msg, sizeof msg, "slot %lld of a multi tile of %u slots", (long long)k, (unsigned)r->in->bits);
    return fail(r, PTOSIM_E_VERIFY, "tile.multi_slot", "select a slot in [0, count)", msg);
  }
  t->addr = src.addr + (uint64_t)k * pt_tile_bytes(&src);
  t->valid_rows = src.valid_rows;
  t->valid_cols = src.valid_cols;
  return place(r, t);
}

static ptosim_status run_tensor_view(const obj_run *r) {
  ptosim_ptr ptr = arg(r, 0).p;
  pt_obj *o = result(r);
  ptosim_gm_view *v = &o->view;
  int n = r->in->bits, lead = PTOSIM_VIEW_DIMS - n;
  if (ptr.space != PTOSIM_GM) return fail(r, PTOSIM_E_VERIFY, "view.space", "pass a GM pointer", "the pointer is not in GM");
  v->addr = ptr.addr;
  if (v->dtype == PTOSIM_DT_NONE) v->dtype = ptr.dtype;
  for (int i = 0; i < n; i++) {
    v->shape[lead + i] = arg(r, 1 + i).i;
    v->stride[lead + i] = arg(r, 1 + n + i).i;
    if (v->shape[lead + i] < 0 || v->stride[lead + i] < 0)
      return fail(r, PTOSIM_E_VERIFY, "view.shape", "shapes and strides are non-negative", "negative shape or stride");
  }
  /* Leading dimensions: extent 1, stride shape[i+1] * stride[i+1] (PTOAS rightAlignTo5D). */
  for (int i = lead - 1; i >= 0; i--) {
    v->shape[i] = 1;
    if (v->shape[i + 1] && v->stride[i + 1] > INT64_MAX / v->shape[i + 1])
      return fail(r, PTOSIM_E_VERIFY, "view.shape", "keep shape x stride of the outer dimension within 64 bits",
                  "shape x stride of the outer dimension overflows 64 bits");
    v->stride[i] = v->shape[i + 1] * v->stride[i + 1];
  }
  if (r->in->flags) {
    v->layout = (ptosim_gm_layout)(r->in->flags - 1);
    o->layout_given = 1;
    return PTOSIM_OK;
  }
  /* Inferred; -1 marks a shape both ND and DN describe, which a consumer's tile settles. */
  pt_view_infer_layout(v, PTOSIM_GL_DN);
  ptosim_gm_layout as_dn = v->layout;
  pt_view_infer_layout(v, PTOSIM_GL_ND);
  o->layout_given = as_dn != v->layout ? -1 : 0;
  pt_view_infer_layout(v, PTOSIM_GL_COUNT);
  return PTOSIM_OK;
}

/* The view of a kernel parameter: its type's view, based at the host's buffer (the type's
 * static offset, in v->addr as bytes, added). */
static ptosim_status run_view_param(const obj_run *r) {
  ptosim_ptr ptr = arg(r, 0).p;
  pt_obj *o = result(r);
  if (ptr.space != PTOSIM_GM) return fail(r, PTOSIM_E_VERIFY, "view.space", "pass a GM buffer", "the argument is not in GM");
  if (ptr.addr > UINT64_MAX - o->view.addr)
    return fail(r, PTOSIM_E_VERIFY, "view.shape", "pass a smaller offset", "the view's offset overflows the address");
  o->view.addr += ptr.addr;
  return PTOSIM_OK;
}

static ptosim_status run_partition(const obj_run *r) {
  pt_obj src = *arg_obj(r, 0), *o = result(r);
  int n = r->in->bits, lead = PTOSIM_VIEW_DIMS - n;
  if (n != src.rank) {
    char msg[120];
    snprintf(msg, sizeof msg, "%d offsets for a view of rank %d", n, src.rank);
    return fail(r, PTOSIM_E_VERIFY, "view.rank", "give one offset and one size per dimension of the view", msg);
  }
  o->view = src.view;
  o->layout_given = src.layout_given;
  uint64_t bits = pt_dtype_bits(src.view.dtype), off = 0;
  for (int i = 0; i < n; i++) {
    int64_t at = arg(r, 1 + i).i, size = arg(r, 1 + n + i).i;
    if (at < 0 || size < 0)
      return fail(r, PTOSIM_E_VERIFY, "view.offset", "offsets and sizes are non-negative", "negative offset or size");
    off += (uint64_t)at * (uint64_t)src.view.stride[lead + i];
    o->view.shape[lead + i] = size;
  }
  /* No bound check against the view's declared shape: programs legitimately address past
   * it; the accesses themselves are checked against the real GM buffer. */
  o->view.addr += off * bits / 8;
  return PTOSIM_OK;
}

static ptosim_status run_tile_subview(const obj_run *r) {
  ptosim_tile src = arg_obj(r, 0)->tile, *t = &result(r)->tile;
  int64_t r0 = arg(r, 1).i, c0 = arg(r, 2).i;
  int row_major = src.blayout == PTOSIM_BL_ROW_MAJOR;
  if (r0 < 0 || c0 < 0 || r0 + t->rows > src.rows || c0 + t->cols > src.cols)
    return fail(r, PTOSIM_E_VERIFY, "tile.subview_bounds", "keep the sub-tile inside its parent",
                "the sub-tile leaves the parent tile");
  if (t->space != src.space || t->dtype != src.dtype)
    return fail(r, PTOSIM_E_VERIFY, "tile.subview_type", "keep the parent's loc and dtype",
                "the sub-tile's loc or dtype differs from its parent's");
  /* A sub-tile is a ptosim_tile only when its elements are contiguous in the parent. */
  int whole = r0 == 0 && c0 == 0 && t->rows == src.rows && t->cols == src.cols;
  int contiguous = row_major ? t->cols == src.cols || t->rows == 1 : t->rows == src.rows || t->cols == 1;
  if (!whole && (src.slayout != PTOSIM_SL_NONE_BOX || !contiguous))
    return fail(r, PTOSIM_E_UNSUPPORTED, "op.unsupported", "take whole rows of a row-major tile (columns of a col-major one)",
                "not supported yet: a sub-tile that keeps its parent's row stride or fractal boxes");
  int64_t at = row_major ? r0 * src.cols + c0 : c0 * src.rows + r0;
  t->addr = src.addr + (uint64_t)at * pt_dtype_bits(src.dtype) / 8;
  if (r->in->flags) {
    t->valid_rows = (int32_t)arg(r, 3).i;
    t->valid_cols = (int32_t)arg(r, 4).i;
  } else { /* the parent's valid region, clipped to the sub-tile */
    int64_t vr = src.valid_rows - r0, vc = src.valid_cols - c0;
    t->valid_rows = (int32_t)(vr < 0 ? 0 : vr < t->valid_rows ? vr : t->valid_rows);
    t->valid_cols = (int32_t)(vc < 0 ? 0 : vc < t->valid_cols ? vc : t->valid_cols);
  }
  return place(r, t);
}

/* Valid extent of a subset along one dimension (PTOAS SubsetOp::inferReturnTypes and
 * PTOViewToMemref computeSubsetValidDim): the parent's valid extent pv is a period, so a view
 * at offset `at` gets min(size, pv - at mod pv), and 0 when pv is 0. */
static int32_t subset_valid(int64_t pv, int64_t at, int64_t size) {
  int64_t left = pv > 0 ? pv - at % pv : 0;
  return (int32_t)(left < size ? left : size);
}

/* pto.subset: the R x C window at (r0, c0) of the parent, keeping its strides: a row-major
 * parent's window is R rows of the parent's row length (the window's columns are its valid
 * ones), a column-major one C columns of the parent's column length. A boxed parent (fractal
 * of ir x ic elements) is cut along whole box rows (row-major boxes) or box columns, as
 * SubsetOp::verify requires. */
static ptosim_status run_subset(const obj_run *r) {
  ptosim_tile src = arg_obj(r, 0)->tile, *t = &result(r)->tile;
  int64_t r0 = arg(r, 1).i, c0 = arg(r, 2).i, nr = t->rows, nc = t->cols;
  char msg[200];
  if (r0 < 0 || c0 < 0 || r0 > r->in->a - nr || c0 > r->in->b - nc) {
    snprintf(msg, sizeof msg, "the %lldx%lld window at (%lld, %lld) leaves the %dx%d parent tile", (long long)nr, (long long)nc,
             (long long)r0, (long long)c0, r->in->a, r->in->b);
    return fail(r, PTOSIM_E_VERIFY, "tile.subset_bounds", "keep offset + size within the parent's rows and cols", msg);
  }
  int row_major = src.blayout == PTOSIM_BL_ROW_MAJOR;
  if (src.slayout != PTOSIM_SL_NONE_BOX) {
    /* box of `fractal` bytes: 16 rows of row-major lines, or 16 columns of column-major ones */
    int64_t line = src.fractal / 16 / (int64_t)pt_dtype_size(src.dtype);
    int64_t ir = src.slayout == PTOSIM_SL_ROW_MAJOR ? 16 : line, ic = src.slayout == PTOSIM_SL_ROW_MAJOR ? line : 16;
    int whole = row_major ? c0 == 0 && nc == src.cols && r0 % ir == 0 && nr % ir == 0
                          : r0 == 0 && nr == src.rows && c0 % ic == 0 && nc % ic == 0;
    if (!whole) {
      snprintf(msg, sizeof msg, "a boxed %s tile is cut along whole %s of %lldx%lld boxes", row_major ? "row-major" : "column-major",
               row_major ? "box rows" : "box columns", (long long)ir, (long long)ic);
      return fail(r, PTOSIM_E_VERIFY, "tile.subset_box", "keep the full other extent, offsets and sizes multiples of the box", msg);
    }
  }
  int64_t at = row_major ? r0 * src.cols + c0 : c0 * src.rows + r0;
  t->addr = src.addr + (uint64_t)at * pt_dtype_bits(src.dtype) / 8;
  t->valid_rows = subset_valid(src.valid_rows, r0, nr);
  t->valid_cols = subset_valid(src.valid_cols, c0, nc);
  if (row_major) t->cols = src.cols;
  else t->rows = src.rows;
  return place(r, t);
}

/* pto.talias: the destination's storage becomes the source's; it must lie inside it. */
static ptosim_status run_talias(const obj_run *r) {
  const ptosim_tile *src = &arg_obj(r, 0)->tile;
  ptosim_tile *t = r->in->flags & ALIAS_DPS ? &arg_obj(r, 1)->tile : &result(r)->tile, nt = *t;
  nt.addr = src->addr;
  if (nt.space != src->space || pt_tile_bytes(&nt) > pt_tile_bytes(src)) {
    char msg[200];
    snprintf(msg, sizeof msg, "a %llu-byte %s tile cannot alias a %llu-byte %s tile", (unsigned long long)pt_tile_bytes(&nt),
             pt_space_name(nt.space), (unsigned long long)pt_tile_bytes(src), pt_space_name(src->space));
    return fail(r, PTOSIM_E_VERIFY, "tile.alias", "alias a tile of the same loc that is at least as large", msg);
  }
  PT_TRY(place(r, &nt));
  *t = nt;
  return PTOSIM_OK;
}

/* pto.tassign (new address) and pto.bitcast (new element type, same bytes). */
static ptosim_status run_retile(const obj_run *r) {
  ptosim_tile src = arg_obj(r, 0)->tile, *t = &result(r)->tile;
  t->addr = r->in->sub == OBJ_TASSIGN ? (uint64_t)arg(r, 1).i : src.addr;
  if (t->rows == src.rows && t->cols == src.cols) {
    t->valid_rows = src.valid_rows;
    t->valid_cols = src.valid_cols;
  }
  if (r->in->sub == OBJ_BITCAST && (t->space != src.space || pt_tile_bytes(t) != pt_tile_bytes(&src)))
    return fail(r, PTOSIM_E_VERIFY, "tile.bitcast", "keep the loc and the tile's size in bytes",
                "the result does not cover the same bytes of the same memory");
  return place(r, t);
}

static ptosim_status run_set_valid(const obj_run *r) {
  ptosim_tile *t = &arg_obj(r, 0)->tile, nt = *t;
  nt.valid_rows = (int32_t)arg(r, 1).i;
  nt.valid_cols = (int32_t)arg(r, 2).i;
  PT_TRY(check_valid(r, &nt));
  *t = nt;
  return PTOSIM_OK;
}

static ptosim_status run_view_query(const obj_run *r) {
  const pt_obj *o = arg_obj(r, 0);
  int64_t d = arg(r, 1).i;
  if (d < 0 || d >= o->rank)
    return fail(r, PTOSIM_E_VERIFY, "view.dim", "ask for a dimension below the view's rank", "dimension out of range");
  int k = PTOSIM_VIEW_DIMS - o->rank + (int)d;
  r->slots[r->in->dst].i = r->in->sub == OBJ_VIEW_DIM ? o->view.shape[k] : o->view.stride[k];
  return PTOSIM_OK;
}

ptosim_status pt_run_obj(const ptosim_program *p, ptosim_core *core, pt_val *slots, pt_obj *objs, const pt_ins *in) {
  obj_run r = {p, core, slots, objs, in};
  switch ((enum obj_sub)in->sub) {
  case OBJ_MEMREF_ALLOC: /* lowered as OBJ_ALLOC */
  case OBJ_DECLARE:
  case OBJ_ALLOC:
  case OBJ_MULTI_ALLOC: return run_alloc(&r);
  case OBJ_MULTI_GET: return run_multi_get(&r);
  case OBJ_TENSOR_VIEW: return run_tensor_view(&r);
  case OBJ_PARTITION: return run_partition(&r);
  case OBJ_TILE_SUBVIEW: return run_tile_subview(&r);
  case OBJ_SUBSET: return run_subset(&r);
  case OBJ_TALIAS: return run_talias(&r);
  case OBJ_TASSIGN:
  case OBJ_BITCAST: return run_retile(&r);
  case OBJ_SET_VALID: return run_set_valid(&r);
  case OBJ_GET_VALID:
    slots[in->dst].i = arg_obj(&r, 0)->tile.valid_rows;
    slots[in->dst + 1].i = arg_obj(&r, 0)->tile.valid_cols;
    return PTOSIM_OK;
  case OBJ_VIEW_DIM:
  case OBJ_VIEW_STRIDE: return run_view_query(&r);
  case OBJ_DECLARE_GLOBAL: result(&r); return PTOSIM_OK;
  case OBJ_VIEW_PARAM: return run_view_param(&r);
  case OBJ_BUF_ADDR: {
    const ptosim_tile *t = &arg_obj(&r, 0)->tile;
    slots[in->dst].p = ptosim_ptr_make(t->space, t->dtype, t->addr);
    return PTOSIM_OK;
  }
  }
  return PTOSIM_E_USAGE;
}
