/* Binders of the FIXPIPE quantization configuration ops, in the spelling of
 * tonibohnlein/PTOAS (PTOOps.td SetQuantScalarOp / SetQuantVectorOp):
 *   pto.set_quant_scalar(%scale : f32) {id = 0}
 *   pto.set_quant_vector(%fp : !pto.tile_buf<loc=scaling, ...>) {id = 1}
 * `id` (default 0) names the frontend pipe of the function, pto.aic_initialize_pipe {id = N,
 * acc_push_epilogue = #pto.acc_push_epilogue<layout = .., quant = Q, relu = ..>}, whose
 * FIXPIPE pushes use the binding; Q must be a scalar mode for set_quant_scalar and a vector
 * mode for set_quant_vector (PTO.cpp SetQuantScalarOp::verify / SetQuantVectorOp::verify).
 *
 * PTOAS issues SET_QUANT_SCALAR<OutT>(scale) / SET_QUANT_VECTOR(fp) again right before each
 * TPUSH of that pipe (PTOToEmitC.cpp rematerializeFixpipeQuantBindings), OutT = the element
 * type of the consumer tile, which Q fixes except for the sign of 8-bit outputs. ptosim
 * writes QUANT_PRE / FPC at the op (src/isa/regs.c): the same contents at each TPUSH as long
 * as a single pipe of the function binds each register, which the binder requires
 * (quant.pipe_ids). */
#include <string.h>

#include "asm/asm.h"
#include "core/dtype.h"
#include "exec/bind_quant.h"
#include "exec/lower.h"

/* The op's `id` attribute (0 when absent, -1 when not a non-negative integer). */
static int64_t pipe_id(const pa_op *op) {
  const pa_item *v = pa_op_attr(op, "id");
  return !v ? 0 : v->kind == PA_IT_INT && v->v.i >= 0 ? v->v.i : -1;
}

static int is_op(const pa_op *op, const void *want) { return op == want; }
static int same_name(const pa_op *op, const void *other) {
  const pa_op *o = other;
  return pa_str_eq(op->name, o->name);
}
static int is_init(const pa_op *op, const void *id) {
  return pa_str_is(op->name, "pto.aic_initialize_pipe") && pipe_id(op) == *(const int64_t *)id;
}

/* The top-level op of the module (a function) holding op, or NULL. */
static const pa_op *enclosing_func(const pa_op *module, const pa_op *op) {
  for (uint32_t r = 0; r < module->nregions; r++)
    for (uint32_t bk = 0; bk < module->regions[r].nblocks; bk++)
      for (uint32_t i = 0; i < module->regions[r].blocks[bk].nops; i++)
        if (pa_find_op(&module->regions[r].blocks[bk].ops[i], is_op, op)) return &module->regions[r].blocks[bk].ops[i];
  return NULL;
}

/* The FixpipeQuant modes of PTOAS (PTOAttrs.td): the kind of quantization parameter and the
 * output type FixpipeConsDType gives them (pto-isa include/pto/common/fixpipe.hpp); b8: 8
 * bits, signed or not as the consumer tile; a5: A5 only (PTO.cpp, "... only on A5 target"). */
typedef struct quant_mode {
  const char *word;
  ptosim_push_quant kind;
  ptosim_dtype out; /* NONE: the acc type (no_convert) or 8 bits (b8) */
  bool b8, a5;
} quant_mode;

#define SCALAR PTOSIM_PUSH_QUANT_SCALAR
#define VECTOR PTOSIM_PUSH_QUANT_VECTOR
static const quant_mode k_modes[] = {
    {"no_convert", PTOSIM_PUSH_QUANT_NONE, PTOSIM_DT_NONE, 0, 0},
    {"f32_f16", PTOSIM_PUSH_QUANT_NONE, PTOSIM_DT_F16, 0, 0},
    {"f32_bf16", PTOSIM_PUSH_QUANT_NONE, PTOSIM_DT_BF16, 0, 0},
    {"deqf16_scalar", SCALAR, PTOSIM_DT_F16, 0, 0},
    {"qf322f16_pre_scalar", SCALAR, PTOSIM_DT_F16, 0, 0},
    {"qf322bf16_pre_scalar", SCALAR, PTOSIM_DT_BF16, 0, 0},
    {"qs322bf16_pre_scalar", SCALAR, PTOSIM_DT_BF16, 0, 1},
    {"qf322hif8_pre_scalar", SCALAR, PTOSIM_DT_HIF8, 0, 1},
    {"qf322fp8_pre_scalar", SCALAR, PTOSIM_DT_F8E4M3, 0, 1},
    {"req8_scalar", SCALAR, PTOSIM_DT_NONE, 1, 0},
    {"qf322b8_pre_scalar", SCALAR, PTOSIM_DT_NONE, 1, 0},
    {"deqf16_vec", VECTOR, PTOSIM_DT_F16, 0, 0},
    {"qs322bf16_pre_vec", VECTOR, PTOSIM_DT_BF16, 0, 1},
    {"req8_vec", VECTOR, PTOSIM_DT_NONE, 1, 0},
    {"qf322b8_pre_vec", VECTOR, PTOSIM_DT_NONE, 1, 0},
};

/* The word given for `key` in `#pto.acc_push_epilogue<layout = L, quant = Q, relu = R>`. */
static const pa_item *epilogue_word(const pa_item *e, const char *key) {
  for (uint32_t k = 0; e && e->kind == PA_IT_ATTR && k < e->nargs; k++)
    if (e->args[k].kind == PA_IT_ASSIGN && e->args[k].nargs == 2 && pa_str_is(e->args[k].name, key)) return &e->args[k].args[1];
  return NULL;
}

static const quant_mode *mode_named(const pa_item *q) {
  for (size_t i = 0; q && i < sizeof k_modes / sizeof k_modes[0]; i++)
    if (pa_item_is_word(q, k_modes[i].word)) return &k_modes[i];
  return NULL;
}

/* The quantization mode of pipe `id` of function f (NULL: no such pipe or mode). */
static const quant_mode *mode_of(const pa_op *f, int64_t id) {
  const pa_op *init = f ? pa_find_op(f, is_init, &id) : NULL;
  return init ? mode_named(epilogue_word(pa_op_attr(init, "acc_push_epilogue"), "quant")) : NULL;
}

/* 1 when a TPUSH in the blocks of scope, of a pipe whose mode is of set op `set`'s kind,
 * follows in its block `set` of another pipe as the last op of the block writing the
 * register (or an op holding `set` in its regions): PTOAS re-issues the pipe's own binding
 * there, ptosim's register holds set's. */
static int crossed(const pa_op *f, const pa_op *scope, const pa_op *set, ptosim_push_quant kind) {
  for (uint32_t r = 0; r < scope->nregions; r++)
    for (uint32_t bk = 0; bk < scope->regions[r].nblocks; bk++) {
      const pa_op *last = NULL; /* the block's last op writing the register, or holding one that does */
      for (uint32_t i = 0; i < scope->regions[r].blocks[bk].nops; i++) {
        const pa_op *o = &scope->regions[r].blocks[bk].ops[i];
        const quant_mode *m = pa_str_is(o->name, "pto.tpush_to_aiv") ? mode_of(f, pipe_id(o)) : NULL;
        if (m && m->kind == kind && last && !(same_name(last, set) && pipe_id(last) == pipe_id(o)) && pa_find_op(last, is_op, set)) return 1;
        if (pa_find_op(o, same_name, set)) last = o;
        if (crossed(f, o, set, kind)) return 1;
      }
    }
  return 0;
}

/* The mode of the pipe op binds (the op's kind: vector or scalar), or NULL (reported);
 * *func = the function holding op. */
static const quant_mode *bound_mode(pt_bind *b, const pa_op *op, int vector, const pa_op **func) {
  const char *kind = vector ? "vector" : "scalar";
  int64_t id = pipe_id(op);
  if (id < 0) return pt_bind_error(b, pa_op_attr(op, "id"), "bind.attr", "write {id = N}, N >= 0", "id is not a pipe id"), NULL;
  const pa_op *f = *func = enclosing_func(b->prog->ast->module, op);
  const quant_mode *m = mode_of(f, id);
  if (!m || m->kind != (vector ? VECTOR : SCALAR)) {
    pt_bind_error(b, pa_op_attr(op, "id"), "quant.pipe",
                  "id names a pto.aic_initialize_pipe of this function with acc_push_epilogue = #pto.acc_push_epilogue<..., quant = <mode>, ...>",
                  "pipe %lld of the function has no %s quantization mode", (long long)id, kind);
    return NULL;
  }
  if (pt_bind_lowering(b) && crossed(f, f, op, vector ? VECTOR : SCALAR))
    return pt_bind_error(b, NULL, "quant.pipe_ids", "issue each pipe's set_quant_* right before its pushes",
                         "not supported yet: a TPUSH after another pipe's set_quant_%s (ptosim writes the register at the op)", kind),
           NULL;
  return m;
}

/* ---- the consumer tile of a cube pipe (PTOAS resolveFixpipeConsumerTileType): the tile
 * the peer function pops from its pipe whose consumer buffer is the reserve_buffer the cube
 * pipe's c2v_consumer_buf imports ---- */

typedef struct match {
  pa_str s;
  int64_t id;
} match;

static pa_str bare(pa_str s) { /* an SSA name without its '%' */
  if (s.n && s.s[0] == '%') s.s++, s.n--;
  return s;
}

/* The SSA name passed as `key = %v : T` in the op's bare operand list (empty if none). */
static pa_str keyed_value(const pa_op *op, const char *key) {
  pa_str none = {0};
  for (uint32_t k = 0; k < op->nitems; k++)
    for (uint32_t j = 0; op->items[k].kind == PA_IT_CALL && !op->items[k].name.n && j < op->items[k].nargs; j++) {
      const pa_item *a = &op->items[k].args[j];
      if (a->kind == PA_IT_ASSIGN && a->nargs == 2 && pa_str_is(a->name, key) && a->args[1].kind == PA_IT_VALUE) return bare(a->args[1].name);
    }
  return none;
}

static int defines(const pa_op *op, const void *m) { return op->nresults && pa_str_eq(bare(op->results[0].name), ((const match *)m)->s); }
static int has_sym(const pa_op *op, const void *m) { return op->sym.n && pa_str_eq(op->sym, ((const match *)m)->s); }
static int reserve_named(const pa_op *op, const void *m) {
  const pa_item *n = pa_op_attr(op, "name");
  return pa_str_is(op->name, "pto.reserve_buffer") && n && n->kind == PA_IT_STRING && pa_str_eq(n->name, ((const match *)m)->s);
}
static int consumer_init(const pa_op *op, const void *m) {
  return pa_str_is(op->name, "pto.aiv_initialize_pipe") && pa_str_eq(keyed_value(op, "c2v_consumer_buf"), ((const match *)m)->s);
}
static int pops(const pa_op *op, const void *m) { return pa_str_is(op->name, "pto.tpop_from_aic") && pipe_id(op) == ((const match *)m)->id; }

/* The element type of the consumer tile of pipe `id` of cube function f (NONE if not found). */
static ptosim_dtype consumer_dtype(const pa_op *module, const pa_op *f, int64_t id) {
  const pa_op *init = pa_find_op(f, is_init, &id);
  match m = {.s = init ? keyed_value(init, "c2v_consumer_buf") : (pa_str){0}};
  const pa_op *imp = m.s.n ? pa_find_op(f, defines, &m) : NULL;
  if (!imp || !pa_str_is(imp->name, "pto.import_reserved_buffer")) return PTOSIM_DT_NONE;
  const pa_item *name = pa_op_attr(imp, "name"), *peer = pa_op_attr(imp, "peer_func");
  if (!name || name->kind != PA_IT_STRING || !peer || peer->kind != PA_IT_SYMBOL) return PTOSIM_DT_NONE;
  m.s = peer->name;
  const pa_op *pf = pa_find_op(module, has_sym, &m);
  m.s = name->name;
  const pa_op *res = pf ? pa_find_op(pf, reserve_named, &m) : NULL;
  if (!res || !res->nresults) return PTOSIM_DT_NONE;
  m.s = bare(res->results[0].name);
  const pa_op *ci = pa_find_op(pf, consumer_init, &m);
  m.id = ci ? pipe_id(ci) : -1;
  const pa_op *pop = ci ? pa_find_op(pf, pops, &m) : NULL;
  return pop && pop->nrtypes && pop->rtypes[0]->kind == PA_TY_TILE_BUF ? pt_elem_dtype(pop->rtypes[0]->tb.dtype) : PTOSIM_DT_NONE;
}

/* The bare operand list `(...)` of the op, holding one operand (NULL reported). */
static const pa_item *single_operand(pt_bind *b, const pa_op *op, const char *form) {
  for (uint32_t k = 0; k < op->nitems; k++)
    if (op->items[k].kind == PA_IT_CALL && !op->items[k].name.n && op->items[k].nargs == 1) return &op->items[k].args[0];
  pt_bind_error(b, NULL, "bind.arity", form, "expects one operand in parentheses");
  return NULL;
}

int bind_ptosim_set_quant_scalar_params(pt_bind *b, const pa_op *op, ptosim_set_quant_scalar_params *p) {
  const pa_item *it = single_operand(b, op, "write pto.set_quant_scalar(%scale : f32) {id = N}");
  const pa_op *f = NULL;
  const quant_mode *m = it ? bound_mode(b, op, 0, &f) : NULL;
  if (!m) return -1;
  pt_slot_type t = pt_bind_type(b, it);
  if (pt_bind_lowering(b) && (t.kind != PT_VK_FLOAT || t.bits != 32))
    return pt_bind_error(b, it, "bind.type", "the scale is an f32 value (SET_QUANT_SCALAR(float))", "scale is not f32");
  ptosim_dtype out = !m->b8 ? m->out : consumer_dtype(b->prog->ast->module, f, pipe_id(op));
  if (m->b8 && out != PTOSIM_DT_I8 && out != PTOSIM_DT_U8)
    return pt_bind_error(b, NULL, "quant.out_type",
                         "import the consumer buffer from the peer function's reserve_buffer and pop an i8 or ui8 tile from that pipe",
                         "not supported yet: an 8-bit mode whose consumer tile is not found (its sign goes into QUANT_PRE)");
  uint32_t bits = (uint32_t)pt_bind_scalar(b, it).bits;
  memcpy(&p->scale, &bits, sizeof bits);
  p->out_type = out;
  return 0;
}

/* The scaling tile's element type is the payload of PTOAS's verifier: f16 / bf16 / f32 on
 * A5, packed 64-bit words (i64 / ui64) on A2/A3 (FPC only takes its address). */
int bind_ptosim_set_quant_vector_params(pt_bind *b, const pa_op *op, ptosim_set_quant_vector_params *p) {
  const pa_item *it = single_operand(b, op, "write pto.set_quant_vector(%fp : !pto.tile_buf<loc=scaling, ...>) {id = N}");
  const pa_op *f;
  if (!it || !bound_mode(b, op, 1, &f)) return -1;
  const pa_type *ty = pt_bind_value_type(b, it);
  if (ty && ty->kind == PA_TY_TILE_BUF) {
    ptosim_dtype d = pt_elem_dtype(ty->tb.dtype);
    int a5 = b->prog->target == PTOSIM_TARGET_A5;
    if (a5 ? d != PTOSIM_DT_F16 && d != PTOSIM_DT_BF16 && d != PTOSIM_DT_F32 : d != PTOSIM_DT_I64 && d != PTOSIM_DT_U64)
      return pt_bind_error(b, it, "quant.fp_dtype", a5 ? "A5 takes an f16, bf16 or f32 scaling tile" : "A2/A3 take an i64 or ui64 scaling tile",
                           "scaling tile of %s", pt_dtype_name(d));
  }
  p->fp = pt_bind_tile(b, it);
  return 0;
}

/* ---- acc_push_epilogue = #pto.acc_push_epilogue<layout = L, quant = Q, relu = R> of a
 * cube-side frontend pipe: the FixpipeParams<L, Q, R> of its TPUSH (PTOToEmitC.cpp
 * PipeNFixpipeConfig); its pushes carry them (ptosim_tpush_params) ---- */

static const char *const k_layouts[] = {"nz2nd", "nz2dn", "nz2nz"}; /* ptosim_fixpipe_layout order */
static const char *const k_relus[] = {"no_relu", "normal_relu"};

static int word_index(const pa_item *w, const char *const *words, int n) {
  for (int i = 0; w && i < n; i++)
    if (pa_item_is_word(w, words[i])) return i;
  return -1;
}

int bind_quant_epilogue(pt_bind *b, const pa_op *init, int gm) {
  const pa_item *e = pa_op_attr(init, "acc_push_epilogue");
  if (!e) return 0;
  const pa_item *l = epilogue_word(e, "layout"), *q = epilogue_word(e, "quant");
  const quant_mode *m = mode_named(q);
  int layout = word_index(l, k_layouts, 3);
  if (e->kind != PA_IT_ATTR || e->nargs != 3 || layout < 0 || !m || word_index(epilogue_word(e, "relu"), k_relus, 2) < 0)
    return pt_bind_error(b, e, "bind.attr",
                         "#pto.acc_push_epilogue<layout = nz2nd | nz2dn | nz2nz, quant = no_convert | f32_f16 | deqf16_scalar | ..., "
                         "relu = no_relu | normal_relu>",
                         "not an acc_push_epilogue");
  if (m->a5 && b->prog->target != PTOSIM_TARGET_A5)
    return pt_bind_error(b, q, "tile_pipe.epilogue", "use this quantization mode on A5 only (PTOAS PTO.cpp)", "quant = %s on A2/A3",
                         m->word);
  if (gm && layout != PTOSIM_FIXPIPE_NZ2ND)
    return pt_bind_error(b, l, "op.unsupported", "a push into a GM FIFO writes ND rows: layout = nz2nd",
                         "not supported yet: acc_push_epilogue layout = %s on a GM FIFO", k_layouts[layout]);
  return 0;
}

/* The 8-bit output of pipe id's consumer tile (PTOAS resolveFixpipeConsumerTileType), else
 * i8 (FixpipeConsDType). */
static ptosim_dtype b8_out(const pa_op *module, const pa_op *f, int64_t id) {
  ptosim_dtype d = consumer_dtype(module, f, id);
  return d == PTOSIM_DT_U8 ? d : PTOSIM_DT_I8;
}

int bind_quant_push(pt_bind *b, const pa_op *push, int64_t id, ptosim_tpush_params *p) {
  const pa_op *module = b->prog->ast->module, *f = enclosing_func(module, push), *init = f ? pa_find_op(f, is_init, &id) : NULL;
  const pa_item *e = init ? pa_op_attr(init, "acc_push_epilogue") : NULL;
  const quant_mode *m = mode_named(epilogue_word(e, "quant"));
  if (!m) return 0; /* no epilogue (a malformed one is reported at the init) */
  if (p->split != PTOSIM_SPLIT_NONE)
    return pt_bind_error(b, NULL, "tile_pipe.split", "a push through an acc_push_epilogue goes to vector sub-block 0: split = 0",
                         "split %d on a pipe with an acc_push_epilogue", (int)p->split);
  p->quant = m->kind;
  p->out_dtype = m->b8 ? b8_out(module, f, id) : m->out;
  p->layout = (ptosim_fixpipe_layout)word_index(epilogue_word(e, "layout"), k_layouts, 3);
  p->relu = word_index(epilogue_word(e, "relu"), k_relus, 2) == 1 ? PTOSIM_RELU_NORMAL : PTOSIM_RELU_NONE;
  return 0;
}
