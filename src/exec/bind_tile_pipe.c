/* Binders of the tile pipe ops and the lowering of pto.reserve_buffer /
 * pto.import_reserved_buffer (syntax: vpto-dev/PTOAS docs/designs/ptoas-tpush-tpop-design.md
 * section 3, hw-native-sys/PTOAS test/samples/TPushTPop):
 *   pto.aic_initialize_pipe {id = 0, dir_mask = 1, slot_size = 1024}
 *     (c2v_consumer_buf = %a : i32, v2c_consumer_buf = %b : i32)
 *   pto.tpush_to_aiv(%acc : !pto.tile_buf<...>) {id = 0, split = 1}
 *   %t = pto.tpop_from_aic {split = 1} -> !pto.tile_buf<...>
 *   pto.tfree_from_aic {split = 1}
 *   %p = pto.initialize_l2g2l_pipe {dir_mask = 1, slot_size = 1024, slot_num = 8, local_slot_num = 2, flag_base = 0}
 *     (%gm : !pto.ptr<f32>, %local : i32) -> !pto.pipe
 *   pto.tpush(%acc, %p : !pto.tile_buf<...>, !pto.pipe) {split = 0}
 *   pto.tpop(%t, %p : !pto.tile_buf<...>, !pto.pipe) {split = 1}      (%t from pto.declare_tile)
 *   pto.tfree(%p : !pto.pipe) {split = 1}
 *   %r = pto.reserve_buffer {name = "fifo", size = 8192, location = #pto.address_space<vec>, auto = true} -> i32
 *   %r = pto.import_reserved_buffer {name = "fifo", peer_func = @vector_fn} -> i32 */
#include <stdint.h>
#include <string.h>

#include "asm/asm.h"
#include "core/profile.h"
#include "exec/bind_quant.h"
#include "exec/bind_tile_pipe.h"
#include "exec/lower.h"
#include "exec/tiles.h"

/* Integer attribute `key` (def when absent); -1 reported when not an integer. */
static int int_attr(pt_bind *b, const pa_op *op, const char *key, int64_t def, int64_t *out) {
  const pa_item *v = pa_op_attr(op, key);
  *out = def;
  if (!v) return 0;
  if (v->kind != PA_IT_INT) return pt_bind_error(b, v, "bind.attr", "write an integer", "attribute %s is not an integer", key);
  *out = v->v.i;
  return 0;
}

static int split_attr(pt_bind *b, const pa_op *op, int64_t *id, ptosim_tile_split *split) {
  int64_t s;
  if (int_attr(b, op, "id", 0, id) || int_attr(b, op, "split", 0, &s)) return -1;
  if (s < 0 || s > 2) return pt_bind_error(b, pa_op_attr(op, "split"), "tile_pipe.split", "split is 0 (none), 1 (up-down) or 2 (left-right)", "split %lld", (long long)s);
  *split = (ptosim_tile_split)s;
  return 0;
}

/* The bare operand list `(...)` of the op (NULL if absent). */
static const pa_item *call_list(const pa_op *op) {
  for (uint32_t k = 0; k < op->nitems; k++)
    if (op->items[k].kind == PA_IT_CALL && !op->items[k].name.n) return &op->items[k];
  return NULL;
}

/* A GM view or memref operand as the FIFO: the pointer to its first element; its strides
 * too when `strides` (a view describing one entry). */
static void gm_view_operand(pt_bind *b, const pa_item *it, ptosim_pipe_init_params *p, int strides) {
  ptosim_gm_view v = pt_bind_view(b, it, NULL);
  p->gm_slot = (ptosim_ptr){.space = PTOSIM_GM, .dtype = v.dtype, .addr = v.addr};
  if (strides) memcpy(p->gm_stride, v.stride, sizeof p->gm_stride);
}

/* 1 when the k-th type of the `(...)` list l is written as a GM view (the GM-entry forms). */
static int view_typed(const pa_item *l, uint32_t k) {
  return l && k < l->ntypes && l->types[k] && (l->types[k]->kind == PA_TY_TENSOR_VIEW || l->types[k]->kind == PA_TY_PART_VIEW);
}

/* 1 when the k-th type of l is a GM memref (`memref<256xf32, #pto.address_space<gm>>`). */
static int gm_memref_typed(const pa_item *l, uint32_t k) {
  return l && k < l->ntypes && l->types[k] && l->types[k]->kind == PA_TY_MEMREF && pa_str_is(pt_memref_space(l->types[k]), "gm");
}

/* pto.initialize_l2l_pipe {...}(%local : i32 [, %peer : i32]) -> !pto.pipe and
 * pto.initialize_l2g2l_pipe {...}(%gm : !pto.ptr<T> | memref<NxT, gm> | !pto.tensor_view<...>
 * [, %local : i32 [, %peer : i32]]) -> !pto.pipe (a memref gives its base address only, as
 * PTOAS's TPipe constructor takes the FIFO's start address; a tensor view also its strides):
 * the local operand is the c2v buffer for dir_mask 1 and 3, the v2c one for 2; the peer the
 * v2c buffer of dir_mask 3 (PTOAS PTOToEmitC.cpp, PTOInitializeL2G2LPipeToEmitC). */
static int bind_generic_init(pt_bind *b, const pa_op *op, ptosim_pipe_init_params *p) {
  const pa_item *l = call_list(op), *need[] = {pa_op_attr(op, "dir_mask"), pa_op_attr(op, "slot_size"), pa_op_attr(op, "slot_num")};
  int gm = pa_str_is(op->name, "pto.initialize_l2g2l_pipe");
  uint32_t n = l ? l->nargs : 0;
  for (int k = 0; k < 3; k++)
    if (!need[k]) return pt_bind_error(b, NULL, "bind.attr", "write {dir_mask = D, slot_size = S, slot_num = N}", "missing attribute");
  if (n < 1 || n > (uint32_t)(2 + gm))
    return pt_bind_error(b, l, "bind.arity", gm ? "(%gm : !pto.ptr<T> [, %local : i32 [, %peer : i32]])" : "(%local : i32 [, %peer : i32])",
                         "wrong number of pipe operands");
  if (gm && view_typed(l, 0)) gm_view_operand(b, &l->args[0], p, 1);
  else if (gm && gm_memref_typed(l, 0)) gm_view_operand(b, &l->args[0], p, 0);
  else if (gm) p->gm_slot = pt_bind_ptr(b, &l->args[0]);
  for (uint32_t k = (uint32_t)gm; k < n; k++) {
    int64_t v = pt_bind_int(b, &l->args[k]);
    *(k > (uint32_t)gm || p->dir_mask == 2 ? &p->v2c_buf : &p->c2v_buf) = v;
  }
  p->handle = pt_bind_out_int(b, 0);
  return 0;
}

/* ---- where frontend pipes sit among the hardware flags ---------------------------------- */

static int is_module(const pa_op *op) { return pa_str_is(op->name, "module") || pa_str_is(op->name, "builtin.module"); }
static int is_func(const pa_op *op) { return pa_str_is(op->name, "func.func"); }

/* The innermost op satisfying `is` (`cur` at the start: the root) of the tree `scope` that
 * holds op, or NULL when op is not in it. A file of several modules (PTOAS lit's split-file
 * inputs) pairs reserves and imports, and plans addresses and flags, within each module. */
static const pa_op *container_of(const pa_op *scope, const pa_op *op, const pa_op *cur, int (*is)(const pa_op *)) {
  if (scope == op) return cur;
  if (is(scope)) cur = scope;
  for (uint32_t r = 0; r < scope->nregions; r++)
    for (uint32_t bk = 0; bk < scope->regions[r].nblocks; bk++)
      for (uint32_t i = 0; i < scope->regions[r].blocks[bk].nops; i++) {
        const pa_op *m = container_of(&scope->regions[r].blocks[bk].ops[i], op, cur, is);
        if (m) return m;
      }
  return NULL;
}

/* pa_find_op predicates: the op defines value %name (a pa_str); a reserve_buffer named by
 * string item `name`. */
static int defines(const pa_op *op, const void *name) {
  for (uint32_t k = 0; k < op->nresults; k++)
    if (pa_str_eq(op->results[k].name, *(const pa_str *)name)) return 1;
  return 0;
}
static int reserve_named(const pa_op *op, const void *name) {
  const pa_item *n = pa_op_attr(op, "name");
  return pa_str_is(op->name, "pto.reserve_buffer") && n && n->kind == PA_IT_STRING &&
         pa_str_eq(n->name, ((const pa_item *)name)->name);
}

enum { FE_MAX = 32 };

/* A frontend initialize: its function, id, direction and the keys that pair it with its
 * peer (PTOAS PTOResolveReservedBuffersPass getPipePeerKey): per direction d, the FIFO it
 * names: (function, name) of the reserve_buffer a consumer buffer comes from, or of the
 * peer's one an import names; else (id, d), as PTOAS keys GM-only pipes. */
typedef struct fe_key {
  pa_str func, name;
  int64_t id, dir;
} fe_key;
typedef struct fe_init {
  const pa_op *op, *func;
  int64_t id, dir;
  fe_key key[2];
  int nkeys, comp;
} fe_init;
typedef struct fe_walk {
  fe_init in[FE_MAX];
  int n, overflow;
  const pa_op *func;
} fe_walk;

static fe_key key_of(const fe_init *f, const char *operand, int64_t dir) {
  fe_key k = {.id = f->id, .dir = dir};
  const pa_item *v = NULL;
  for (uint32_t i = 0; i < f->op->nitems && !v; i++) {
    const pa_item *l = &f->op->items[i];
    for (uint32_t a = 0; l->kind == PA_IT_CALL && a < l->nargs; a++)
      if (l->args[a].kind == PA_IT_ASSIGN && l->args[a].nargs == 2 && pa_str_is(l->args[a].name, operand)) v = &l->args[a].args[1];
  }
  const pa_op *d = v && v->kind == PA_IT_VALUE ? pa_find_op(f->func, defines, &v->name) : NULL;
  const pa_item *name = d ? pa_op_attr(d, "name") : NULL, *peer = d ? pa_op_attr(d, "peer_func") : NULL;
  if (!name || name->kind != PA_IT_STRING) return k;
  if (pa_str_is(d->name, "pto.reserve_buffer")) k = (fe_key){.func = f->func->sym, .name = name->name, .id = -1, .dir = dir};
  else if (pa_str_is(d->name, "pto.import_reserved_buffer") && peer && peer->kind == PA_IT_SYMBOL)
    k = (fe_key){.func = peer->name, .name = name->name, .id = -1, .dir = dir};
  return k;
}

static int same_key(const fe_key *a, const fe_key *b) {
  return a->id == b->id && a->dir == b->dir && pa_str_eq(a->func, b->func) && pa_str_eq(a->name, b->name);
}

static void collect_inits(fe_walk *w, const pa_op *op) {
  if (is_func(op)) w->func = op;
  if (pa_str_is(op->name, "pto.aic_initialize_pipe") || pa_str_is(op->name, "pto.aiv_initialize_pipe")) {
    const pa_item *id = pa_op_attr(op, "id"), *dir = pa_op_attr(op, "dir_mask");
    if (w->n == FE_MAX) { w->overflow = 1; return; }
    fe_init *f = &w->in[w->n++];
    *f = (fe_init){.op = op, .func = w->func ? w->func : op, .id = id && id->kind == PA_IT_INT ? id->v.i : 0,
                   .dir = dir && dir->kind == PA_IT_INT ? dir->v.i : 0, .comp = w->n - 1};
    if (f->dir & 1) f->key[f->nkeys++] = key_of(f, "c2v_consumer_buf", 1);
    if (f->dir & 2) f->key[f->nkeys++] = key_of(f, "v2c_consumer_buf", 2);
  }
  for (uint32_t r = 0; r < op->nregions; r++)
    for (uint32_t bk = 0; bk < op->regions[r].nblocks; bk++)
      for (uint32_t i = 0; i < op->regions[r].blocks[bk].nops; i++) collect_inits(w, &op->regions[r].blocks[bk].ops[i]);
}

/* Component of init i (inits sharing a key are one pipe: the peers, PTOAS
 * buildPeerAwareComponents), as the lowest index of its members. */
static int comp_of(fe_walk *w, int i) {
  while (w->in[i].comp != i) i = w->in[i].comp;
  return i;
}

/* The first hardware flag of each pipe of the module `mod`, PTOAS's way
 * (chooseFlagBaseForComponent): pipes in order of their smallest frontend id, then direction,
 * then first appearance; each takes the lowest even flag from which its 2 flags (4 for
 * dir_mask 3) overlap no flag the functions it spans already use. base[c] for component c;
 * 0 when they do not fit the 16 flags (*fit = 0). */
static void place_pipes(fe_walk *w, const pa_op *mod, int64_t *base, int *fit) {
  collect_inits(w, mod);
  for (int i = 0; i < w->n; i++)
    for (int j = 0; j < i; j++)
      for (int a = 0; a < w->in[i].nkeys; a++)
        for (int b2 = 0; b2 < w->in[j].nkeys; b2++)
          if (same_key(&w->in[i].key[a], &w->in[j].key[b2])) w->in[comp_of(w, i)].comp = comp_of(w, j) < comp_of(w, i) ? comp_of(w, j) : comp_of(w, i);
  int64_t minid[FE_MAX], used[FE_MAX] = {0}; /* used: a bit per flag, per init (its function's) */
  int order[FE_MAX], nc = 0;
  for (int i = 0; i < w->n; i++) {
    int c = comp_of(w, i);
    if (c == i) order[nc++] = i, minid[i] = w->in[i].id;
    else if (w->in[i].id < minid[c]) minid[c] = w->in[i].id;
  }
  for (int i = 1; i < nc; i++) /* stable insertion sort by (min id, dir) */
    for (int j = i; j > 0 && (minid[order[j - 1]] > minid[order[j]] ||
                              (minid[order[j - 1]] == minid[order[j]] && w->in[order[j - 1]].dir > w->in[order[j]].dir)); j--) {
      int t = order[j];
      order[j] = order[j - 1], order[j - 1] = t;
    }
  *fit = 1;
  for (int k = 0; k < nc; k++) {
    int c = order[k], width = w->in[c].dir == 3 ? 4 : 2;
    int64_t busy = 0, mask = (1 << width) - 1, b = 0;
    for (int i = 0; i < w->n; i++)
      for (int j = 0; j < w->n; j++)
        if (comp_of(w, i) == c && w->in[j].func == w->in[i].func) busy |= used[j];
    while (b + width <= PTOSIM_TPIPE_FLAGS && (busy >> b & mask)) b += 2;
    if (b + width > PTOSIM_TPIPE_FLAGS) *fit = 0, b = 0;
    base[c] = b;
    for (int i = 0; i < w->n; i++)
      if (comp_of(w, i) == c) used[i] |= mask << b;
  }
}

/* The direction of a frontend op (1 C2V: *_to_aiv, *_from_aic; 2 V2C), 0 for an initialize. */
static int64_t op_dir(const pa_op *op) {
  pa_str n = op->name;
  if (n.n < 7 || !memcmp(n.s + n.n - 5, "_pipe", 5)) return 0;
  int to = !memcmp(n.s + n.n - 7, "_to_", 4), aiv = !memcmp(n.s + n.n - 3, "aiv", 3);
  return to == aiv ? 1 : 2;
}

/* A frontend op's pipe: *flag = the first hardware flag of the pipe (the initialize itself,
 * or the one of its function with its id and direction: PTOAS identifies a logical pipe by
 * function, id and direction), and 1; 0 (id stays a frontend id 0..3) when no initialize of
 * the module matches or the module has more than FE_MAX; an error when the pipes do not fit
 * the 16 flags. */
static int placed_flag(pt_bind *b, const pa_op *op, int64_t id, int64_t *flag) {
  const pa_op *root = b->prog->ast->module, *mod = container_of(root, op, root, is_module);
  const pa_op *fn = container_of(root, op, NULL, is_func);
  fe_walk w = {.n = 0};
  int64_t base[FE_MAX];
  int fit;
  if (!mod) return 0;
  place_pipes(&w, mod, base, &fit);
  if (w.overflow) return 0;
  int64_t dir = op_dir(op);
  for (int i = 0; i < w.n; i++)
    if (dir ? w.in[i].id == id && (w.in[i].dir & dir) && w.in[i].func == (fn ? fn : w.in[i].op) : w.in[i].op == op) {
      if (!fit) return pt_bind_error(b, NULL, "tile_pipe.flags", "use fewer pipes: one takes 2 hardware flags (4 for dir_mask 3) of 16",
                                     "the pipes of this module need more than 16 hardware flags"), -1;
      *flag = base[comp_of(&w, i)];
      return 1;
    }
  return 0;
}

int bind_ptosim_pipe_init_params(pt_bind *b, const pa_op *op, ptosim_pipe_init_params *p) {
  if (int_attr(b, op, "id", 0, &p->id) || int_attr(b, op, "dir_mask", 0, &p->dir_mask) ||
      int_attr(b, op, "slot_size", 0, &p->slot_size) || int_attr(b, op, "slot_num", 0, &p->slot_num) ||
      int_attr(b, op, "local_slot_num", 0, &p->local_slot_num) || int_attr(b, op, "flag_base", 0, &p->flag_base))
    return -1;
  if (op->nresults) return bind_generic_init(b, op, p);
  if ((p->placed = placed_flag(b, op, p->id, &p->flag_base)) < 0) return -1;
  const pa_item *l = call_list(op);
  for (uint32_t k = 0; l && k < l->nargs; k++) {
    const pa_item *a = &l->args[k];
    int ok = a->kind == PA_IT_ASSIGN && a->nargs == 2;
    if (ok && pa_str_is(a->name, "gm_slot_buffer")) p->gm_slot = pt_bind_ptr(b, &a->args[1]);
    else if (ok && pa_str_is(a->name, "gm_slot_tensor")) gm_view_operand(b, &a->args[1], p, 1);
    else if (ok && pa_str_is(a->name, "c2v_consumer_buf")) p->c2v_buf = pt_bind_int(b, &a->args[1]);
    else if (ok && pa_str_is(a->name, "v2c_consumer_buf")) p->v2c_buf = pt_bind_int(b, &a->args[1]);
    else
      return pt_bind_error(b, a, "op.unsupported", "pipes take gm_slot_buffer, gm_slot_tensor, c2v_consumer_buf and v2c_consumer_buf",
                           "unsupported pipe operand '%.*s'", (int)a->text.n, a->text.s);
  }
  /* the FIFO is in GM on A2/A3, and on A5 for a gm_slot_tensor of one direction (tile_pipe.c gm_pipe) */
  int gm = b->prog->target != PTOSIM_TARGET_A5 || (p->gm_stride[PTOSIM_VIEW_DIMS - 1] && p->dir_mask != 3);
  return bind_quant_epilogue(b, op, gm);
}

/* pto.tpush_to_aiv(%t : T) {id, split} or pto.tpush(%t, %pipe : T, !pto.pipe) {split}; T a
 * tile, or a GM view pto.talloc gave (the GM-entry form). */
int bind_ptosim_tpush_params(pt_bind *b, const pa_op *op, ptosim_tpush_params *p) {
  const pa_item *l = call_list(op);
  int gen = pa_str_is(op->name, "pto.tpush");
  if (!l || l->nargs != 1u + gen)
    return pt_bind_error(b, l, "bind.arity", gen ? "pto.tpush(%t, %pipe : !pto.tile_buf<...> | !pto.tensor_view<...>, !pto.pipe)"
                                                 : "pto.tpush_to_aiv(%t : !pto.tile_buf<...> | !pto.tensor_view<...>)",
                         "expects one tile or GM entry operand");
  p->gm_entry = view_typed(l, 0);
  if (p->gm_entry) pt_bind_view(b, &l->args[0], NULL);
  else p->tile = pt_bind_tile(b, &l->args[0]);
  if (split_attr(b, op, &p->id, &p->split)) return -1;
  if (gen) p->id = pt_bind_int(b, &l->args[1]);
  else if (bind_quant_push(b, op, p->id, p) || (p->placed = placed_flag(b, op, p->id, &p->id)) < 0) return -1;
  return 0;
}

/* tpop_* (a tile result, or a GM view result: the GM-entry form) and tfree_* (none, or the
 * popped GM entry: tfree_from_aic(%e : !pto.tensor_view<...>)); pto.tpop(%t, %pipe : T,
 * !pto.pipe) {split} places the declared tile or view %t itself, pto.tfree([%e,] %pipe) {split}
 * (%e a GM entry, or the popped tile, which names nothing more than the held slot). */
int bind_ptosim_tpop_params(pt_bind *b, const pa_op *op, ptosim_tpop_params *p) {
  int pop = op->name.n >= 8 && !strncmp(op->name.s, "pto.tpop", 8), gen = pa_str_is(op->name, "pto.tpop") || pa_str_is(op->name, "pto.tfree");
  const pa_item *l = call_list(op);
  uint32_t n = l ? l->nargs : 0;
  int entry = view_typed(l, 0);
  if (split_attr(b, op, &p->id, &p->split)) return -1;
  if (!gen) {
    if ((p->placed = placed_flag(b, op, p->id, &p->id)) < 0) return -1;
    entry = pop ? op->nrtypes && op->rtypes[0] && op->rtypes[0]->kind == PA_TY_TENSOR_VIEW : entry;
    p->has_valid = pop && !entry && n == 2;
    if (n > (uint32_t)(!pop && entry) && !p->has_valid)
      return pt_bind_error(b, l, "bind.arity", pop ? "%t = pto.tpop_from_aic [(%valid_row, %valid_col)] {id, split} -> !pto.tile_buf<...> | !pto.tensor_view<...>"
                                                   : "pto.tfree_from_aic {id, split}, or tfree_from_aic(%entry : !pto.tensor_view<...>) {...}",
                           "unexpected operand");
    if (p->has_valid) {
      p->valid_rows = pt_bind_int(b, &l->args[0]);
      p->valid_cols = pt_bind_int(b, &l->args[1]);
    }
    p->entry = pop && entry ? pt_bind_result_view(b) : entry ? pt_bind_view_ref(b, &l->args[0]) : NULL;
    p->result = pop && !entry ? pt_bind_result_tile(b) : NULL;
    return 0;
  }
  int tile = !pop && !entry && n == 2 && l->ntypes && l->types[0] && l->types[0]->kind == PA_TY_TILE_BUF;
  if (n != 1u + (pop || entry || tile))
    return pt_bind_error(b, l, "bind.arity", pop ? "pto.tpop(%t, %pipe : !pto.tile_buf<...> | !pto.tensor_view<...>, !pto.pipe)"
                                                 : "pto.tfree([%entry, ] %pipe : [!pto.tile_buf<...> | !pto.tensor_view<...>, ] !pto.pipe)",
                         "wrong pipe operands");
  if (tile) pt_bind_tile(b, &l->args[0]); /* frees the held slot as without it (TFreeOp: "the current consumer slot") */
  p->entry = entry ? pt_bind_view_ref(b, &l->args[0]) : NULL;
  p->result = pop && !entry ? pt_bind_tile_ref(b, &l->args[0]) : NULL;
  p->id = pt_bind_int(b, &l->args[n - 1]);
  return 0;
}

/* %e = pto.talloc_to_aiv {id, split} -> !pto.tensor_view<MxNxT> or
 * pto.talloc(%e, %pipe : !pto.tensor_view<...>, !pto.pipe) {split} (%e from pto.declare_global). */
int bind_ptosim_talloc_params(pt_bind *b, const pa_op *op, ptosim_talloc_params *p) {
  const pa_item *l = call_list(op);
  int gen = pa_str_is(op->name, "pto.talloc");
  if (split_attr(b, op, &p->id, &p->split)) return -1;
  if (!gen) {
    if ((p->placed = placed_flag(b, op, p->id, &p->id)) < 0) return -1;
    if (l) return pt_bind_error(b, l, "bind.arity", "%e = pto.talloc_to_aiv {id, split} -> !pto.tensor_view<...>", "unexpected operand");
    p->entry = pt_bind_result_view(b);
    return 0;
  }
  if (!l || l->nargs != 2)
    return pt_bind_error(b, l, "bind.arity", "pto.talloc(%entry, %pipe : !pto.tensor_view<...>, !pto.pipe) {split = S}", "wrong talloc operands");
  p->entry = pt_bind_view_ref(b, &l->args[0]);
  p->id = pt_bind_int(b, &l->args[1]);
  return 0;
}

/* %n = pto.tile_valid_rows %t : T -> index */
int bind_ptosim_tile_valid_params(pt_bind *b, const pa_op *op, ptosim_tile_valid_params *p) {
  p->src = pt_bind_tile(b, pt_operand_item(op, 0));
  p->result = pt_bind_out_int(b, 0);
  return 0;
}

/* ---- asynchronous DMA handles (src/isa/async.c) --------------------------------------------- */

/* The `(...)` operand list of an async op with n operands, or NULL (reported). */
static const pa_item *async_list(pt_bind *b, const pa_op *op, uint32_t n, const char *form) {
  const pa_item *l = call_list(op);
  if (l && l->nargs == n) return l;
  pt_bind_error(b, l, "bind.arity", form, "expects %u operands in (...)", n);
  return NULL;
}

/* %e = pto.tprefetch_async(%src, %ctx : V, !pto.prefetch_async_context) -> !pto.async_event */
int bind_ptosim_tprefetch_async_params(pt_bind *b, const pa_op *op, ptosim_tprefetch_async_params *p) {
  const pa_item *l = async_list(b, op, 2, "pto.tprefetch_async(%src, %ctx : V, !pto.prefetch_async_context) -> !pto.async_event");
  if (!l) return -1;
  p->src = pt_bind_view(b, &l->args[0], NULL);
  p->workspace = (uint64_t)pt_bind_int(b, &l->args[1]);
  p->event = op->nresults ? pt_bind_out_int(b, 0) : NULL;
  return 0;
}

/* %ctx = pto.make_prefetch_async_context(%workspace : !pto.ptr<i8>) -> !pto.prefetch_async_context;
 * %s = pto.get_prefetch_async_session %ctx : !pto.prefetch_async_context -> !pto.async_session */
int bind_ptosim_async_context_params(pt_bind *b, const pa_op *op, ptosim_async_context_params *p) {
  if (b->opc == PTOSIM_OP_make_prefetch_async_context) {
    const pa_item *l = async_list(b, op, 1, "pto.make_prefetch_async_context(%workspace : !pto.ptr<i8>) -> !pto.prefetch_async_context");
    if (!l) return -1;
    p->workspace = pt_bind_ptr(b, &l->args[0]);
  } else {
    p->handle = pt_bind_int(b, pt_operand_item(op, 0));
  }
  p->out = pt_bind_out_int(b, 0);
  return 0;
}

/* %s = pto.[comm.]build_async_session(%scratch, %workspace : T, !pto.ptr<i8>) {sync_id, block_bytes,
 * comm_block_offset, queue_num, channel_group_idx} -> !pto.async_session */
int bind_ptosim_async_session_params(pt_bind *b, const pa_op *op, ptosim_async_session_params *p) {
  const pa_item *l = async_list(b, op, 2, "pto.build_async_session(%scratch, %workspace : T, !pto.ptr<i8>) -> !pto.async_session");
  if (!l || int_attr(b, op, "sync_id", 0, &p->sync_id) || int_attr(b, op, "block_bytes", 32768, &p->block_bytes) ||
      int_attr(b, op, "comm_block_offset", 0, &p->comm_block_offset) || int_attr(b, op, "queue_num", 1, &p->queue_num) ||
      int_attr(b, op, "channel_group_idx", -1, &p->channel_group_idx))
    return -1;
  p->scratch = pt_bind_tile(b, &l->args[0]);
  p->workspace = pt_bind_ptr(b, &l->args[1]);
  p->session = pt_bind_out_int(b, 0);
  return 0;
}

/* %done = pto.[comm.]wait_async_event / test_async_event(%event, %session : E, S) -> i1 */
int bind_ptosim_async_event_params(pt_bind *b, const pa_op *op, ptosim_async_event_params *p) {
  const pa_item *l = async_list(b, op, 2, "(%event, %session : !pto.async_event, !pto.async_session) -> i1");
  if (!l) return -1;
  p->event = pt_bind_int(b, &l->args[0]);
  p->session = pt_bind_int(b, &l->args[1]);
  p->completed = pt_bind_out_int(b, 0);
  return 0;
}

/* ---- pto.syncall / pto.tsync ----------------------------------------------------------------- */

/* The word of `key = #pto.<attr><word>` among the op's items (PTOAS custom syntax of
 * syncall: `mode = #pto.sync_all_mode<soft>, core_type = #pto.sync_core_type<mix>`). */
static const pa_item *enum_attr(const pa_op *op, const char *key) {
  for (uint32_t k = 0; k < op->nitems; k++) {
    const pa_item *v = &op->items[k];
    if (v->kind == PA_IT_ASSIGN && v->nargs == 2 && pa_str_is(v->name, key) && v->args[1].kind == PA_IT_ATTR) return &v->args[1];
  }
  return pa_op_attr(op, key);
}

/* Index of the word of attribute item v among words[] (-1 if none). */
static int enum_index(const pa_item *v, const char *const *words, int n) {
  for (int i = 0; v && v->kind == PA_IT_ATTR && i < n; i++)
    if (pa_str_is(v->body, words[i])) return i;
  return -1;
}

/* Elements of a view type of static dims (saturating; INT64_MAX when a dim is `?`). */
static int64_t static_elems(const pa_type *t) {
  int64_t n = 1;
  for (int32_t d = 0; d < t->rank; d++)
    n = t->dims[d] == PA_DYN || (t->dims[d] > 0 && n > INT64_MAX / t->dims[d]) ? INT64_MAX : n * t->dims[d];
  return n;
}

/* pto.syncall() mode = #pto.sync_all_mode<hard>, core_type = #pto.sync_core_type<aiv_only>;
 * pto.syncall(%ws [, %used] : !pto.ptr<i32, gm> | tensor view of i32 [, i32]) mode = <soft>, ...
 * (tonibohnlein/PTOAS PTOOps.td SyncAllOp; core_type aiv_only when absent, as SYNCALL<>). */
int bind_ptosim_syncall_params(pt_bind *b, const pa_op *op, ptosim_syncall_params *p) {
  static const char *const modes[] = {"hard", "soft"}, *const types[] = {"aiv_only", "aic_only", "mix"};
  const pa_item *l = call_list(op), *m = enum_attr(op, "mode"), *t = enum_attr(op, "core_type");
  int mode = enum_index(m, modes, 2), type = t ? enum_index(t, types, 3) : 0;
  uint32_t n = l ? l->nargs : 0;
  if (mode < 0 || type < 0)
    return pt_bind_error(b, mode < 0 ? m : t, "syncall.form", "write mode = #pto.sync_all_mode<hard|soft>, core_type = #pto.sync_core_type<aiv_only|aic_only|mix>",
                         mode < 0 ? "missing or unknown syncall mode" : "unknown syncall core type");
  if (mode ? n < 1 || n > 2 : n != 0)
    return pt_bind_error(b, l, "syncall.form", mode ? "a soft syncall takes its GM workspace and an optional used_cores: pto.syncall(%ws, %used : !pto.ptr<i32, gm>, i32)"
                                                   : "a hard syncall takes no operand: pto.syncall()",
                         "wrong syncall operands");
  p->soft = mode;
  p->core_type = (ptosim_sync_core_type)type;
  p->workspace_elems = -1;
  if (!mode) return 0;
  const pa_item *ws = &l->args[0];
  pt_slot_type wt = pt_bind_type(b, ws);
  if (pt_bind_lowering(b) && (wt.dt != PTOSIM_DT_I32 || wt.space != PTOSIM_GM || (wt.kind != PT_VK_PTR && wt.kind != PT_VK_VIEW)))
    return pt_bind_error(b, ws, "syncall.workspace", "pass !pto.ptr<i32, gm> or a tensor view of i32", "the syncall workspace is not i32 in GM");
  pt_slot_type ut = n == 2 ? pt_bind_type(b, &l->args[1]) : (pt_slot_type){.kind = PT_VK_INT, .bits = 32};
  if (pt_bind_lowering(b) && (ut.kind != PT_VK_INT || ut.bits != 32 || ut.is_index))
    return pt_bind_error(b, &l->args[1], "ir.type", "used_cores is an i32", "used_cores is not an i32");
  if (pt_bind_lowering(b) && view_typed(l, 0) && static_elems(l->types[0]) < 16)
    return pt_bind_error(b, ws, "syncall.workspace", "reserve at least 16 i32 (64 bytes, its own cache line) for the workspace",
                         "the workspace type holds fewer than 16 i32");
  if (l->ntypes && l->types[0] && l->types[0]->kind == PA_TY_PTR) {
    p->workspace = pt_bind_ptr(b, ws);
  } else { /* a view: its address and how many i32 its shape holds (saturating) */
    ptosim_gm_view v = pt_bind_view(b, ws, NULL);
    p->workspace = (ptosim_ptr){.space = PTOSIM_GM, .dtype = v.dtype, .addr = v.addr};
    p->workspace_elems = 1;
    for (int d = 0; d < 5; d++)
      p->workspace_elems = v.shape[d] <= 0 ? 0 : p->workspace_elems > INT64_MAX / v.shape[d] ? INT64_MAX : p->workspace_elems * v.shape[d];
  }
  p->used_cores = n == 2 ? pt_bind_int(b, &l->args[1]) : 0;
  return 0;
}

/* pto.tsync ins(%e0, %e1 : T0, T1): tiles or GM views. */
int bind_ptosim_tsync_params(pt_bind *b, const pa_op *op, ptosim_tsync_params *p) {
  const pa_item *l = NULL;
  for (uint32_t k = 0; k < op->nitems && !l; k++)
    if (op->items[k].kind == PA_IT_CALL && pa_str_is(op->items[k].name, "ins")) l = &op->items[k];
  p->nevents = l ? l->nargs : 0;
  for (uint32_t k = 0; l && k < l->nargs && pt_bind_lowering(b); k++) {
    int kind = pt_bind_type(b, &l->args[k]).kind;
    if (kind != PT_VK_TILE && kind != PT_VK_VIEW)
      return pt_bind_error(b, &l->args[k], "ir.type", "tsync waits for tiles or GM views (the events of the ops that made them)",
                           "tsync operand %u is not a tile or view", k);
  }
  return 0;
}

/* ---- the A5 vector guard of unsplit pipes ---------------------------------------------------- */

/* 1: op is a pipe op with split 0 (absent = 0); 2: a sub-block query; 0: neither. */
static int pipe_kind(const pa_op *op) {
  static const char *const pipes[] = {"pto.tpush_to_aic", "pto.tpush_to_aiv", "pto.tpop_from_aic", "pto.tpop_from_aiv",
                                      "pto.tfree_from_aic", "pto.tfree_from_aiv"};
  if (pa_str_is(op->name, "pto.get_subblock_idx") || pa_str_is(op->name, "pto.get_subblock_num")) return 2;
  for (size_t i = 0; i < sizeof pipes / sizeof pipes[0]; i++)
    if (pa_str_is(op->name, pipes[i])) {
      const pa_item *v = pa_op_attr(op, "split");
      return !v || (v->kind == PA_IT_INT && v->v.i == 0);
    }
  return 0;
}

/* Bits 1 / 2 of pipe_kind over the ops nested in `scope`. */
static int scan_pipes(const pa_op *scope) {
  int k = 0;
  for (uint32_t r = 0; r < scope->nregions; r++)
    for (uint32_t bk = 0; bk < scope->regions[r].nblocks; bk++)
      for (uint32_t i = 0; i < scope->regions[r].blocks[bk].nops; i++) {
        const pa_op *o = &scope->regions[r].blocks[bk].ops[i];
        k |= pipe_kind(o) | scan_pipes(o);
      }
  return k;
}

int pt_pipe_vector_guard(pt_lower *L, const pa_op *scope) {
  return pt_lower_program(L)->target == PTOSIM_TARGET_A5 && scan_pipes(scope) == 1;
}

/* ---- reserve_buffer / import_reserved_buffer ------------------------------------------------ */

typedef struct reserve_walk {
  const pt_profile *prof;
  uint64_t top[PTOSIM_SPACE_COUNT]; /* lowest address reserved so far per space (auto) */
  const pa_op *want;
  uint64_t addr;
  int found;
} reserve_walk;

/* location = #pto.address_space<vec> or, as PTOAS prints it, <vec> (vec / ub, mat / l1). */
static ptosim_space location_of(const pa_op *op) {
  const pa_item *v = pa_op_attr(op, "location");
  pa_str w = {0};
  if (v && v->kind == PA_IT_ATTR) w = v->body;
  else if (v && v->kind == PA_IT_ANGLE && v->nargs == 1 && v->args[0].kind == PA_IT_WORD) w = v->args[0].name;
  if (pa_str_is(w, "vec") || pa_str_is(w, "ub")) return PTOSIM_UB;
  if (pa_str_is(w, "mat") || pa_str_is(w, "l1")) return PTOSIM_L1;
  return PTOSIM_SPACE_COUNT;
}

/* Addresses of the reserve_buffer ops in module order: base when given, else from the top
 * of the space down, aligned to the space's tile alignment. Stops at w->want. */
static void walk(reserve_walk *w, const pa_op *op) {
  if (w->found) return;
  if (pa_str_is(op->name, "pto.reserve_buffer")) {
    ptosim_space s = location_of(op);
    const pa_item *size = pa_op_attr(op, "size"), *base = pa_op_attr(op, "base");
    uint64_t n = size && size->kind == PA_IT_INT && size->v.i > 0 ? (uint64_t)size->v.i : 0, a = 0;
    if (base && base->kind == PA_IT_INT) {
      a = (uint64_t)base->v.i;
    } else if (s < PTOSIM_SPACE_COUNT && n <= w->top[s]) {
      uint64_t al = w->prof->align[s] ? w->prof->align[s] : 32;
      a = w->top[s] = (w->top[s] - n) / al * al;
    }
    if (op == w->want) w->found = 1, w->addr = a;
  }
  for (uint32_t r = 0; r < op->nregions; r++)
    for (uint32_t bk = 0; bk < op->regions[r].nblocks; bk++)
      for (uint32_t i = 0; i < op->regions[r].blocks[bk].nops; i++) walk(w, &op->regions[r].blocks[bk].ops[i]);
}

/* The func.func @sym of the module (NULL if none). */
static const pa_op *find_func(const pa_op *module, pa_str sym) {
  for (uint32_t r = 0; r < module->nregions; r++)
    for (uint32_t bk = 0; bk < module->regions[r].nblocks; bk++)
      for (uint32_t i = 0; i < module->regions[r].blocks[bk].nops; i++) {
        const pa_op *f = &module->regions[r].blocks[bk].ops[i];
        if (pa_str_eq(f->sym, sym)) return f;
      }
  return NULL;
}

int pt_reserve_area(const pa_op *op, ptosim_space *space, uint64_t *size) {
  const pa_item *n = pa_op_attr(op, "size");
  *space = location_of(op);
  if (!pa_str_is(op->name, "pto.reserve_buffer") || *space == PTOSIM_SPACE_COUNT || !n || n->kind != PA_IT_INT || n->v.i <= 0) return -1;
  *size = (uint64_t)n->v.i;
  return 0;
}

static int reserve_error(pt_lower *L, const pa_op *op, const char *rule, const char *hint, const char *what) {
  pt_lower_errorf(L, op->loc, rule, hint, "%.*s: %s", (int)op->name.n, op->name.s, what);
  return -1;
}

int pt_lower_pipe_op(pt_lower *L, const pa_op *op) {
  int import = pa_str_is(op->name, "pto.import_reserved_buffer");
  if (!import && !pa_str_is(op->name, "pto.reserve_buffer")) return 1;
  ptosim_program *p = pt_lower_program(L);
  const pa_item *name = pa_op_attr(op, "name");
  if (!name || name->kind != PA_IT_STRING) return reserve_error(L, op, "tile_pipe.reserve", "give name = \"...\"", "missing name");
  const pa_op *res = op, *mod = container_of(p->ast->module, op, p->ast->module, is_module);
  if (import) {
    const pa_item *peer = pa_op_attr(op, "peer_func");
    const pa_op *f = peer && peer->kind == PA_IT_SYMBOL && mod ? find_func(mod, peer->name) : NULL;
    res = f ? pa_find_op(f, reserve_named, name) : NULL;
    if (!res)
      return reserve_error(L, op, "tile_pipe.reserve", "peer_func = @f names a function of the module holding pto.reserve_buffer {name = ...}",
                           "no reserve_buffer of that name in peer_func");
  }
  const pa_item *size = pa_op_attr(res, "size"), *base = pa_op_attr(res, "base"), *au = pa_op_attr(res, "auto");
  ptosim_space s = location_of(res);
  const pt_profile *prof = pt_profile_get(p->target);
  if (s == PTOSIM_SPACE_COUNT || !size || size->kind != PA_IT_INT || size->v.i <= 0 || (uint64_t)size->v.i > prof->capacity[s])
    return reserve_error(L, res, "tile_pipe.reserve", "location = #pto.address_space<vec> or <mat>, 0 < size <= the space's capacity",
                         "bad location or size");
  if ((au && pa_item_is_word(au, "false")) != (base != NULL))
    return reserve_error(L, res, "tile_pipe.reserve", "auto = true without base, or auto = false with base = N", "auto and base disagree");
  reserve_walk w = {.prof = prof, .want = res};
  memcpy(w.top, prof->capacity, sizeof w.top);
  walk(&w, mod);
  if (base && (base->kind != PA_IT_INT || base->v.i < 0 || (uint64_t)base->v.i + (uint64_t)size->v.i > prof->capacity[s] ||
               base->v.i % (prof->align[s] ? prof->align[s] : 32)))
    return reserve_error(L, res, "tile_pipe.reserve", "base is aligned and base + size fits the space", "base out of the space");
  pt_slot_type t = pt_slot_type_of(pt_lower_result_type(op, 0));
  if (t.kind != PT_VK_INT) return reserve_error(L, op, "ir.type", "write -> i32", "the result is an integer address");
  pt_ins c = {.code = PT_C_CONST, .src = op};
  c.imm.i = (int64_t)w.addr;
  c.dst = pt_lower_define_results(L, op, &t, 1);
  pt_lower_emit(L, c);
  return 0;
}
