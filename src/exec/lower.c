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
#include "exec/lower.h"
#include "exec/tiles.h"
#include "isa/isa.h"

/* A defined SSA name. Names are a stack (scopes pop by truncation, see pop_names) indexed
 * by a hash table of chains: heads[h] and prev hold entry index + 1, 0 ends a chain. */
typedef struct name_ent {
  pa_str name;
  int32_t slot, count;
  int32_t prev;
} name_ent;

#define NAME_BUCKETS 4096

/* Where `return` of an inlined callee goes: copy into result slots, jump to the end. */
typedef struct ret_ctx {
  int32_t *result_slots;
  int nresults;
  int32_t *patches; /* instruction indices of JMPs to patch */
  int npatches, cap;
  const pa_func *caller;     /* the function the call is in */
  const struct ret_ctx *outer; /* the call that inlined the caller, NULL at the top */
} ret_ctx;

/* Where a region's terminator sends its values (what lower_yield / lower_condition accept). */
typedef enum region_kind { R_PLAIN, R_YIELD, R_COND } region_kind;

struct pt_lower {
  ptosim_program *p;
  FILE *diag;
  int errors;
  int reports;        /* calls of pt_lower_error, repeated diagnostics included */
  const pa_func *fn;  /* the function whose body is being lowered */
  region_kind region; /* kind of the innermost region */
  name_ent *names;
  int nnames, cap_names;
  int32_t heads[NAME_BUCKETS];
  int barrier; /* names below this index belong to callers: invisible */
  int vec_depth;     /* enclosing pto.vecscope / pto.strict_vecscope regions */
  int strict_outer;  /* inside a strict_vecscope: the barrier outside it (for vec.capture), else -1 */
  ret_ctx *ret; /* NULL in the entry function */
  int depth;    /* inlining depth */
  int unsupported; /* errors that are "not supported yet" */
  /* Where the current region's scf.yield (or scf.condition) sends its values. */
  const int32_t *yield_slots;
  int nyield;
  int32_t cond_exit; /* scf.while: instruction index of the JZ that leaves the loop */
  const int32_t *cond_results, *cond_after;
  /* Diagnostics already reported (a callee is lowered once per call site). */
  struct seen_diag {
    pa_loc loc;
    const char *rule;
  } *seen;
  int nseen, cap_seen;
};

/* Room for `need` elements of es bytes in array a of capacity *cap (doubling, from 64): the
 * possibly moved array, or NULL when out of memory (a and *cap unchanged). */
static void *room(void *a, int *cap, int need, size_t es) {
  if (need <= *cap) return a;
  int c = *cap ? *cap : 64;
  while (c < need) c *= 2;
  void *n = realloc(a, (size_t)c * es);
  if (n) *cap = c;
  return n;
}

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
#define errorf pt_lower_errorf /* the short name inside this file */

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
    return (pt_slot_type){.kind = PT_VK_TILE, .dt = pt_elem_dtype(t->tb.dtype), .space = pt_space_of_aspace(t->tb.loc), .decl = t};
  case PA_TY_TENSOR_VIEW:
  case PA_TY_PART_VIEW:
  case PA_TY_TILE_VIEW: return (pt_slot_type){.kind = PT_VK_VIEW, .dt = pt_elem_dtype(t->elem), .space = PTOSIM_GM, .decl = t};
  case PA_TY_PTR: {
    s.kind = PT_VK_PTR;
    s.space = pt_space_of_aspace(t->space);
    s.dt = pt_elem_dtype(t->elem);
    return s;
  }
  default: return s;
  }
}

static int32_t new_slots(pt_lower *L, pt_slot_type t, int n) {
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

static void define(pt_lower *L, pa_str name, int32_t slot, int32_t count) {
  name_ent *n = room(L->names, &L->cap_names, L->nnames + 1, sizeof *n);
  if (!n) return;
  L->names = n;
  unsigned h = name_hash(name);
  L->names[L->nnames] = (name_ent){name, slot, count, L->heads[h]};
  L->heads[h] = ++L->nnames;
}

/* Leave a scope: forget the names defined after the first `keep`. */
static void pop_names(pt_lower *L, int keep) {
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
static int check_ptr_elem(pt_lower *L, const pa_type *t, pa_loc loc) {
  if (!t || t->kind != PA_TY_PTR || pt_slot_type_of(t).dt != PTOSIM_DT_NONE) return 0;
  char name[64];
  pa_type_print(t->elem, name, sizeof name);
  return errorf(L, loc, "op.unsupported", "ptosim's element types are the integers up to 64 bits, f16, bf16, f32 and the 8-bit floats",
                "not supported yet: pointers to %s", name);
}

/* ---- emission ----------------------------------------------------------------------------- */

static int32_t emit(pt_lower *L, pt_ins ins) {
  ptosim_program *p = L->p;
  pt_ins *c = room(p->code, &p->cap_code, p->ncode + 1, sizeof *c);
  if (!c) return -1;
  p->code = c;
  p->code[p->ncode] = ins;
  return p->ncode++;
}

static int32_t here(pt_lower *L) { return L->p->ncode; }

/* Last TYPE item of the trailing type list (the result type of casts `a : T to U`). */
static const pa_type *last_type(const pa_op *op) {
  for (uint32_t i = op->ntypes; i-- > 0;)
    if (op->types[i].kind == PA_IT_TYPE) return op->types[i].type;
  return NULL;
}

static const pa_type *result_type(const pa_op *op, unsigned i) {
  if (i < op->nrtypes) return op->rtypes[i];
  if (i == 0) return last_type(op);
  return NULL;
}

static pt_slot_type i64_type(void) { return (pt_slot_type){.kind = PT_VK_INT, .bits = 64, .dt = PTOSIM_DT_I64}; }

/* The type of a placeholder for a value a failed op did not define: its declared type t,
 * else (none, or one ptosim does not model) an i64 stub that is not type-checked. */
static pt_slot_type placeholder_type(const pa_type *t) {
  pt_slot_type s = pt_slot_type_of(t);
  if (s.kind != PT_VK_OTHER) return s;
  s = i64_type();
  s.stub = 1;
  return s;
}

/* Define the op's results with the given types; returns the first slot. */
static int32_t define_results(pt_lower *L, const pa_op *op, const pt_slot_type *types, int n) {
  int32_t first = -1;
  int k = 0;
  for (uint32_t r = 0; r < op->nresults; r++) {
    int32_t base = -1;
    for (uint32_t j = 0; j < op->results[r].count; j++, k++) {
      int32_t s = new_slots(L, k < n ? types[k] : i64_type(), 1);
      if (base < 0) base = s;
      if (first < 0) first = s;
    }
    define(L, op->results[r].name, base, (int32_t)op->results[r].count);
  }
  if (first < 0) first = new_slots(L, n ? types[0] : i64_type(), 1); /* unused result */
  return first;
}

static int32_t operand_slot(pt_lower *L, const pa_item *it) {
  if (!it) return -1;
  if (it->kind == PA_IT_VALUE) return pt_lower_resolve(L, it);
  /* literal operand: materialize a constant */
  pt_ins c = {.code = PT_C_CONST};
  pt_slot_type t = i64_type();
  if (it->kind == PA_IT_INT) c.imm.i = it->v.i;
  else if (it->kind == PA_IT_FLOAT) {
    c.imm.f = it->v.f;
    t = (pt_slot_type){.kind = PT_VK_FLOAT, .bits = 32, .dt = PTOSIM_DT_F32};
  } else {
    errorf(L, it->loc, "ir.operand", "pass an SSA value", "expected an operand, got '%.*s'", (int)it->text.n, it->text.s);
    return -1;
  }
  c.dst = new_slots(L, t, 1);
  emit(L, c);
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

static void copy_slots(pt_lower *L, const int32_t *dst, const int32_t *src, int n) {
  /* Parallel copy through temporaries, so `yield %b, %a` swaps correctly. */
  int32_t tmp[64];
  if (n > 64) n = 64;
  for (int i = 0; i < n; i++) {
    tmp[i] = new_slots(L, L->p->slots[src[i]], 1);
    emit(L, mov(L, tmp[i], src[i]));
  }
  for (int i = 0; i < n; i++) emit(L, mov(L, dst[i], tmp[i]));
}

/* ---- value types ------------------------------------------------------------------------- */

const char *pt_slot_type_name(pt_slot_type t, char *buf, size_t n) {
  if (t.kind == PT_VK_INT && t.is_index) return "index";
  if (t.kind == PT_VK_INT) snprintf(buf, n, "%si%u", t.is_unsigned ? "u" : "", t.bits);
  else if (t.kind == PT_VK_FLOAT) snprintf(buf, n, "%s", t.dt == PTOSIM_DT_NONE ? "f64" : pt_dtype_name(t.dt));
  else if (t.kind == PT_VK_VREG) snprintf(buf, n, "!pto.vreg<%ux%s>", t.lanes, pt_dtype_name(t.dt));
  else if (t.kind == PT_VK_MASK) snprintf(buf, n, "!pto.mask<b%u>", t.bits);
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
  return 1;
}

static pt_slot_type i1_type(void) { return (pt_slot_type){.kind = PT_VK_INT, .bits = 1}; }

/* The value of operand `it` (slot s) has type want; else ir.type at the operand. Literal
 * operands and values of types ptosim does not model are not compared. Returns -1 after
 * reporting. */
static int expect_type(pt_lower *L, const pa_item *it, int32_t s, pt_slot_type want, const char *what) {
  pt_slot_type got = L->p->slots[s];
  if (!it || it->kind != PA_IT_VALUE || got.kind == PT_VK_OTHER || want.kind == PT_VK_OTHER || got.stub || want.stub ||
      same_type(got, want))
    return 0;
  char g[32], w[32];
  return errorf(L, it->loc, "ir.type", "convert the value first (arith.index_cast, arith.extsi, ...)", "%s '%.*s' is %s, expected %s",
                what, (int)it->text.n, it->text.s, pt_slot_type_name(got, g, sizeof g), pt_slot_type_name(want, w, sizeof w));
}

/* Operand `it` is an integer (is_int) or a float value. */
static int expect_class(pt_lower *L, const pa_op *op, const pa_item *it, int32_t s, int is_int) {
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
static int expect_types(pt_lower *L, const pa_op *op, const int32_t *src, const int32_t *dst, int n, const char *what) {
  int rc = 0;
  for (int i = 0; i < n; i++) rc |= expect_type(L, pt_operand_item(op, (unsigned)i), src[i], L->p->slots[dst[i]], what);
  return rc;
}

/* ---- arith -------------------------------------------------------------------------------- */

typedef struct named_sub {
  const char *name;
  int sub;
} named_sub;

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
    {"arith.truncf", 6},     {"arith.bitcast", 7}};

static int find_sub(const named_sub *t, size_t n, pa_str name) {
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

static int lower_arith(pt_lower *L, const pa_op *op) {
  pt_slot_type rt = pt_slot_type_of(result_type(op, 0));
  if (pa_str_is(op->name, "arith.constant")) {
    const pa_item *v = op->nitems ? &op->items[0] : NULL;
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
    if (rt.kind == PT_VK_OTHER) rt = i64_type();
    c.dst = define_results(L, op, &rt, 1);
    emit(L, c);
    return 0;
  }
  int sub = find_sub(binops, sizeof binops / sizeof binops[0], op->name);
  if (sub >= 0) {
    pt_ins b = {.code = PT_C_BIN, .sub = (uint8_t)sub, .src = op};
    b.a = operand_slot(L, pt_operand_item(op, 0));
    b.b = operand_slot(L, pt_operand_item(op, 1));
    if (b.a < 0 || b.b < 0) return -1;
    if (rt.kind == PT_VK_OTHER) rt = L->p->slots[b.a];
    if (expect_class(L, op, pt_operand_item(op, 0), b.a, sub < PT_B_ADDF) ||
        expect_type(L, pt_operand_item(op, 0), b.a, rt, "operand") || expect_type(L, pt_operand_item(op, 1), b.b, rt, "operand"))
      return -1;
    b.bits = rt.bits;
    b.flags = rt.is_unsigned;
    b.dst = define_results(L, op, &rt, 1);
    emit(L, b);
    return 0;
  }
  int is_cmpi = pa_str_is(op->name, "arith.cmpi"), is_cmpf = pa_str_is(op->name, "arith.cmpf");
  if (is_cmpi || is_cmpf) {
    int pred = word_index(op->nitems ? &op->items[0] : NULL, is_cmpi ? cmpi_preds : cmpf_preds, is_cmpi ? 10 : 16);
    if (pred < 0) return errorf(L, op->loc, "ir.predicate", "use an arith comparison predicate such as slt", "unknown predicate");
    pt_ins c = {.code = (uint8_t)(is_cmpi ? PT_C_CMPI : PT_C_CMPF), .sub = (uint8_t)pred, .src = op};
    c.a = operand_slot(L, pt_operand_item(op, 0));
    c.b = operand_slot(L, pt_operand_item(op, 1));
    if (c.a < 0 || c.b < 0) return -1;
    if (expect_class(L, op, pt_operand_item(op, 0), c.a, is_cmpi) ||
        expect_type(L, pt_operand_item(op, 1), c.b, L->p->slots[c.a], "operand"))
      return -1;
    c.bits = L->p->slots[c.a].bits;
    pt_slot_type bt = {.kind = PT_VK_INT, .bits = 1};
    c.dst = define_results(L, op, &bt, 1);
    emit(L, c);
    return 0;
  }
  if (pa_str_is(op->name, "arith.select")) {
    pt_ins s = {.code = PT_C_SELECT, .src = op};
    s.a = operand_slot(L, pt_operand_item(op, 0));
    s.b = operand_slot(L, pt_operand_item(op, 1));
    s.c = operand_slot(L, pt_operand_item(op, 2));
    if (s.a < 0 || s.b < 0 || s.c < 0) return -1;
    rt = L->p->slots[s.b];
    if (expect_type(L, pt_operand_item(op, 0), s.a, i1_type(), "condition") ||
        expect_type(L, pt_operand_item(op, 2), s.c, rt, "operand"))
      return -1;
    s.dst = define_results(L, op, &rt, 1);
    emit(L, s);
    return 0;
  }
  if (pa_str_is(op->name, "arith.negf")) {
    pt_ins s = {.code = PT_C_NEGF, .src = op};
    if ((s.a = operand_slot(L, pt_operand_item(op, 0))) < 0) return -1;
    if (expect_class(L, op, pt_operand_item(op, 0), s.a, 0)) return -1;
    rt = L->p->slots[s.a];
    s.bits = rt.bits;
    s.dst = define_results(L, op, &rt, 1);
    emit(L, s);
    return 0;
  }
  sub = find_sub(casts, sizeof casts / sizeof casts[0], op->name);
  if (sub >= 0) {
    pt_ins c = {.code = PT_C_CAST, .sub = (uint8_t)sub, .src = op};
    if ((c.a = operand_slot(L, pt_operand_item(op, 0))) < 0) return -1;
    if (rt.kind == PT_VK_OTHER) return errorf(L, op->loc, "ir.type", "write `%x : T to U`", "cast without a result type");
    /* source and result classes: int -> int (index / ext / trunc), int -> float, float ->
     * int, float -> float; bitcast keeps the width */
    static const signed char from_int[8] = {1, 1, 1, 1, 0, 0, 0, -1}, to_int[8] = {1, 1, 0, 0, 1, 1, 0, -1};
    char g[32], w[32];
    pt_slot_type st = L->p->slots[c.a];
    int bad = st.kind != PT_VK_OTHER && (st.kind != PT_VK_INT && st.kind != PT_VK_FLOAT ? 1
              : from_int[sub] >= 0 ? (st.kind == PT_VK_INT) != from_int[sub] || (rt.kind == PT_VK_INT) != to_int[sub]
                                   : st.bits != rt.bits);
    if (bad)
      return errorf(L, op->loc, "ir.type", "pick the cast that matches the two types", "%.*s cannot convert %s to %s",
                    (int)op->name.n, op->name.s, pt_slot_type_name(st, g, sizeof g), pt_slot_type_name(rt, w, sizeof w));
    c.bits = rt.bits;
    c.flags = L->p->slots[c.a].bits; /* source width */
    c.dst = define_results(L, op, &rt, 1);
    emit(L, c);
    return 0;
  }
  return errorf(L, op->loc, "op.unsupported", NULL, "not supported yet: %.*s", (int)op->name.n, op->name.s);
}

/* ---- scf ---------------------------------------------------------------------------------- */

static int lower_region(pt_lower *L, const pa_region *r, const int32_t *arg_slots, int nargs);
static int lower_ops(pt_lower *L, const pa_region *r, const int32_t *args, int nargs, region_kind kind, const int32_t *ys,
                     int ny);

/* Number of values an op's results name (%r:2 counts 2). */
static int result_count(const pa_op *op) {
  int n = 0;
  for (uint32_t r = 0; r < op->nresults; r++) n += (int)op->results[r].count;
  return n;
}

/* n consecutive slots of the given types; returns the first. */
static int32_t typed_slots(pt_lower *L, const pt_slot_type *types, int n) {
  int32_t first = n ? new_slots(L, types[0], 1) : new_slots(L, i64_type(), 0);
  for (int i = 1; i < n && first >= 0; i++)
    if (new_slots(L, types[i], 1) < 0) return -1; /* consecutive: nothing else allocates in between */
  return first;
}

/* Name the op's results after the consecutive slots first, first + 1, ... */
static void name_results(pt_lower *L, const pa_op *op, int32_t first) {
  int32_t k = 0;
  for (uint32_t r = 0; r < op->nresults; k += (int32_t)op->results[r++].count)
    define(L, op->results[r].name, first + k, (int32_t)op->results[r].count);
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
  int rc = lower_ops(L, r, args, nargs, R_YIELD, ys, ny);
  if (ny && !has_op(r, "scf.yield"))
    rc = errorf(L, r->loc, "ir.yield", "end the region with scf.yield of one value per result",
                "%.*s region without scf.yield of %d values", (int)op->name.n, op->name.s, ny);
  return rc;
}

/* Slot of an operand; when it fails (reported), a placeholder of the declared type, so
 * the regions of the op are still checked. */
static int32_t operand_or_stub(pt_lower *L, const pa_item *it, const pa_type *declared, int *rc) {
  int32_t s = operand_slot(L, it);
  if (s >= 0) return s;
  *rc = -1;
  return new_slots(L, placeholder_type(declared), 1);
}

static int lower_for(pt_lower *L, const pa_op *op) {
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
  if (expect_class(L, op, &iv->args[1], lb, 1) || expect_type(L, &it[2], ub, L->p->slots[lb], "upper bound") ||
      expect_type(L, &it[4], st, L->p->slots[lb], "step"))
    rc = -1;
  int32_t iter[64] = {0}, init[64] = {0};
  pt_slot_type types[64] = {{0}};
  for (int i = 0; i < n; i++) {
    const pa_type *rt = i < (int)op->nrtypes ? op->rtypes[i] : NULL;
    pt_slot_type declared = pt_slot_type_of(rt);
    init[i] = operand_or_stub(L, &ia->args[i].args[1], rt, &rc);
    if (rt && expect_type(L, &ia->args[i].args[1], init[i], declared, "initial value")) rc = -1;
    types[i] = declared.kind != PT_VK_OTHER ? declared : L->p->slots[init[i]];
    iter[i] = new_slots(L, types[i], 1);
  }
  copy_slots(L, iter, init, n);
  int32_t ivs = new_slots(L, L->p->slots[lb], 1);
  int32_t head = emit(L, (pt_ins){.code = PT_C_FOR_INIT, .dst = ivs, .a = lb, .b = ub, .src = op});
  int saved = L->nnames;
  define(L, iv->args[0].name, ivs, 1);
  for (int i = 0; i < n; i++) define(L, ia->args[i].args[0].name, iter[i], 1);
  int32_t body = here(L);
  rc |= lower_region_yield(L, op, &op->regions[0], NULL, 0, iter, n);
  pop_names(L, saved);
  emit(L, (pt_ins){.code = PT_C_FOR_NEXT, .a = ivs, .b = ub, .c = st, .target = body, .src = op});
  L->p->code[head].target = here(L);
  if (rc || !op->nresults) return rc;
  int32_t out = typed_slots(L, types, n), outs[64];
  for (int i = 0; i < n; i++) outs[i] = out + i;
  copy_slots(L, outs, iter, n);
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
    if ((out[n++] = operand_slot(L, it)) < 0) return -1;
  }
  return n;
}

static int lower_yield(pt_lower *L, const pa_op *op) {
  if (L->region != R_YIELD)
    return errorf(L, op->loc, "ir.syntax", "scf.yield ends the regions of scf.for, scf.if and the do region of scf.while",
                  "scf.yield outside an scf.for, scf.if or scf.while do region");
  int32_t v[64];
  int n = value_slots(L, op, 0, v, 64);
  if (n < 0) return -1;
  if (n != L->nyield)
    return errorf(L, op->loc, "ir.yield", "yield one value per result of the enclosing op", "scf.yield of %d values, %d expected",
                  n, L->nyield);
  if (expect_types(L, op, v, L->yield_slots, n, "yielded value")) return -1;
  copy_slots(L, L->yield_slots, v, n);
  return 0;
}

static int lower_if(pt_lower *L, const pa_op *op) {
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
  if (expect_type(L, c, cond, i1_type(), "condition")) rc = -1;
  pt_slot_type types[64] = {{0}};
  for (int i = 0; i < n; i++) types[i] = pt_slot_type_of(op->rtypes[i]);
  int32_t first = typed_slots(L, types, n);
  for (int i = 0; i < n; i++) res[i] = first + i;
  int32_t jz = emit(L, (pt_ins){.code = PT_C_JZ, .a = cond, .src = op});
  /* Both regions are lowered even when the first fails, so the errors of both are reported. */
  rc |= lower_region_yield(L, op, &op->regions[0], NULL, 0, res, n);
  if (op->nregions > 1) {
    int32_t jmp = emit(L, (pt_ins){.code = PT_C_JMP, .src = op});
    L->p->code[jz].target = here(L);
    rc |= lower_region_yield(L, op, &op->regions[1], NULL, 0, res, n);
    L->p->code[jmp].target = here(L);
  } else {
    L->p->code[jz].target = here(L);
  }
  if (rc) return -1;
  name_results(L, op, first);
  return 0;
}

static int lower_condition(pt_lower *L, const pa_op *op) {
  /* scf.condition(%c) %v... : leave with %v as results when %c is false, else pass %v to
   * the after region. */
  const pa_item *c = op->nitems && op->items[0].kind == PA_IT_CALL ? &op->items[0] : NULL;
  if (!c || c->nargs != 1)
    return errorf(L, op->loc, "ir.syntax", "write scf.condition(%c) %v, ... : T, ...", "malformed scf.condition");
  if (L->region != R_COND)
    return errorf(L, op->loc, "ir.syntax", "scf.condition ends the before region of scf.while",
                  "scf.condition outside the before region of scf.while");
  int32_t cond = operand_slot(L, &c->args[0]);
  int32_t v[64];
  int n = value_slots(L, op, 0, v, 64);
  if (cond < 0 || n < 0) return -1;
  if (n != L->nyield)
    return errorf(L, op->loc, "ir.yield", "pass one value per result of scf.while", "scf.condition of %d values, %d expected", n,
                  L->nyield);
  if (expect_type(L, &c->args[0], cond, i1_type(), "condition") | expect_types(L, op, v, L->cond_results, n, "value"))
    return -1;
  int32_t jz = emit(L, (pt_ins){.code = PT_C_JZ, .a = cond, .src = op});
  copy_slots(L, L->cond_after, v, n);
  int32_t skip = emit(L, (pt_ins){.code = PT_C_JMP, .src = op});
  L->p->code[jz].target = here(L);
  copy_slots(L, L->cond_results, v, n);
  L->cond_exit = emit(L, (pt_ins){.code = PT_C_JMP, .src = op});
  L->p->code[skip].target = here(L);
  return 0;
}

static int lower_while(pt_lower *L, const pa_op *op) {
  /* %r... = scf.while (%x = %init, ...) : (T, ...) -> (U, ...) { ... scf.condition(%c) %u... }
   * do { ^bb0(%y: U, ...): ... scf.yield %t... } */
  const pa_item *ia = op->nitems == 2 ? &op->items[0] : NULL;
  const pa_type *ft = last_type(op);
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
    before[i] = new_slots(L, L->p->slots[init[i]], 1);
  }
  for (int i = 0; i < na; i++) types[i] = pt_slot_type_of(ft->out[i]);
  for (int i = 0; i < (na > nafter ? na : nafter); i++) /* extra block arguments: placeholders */
    after[i] = new_slots(L, i < na ? types[i] : pt_slot_type_of(entry->args[i].type), 1);
  int32_t first = typed_slots(L, types, na);
  for (int i = 0; i < na; i++) res[i] = first + i;
  copy_slots(L, before, init, nb);
  int32_t top = here(L);
  int saved = L->nnames;
  for (int i = 0; i < nb; i++) define(L, ia->args[i].args[0].name, before[i], 1);
  const int32_t *scr = L->cond_results, *sca = L->cond_after;
  int32_t sce = L->cond_exit;
  L->cond_results = res;
  L->cond_after = after;
  L->cond_exit = -1;
  rc |= lower_ops(L, &op->regions[0], NULL, 0, R_COND, NULL, na);
  int32_t exit_jmp = L->cond_exit;
  L->cond_results = scr;
  L->cond_after = sca;
  L->cond_exit = sce;
  pop_names(L, saved);
  if (!has_op(&op->regions[0], "scf.condition"))
    rc = errorf(L, op->loc, "ir.syntax", "end the before region with scf.condition(%c) %v, ...",
                "scf.while without scf.condition");
  /* The do region is lowered even when the before region failed. */
  rc |= lower_region_yield(L, op, &op->regions[1], after, nafter, before, nb);
  if (rc || exit_jmp < 0) return -1;
  emit(L, (pt_ins){.code = PT_C_JMP, .target = top, .src = op});
  L->p->code[exit_jmp].target = here(L);
  name_results(L, op, first);
  return 0;
}

/* ---- functions ------------------------------------------------------------------------- */

static int lower_body(pt_lower *L, const pa_op *fn, const int32_t *args);

static int lower_call(pt_lower *L, const pa_op *op) {
  const pa_item *callee = op->nitems ? &op->items[0] : NULL;
  if (!callee || (callee->kind != PA_IT_SYMBOL && callee->kind != PA_IT_CALL))
    return errorf(L, op->loc, "ir.syntax", NULL, "malformed func.call");
  char name[256];
  snprintf(name, sizeof name, "%.*s", (int)callee->name.n, callee->name.s);
  const pa_op *fn = pa_find_func(L->p->ast, name);
  if (!fn || fn->func->is_decl)
    return errorf(L, op->loc, "ir.call", "define the callee in this file", "call of undefined function @%s", name);
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
    if (i < (int)fn->func->nargs && expect_type(L, &argl->args[i], args[i], pt_slot_type_of(fn->func->args[i].type), "argument"))
      rc = -1;
  }
  if ((uint32_t)n != fn->func->nargs)
    return errorf(L, op->loc, "ir.call", NULL, "@%s takes %u arguments, %d given", name, fn->func->nargs, n);
  char returns[300];
  snprintf(returns, sizeof returns, "@%s returns", name);
  if (check_named(L, op, nr, returns, "values", "define one result per value the callee returns")) return -1;
  pt_slot_type types[64] = {{0}};
  for (int i = 0; i < nr; i++) types[i] = pt_slot_type_of(fn->func->results[i]);
  int32_t first = define_results(L, op, types, nr), res[64];
  for (int i = 0; i < nr; i++) res[i] = first + i;
  ret_ctx ret = {.result_slots = res, .nresults = nr, .caller = L->fn, .outer = L->ret}, *saved_ret = L->ret;
  int saved_barrier = L->barrier, saved_names = L->nnames;
  L->ret = &ret;
  L->barrier = L->nnames;
  L->depth++;
  rc |= lower_body(L, fn, args);
  L->depth--;
  L->ret = saved_ret;
  L->barrier = saved_barrier;
  pop_names(L, saved_names);
  for (int i = 0; i < ret.npatches; i++) L->p->code[ret.patches[i]].target = here(L);
  free(ret.patches);
  return rc;
}

static int lower_return(pt_lower *L, const pa_op *op) {
  int32_t v[64];
  int n = value_slots(L, op, 0, v, 64);
  if (n < 0) return -1;
  if (n != (int)L->fn->nresults)
    return errorf(L, op->loc, "ir.return", "return one value per result of the function", "return of %d values, %u expected", n,
                  L->fn->nresults);
  for (int i = 0; i < n; i++)
    if (expect_type(L, pt_operand_item(op, (unsigned)i), v[i], pt_slot_type_of(L->fn->results[i]), "returned value")) return -1;
  if (!L->ret) {
    emit(L, (pt_ins){.code = PT_C_RETURN, .src = op});
    return 0;
  }
  copy_slots(L, L->ret->result_slots, v, n);
  ret_ctx *rc = L->ret;
  int32_t *np = room(rc->patches, &rc->cap, rc->npatches + 1, sizeof *np);
  if (!np) return -1;
  rc->patches = np;
  rc->patches[rc->npatches++] = emit(L, (pt_ins){.code = PT_C_JMP, .src = op});
  return 0;
}

/* ---- pto ops ------------------------------------------------------------------------------- */

enum { Q_BLOCK_IDX, Q_BLOCK_NUM, Q_SUBBLOCK_IDX, Q_SUBBLOCK_NUM };

static const named_sub queries[] = {{"pto.get_block_idx", Q_BLOCK_IDX},
                                    {"pto.get_block_num", Q_BLOCK_NUM},
                                    {"pto.get_subblock_idx", Q_SUBBLOCK_IDX},
                                    {"pto.get_subblock_num", Q_SUBBLOCK_NUM}};

static int lower_table_op(pt_lower *L, const pa_op *op, ptosim_opcode opc) {
  pt_bind b = {.lowering = 1, .L = L, .prog = L->p, .first = L->p->noperands, .res_slot = -1, .res_obj = -1};
  unsigned char params[PT_PARAMS_MAX];
  if (pt_op_params_size(opc) > sizeof params) return errorf(L, op->loc, "ir.limit", NULL, "params too large");
  memset(params, 0, sizeof params);
  if (pt_bind_op(&b, opc, op, params)) return -1;
  for (int32_t k = 0; k < b.count && !L->vec_depth; k++) {
    int32_t slot = L->p->operands[b.first + k].slot;
    if (slot >= 0 && pt_wide_size(L->p->slots[slot].kind))
      return errorf(L, op->loc, "vec.scope", "put the op inside pto.vecscope { ... }",
                    "%.*s uses vector registers, predicates or align states outside a vector scope", (int)op->name.n, op->name.s);
  }
  pt_plan *plan = b.res_slot < 0 && b.res_obj < 0 ? pt_plan_build(L->p, opc, op, b.first, b.count) : NULL;
  if (emit(L, (pt_ins){.code = PT_C_PTO, .opc = opc, .op_first = b.first, .op_count = b.count, .src = op,
                       .dst = b.res_slot, .obj = b.res_obj, .plan = plan}) < 0)
    free(plan);
  return 0;
}

static int lower_mem(pt_lower *L, const pa_op *op, int store) {
  /* pto.load %p[%i] : !pto.ptr<T, s> -> T  /  pto.store %v, %p[%i] : !pto.ptr<T, s>, T */
  const pa_item *v = store ? pt_operand_item(op, 0) : NULL, *p = pt_operand_item(op, store ? 1 : 0);
  if (!p || p->kind != PA_IT_VALUE || p->nargs != 1 || (store && !v))
    return errorf(L, op->loc, "ir.syntax", "write %p[%index]", "malformed %.*s", (int)op->name.n, op->name.s);
  pt_ins m = {.code = (uint8_t)(store ? PT_C_STORE : PT_C_LOAD), .sub = (uint8_t)(L->vec_depth > 0), .src = op};
  m.b = pt_lower_resolve(L, p);
  m.c = operand_slot(L, &p->args[0]);
  if (m.b < 0 || m.c < 0) return -1;
  if (store) {
    if ((m.a = operand_slot(L, v)) < 0) return -1;
  } else {
    pt_slot_type t = pt_slot_type_of(result_type(op, 0));
    if (t.kind != PT_VK_INT && t.kind != PT_VK_FLOAT) return errorf(L, op->loc, "ir.type", NULL, "pto.load needs a scalar result type");
    m.dst = define_results(L, op, &t, 1);
  }
  emit(L, m);
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
    if ((args[nargs++] = operand_slot(L, &list->args[i])) < 0) return -1;
  }
  int saved = L->nnames, saved_barrier = L->barrier, saved_outer = L->strict_outer;
  if (strict) {
    L->strict_outer = L->barrier;
    L->barrier = L->nnames;
  }
  L->vec_depth++;
  int rc = lower_region(L, &op->regions[0], args, nargs);
  L->vec_depth--;
  L->barrier = saved_barrier;
  L->strict_outer = saved_outer;
  pop_names(L, saved);
  return rc;
}

static int lower_pto(pt_lower *L, const pa_op *op) {
  char name[128];
  snprintf(name, sizeof name, "%.*s", (int)op->name.n, op->name.s);
  if (pa_str_is(op->name, "pto.load") || pa_str_is(op->name, "pto.load_scalar")) return lower_mem(L, op, 0);
  if (pa_str_is(op->name, "pto.store") || pa_str_is(op->name, "pto.store_scalar")) return lower_mem(L, op, 1);
  int bitop = pa_str_is(op->name, "pto.sbitset1");
  if (bitop || pa_str_is(op->name, "pto.sbitset0")) { /* %r = pto.sbitset1 %v, %bit : i64, i64 -> i64 */
    pt_ins b = {.code = PT_C_BIN, .sub = (uint8_t)(bitop ? PT_B_BITSET1 : PT_B_BITSET0), .bits = 64, .src = op};
    if ((b.a = operand_slot(L, pt_operand_item(op, 0))) < 0 || (b.b = operand_slot(L, pt_operand_item(op, 1))) < 0) return -1;
    pt_slot_type t = i64_type();
    if (expect_type(L, pt_operand_item(op, 0), b.a, t, "operand") || expect_type(L, pt_operand_item(op, 1), b.b, t, "bit index"))
      return -1;
    b.dst = define_results(L, op, &t, 1);
    emit(L, b);
    return 0;
  }
  ptosim_opcode opc = pt_op_lookup_n(op->name.s, op->name.n);
  pt_op_text text = pt_op_text_of(opc);
  if (text == PT_TEXT_TEXT || text == PT_TEXT_CAPI) return lower_table_op(L, op, opc);
  if (opc != PTOSIM_OP_COUNT && text == PT_TEXT_NONE)
    return errorf(L, op->loc, "op.unsupported", "`ptosim ops --status not-yet` lists the ops not implemented yet",
                  "not supported yet: %s", name);
  int rc = pt_lower_obj_op(L, op);
  if (rc <= 0) return rc;
  if (pa_str_is(op->name, "pto.castptr") || pa_str_is(op->name, "pto.addptr")) {
    int add = pa_str_is(op->name, "pto.addptr");
    pt_ins c = {.code = (uint8_t)(add ? PT_C_ADDPTR : PT_C_CASTPTR), .src = op};
    if ((c.a = operand_slot(L, pt_operand_item(op, 0))) < 0) return -1;
    if (add && (c.b = operand_slot(L, pt_operand_item(op, 1))) < 0) return -1;
    pt_slot_type t = pt_slot_type_of(result_type(op, 0)), in = L->p->slots[c.a];
    /* castptr forms (PTOAS PTOOps.td CastPtrOp): integer -> ptr, ptr -> integer (the
     * address), ptr -> ptr of another element type within one memory space. */
    if (!add && t.kind == PT_VK_INT && in.kind == PT_VK_PTR) {
      c.code = PT_C_PTRTOINT;
      c.bits = t.bits;
      c.dst = define_results(L, op, &t, 1);
      emit(L, c);
      return 0;
    }
    if (t.kind != PT_VK_PTR) return errorf(L, op->loc, "ir.type", "give the result type: -> !pto.ptr<T, space> or an integer", "%s needs a pointer result type", name);
    if (check_ptr_elem(L, result_type(op, 0), op->loc)) return -1;
    if (!add && in.kind == PT_VK_PTR && in.space != t.space)
      return errorf(L, op->loc, "ir.type", "cast through an integer only where the hardware shares the address", "%s cannot change the memory space (%s -> %s)",
                    name, pt_space_name(in.space), pt_space_name(t.space));
    c.imm.p = ptosim_ptr_make(t.space, t.dt, 0);
    c.dst = define_results(L, op, &t, 1);
    emit(L, c);
    return 0;
  }
  int q = find_sub(queries, sizeof queries / sizeof queries[0], op->name);
  if (q >= 0) {
    pt_slot_type t = pt_slot_type_of(result_type(op, 0));
    if (t.kind != PT_VK_INT) t = i64_type();
    pt_ins c = {.code = PT_C_QUERY, .sub = (uint8_t)q, .bits = t.bits, .src = op};
    c.dst = define_results(L, op, &t, 1);
    emit(L, c);
    return 0;
  }
  if (opc == PTOSIM_OP_vecscope || opc == PTOSIM_OP_strict_vecscope) return lower_vecscope(L, op, opc == PTOSIM_OP_strict_vecscope);
  int cube = pa_str_is(op->name, "pto.section.cube");
  if (cube || pa_str_is(op->name, "pto.section.vector")) {
    if (op->nregions != 1) return errorf(L, op->loc, "ir.syntax", NULL, "a section has one region");
    int32_t sec = emit(L, (pt_ins){.code = PT_C_SECTION, .sub = (uint8_t)!cube, .src = op});
    int saved = L->nnames;
    if (lower_region(L, &op->regions[0], NULL, 0)) return -1;
    pop_names(L, saved);
    L->p->code[sec].target = here(L);
    return 0;
  }
  if (opc == PTOSIM_OP_COUNT) return unknown_op(L, op, name) ? -1 : 0;
  return errorf(L, op->loc, "op.unsupported", "this op is parsed but ptosim cannot execute it yet",
                "not supported yet: %s", name);
}

/* ---- dispatch ------------------------------------------------------------------------------ */

static int lower_op(pt_lower *L, const pa_op *op) {
  pa_str n = op->name;
  if (n.n > 6 && !memcmp(n.s, "arith.", 6)) return lower_arith(L, op);
  if (pa_str_is(n, "scf.for")) return lower_for(L, op);
  if (pa_str_is(n, "scf.if")) return lower_if(L, op);
  if (pa_str_is(n, "scf.while")) return lower_while(L, op);
  if (pa_str_is(n, "scf.yield")) return lower_yield(L, op);
  if (pa_str_is(n, "scf.condition")) return lower_condition(L, op);
  if (pa_str_is(n, "func.call") || pa_str_is(n, "call")) return lower_call(L, op);
  if (pa_str_is(n, "return") || pa_str_is(n, "func.return")) return lower_return(L, op);
  if (n.n > 4 && !memcmp(n.s, "pto.", 4)) return lower_pto(L, op);
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
  const pa_type *t = last_type(op);
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
    int32_t base = new_slots(L, i64_type(), (int)op->results[r].count);
    for (uint32_t j = 0; j < op->results[r].count && base >= 0; j++)
      L->p->slots[base + (int32_t)j] = placeholder_type(declared_type(op, k + j));
    define(L, op->results[r].name, base, (int32_t)op->results[r].count);
  }
}

/* One op of a region: the region's terminator (scf.yield / scf.condition) only at its end. */
static int lower_in_region(pt_lower *L, const pa_op *op, int last) {
  region_kind term = pa_str_is(op->name, "scf.yield") ? R_YIELD : pa_str_is(op->name, "scf.condition") ? R_COND : R_PLAIN;
  if (!last && term != R_PLAIN && term == L->region)
    return errorf(L, op->loc, "ir.syntax", "nothing may follow the terminator of a region",
                  "%.*s must be the last op of its region", (int)op->name.n, op->name.s);
  return lower_op(L, op);
}

/* Lower the ops of a region of the given kind (what its terminator may be; R_YIELD: scf.yield
 * sends ny values to ys; R_COND: scf.condition passes ny values). */
static int lower_ops(pt_lower *L, const pa_region *r, const int32_t *args, int nargs, region_kind kind, const int32_t *ys,
                     int ny) {
  const int32_t *sy = L->yield_slots;
  int sn = L->nyield, rc = 0;
  region_kind sk = L->region;
  L->yield_slots = ys;
  L->nyield = ny;
  L->region = kind;
  for (uint32_t bi = 0; bi < r->nblocks; bi++) {
    const pa_block *b = &r->blocks[bi];
    for (uint32_t a = 0; a < b->nargs && bi == 0 && (int)a < nargs; a++) define(L, b->args[a].name, args[a], 1);
    for (uint32_t i = 0; i < b->nops; i++) {
      const pa_op *op = &b->ops[i];
      int names = L->nnames, reports = L->reports;
      if (!lower_in_region(L, op, bi + 1 == r->nblocks && i + 1 == b->nops)) continue;
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
static int lower_region(pt_lower *L, const pa_region *r, const int32_t *arg_slots, int nargs) {
  return lower_ops(L, r, arg_slots, nargs, R_PLAIN, NULL, 0);
}

static int lower_body(pt_lower *L, const pa_op *fn, const int32_t *args) {
  const pa_func *saved = L->fn;
  for (uint32_t i = 0; i < fn->func->nargs; i++) define(L, fn->func->args[i].name, args[i], 1);
  L->fn = fn->func;
  int rc = fn->nregions ? lower_region(L, &fn->regions[0], NULL, 0) : 0;
  L->fn = saved;
  return rc;
}

/* ---- the lowering interface of tiles.c and bind.c ------------------------------------------ */

ptosim_program *pt_lower_program(pt_lower *L) { return L->p; }
int32_t pt_lower_emit(pt_lower *L, pt_ins in) { return emit(L, in); }
int32_t pt_lower_operand(pt_lower *L, const pa_item *it) { return operand_slot(L, it); }
const pa_type *pt_lower_result_type(const pa_op *op, unsigned i) { return result_type(op, i); }

int32_t pt_lower_define_results(pt_lower *L, const pa_op *op, const pt_slot_type *types, int n) {
  return define_results(L, op, types, n);
}

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

/* Target (`target` when >= 0, else the module's, else a5) and kernel kind of the module. */
static void module_attrs(ptosim_program *p, int target) {
  const pa_item *attrs = p->ast->module ? p->ast->module->attrs : NULL;
  const pa_item *arch = attrs ? pa_dict_get(attrs, "pto.target_arch") : NULL;
  p->target = PTOSIM_TARGET_A5;
  if (arch && arch->kind == PA_IT_STRING && (pa_str_is(arch->name, "a2a3") || pa_str_is(arch->name, "a3") || pa_str_is(arch->name, "a2")))
    p->target = PTOSIM_TARGET_A2A3;
  /* "pto.device-spec" = "Ascend910B1": A5 is Ascend950 / Ascend910_95, any other Ascend910 is
   * A2/A3 (PTOAS lib/PTO/Transforms/PTOMaterializeTileHandles.cpp). */
  const pa_item *spec = attrs && !arch ? pa_dict_get(attrs, "pto.device-spec") : NULL;
  if (spec && spec->kind == PA_IT_STRING && spec->name.n >= 9 && !memcmp(spec->name.s, "Ascend910", 9) &&
      !(spec->name.n >= 12 && !memcmp(spec->name.s, "Ascend910_95", 12)))
    p->target = PTOSIM_TARGET_A2A3;
  const pa_item *kk = attrs ? pa_dict_get(attrs, "pto.kernel_kind") : NULL;
  if (kk && kk->kind == PA_IT_ATTR) {
    if (kk->body.n >= 4 && !memcmp(kk->body.s, "cube", 4)) p->kernel_kind = 1;
    if (kk->body.n >= 6 && !memcmp(kk->body.s, "vector", 6)) p->kernel_kind = 2;
  }
  if (target >= 0) p->target = (ptosim_target)target;
}

/* Which cores run the entry: with sections, the cube core and both vector sub-blocks; a
 * cube kernel, the cube core; a vector kernel, vector sub-block 0; with neither the
 * attribute nor sections, decided by whether it issues cube-pipe ops. */
static int cores_kind(const ptosim_program *p) {
  int has_section = 0, has_cube_op = 0;
  for (int32_t i = 0; i < p->ncode; i++) {
    has_section |= p->code[i].code == PT_C_SECTION;
    if (p->code[i].code == PT_C_PTO) {
      const char *pipe = ptosim_op_pipe((ptosim_opcode)p->code[i].opc);
      has_cube_op |= !strcmp(pipe, "M") || !strcmp(pipe, "FIX") || !strcmp(pipe, "MTE1");
    }
  }
  return p->kernel_kind ? p->kernel_kind : has_section ? 0 : has_cube_op ? 1 : 2;
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
    for (uint32_t i = 0; i < f->nargs && p->param_slot; i++) {
      pt_slot_type t = pt_slot_type_of(f->args[i].type);
      if (t.kind == PT_VK_OTHER || pt_wide_size(t.kind))
        errorf(&L, f->args[i].loc, "run.param_type", "kernel parameters are pointers or scalars", "unsupported parameter type");
      check_ptr_elem(&L, f->args[i].type, f->args[i].loc);
      p->param_slot[i] = new_slots(&L, t, 1);
    }
    if (p->param_slot) lower_body(&L, p->entry, p->param_slot);
    emit(&L, (pt_ins){.code = PT_C_RETURN});
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

int ptosim_program_in_order(const ptosim_program *p) {
  int tile = 0;
  if (!p) return 0;
  for (int32_t i = 0; i < p->ncode; i++) {
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
          args[a] = new_slots(L, pt_slot_type_of(op->func->args[a].type), 1);
        for (uint32_t a = 0; a < op->func->nargs; a++) check_ptr_elem(L, op->func->args[a].type, op->func->args[a].loc);
        int saved = L->nnames;
        rc |= lower_body(L, op, args);
        pop_names(L, saved);
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
