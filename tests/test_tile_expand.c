/* Row and column broadcasts on the element types of pto-isa's NPU headers (docs/spec-notes.md
 * section 17, "Broadcast element types (session 13)"): A5 i64 / u64 and 8-bit storage
 * trowexpand / tcolexpand (at most 64 valid columns for 64-bit), A5 unsigned, i8 and bf16
 * binary forms, A5 integer division (truncating; a zero divisor or MIN / -1 fails the op
 * before anything is written), the broadcast operand given as src0 on both targets, and the
 * types still refused.
 * Every positive case fills the whole UB with random bytes, writes the sources, applies the
 * reference written here to a copy of the UB image and compares the whole UB after the op
 * (tile_ub_env.h), so the bytes outside dst's valid region are checked too. Integers are
 * computed exactly in 64 bits (wrapped by the store), floats through double. */
#include <inttypes.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "tile_ub_env.h"

static unsigned long long seed = 0xD1B54A32D192ED03ull;
static const ptosim_target both[] = {PTOSIM_TARGET_A2A3, PTOSIM_TARGET_A5};

#define tile ub_tile
#define ND PTOSIM_BL_ROW_MAJOR
#define DN PTOSIM_BL_COL_MAJOR

/* ---- integer values --------------------------------------------------------------------- */

static int is_signed_int(ptosim_dtype t) {
  return t == PTOSIM_DT_I8 || t == PTOSIM_DT_I16 || t == PTOSIM_DT_I32 || t == PTOSIM_DT_I64;
}

/* The integer at p: sign-extended for signed types, zero-extended for unsigned ones. */
static int64_t iget(ptosim_dtype t, const uint8_t *p) {
  unsigned w = (unsigned)es_of(t) * 8;
  uint64_t u = 0;
  memcpy(&u, p, (size_t)es_of(t));
  if (w < 64 && is_signed_int(t) && (u >> (w - 1) & 1)) u |= ~0ull << w;
  return (int64_t)u;
}

/* Store the low bytes of v (two's complement wraps to the width). */
static void iput(ptosim_dtype t, uint8_t *p, uint64_t v) { memcpy(p, &v, (size_t)es_of(t)); }

/* A random integer of t: 1 in 4 an edge value (MIN, MAX, 0, -1, 1), else random bits. */
static uint64_t rnd_int(ptosim_dtype t) {
  unsigned w = (unsigned)es_of(t) * 8;
  uint64_t r = pt_rand_u64(&seed), top = 1ull << (w - 1);
  uint64_t edges[] = {is_signed_int(t) ? top : 0, is_signed_int(t) ? top - 1 : ~0ull, 0, ~0ull, 1};
  return r % 4 == 0 ? edges[(r >> 8) % 5] : pt_rand_u64(&seed);
}

typedef enum fop { F_ADD, F_SUB, F_MUL, F_DIV, F_MAX, F_MIN } fop;

/* f(a, b) on the exact integers a, b (64-bit unsigned arithmetic wraps like the store). */
static uint64_t iapply(fop o, int64_t a, int64_t b) {
  switch (o) {
    case F_ADD: return (uint64_t)a + (uint64_t)b;
    case F_SUB: return (uint64_t)a - (uint64_t)b;
    case F_MUL: return (uint64_t)a * (uint64_t)b;
    case F_DIV: return (uint64_t)(a / b); /* the operands are at most 32 bits wide here */
    case F_MAX: return (uint64_t)(a > b ? a : b);
    default: return (uint64_t)(a < b ? a : b);
  }
}

/* f(a, b) on bf16 values through double (one rounding; max / min: -0 below +0). */
static double fapply(ptosim_dtype t, fop o, double a, double b) {
  switch (o) {
    case F_ADD: return as(t, a + b);
    case F_SUB: return as(t, a - b);
    case F_MUL: return as(t, a * b);
    case F_DIV: return as(t, a / b);
    case F_MAX: return a == b ? (signbit(a) ? b : a) : a > b ? a : b;
    default: return a == b ? (signbit(a) ? a : b) : a < b ? a : b;
  }
}

/* ---- binary broadcasts ---------------------------------------------------------------------- */

static ptosim_status run_bcast(ptosim_core *c, const char *op, const ptosim_texpand_params *p) {
  static const struct {
    const char *name;
    ptosim_status (*fn)(ptosim_core *, const ptosim_texpand_params *);
  } ops[] = {{"trowexpand", ptosim_trowexpand},         {"tcolexpand", ptosim_tcolexpand},
             {"trowexpandadd", ptosim_trowexpandadd},   {"trowexpandsub", ptosim_trowexpandsub},
             {"trowexpandmul", ptosim_trowexpandmul},   {"trowexpanddiv", ptosim_trowexpanddiv},
             {"trowexpandmax", ptosim_trowexpandmax},   {"trowexpandmin", ptosim_trowexpandmin},
             {"trowexpandexpdif", ptosim_trowexpandexpdif}, {"tcolexpandadd", ptosim_tcolexpandadd},
             {"tcolexpandsub", ptosim_tcolexpandsub},   {"tcolexpandmul", ptosim_tcolexpandmul},
             {"tcolexpanddiv", ptosim_tcolexpanddiv},   {"tcolexpandmax", ptosim_tcolexpandmax},
             {"tcolexpandmin", ptosim_tcolexpandmin},   {"tcolexpandexpdif", ptosim_tcolexpandexpdif}};
  for (size_t i = 0; i < sizeof ops / sizeof *ops; i++)
    if (!strcmp(op, ops[i].name)) return ops[i].fn(c, p);
  return PTOSIM_E_USAGE;
}

static const struct {
  const char *row, *col;
  fop o;
} k_ops[] = {{"trowexpandadd", "tcolexpandadd", F_ADD}, {"trowexpandsub", "tcolexpandsub", F_SUB},
             {"trowexpandmul", "tcolexpandmul", F_MUL}, {"trowexpanddiv", "tcolexpanddiv", F_DIV},
             {"trowexpandmax", "tcolexpandmax", F_MAX}, {"trowexpandmin", "tcolexpandmin", F_MIN}};

/* A source value of t for op o; a divisor (`divisor`) is never 0. */
static void put_src(ptosim_dtype t, fop o, uint8_t *p, int divisor) {
  if (t == PTOSIM_DT_BF16) {
    uint64_t r = pt_rand_u64(&seed);
    double v = r % 16 == 0 ? (r >> 8 & 1 ? -0.0 : 0.0) : ((double)(r % 4001) - 2000) / 16;
    if (o == F_DIV && divisor && fabs(v) < 1) v = -3;
    put(t, p, v);
    return;
  }
  iput(t, p, rnd_int(t));
  if (o == F_DIV && divisor && iget(t, p) == 0) iput(t, p, 7);
}

/* One case: dst vr x vc of a 12 x 4B tile (B = elements per 32 bytes); the broadcast operand a
 * DN column (form 0), a row-major 32-byte block per row (form 1) or a row vector (column
 * ops, form 2); `first`: the broadcast operand is src0. */
static void bin_case(ptosim_target tg, ptosim_dtype t, int oi, int form, int first) {
  env e = env_new_seeded(tg, &seed);
  fop o = k_ops[oi].o;
  int blk = (int)(32 / es_of(t)), vr = 7, vc = 2 * blk + 3;
  ptosim_tile full = tile(t, 0x400, 12, 4 * blk, vr, vc, ND), d = tile(t, 0x10000, 12, 4 * blk, vr, vc, ND);
  ptosim_tile v = form == 0 ? tile(t, 0x20000, 32, 1, vr, 1, DN)
                  : form == 1 ? tile(t, 0x20000, 12, blk, vr, blk, ND)
                              : tile(t, 0x20000, 2, 4 * blk, 1, vc, ND);
  /* The divisor is src1: the full tile when the broadcast operand comes first. */
  for (int r = 0; r < vr; r++)
    for (int c = 0; c < vc; c++) put_src(t, o, at(&e, &full, r, c), first);
  for (int r = 0; r < v.valid_rows; r++)
    for (int c = 0; c < v.valid_cols; c++) put_src(t, o, at(&e, &v, r, c), !first);
  /* A MIN dividend over a -1 divisor is undefined (test_div_undefined): such dividends become
   * MIN + 1 (no new pair of that kind: the divisors do not change). */
  for (int pass = 0; pass < 2; pass++) {
    if (pass) env_load(&e);
    for (int r = 0; r < vr; r++)
      for (int c = 0; c < vc; c++) {
        uint8_t *pf = at(&e, &full, r, c);
        uint8_t *pv = form == 2 ? at(&e, &v, 0, c) : form == 1 ? at(&e, &v, r, c % blk) : at(&e, &v, r, 0);
        uint8_t *pa = first ? pv : pf, *pb = first ? pf : pv;
        int64_t top = (int64_t)(~0ull << (es_of(t) * 8 - 1));
        if (!pass) {
          if (o == F_DIV && is_signed_int(t) && iget(t, pa) == top && iget(t, pb) == -1) iput(t, pa, (uint64_t)top + 1);
          continue;
        }
        uint8_t *pd = at(&e, &d, r, c);
        if (t == PTOSIM_DT_BF16)
          put(t, pd, fapply(t, o, get(t, pa), get(t, pb)));
        else
          iput(t, pd, iapply(o, iget(t, pa), iget(t, pb)));
      }
  }
  ptosim_texpand_params p = {.src0 = first ? v : full, .src1 = first ? full : v, .dst = d};
  const char *op = form == 2 ? k_ops[oi].col : k_ops[oi].row;
  char what[128];
  snprintf(what, sizeof what, "%s %s form %d first %d target %d", op, pt_dtype_name(t), form, first, (int)tg);
  finish(&e, run_bcast(e.c, op, &p), what);
}

/* A5: the binary forms on u8 u16 u32 i8 bf16 (and i16 i32 for division), every form, both
 * operand orders. */
static void test_a5_binary_types(void) {
  static const ptosim_dtype types[] = {PTOSIM_DT_U8, PTOSIM_DT_U16, PTOSIM_DT_U32, PTOSIM_DT_I8,
                                       PTOSIM_DT_BF16, PTOSIM_DT_I16, PTOSIM_DT_I32};
  for (size_t oi = 0; oi < sizeof k_ops / sizeof *k_ops; oi++)
    for (size_t ti = 0; ti < sizeof types / sizeof *types; ti++) {
      ptosim_dtype t = types[ti];
      if ((t == PTOSIM_DT_I16 || t == PTOSIM_DT_I32) && k_ops[oi].o != F_DIV) continue; /* tested before */
      for (int form = 0; form < 3; form++)
        for (int first = 0; first < 2; first++) bin_case(PTOSIM_TARGET_A5, t, (int)oi, form, first);
    }
}

/* Both targets: the broadcast operand as src0 on the types each target had before. */
static void test_operand_first(void) {
  static const ptosim_dtype types[] = {PTOSIM_DT_I16, PTOSIM_DT_I32};
  for (int ti = 0; ti < 2; ti++)
    for (size_t oi = 0; oi < sizeof k_ops / sizeof *k_ops; oi++)
      for (int di = 0; di < 2; di++) {
        if (k_ops[oi].o == F_DIV && both[ti] != PTOSIM_TARGET_A5) continue;
        for (int form = 0; form < 3; form++) bin_case(both[ti], types[di], (int)oi, form, 1);
      }
}

/* f32 forms with the broadcast operand first, on both targets, through the order-sensitive
 * ops (sub, div: f(src0, src1) with src0 broadcast) and expdif. */
static void test_operand_first_float(void) {
  static const char *const ops[] = {"trowexpandsub", "trowexpanddiv", "trowexpandexpdif",
                                    "tcolexpandsub", "tcolexpanddiv", "tcolexpandexpdif"};
  for (int ti = 0; ti < 2; ti++)
    for (int oi = 0; oi < 6; oi++) {
      env e = env_new_seeded(both[ti], &seed);
      int row = oi < 3, vr = 5, vc = 19;
      ptosim_tile full = tile(PTOSIM_DT_F32, 0x400, 8, 32, vr, vc, ND), d = tile(PTOSIM_DT_F32, 0x2000, 8, 32, vr, vc, ND);
      ptosim_tile v = row ? tile(PTOSIM_DT_F32, 0x4000, 8, 1, vr, 1, DN) : tile(PTOSIM_DT_F32, 0x4000, 1, 32, 1, vc, ND);
      for (int r = 0; r < vr; r++)
        for (int c = 0; c < vc; c++) put(PTOSIM_DT_F32, at(&e, &full, r, c), 1.5 + (r * 32 + c) / 8.0);
      for (int i = 0; i < (row ? vr : vc); i++) put(PTOSIM_DT_F32, row ? at(&e, &v, i, 0) : at(&e, &v, 0, i), 2.25 + i);
      env_load(&e);
      for (int r = 0; r < vr; r++)
        for (int c = 0; c < vc; c++) {
          double a = get(PTOSIM_DT_F32, row ? at(&e, &v, r, 0) : at(&e, &v, 0, c)), b = get(PTOSIM_DT_F32, at(&e, &full, r, c));
          double y = oi % 3 == 0 ? a - b : oi % 3 == 1 ? a / b : pt_exp_ref((float)(a - b));
          put(PTOSIM_DT_F32, at(&e, &d, r, c), y);
        }
      ptosim_texpand_params p = {.src0 = v, .src1 = full, .dst = d};
      char what[96];
      snprintf(what, sizeof what, "%s f32 broadcast first target %d", ops[oi], (int)both[ti]);
      finish(&e, run_bcast(e.c, ops[oi], &p), what);
    }
}

/* ---- integer division: the undefined lanes --------------------------------------------------- */

/* A5 trowexpanddiv / tcolexpanddiv of i16 tiles with one bad lane at (br, bc): a zero divisor
 * (zero = 1) or MIN / -1 fails with <op>.zero / <op>.overflow, naming the lane, and leaves the
 * whole UB as it was. The divisor is the broadcast operand (first = 0) or the full tile. */
static void div_bad(const char *op, int row, int first, int zero, int br, int bc) {
  ptosim_dtype t = PTOSIM_DT_I16;
  env e = env_new_seeded(PTOSIM_TARGET_A5, &seed);
  int vr = 6, vc = 37;
  ptosim_tile full = tile(t, 0x400, 8, 64, vr, vc, ND), d = tile(t, 0x2000, 8, 64, vr, vc, ND);
  ptosim_tile v = row ? tile(t, 0x4000, 16, 1, vr, 1, DN) : tile(t, 0x4000, 1, 64, 1, vc, ND);
  for (int r = 0; r < vr; r++)
    for (int c = 0; c < vc; c++) iput(t, at(&e, &full, r, c), 5 + (uint64_t)c);
  for (int i = 0; i < (row ? vr : vc); i++) iput(t, row ? at(&e, &v, i, 0) : at(&e, &v, 0, i), 3);
  /* The bad lane: its divisor 0 or -1 (and its dividend MIN). */
  uint8_t *div = first ? at(&e, &full, br, bc) : row ? at(&e, &v, br, 0) : at(&e, &v, 0, bc);
  uint8_t *num = first ? (row ? at(&e, &v, br, 0) : at(&e, &v, 0, bc)) : at(&e, &full, br, bc);
  iput(t, div, zero ? 0 : ~0ull);
  if (!zero) iput(t, num, 0x8000); /* the lanes sharing a broadcast MIN or -1 pair it with 3 or 5 + c */
  env_load(&e);
  ptosim_texpand_params p = {.src0 = first ? v : full, .src1 = first ? full : v, .dst = d};
  ptosim_status st = run_bcast(e.c, op, &p);
  const ptosim_diag *dg = ptosim_last_diag(e.m);
  char rule[64], lane[64];
  snprintf(rule, sizeof rule, "%s.%s", op, zero ? "zero" : "overflow");
  /* A broadcast zero divisor fails at its first lane: row br col 0 (row op), row 0 col bc (col op). */
  int fr = !first && zero && !row ? 0 : br, fc = !first && zero && row ? 0 : bc;
  snprintf(lane, sizeof lane, "row %d, col %d", fr, fc);
  CHECK_MSG(st == PTOSIM_E_FAULT && !strcmp(dg->rule, rule) && strstr(dg->msg, lane), "%s first %d zero %d: got %d [%s] %s",
            op, first, zero, (int)st, dg->rule, dg->msg);
  uint8_t *got = malloc(e.cap);
  CHECK(ptosim_mem_read(e.c, PTOSIM_UB, 0, got, e.cap) == PTOSIM_OK);
  CHECK_MSG(!memcmp(got, e.img, e.cap), "%s: the UB changed on a failing division", op);
  free(got);
  env_free(&e);
}

static void test_div_undefined(void) {
  for (int row = 0; row < 2; row++)
    for (int first = 0; first < 2; first++) {
      const char *op = row ? "trowexpanddiv" : "tcolexpanddiv";
      div_bad(op, row, first, 1, 3, 20);
      div_bad(op, row, first, 0, 4, 33);
    }
  /* Unsigned: -1 is the maximum, MIN / -1 is 0x8000 / 0xFFFF = 0, defined. */
  env e = env_new_seeded(PTOSIM_TARGET_A5, &seed);
  ptosim_dtype t = PTOSIM_DT_U16;
  ptosim_tile full = tile(t, 0x400, 8, 16, 2, 16, ND), d = tile(t, 0x2000, 8, 16, 2, 16, ND),
              v = tile(t, 0x4000, 16, 1, 2, 1, DN);
  for (int r = 0; r < 2; r++) {
    iput(t, at(&e, &v, r, 0), 0xFFFF);
    for (int c = 0; c < 16; c++) iput(t, at(&e, &full, r, c), c == 3 ? 0xFFFF : 0x8000);
  }
  env_load(&e);
  for (int r = 0; r < 2; r++)
    for (int c = 0; c < 16; c++) iput(t, at(&e, &d, r, c), c == 3);
  ptosim_texpand_params p = {.src0 = full, .src1 = v, .dst = d};
  finish(&e, run_bcast(e.c, "trowexpanddiv", &p), "u16 0x8000 / 0xFFFF");
}

/* ---- trowexpand / tcolexpand: 64-bit and 8-bit storage types on A5 ------------------------------ */

/* 64-bit values whose 32-bit halves differ in sign, and the ends of the range. */
static uint64_t rnd_u64_edge(void) {
  static const uint64_t v[] = {0x00000001FFFFFFFFull, 0xFFFFFFFF00000001ull, 0x8000000000000000ull, 0x7FFFFFFFFFFFFFFFull,
                               ~0ull, 0, 0x80000000FFFFFFFFull, 0x7FFFFFFF80000000ull};
  uint64_t r = pt_rand_u64(&seed);
  return r % 2 ? v[(r >> 8) % 8] : pt_rand_u64(&seed);
}

/* dst vr x vc of a rows x cols tile from a DN column (form 0), column 0 of a row-major tile
 * (form 1) or a row (tcolexpand, form 2). */
static void move_case(ptosim_target tg, ptosim_dtype t, int form, int rows, int cols, int vr, int vc) {
  env e = env_new_seeded(tg, &seed);
  ptosim_tile d = tile(t, 0x1000, rows, cols, vr, vc, ND);
  int dn_rows = (int)(32 / es_of(t)) * ((vr * (int)es_of(t) + 31) / 32);
  ptosim_tile s = form == 0 ? tile(t, 0x10000, dn_rows, 1, vr, 1, DN)
                  : form == 1 ? tile(t, 0x10000, rows, (int)(32 / es_of(t)), vr, 1, ND)
                              : tile(t, 0x10000, 1, cols, 1, vc, ND);
  for (int r = 0; r < s.valid_rows; r++)
    for (int c = 0; c < s.valid_cols; c++) iput(t, at(&e, &s, r, c), es_of(t) == 8 ? rnd_u64_edge() : pt_rand_u64(&seed));
  env_load(&e);
  for (int r = 0; r < vr; r++)
    for (int c = 0; c < vc; c++) memcpy(at(&e, &d, r, c), form < 2 ? at(&e, &s, r, 0) : at(&e, &s, 0, c), (size_t)es_of(t));
  ptosim_texpand_params p = {.src0 = s, .dst = d};
  const char *op = form < 2 ? "trowexpand" : "tcolexpand";
  char what[96];
  snprintf(what, sizeof what, "%s %s form %d %dx%d", op, pt_dtype_name(t), form, vr, vc);
  finish(&e, run_bcast(e.c, op, &p), what);
}

static void test_move_types(void) {
  static const ptosim_dtype types[] = {PTOSIM_DT_I64,    PTOSIM_DT_U64,    PTOSIM_DT_F8E4M3,   PTOSIM_DT_F8E5M2,
                                       PTOSIM_DT_HIF8,   PTOSIM_DT_F8E8M0, PTOSIM_DT_F4E1M2X2, PTOSIM_DT_F4E2M1X2};
  for (size_t i = 0; i < sizeof types / sizeof *types; i++)
    for (int form = 0; form < 3; form++) {
      int blk = (int)(32 / es_of(types[i]));
      move_case(PTOSIM_TARGET_A5, types[i], form, 8, 4 * blk, 5, 2 * blk + 3); /* a tail, rows and columns left over */
      if (es_of(types[i]) == 8) move_case(PTOSIM_TARGET_A5, types[i], form, 3, 64, 3, 64); /* 64 columns: the limit */
    }
}

/* ---- refusals ------------------------------------------------------------------------------------ */

static void refuse_case(ptosim_target tg, const char *op, ptosim_texpand_params p, const char *rule) {
  env e = env_new_seeded(tg, &seed);
  refuse(&e, run_bcast(e.c, op, &p), rule);
}

/* p with every operand of element type t. */
static ptosim_texpand_params typed(ptosim_texpand_params p, ptosim_dtype t) {
  p.src0.dtype = p.src1.dtype = p.dst.dtype = t;
  return p;
}

static void test_refusals(void) {
  ptosim_target a2 = PTOSIM_TARGET_A2A3, a5 = PTOSIM_TARGET_A5;
  const ptosim_texpand_params row = {.src0 = tile(PTOSIM_DT_F32, 0, 16, 64, 16, 64, ND),
                                     .src1 = tile(PTOSIM_DT_F32, 0x8000, 32, 1, 16, 1, DN),
                                     .dst = tile(PTOSIM_DT_F32, 0x10000, 16, 64, 16, 64, ND)};
  const ptosim_texpand_params col = {.src0 = row.src0, .src1 = tile(PTOSIM_DT_F32, 0x8000, 1, 64, 1, 64, ND), .dst = row.dst};
  /* A2/A3 binary forms: i16 i32 f16 f32 (a2a3 TRowExpandMul.hpp:40-42: no unsigned, no bf16). */
  refuse_case(a2, "trowexpandmul", typed(row, PTOSIM_DT_U32), "trowexpandmul.dtype");
  refuse_case(a2, "trowexpandadd", typed(row, PTOSIM_DT_U16), "trowexpandadd.dtype");
  refuse_case(a2, "tcolexpandmax", typed(col, PTOSIM_DT_BF16), "tcolexpandmax.dtype");
  refuse_case(a2, "trowexpanddiv", typed(row, PTOSIM_DT_I32), "trowexpanddiv.dtype"); /* a2a3 TRowExpandDiv.hpp:55-57 */
  refuse_case(a2, "tcolexpanddiv", typed(col, PTOSIM_DT_I16), "tcolexpanddiv.dtype");
  /* A5: no 64-bit binary forms, expdif f16 / f32 only. */
  refuse_case(a5, "trowexpandadd", typed(row, PTOSIM_DT_I64), "trowexpandadd.dtype");
  refuse_case(a5, "tcolexpandmul", typed(col, PTOSIM_DT_U64), "tcolexpandmul.dtype");
  refuse_case(a5, "trowexpandexpdif", typed(row, PTOSIM_DT_BF16), "trowexpandexpdif.dtype");
  refuse_case(a5, "tcolexpandexpdif", typed(col, PTOSIM_DT_I32), "tcolexpandexpdif.dtype");
  refuse_case(a5, "trowexpandmax", typed(row, PTOSIM_DT_F8E4M3), "trowexpandmax.dtype");
  /* trowexpand / tcolexpand: A2/A3 1 / 2 / 4-byte types; f64 has no vector path on A5. */
  ptosim_texpand_params mv = {.src0 = tile(PTOSIM_DT_I64, 0x8000, 16, 1, 16, 1, DN),
                              .dst = tile(PTOSIM_DT_I64, 0x10000, 16, 64, 16, 64, ND)};
  refuse_case(a2, "trowexpand", mv, "trowexpand.dtype");
  ptosim_texpand_params b8 = typed(mv, PTOSIM_DT_HIF8);
  b8.src0.rows = 32;
  refuse_case(a2, "trowexpand", b8, "trowexpand.dtype");
  refuse_case(a5, "trowexpand", typed(mv, PTOSIM_DT_F64), "trowexpand.dtype");
  /* 64-bit on A5: the first 64 columns only. */
  ptosim_texpand_params wide = mv;
  wide.dst = tile(PTOSIM_DT_U64, 0x10000, 4, 72, 4, 65, ND);
  wide.src0.dtype = PTOSIM_DT_U64, wide.src0.valid_rows = 4;
  refuse_case(a5, "trowexpand", wide, "trowexpand.cols64");
  wide.src0 = tile(PTOSIM_DT_U64, 0x8000, 1, 72, 1, 65, ND);
  refuse_case(a5, "tcolexpand", wide, "tcolexpand.cols64");
}

int main(void) {
  RUN(test_a5_binary_types);
  RUN(test_operand_first);
  RUN(test_operand_first_float);
  RUN(test_div_undefined);
  RUN(test_move_types);
  RUN(test_refusals);
  return pt_test_finish();
}
