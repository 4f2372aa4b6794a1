/* Lowering: a parsed function becomes a flat instruction array over value slots.
 * Calls are inlined; scf.for / scf.if / scf.while become jumps; pto ops of the op table
 * are bound to their parameter structs (bind.c) once here and again at every execution. */
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

/* ---- diagnostics ------------------------------------------------------------------------ */

/* Report each (location, rule) once: errors in a function called from several places
 * would otherwise repeat per call site. */
static int seen_before(pt_lower *L, pa_loc loc, const char *rule) {
  for (int i = 0; i < L->nseen; i++)
    if (L->seen[i].loc.line == loc.line && L->seen[i].loc.col == loc.col && !strcmp(L->seen[i].rule, rule)) return 1;
  struct seen_diag *n = room(L->seen, &L->cap_seen, L->nseen + 1, sizeof *n);
  if (!n) return 0;
  L->seen = n;
  L->seen[L->nseen++] = (struct seen_diag){loc, rule};
  return 0;
}

void pt_lower_error(pt_lower *L, pa_loc loc, const char *rule, const char *hint, const char *msg) {
  L->reports++;
  if (seen_before(L, loc, rule)) return;
  L->errors++;
  L->unsupported += !strcmp(rule, "op.unsupported");
  if (!L->diag) return;
  size_t n = 0;
  const char *line = pa_source_line(L->p->ast->text, L->p->ast->len, loc.line, &n);
  pa_diag_print(L->diag, L->p->ast->file, loc.line, loc.col, "error", msg, rule, hint, line, n);
}

int pt_lower_errorf(pt_lower *L, pa_loc loc, const char *rule, const char *hint, const char *fmt, ...) {
  char msg[512];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  pt_lower_error(L, loc, rule, hint, msg);
  return -1;
}

/* ---- slots and names --------------------------------------------------------------------- */

ptosim_space pt_space_of_aspace(pa_aspace a) {
  static const ptosim_space sp[PA_AS_COUNT] = {[PA_AS_GM] = PTOSIM_GM,   [PA_AS_MAT] = PTOSIM_L1,
                                               [PA_AS_LEFT] = PTOSIM_L0A, [PA_AS_RIGHT] = PTOSIM_L0B,
                                               [PA_AS_ACC] = PTOSIM_L0C,  [PA_AS_VEC] = PTOSIM_UB,
                                               [PA_AS_BIAS] = PTOSIM_BT,  [PA_AS_SCALING] = PTOSIM_FB};
  return sp[a];
}

ptosim_dtype pt_elem_dtype(const pa_type *t) {
  if (!t) return PTOSIM_DT_NONE;
  if (t->kind == PA_TY_INT && t->width == 4) return PTOSIM_DT_I4;
  if (t->kind == PA_TY_INT) return pt_slot_type_of(t).dt;
  if (t->kind == PA_TY_FLOAT || t->kind == PA_TY_DIALECT) return pt_dtype_parse(t->name.s, (unsigned)t->name.n);
  if (t->kind == PA_TY_VECTOR) { /* the packed pairs vector<2xf16> / vector<2xbf16>, by canonical spelling */
    char s[32];
    size_t n = pa_type_print(t, s, sizeof s);
    return n < sizeof s ? pt_dtype_parse(s, (unsigned)n) : PTOSIM_DT_NONE;
  }
  return PTOSIM_DT_NONE;
}

pt_slot_type pt_slot_type_of(const pa_type *t) {
  pt_slot_type s = {.kind = PT_VK_OTHER};
  if (!t) return s;
  switch (t->kind) {
  case PA_TY_INDEX: return (pt_slot_type){.kind = PT_VK_INT, .bits = 64, .is_index = 1, .dt = PTOSIM_DT_I64};
  case PA_TY_INT: {
    s.kind = PT_VK_INT;
    s.bits = (uint8_t)(t->width > 64 ? 64 : t->width);
    s.is_unsigned = t->sign == PA_UNSIGNED;
    static const ptosim_dtype sdt[] = {PTOSIM_DT_I8, PTOSIM_DT_I16, PTOSIM_DT_I32, PTOSIM_DT_I64};
    static const ptosim_dtype udt[] = {PTOSIM_DT_U8, PTOSIM_DT_U16, PTOSIM_DT_U32, PTOSIM_DT_U64};
    int i = t->width == 8 ? 0 : t->width == 16 ? 1 : t->width == 32 ? 2 : t->width == 64 ? 3 : -1;
    s.dt = i < 0 ? PTOSIM_DT_NONE : s.is_unsigned ? udt[i] : sdt[i];
    return s;
  }
  case PA_TY_FLOAT:
    s.kind = PT_VK_FLOAT;
    s.dt = pt_dtype_parse(t->name.s, (unsigned)t->name.n);
    s.bits = (uint8_t)(t->fk == PA_F64 ? 64 : t->fk == PA_F32 ? 32 : 16);
    if (t->fk == PA_F64) s.dt = PTOSIM_DT_NONE;
    return s;
  case PA_TY_VREG:
    return (pt_slot_type){.kind = PT_VK_VREG, .dt = pt_elem_dtype(t->elem), .lanes = (uint16_t)t->dims[0]};
  case PA_TY_MASK: return (pt_slot_type){.kind = PT_VK_MASK, .bits = (uint8_t)t->mask_bits};
  case PA_TY_ALIGN: return (pt_slot_type){.kind = PT_VK_ALIGN};
  case PA_TY_TILE_BUF:
  case PA_TY_MULTI_TILE_BUF: /* a tile object holding slot 0 (tiles.c) */
    return (pt_slot_type){.kind = PT_VK_TILE, .dt = pt_elem_dtype(t->tb.dtype), .space = pt_space_of_aspace(t->tb.loc), .decl = t};
  case PA_TY_MEMREF: /* a GM memref is a view (older PTOAS samples); local ones are memref.alloc's tiles */
    if (!pa_str_is(pt_memref_space(t), "gm")) return s;
    /* fall through */
  case PA_TY_TENSOR_VIEW:
  case PA_TY_PART_VIEW:
  case PA_TY_TILE_VIEW: return (pt_slot_type){.kind = PT_VK_VIEW, .dt = pt_elem_dtype(t->elem), .space = PTOSIM_GM, .decl = t};
  case PA_TY_DIALECT: /* !pto.pipe: the handle of a tile pipe (src/isa/tile_pipe.c), an i32; the async
                       * DMA handles (include/ptosim/tile_move.h): i64 */
    if (pa_str_is(t->name, "pto.prefetch_async_context") || pa_str_is(t->name, "pto.async_session") ||
        pa_str_is(t->name, "pto.async_event"))
      return pt_lw_i64_type();
    return pa_str_is(t->name, "pto.pipe") ? (pt_slot_type){.kind = PT_VK_INT, .bits = 32, .dt = PTOSIM_DT_I32} : s;
  case PA_TY_PTR: {
    s.kind = PT_VK_PTR;
    s.space = pt_space_of_aspace(t->space);
    s.dt = pt_elem_dtype(t->elem);
    return s;
  }
  default: return s;
  }
}

int32_t pt_lw_new_slots(pt_lower *L, pt_slot_type t, int n) {
  ptosim_program *p = L->p;
  pt_slot_type *s = room(p->slots, &p->cap_slots, p->nslots + n, sizeof *s);
  if (!s) return -1;
  p->slots = s;
  size_t w = pt_wide_size(t.kind);
  for (int i = 0; i < n; i++) {
    if (w) { /* a wide value gets its own 64-byte aligned place in every core's arena */
      t.wide = p->wide_bytes;
      p->wide_bytes += (uint32_t)((w + 63) & ~(size_t)63);
    }
    p->slots[p->nslots + i] = t;
  }
  p->nslots += n;
  return p->nslots - n;
}

static unsigned name_hash(pa_str s) {
  uint32_t h = 2166136261u; /* FNV-1a */
  for (size_t i = 0; i < s.n; i++) h = (h ^ (unsigned char)s.s[i]) * 16777619u;
  return h & (NAME_BUCKETS - 1);
}

void pt_lw_define(pt_lower *L, pa_str name, int32_t slot, int32_t count) {
  name_ent *n = room(L->names, &L->cap_names, L->nnames + 1, sizeof *n);
  if (!n) return;
  L->names = n;
  unsigned h = name_hash(name);
  L->names[L->nnames] = (name_ent){name, slot, count, L->heads[h]};
  L->heads[h] = ++L->nnames;
}

/* Leave a scope: forget the names defined after the first `keep`. */
void pt_lw_pop_names(pt_lower *L, int keep) {
  while (L->nnames > keep) {
    name_ent *e = &L->names[--L->nnames];
    L->heads[name_hash(e->name)] = e->prev;
  }
}

int32_t pt_lower_resolve(pt_lower *L, const pa_item *it) {
  for (int32_t i = L->heads[name_hash(it->name)]; i && i - 1 >= L->barrier; i = L->names[i - 1].prev) {
    name_ent *e = &L->names[i - 1];
    if (e->name.n != it->name.n || memcmp(e->name.s, it->name.s, it->name.n)) continue;
    int k = it->result_no < 0 ? 0 : it->result_no;
    if (k >= e->count) {
      errorf(L, it->loc, "ir.result_index", "use an index below the op's result count", "'%.*s' has only %d results",
             (int)it->text.n, it->text.s, e->count);
      return -1;
    }
    return e->slot + k;
  }
  for (int32_t i = L->heads[name_hash(it->name)]; L->strict_outer >= 0 && i && i - 1 >= L->strict_outer; i = L->names[i - 1].prev) {
    name_ent *e = &L->names[i - 1];
    if (e->name.n == it->name.n && !memcmp(e->name.s, it->name.s, it->name.n)) {
      errorf(L, it->loc, "vec.capture", "pass the value as an operand of pto.strict_vecscope and use its block argument",
             "pto.strict_vecscope body uses '%%%.*s' from outside", (int)it->name.n, it->name.s);
      return -1;
    }
  }
  errorf(L, it->loc, "ir.undefined_value", "define the value before its use", "use of undefined value '%.*s'",
         (int)it->text.n, it->text.s);
  return -1;
}

/* A pointer type whose element type ptosim has no dtype for (f64, ...) would address its
 * elements with size 0: refuse it. Returns -1 after reporting. */
int pt_lw_check_ptr_elem(pt_lower *L, const pa_type *t, pa_loc loc) {
  if (!t || t->kind != PA_TY_PTR || pt_slot_type_of(t).dt != PTOSIM_DT_NONE) return 0;
  char name[64];
  pa_type_print(t->elem, name, sizeof name);
  return errorf(L, loc, "op.unsupported", "ptosim's element types are the integers up to 64 bits, f16, bf16, f32 and the 8-bit floats",
                "not supported yet: pointers to %s", name);
}

/* ---- emission ----------------------------------------------------------------------------- */

int32_t pt_lower_emit(pt_lower *L, pt_ins ins) {
  ptosim_program *p = L->p;
  pt_ins *c = room(p->code, &p->cap_code, p->ncode + 1, sizeof *c);
  if (!c) return -1;
  p->code = c;
  p->code[p->ncode] = ins;
  return p->ncode++;
}


/* Last TYPE item of the trailing type list (the result type of casts `a : T to U`). */
const pa_type *pt_lw_last_type(const pa_op *op) {
  for (uint32_t i = op->ntypes; i-- > 0;)
    if (op->types[i].kind == PA_IT_TYPE) return op->types[i].type;
  return NULL;
}

/* Result i's declared type: after `->`; for an op without operands and without `->`, the
 * i-th trailing type (`%a, %b = pto.get_vms4_sr : i16, i16`); else the last trailing type. */
const pa_type *pt_lower_result_type(const pa_op *op, unsigned i) {
  if (i < op->nrtypes) return op->rtypes[i];
  int operands = 0;
  for (uint32_t k = 0; k < op->nitems; k++) operands |= pt_is_operand(&op->items[k]);
  if (!op->nrtypes && !operands && i < op->ntypes && op->types[i].kind == PA_IT_TYPE) return op->types[i].type;
  if (i == 0) return pt_lw_last_type(op);
  return NULL;
}


/* The type of a placeholder for a value a failed op did not define: its declared type t,
 * else (none, or one ptosim does not model) an i64 stub that is not type-checked. */
pt_slot_type pt_lw_placeholder_type(const pa_type *t) {
  pt_slot_type s = pt_slot_type_of(t);
  if (s.kind != PT_VK_OTHER) return s;
  s = pt_lw_i64_type();
  s.stub = 1;
  return s;
}

/* Define the op's results with the given types; returns the first slot. */
int32_t pt_lower_define_results(pt_lower *L, const pa_op *op, const pt_slot_type *types, int n) {
  int32_t first = -1;
  int k = 0;
  for (uint32_t r = 0; r < op->nresults; r++) {
    int32_t base = -1;
    for (uint32_t j = 0; j < op->results[r].count; j++, k++) {
      int32_t s = pt_lw_new_slots(L, k < n ? types[k] : pt_lw_i64_type(), 1);
      if (base < 0) base = s;
      if (first < 0) first = s;
    }
    pt_lw_define(L, op->results[r].name, base, (int32_t)op->results[r].count);
  }
  if (first < 0) first = pt_lw_new_slots(L, n ? types[0] : pt_lw_i64_type(), 1); /* unused result */
  return first;
}

int32_t pt_lower_operand(pt_lower *L, const pa_item *it) {
  if (!it) return -1;
  if (it->kind == PA_IT_VALUE) return pt_lower_resolve(L, it);
  /* literal operand: materialize a constant */
  pt_ins c = {.code = PT_C_CONST};
  pt_slot_type t = pt_lw_i64_type();
  if (it->kind == PA_IT_INT) c.imm.i = it->v.i;
  else if (it->kind == PA_IT_FLOAT) {
    c.imm.f = it->v.f;
    t = (pt_slot_type){.kind = PT_VK_FLOAT, .bits = 32, .dt = PTOSIM_DT_F32};
  } else {
    errorf(L, it->loc, "ir.operand", "pass an SSA value", "expected an operand, got '%.*s'", (int)it->text.n, it->text.s);
    return -1;
  }
  c.dst = pt_lw_new_slots(L, t, 1);
  pt_lower_emit(L, c);
  return c.dst;
}

int pt_is_operand(const pa_item *it) {
  return it->kind == PA_IT_VALUE || it->kind == PA_IT_INT || it->kind == PA_IT_FLOAT;
}

const pa_item *pt_operand_item(const pa_op *op, unsigned i) {
  for (uint32_t k = 0; k < op->nitems; k++)
    if (pt_is_operand(&op->items[k]) && i-- == 0) return &op->items[k];
  return NULL;
}

/* dst = src: the value, or the bytes of a wide value. */
static pt_ins mov(pt_lower *L, int32_t dst, int32_t src) {
  size_t w = pt_wide_size(L->p->slots[src].kind);
  pt_ins m = {.code = (uint8_t)(w ? PT_C_WMOV : PT_C_MOV), .dst = dst, .a = src};
  m.imm.i = (int64_t)w;
  return m;
}

void pt_lw_copy_slots(pt_lower *L, const int32_t *dst, const int32_t *src, int n) {
  /* Parallel copy through temporaries, so `yield %b, %a` swaps correctly. */
  int32_t tmp[64];
  if (n > 64) n = 64;
  for (int i = 0; i < n; i++) {
    tmp[i] = pt_lw_new_slots(L, L->p->slots[src[i]], 1);
    pt_lower_emit(L, mov(L, tmp[i], src[i]));
  }
  for (int i = 0; i < n; i++) pt_lower_emit(L, mov(L, dst[i], tmp[i]));
}

/* ---- value types ------------------------------------------------------------------------- */

const char *pt_slot_type_name(pt_slot_type t, char *buf, size_t n) {
  if (t.kind == PT_VK_INT && t.is_index) return "index";
  if (t.kind == PT_VK_INT) snprintf(buf, n, "%si%u", t.is_unsigned ? "u" : "", t.bits);
  else if (t.kind == PT_VK_FLOAT) snprintf(buf, n, "%s", t.dt == PTOSIM_DT_NONE ? "f64" : pt_dtype_name(t.dt));
  else if (t.kind == PT_VK_VREG) snprintf(buf, n, "!pto.vreg<%ux%s>", t.lanes, pt_dtype_name(t.dt));
  else if (t.kind == PT_VK_MASK) snprintf(buf, n, "!pto.mask<b%u>", t.bits);
  else if (t.kind == PT_VK_PTR && t.dt) snprintf(buf, n, "a pointer to %s in %s", pt_dtype_name(t.dt), pt_space_name(t.space));
  else snprintf(buf, n, "%s", t.kind == PT_VK_PTR ? "a pointer" : t.kind == PT_VK_TILE ? "a tile" : t.kind == PT_VK_VIEW ? "a view" : t.kind == PT_VK_ALIGN ? "!pto.align" : "another type");
  return buf;
}

/* Same MLIR type as far as ptosim models it (pointers, tiles and views: same kind). */
static int same_type(pt_slot_type a, pt_slot_type b) {
  if (a.kind != b.kind) return 0;
  if (a.kind == PT_VK_INT) return a.bits == b.bits && a.is_index == b.is_index && a.is_unsigned == b.is_unsigned;
  if (a.kind == PT_VK_FLOAT) return a.bits == b.bits && a.dt == b.dt;
  if (a.kind == PT_VK_VREG) return a.lanes == b.lanes && a.dt == b.dt;
  if (a.kind == PT_VK_MASK) return a.bits == b.bits;
  if (a.kind == PT_VK_PTR) return a.space == b.space && (a.dt == b.dt || !a.dt || !b.dt); /* NONE: a type ptosim lacks */
  return 1;
}


/* The value of operand `it` (slot s) has type want; else ir.type at the operand. Literal
 * operands and values of types ptosim does not model are not compared. Returns -1 after
 * reporting. */
int pt_lw_expect_type(pt_lower *L, const pa_item *it, int32_t s, pt_slot_type want, const char *what) {
  pt_slot_type got = L->p->slots[s];
  if (!it || it->kind != PA_IT_VALUE || got.kind == PT_VK_OTHER || want.kind == PT_VK_OTHER || got.stub || want.stub ||
      same_type(got, want))
    return 0;
  char g[32], w[32];
  return errorf(L, it->loc, "ir.type", "convert the value first (arith.index_cast, arith.extsi, ...)", "%s '%.*s' is %s, expected %s",
                what, (int)it->text.n, it->text.s, pt_slot_type_name(got, g, sizeof g), pt_slot_type_name(want, w, sizeof w));
}

/* Operand `it` is an integer (is_int) or a float value. */
int pt_lw_expect_class(pt_lower *L, const pa_op *op, const pa_item *it, int32_t s, int is_int) {
  pt_slot_type got = L->p->slots[s];
  if (!it || it->kind != PA_IT_VALUE || got.kind == PT_VK_OTHER || got.stub || got.kind == (is_int ? PT_VK_INT : PT_VK_FLOAT))
    return 0;
  char g[32];
  return errorf(L, it->loc, "ir.type", is_int ? "integer ops take integers or index values" : "float ops take float values",
                "%.*s operand '%.*s' is %s, expected %s", (int)op->name.n, op->name.s, (int)it->text.n, it->text.s,
                pt_slot_type_name(got, g, sizeof g), is_int ? "an integer" : "a float");
}

/* Values passed on to slots of declared types (scf.yield, scf.condition): operand i of
 * the op, already resolved to slot src[i], must have the type of dst[i]. */
int pt_lw_expect_types(pt_lower *L, const pa_op *op, const int32_t *src, const int32_t *dst, int n, const char *what) {
  int rc = 0;
  for (int i = 0; i < n; i++) rc |= pt_lw_expect_type(L, pt_operand_item(op, (unsigned)i), src[i], L->p->slots[dst[i]], what);
  return rc;
}

/* ---- dispatch ------------------------------------------------------------------------------ */

static int lower_op(pt_lower *L, const pa_op *op) {
  pa_str n = op->name;
  if (op->generic)
    return errorf(L, op->loc, "op.unsupported", "write the op in its custom form (the form ptoas prints by default)",
                  "not supported yet: %.*s in MLIR's generic form", (int)n.n, n.s);
  if ((n.n > 6 && !memcmp(n.s, "arith.", 6)) || pa_str_is(n, "llvm.bitcast") || pa_str_is(n, "builtin.unrealized_conversion_cast"))
    return pt_lower_arith(L, op);
  if (pa_str_is(n, "scf.for")) return pt_lower_for(L, op);
  if (pa_str_is(n, "scf.if")) return pt_lower_if(L, op);
  if (pa_str_is(n, "scf.while")) return pt_lower_while(L, op);
  if (pa_str_is(n, "scf.yield")) return pt_lower_yield(L, op);
  if (pa_str_is(n, "scf.execute_region")) return pt_lower_execute_region(L, op);
  if (pa_str_is(n, "scf.condition")) return pt_lower_condition(L, op);
  if (pa_str_is(n, "func.call") || pa_str_is(n, "call")) return pt_lower_call(L, op);
  if (pa_str_is(n, "return") || pa_str_is(n, "func.return")) return pt_lower_return(L, op);
  if (n.n > 4 && !memcmp(n.s, "pto.", 4)) return pt_lower_pto(L, op);
  if (pa_str_is(n, "memref.alloc")) return pt_lower_obj_op(L, op); /* a local buffer: a tile (tiles.c) */
  /* Ops of the other upstream MLIR dialects real PTOAS programs use (llvm.bitcast in SIMT
   * bodies, memref.alloc, ...) are valid programs ptosim cannot run yet. */
  static const char *const dialects[] = {"llvm.", "memref.", "vector.", "math.", "index.", "cf.", "affine.", "ub.", "emitc.", "tensor.", "gpu."};
  for (size_t i = 0; i < sizeof dialects / sizeof dialects[0]; i++)
    if (n.n > strlen(dialects[i]) && !memcmp(n.s, dialects[i], strlen(dialects[i])))
      return errorf(L, op->loc, "op.unsupported", "this op is parsed but ptosim cannot execute it yet", "not supported yet: %.*s", (int)n.n, n.s);
  return errorf(L, op->loc, "ir.unknown_op", "ptosim understands the arith, scf, func and pto dialects",
                "unknown op '%.*s'", (int)n.n, n.s);
}

/* Declared type of value k of an op's results: `-> (T, ...)`, the results of a trailing
 * function type `: (A) -> (T, ...)`, else for value 0 the last trailing type (`: i64`). */
static const pa_type *declared_type(const pa_op *op, unsigned k) {
  if (op->nrtypes) return k < op->nrtypes ? op->rtypes[k] : NULL;
  const pa_type *t = pt_lw_last_type(op);
  if (t && t->kind == PA_TY_FUNC) return k < t->nout ? t->out[k] : NULL;
  return k ? NULL : t;
}

/* After a failed op: its results it did not define get placeholder slots of their declared
 * types, so later uses are not reported again as undefined values. */
static void define_failed_results(pt_lower *L, const pa_op *op, int from) {
  unsigned k = 0;
  for (uint32_t r = 0; r < op->nresults; k += op->results[r++].count) {
    int defined = 0;
    for (int i = from; i < L->nnames && !defined; i++)
      defined = L->names[i].name.n == op->results[r].name.n &&
                !memcmp(L->names[i].name.s, op->results[r].name.s, op->results[r].name.n);
    if (defined) continue;
    int32_t base = pt_lw_new_slots(L, pt_lw_i64_type(), (int)op->results[r].count);
    for (uint32_t j = 0; j < op->results[r].count && base >= 0; j++)
      L->p->slots[base + (int32_t)j] = pt_lw_placeholder_type(declared_type(op, k + j));
    pt_lw_define(L, op->results[r].name, base, (int32_t)op->results[r].count);
  }
}

/* One op of a region: the region's terminator (scf.yield / scf.condition) only at its end. */
int pt_lower_in_region(pt_lower *L, const pa_op *op, int last) {
  region_kind term = pa_str_is(op->name, "scf.yield") ? R_YIELD : pa_str_is(op->name, "scf.condition") ? R_COND : R_PLAIN;
  if (!last && term != R_PLAIN && term == L->region)
    return errorf(L, op->loc, "ir.syntax", "nothing may follow the terminator of a region",
                  "%.*s must be the last op of its region", (int)op->name.n, op->name.s);
  return lower_op(L, op);
}

/* Lower the ops of a region of the given kind (what its terminator may be; R_YIELD: scf.yield
 * sends ny values to ys; R_COND: scf.condition passes ny values). */
int pt_lower_ops(pt_lower *L, const pa_region *r, const int32_t *args, int nargs, region_kind kind, const int32_t *ys,
                     int ny) {
  const int32_t *sy = L->yield_slots;
  int sn = L->nyield, rc = 0;
  region_kind sk = L->region;
  L->yield_slots = ys;
  L->nyield = ny;
  L->region = kind;
  for (uint32_t bi = 0; bi < r->nblocks; bi++) {
    const pa_block *b = &r->blocks[bi];
    for (uint32_t a = 0; a < b->nargs && bi == 0 && (int)a < nargs; a++) pt_lw_define(L, b->args[a].name, args[a], 1);
    for (uint32_t i = 0; i < b->nops; i++) {
      const pa_op *op = &b->ops[i];
      int names = L->nnames, reports = L->reports;
      if (!pt_lower_in_region(L, op, bi + 1 == r->nblocks && i + 1 == b->nops)) continue;
      rc = -1; /* keep going: report every error */
      if (L->reports == reports) /* a failure nobody reported (a missing operand) */
        errorf(L, op->loc, "ir.syntax", "check the operands against the op's syntax", "malformed %.*s", (int)op->name.n,
               op->name.s);
      define_failed_results(L, op, names);
    }
  }
  L->yield_slots = sy;
  L->nyield = sn;
  L->region = sk;
  return rc;
}

/* A region with no terminator of its own (function body, section). */
int pt_lower_region(pt_lower *L, const pa_region *r, const int32_t *arg_slots, int nargs) {
  return pt_lower_ops(L, r, arg_slots, nargs, R_PLAIN, NULL, 0);
}

/* A function body. In a PTODSL tileop helper (`attributes {pto.tileop.helper}`) vector ops
 * may stand outside pto.vecscope: PTOAS wraps the helper's body in one vector section
 * (PTOMaterializeTileOpSections) and groups its vector ops into inferred vecscopes
 * (PTOInferVPTOVecScope); ptosim runs vector ops inline either way. */
int pt_lower_body(pt_lower *L, const pa_op *fn, const int32_t *args) {
  const pa_func *saved = L->fn;
  int saved_helper = L->helper_scope;
  for (uint32_t i = 0; i < fn->func->nargs; i++) pt_lw_define(L, fn->func->args[i].name, args[i], 1);
  L->fn = fn->func;
  L->helper_scope = fn->attrs && pa_dict_get(fn->attrs, "pto.tileop.helper") != NULL;
  int rc = fn->nregions ? pt_lower_region(L, &fn->regions[0], NULL, 0) : 0;
  L->fn = saved;
  L->helper_scope = saved_helper;
  return rc;
}

/* ---- the lowering interface of tiles.c and bind.c ------------------------------------------ */

ptosim_program *pt_lower_program(pt_lower *L) { return L->p; }

int pt_lower_add_operand(pt_lower *L, pt_operand o) {
  ptosim_program *p = L->p;
  pt_operand *n = room(p->operands, &p->cap_operands, p->noperands + 1, sizeof *n);
  if (!n) return -1;
  p->operands = n;
  p->operands[p->noperands++] = o;
  return 0;
}

int32_t pt_lower_new_obj(pt_lower *L, const pt_obj *tmpl) {
  ptosim_program *p = L->p;
  pt_obj *n = room(p->objs, &p->cap_objs, p->nobjs + 1, sizeof *n);
  if (!n) return -1;
  p->objs = n;
  p->objs[p->nobjs] = *tmpl;
  return p->nobjs++;
}

/* ---- program ---------------------------------------------------------------------------------- */

/* The entry: the function named by --entry, else the one marked `pto.kernel` (or
 * `pto.aicore`), else the only public function. Several marked functions are ambiguous:
 * *nkernels tells the caller, *first / *second name two of them. */
static const pa_op *find_entry(const pa_ast *ast, const char *entry, int *nkernels, const pa_op **first, const pa_op **second) {
  const pa_op *only = NULL;
  int npublic = 0;
  const pa_op *stack[64];
  int sp = 0;
  *nkernels = 0;
  if (ast->module) stack[sp++] = ast->module;
  while (sp) {
    const pa_op *m = stack[--sp];
    for (uint32_t r = 0; r < m->nregions; r++)
      for (uint32_t b = 0; b < m->regions[r].nblocks; b++)
        for (uint32_t i = 0; i < m->regions[r].blocks[b].nops; i++) {
          const pa_op *op = &m->regions[r].blocks[b].ops[i];
          if (pa_str_is(op->name, "module") && sp < 64) stack[sp++] = op;
          if (!op->func || op->func->is_decl) continue;
          if (entry && pa_str_is(op->func->name, entry)) return op;
          if (op->attrs && (pa_dict_get(op->attrs, "pto.kernel") || pa_dict_get(op->attrs, "pto.aicore"))) {
            if (++*nkernels == 1) *first = op;
            else if (*nkernels == 2) *second = op;
          }
          if (!pa_str_is(op->func->visibility, "private")) {
            npublic++;
            only = op;
          }
        }
  }
  if (entry) return NULL;
  return *nkernels == 1 ? *first : !*nkernels && npublic == 1 ? only : NULL;
}

/* The target a module's attributes name (PTOSIM_TARGET_*), or -1 when they name none:
 * "pto.target_arch" = "a5" (else A2/A3), else "pto.device-spec" = "Ascend910B1": A5 is
 * Ascend950 / Ascend910_95, any other Ascend910 is A2/A3 (PTOAS
 * lib/PTO/Transforms/PTOMaterializeTileHandles.cpp). */
static int module_target(const pa_item *attrs) {
  const pa_item *arch = attrs ? pa_dict_get(attrs, "pto.target_arch") : NULL;
  if (arch) return arch->kind == PA_IT_STRING && pa_str_is(arch->name, "a5") ? PTOSIM_TARGET_A5 : PTOSIM_TARGET_A2A3;
  const pa_item *spec = attrs ? pa_dict_get(attrs, "pto.device-spec") : NULL;
  if (!spec || spec->kind != PA_IT_STRING) return -1;
  int a5 = (spec->name.n >= 9 && !memcmp(spec->name.s, "Ascend950", 9)) ||
           (spec->name.n >= 12 && !memcmp(spec->name.s, "Ascend910_95", 12));
  return a5 ? PTOSIM_TARGET_A5 : PTOSIM_TARGET_A2A3;
}

/* The top module's target; when it names none, the one its nested modules all name (a file of
 * several modules: PTOAS lit's split-file inputs), else -1. */
static int file_target(const pa_op *top) {
  int t = top ? module_target(top->attrs) : -1, nested = -1;
  if (t >= 0 || !top) return t;
  for (uint32_t r = 0; r < top->nregions; r++)
    for (uint32_t b = 0; b < top->regions[r].nblocks; b++)
      for (uint32_t i = 0; i < top->regions[r].blocks[b].nops; i++) {
        const pa_op *m = &top->regions[r].blocks[b].ops[i];
        int k = pa_str_is(m->name, "module") ? module_target(m->attrs) : -1;
        if (k >= 0 && nested >= 0 && k != nested) return -1;
        if (k >= 0) nested = k;
      }
  return nested;
}

/* Target (`target` when >= 0, else the file's (file_target), else a2a3) and kernel kind of the module.
 * A module without "pto.target_arch" is A2/A3, as PTOAS compiles it (tools/ptoas/ptoas.cpp:
 * --pto-arch defaults to a3, and an arch other than a3 / a5 falls back to a3). */
static void module_attrs(ptosim_program *p, int target) {
  const pa_item *attrs = p->ast->module ? p->ast->module->attrs : NULL;
  int ft = file_target(p->ast->module);
  p->target = ft == PTOSIM_TARGET_A5 ? PTOSIM_TARGET_A5 : PTOSIM_TARGET_A2A3;
  /* The kernel kind: on the entry function (PTO IR manual 4.17) or on the module. */
  const pa_item *fattrs = p->entry ? p->entry->attrs : NULL;
  const pa_item *kk = fattrs ? pa_dict_get(fattrs, "pto.kernel_kind") : NULL;
  if (!kk && attrs) kk = pa_dict_get(attrs, "pto.kernel_kind");
  if (kk && kk->kind == PA_IT_ATTR) {
    if (kk->body.n >= 4 && !memcmp(kk->body.s, "cube", 4)) p->kernel_kind = 1;
    if (kk->body.n >= 6 && !memcmp(kk->body.s, "vector", 6)) p->kernel_kind = 2;
  }
  if (target >= 0) p->target = (ptosim_target)target;
}

/* The core a table op of a mixed program runs on (PT_CORE_*): its table unit, else the
 * memory of its first tile operand (vec: vector core 0; mat, left, right, acc, bias,
 * scaling: the cube core), else the running core. */
static uint8_t mixed_core(const ptosim_program *p, const pt_ins *in) {
  int k = pt_op_core_kind((ptosim_opcode)in->opc);
  if (k >= 0) return k == PTOSIM_AIC ? PT_CORE_CUBE : PT_CORE_VEC;
  for (int32_t j = 0; j < in->op_count; j++) {
    int32_t s = p->operands[in->op_first + j].slot;
    const pa_type *t = s >= 0 && p->slots[s].kind == PT_VK_TILE ? p->slots[s].decl : NULL;
    if (t && t->kind == PA_TY_TILE_BUF) return t->tb.loc == PA_AS_VEC ? PT_CORE_VEC : PT_CORE_CUBE;
  }
  return PT_CORE_OWN;
}

/* Which cores run the entry: with sections, the cube core and both vector sub-blocks; a
 * cube kernel, the cube core; a vector kernel, vector sub-block 0; with neither the
 * attribute nor sections, decided by whether it issues cube-pipe ops or ops on cube-side
 * tiles (mat, left, right, acc, bias, scaling). A tile program with
 * neither, without sync ops (the compiler inserts them: program order) and with ops of both
 * cores (PTOAS samples such as FlashAttention *-pto-new) is mixed: one thread of program
 * order whose table ops each run on their own core (mixed_core, in PT_C_PTO's sub). */
static int cores_kind(ptosim_program *p) {
  int has_section = 0, has_cube_op = 0, has_vec_op = 0;
  for (int32_t i = 0; i < p->ncode; i++) {
    has_section |= p->code[i].code == PT_C_SECTION;
    if (p->code[i].code == PT_C_PTO) {
      const char *pipe = ptosim_op_pipe((ptosim_opcode)p->code[i].opc);
      uint8_t core = mixed_core(p, &p->code[i]);
      has_cube_op |= !strcmp(pipe, "M") || !strcmp(pipe, "FIX") || !strcmp(pipe, "MTE1") || core == PT_CORE_CUBE;
      has_vec_op |= core == PT_CORE_VEC;
    }
  }
  if (p->kernel_kind || has_section) return p->kernel_kind ? p->kernel_kind : 0;
  if (has_cube_op && has_vec_op && ptosim_program_in_order(p)) {
    for (int32_t i = 0; i < p->ncode; i++)
      if (p->code[i].code == PT_C_PTO) p->code[i].sub = mixed_core(p, &p->code[i]);
    return 3;
  }
  return has_cube_op ? 1 : 2;
}

/* Arguments of the text entry points: text of len bytes (NULL only when len is 0), target
 * -1 (from the module) or a ptosim_target. Prints why not to diag; returns 1 if bad. */
static int bad_text_args(const char *text, size_t len, int target, FILE *diag) {
  if ((text || !len) && target >= -1 && target < PTOSIM_TARGET_COUNT) return 0;
  if (diag && !text) fprintf(diag, "ptosim: error: null text of %zu bytes [api.args]\n", len);
  else if (diag) fprintf(diag, "ptosim: error: target %d out of range (-1 or a ptosim_target) [api.args]\n", target);
  return 1;
}

ptosim_program *ptosim_program_load(const char *file, const char *text, size_t len, const char *entry, int target, FILE *diag,
                                    int *nerrors) {
  int dummy;
  if (!nerrors) nerrors = &dummy;
  if ((*nerrors = bad_text_args(text, len, target, diag))) return NULL;
  ptosim_program *p = calloc(1, sizeof *p);
  if (!p) return NULL;
  *nerrors = pa_parse(file, text, len, NULL, &p->ast);
  if (!p->ast || *nerrors) {
    if (p->ast && diag) pa_print_diags(p->ast, diag);
    if (!p->ast) *nerrors = 1;
    ptosim_program_free(p);
    return NULL;
  }
  pt_lower L = {.p = p, .diag = diag, .strict_outer = -1};
  const pa_op *k1 = NULL, *k2 = NULL;
  int nkernels = 0;
  p->entry = find_entry(p->ast, entry, &nkernels, &k1, &k2);
  if (!p->entry) {
    pa_loc top = {1, 1};
    if (entry) errorf(&L, top, "run.entry", "pass --entry with a function defined in the file", "no function @%s", entry);
    else if (nkernels > 1)
      errorf(&L, top, "run.entry", "pass --entry FUNC", "%d functions are marked as kernels (@%.*s, @%.*s, ...): cannot choose the entry function",
             nkernels, (int)k1->func->name.n, k1->func->name.s, (int)k2->func->name.n, k2->func->name.s);
    else errorf(&L, top, "run.entry", "mark the kernel with `attributes {pto.kernel}` or pass --entry", "cannot choose the entry function");
  } else {
    module_attrs(p, target);
    const pa_func *f = p->entry->func;
    p->nparams = (int32_t)f->nargs;
    p->params = f->args;
    p->param_slot = calloc(f->nargs + 1, sizeof *p->param_slot);
    int32_t *args = calloc(f->nargs + 1, sizeof *args); /* the body's values of the parameters */
    for (uint32_t i = 0; i < f->nargs && p->param_slot && args; i++) {
      pt_slot_type t = pt_slot_type_of(f->args[i].type);
      if (t.kind == PT_VK_OTHER || pt_wide_size(t.kind) || t.kind == PT_VK_TILE)
        errorf(&L, f->args[i].loc, "run.param_type", "kernel parameters are pointers, GM views or scalars", "unsupported parameter type");
      pt_lw_check_ptr_elem(&L, f->args[i].type, f->args[i].loc);
      if (t.kind == PT_VK_VIEW) { /* the host passes the GM buffer the view describes */
        p->param_slot[i] = pt_lw_new_slots(&L, (pt_slot_type){.kind = PT_VK_PTR, .dt = t.dt, .space = PTOSIM_GM}, 1);
        args[i] = pt_lw_new_slots(&L, t, 1);
        pt_lower_view_param(&L, p->entry, &f->args[i], p->param_slot[i], args[i]);
      } else args[i] = p->param_slot[i] = pt_lw_new_slots(&L, t, 1);
    }
    if (p->param_slot && args) pt_lower_body(&L, p->entry, args);
    free(args);
    pt_lower_emit(&L, (pt_ins){.code = PT_C_RETURN});
    pt_plan_tiles(&L, 0, p->ncode, !L.errors);
  }
  free(L.names);
  free(L.seen);
  *nerrors = L.errors;
  if (!L.errors) p->ncores_kind = cores_kind(p);
  if (L.errors) {
    ptosim_program_free(p);
    return NULL;
  }
  return p;
}

void ptosim_program_free(ptosim_program *p) {
  if (!p) return;
  pa_ast_free(p->ast);
  for (int32_t i = 0; i < p->ncode; i++) free(p->code[i].plan);
  free(p->code);
  free(p->slots);
  free(p->operands);
  free(p->objs);
  free(p->param_slot);
  free(p);
}

ptosim_target ptosim_program_target(const ptosim_program *p) { return p ? p->target : PTOSIM_TARGET_COUNT; }
int ptosim_program_nparams(const ptosim_program *p) { return p ? p->nparams : 0; }

int ptosim_program_in_order(const ptosim_program *p) { return p ? pt_lower_in_order(p, 0, p->ncode) : 0; }

int pt_lower_in_order(const ptosim_program *p, int32_t first, int32_t end) {
  int tile = 0;
  for (int32_t i = first; i < end; i++) {
    if (p->code[i].code != PT_C_PTO) continue;
    const char *fam = ptosim_op_family((ptosim_opcode)p->code[i].opc);
    if (!strcmp(fam, "SYNC")) return 0;
    tile |= !strncmp(fam, "TILE", 4);
  }
  return tile;
}

static int param_ok(const ptosim_program *p, int i) { return p && i >= 0 && i < p->nparams; }

ptosim_param_kind ptosim_program_param_kind(const ptosim_program *p, int i) {
  if (!param_ok(p, i)) return PTOSIM_PARAM_NONE;
  pt_slot_type t = p->slots[p->param_slot[i]];
  return t.kind == PT_VK_PTR ? PTOSIM_PARAM_PTR : t.kind == PT_VK_FLOAT ? PTOSIM_PARAM_FLOAT : PTOSIM_PARAM_INT;
}

ptosim_dtype ptosim_program_param_dtype(const ptosim_program *p, int i) {
  return param_ok(p, i) ? p->slots[p->param_slot[i]].dt : PTOSIM_DT_NONE;
}

int ptosim_program_param_bits(const ptosim_program *p, int i) {
  return param_ok(p, i) && p->slots[p->param_slot[i]].kind != PT_VK_PTR ? p->slots[p->param_slot[i]].bits : 0;
}

const char *ptosim_program_param_name(const ptosim_program *p, int i) {
  static char buf[128]; /* not thread-safe: for messages only */
  if (!param_ok(p, i)) return NULL;
  snprintf(buf, sizeof buf, "%.*s", (int)p->params[i].name.n, p->params[i].name.s);
  return buf;
}

/* Lower every defined function of the file (what `ptosim check` verifies). */
static int check_module(pt_lower *L, const pa_op *m) {
  int rc = 0;
  for (uint32_t r = 0; r < m->nregions; r++)
    for (uint32_t b = 0; b < m->regions[r].nblocks; b++)
      for (uint32_t i = 0; i < m->regions[r].blocks[b].nops; i++) {
        const pa_op *op = &m->regions[r].blocks[b].ops[i];
        if (pa_str_is(op->name, "module")) rc |= check_module(L, op);
        if (!op->func || op->func->is_decl) continue;
        int32_t args[256];
        if (op->func->nargs > 256) {
          rc = errorf(L, op->loc, "ir.limit", NULL, "more than 256 function arguments");
          continue;
        }
        for (uint32_t a = 0; a < op->func->nargs; a++)
          args[a] = pt_lw_new_slots(L, pt_slot_type_of(op->func->args[a].type), 1);
        for (uint32_t a = 0; a < op->func->nargs; a++) pt_lw_check_ptr_elem(L, op->func->args[a].type, op->func->args[a].loc);
        int saved = L->nnames, errors = L->errors;
        int32_t first = L->p->ncode;
        memset(L->p->alloc_next, 0, sizeof L->p->alloc_next); /* each function places its own tiles */
        rc |= pt_lower_body(L, op, args);
        rc |= pt_plan_tiles(L, first, L->p->ncode, L->errors == errors);
        pt_lw_pop_names(L, saved);
      }
  return rc;
}

int ptosim_program_check(const char *file, const char *text, size_t len, int target, FILE *diag, int *nunsupported) {
  if (nunsupported) *nunsupported = 0;
  if (bad_text_args(text, len, target, diag)) return 1;
  ptosim_program *p = calloc(1, sizeof *p);
  if (!p) return 1;
  int nerr = pa_parse(file, text, len, NULL, &p->ast);
  if (!p->ast || nerr) {
    if (p->ast && diag) pa_print_diags(p->ast, diag);
    ptosim_program_free(p);
    return nerr ? nerr : 1;
  }
  pt_lower L = {.p = p, .diag = diag, .strict_outer = -1};
  module_attrs(p, target);
  if (p->ast->module) check_module(&L, p->ast->module);
  if (L.errors == L.unsupported) pt_static_check(&L);
  free(L.names);
  free(L.seen);
  if (nunsupported) *nunsupported = L.unsupported;
  ptosim_program_free(p);
  return L.errors;
}
