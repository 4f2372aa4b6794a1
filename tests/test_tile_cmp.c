/* Element types of tcmp / tcmps / tsel / tsels (src/isa/tile_cmp.c, docs/spec-notes.md section
 * 14.9) against references written here from the formulas, not from the simulator:
 * - A5 i64 / u64 tcmp / tcmps: the order of two 64-bit values as (high half, low half) pairs,
 *   the high halves' sign bit flipped for i64, then compared as unsigned 32-bit words;
 *   predicate rows of 32 bytes, bit c = the result for c < vc, 0 up to bit 255;
 * - A5 bf16 tcmps: bf16 bits widened to an IEEE single by a shift, compared in double, NaN
 *   unordered; an f32 scalar rounded to bf16 by round-to-nearest-even on its bits;
 * - tsel / tsels: a byte copy of src0 or src1 / the scalar by mask bit (r, c);
 * - the refusals: types a header rejects (<op>.dtype), A5 64-bit rows past 64 columns and
 *   8-bit tsel rows past 256 columns (<op>.cols), with the UB left as it was.
 * Every case starts from a UB of random bytes and compares the whole UB after the op, so the
 * bytes outside dst's valid region (or past the predicate row's 32 bytes) must be untouched. */
#include <inttypes.h>

#include "tile_ub_env.h"

static unsigned long long seed = 0xC0FFEE1234567ull;

#define A5 PTOSIM_TARGET_A5
#define A2 PTOSIM_TARGET_A2A3
#define ROW PTOSIM_BL_ROW_MAJOR

/* ---- element bits ------------------------------------------------------------------------ */

static uint64_t bits_at(env *e, const ptosim_tile *t, int r, int c) {
  uint64_t u = 0;
  memcpy(&u, at(e, t, r, c), (size_t)es_of(t->dtype));
  return u;
}

static void set_at(env *e, const ptosim_tile *t, int r, int c, uint64_t u) {
  memcpy(at(e, t, r, c), &u, (size_t)es_of(t->dtype));
}

/* 64-bit edge values: 0, +-1, the limits of i64 and u64, values whose 32-bit halves differ in
 * sign, and values that share one half with another entry. */
static const uint64_t k_edge64[] = {0,
                                    1,
                                    ~0ull,
                                    0x8000000000000000ull,
                                    0x7FFFFFFFFFFFFFFFull,
                                    0x00000000FFFFFFFFull,
                                    0x0000000100000000ull,
                                    0x0000000180000000ull,
                                    0xFFFFFFFF00000000ull,
                                    0xFFFFFFFF7FFFFFFFull,
                                    0x80000000FFFFFFFFull,
                                    0x7FFFFFFF00000000ull,
                                    0x0000000080000000ull,
                                    0xFFFFFFFF80000000ull,
                                    0x8000000000000001ull};
enum { N_EDGE64 = sizeof k_edge64 / sizeof k_edge64[0] };

/* An edge value two times in three, random bits otherwise. */
static uint64_t pick64(void) {
  uint64_t k = pt_rand_u64(&seed) % (3 * N_EDGE64 / 2);
  return k < N_EDGE64 ? k_edge64[k] : pt_rand_u64(&seed);
}

/* A value near x: x itself, x with one half replaced, or a fresh pick. */
static uint64_t near64(uint64_t x) {
  switch (pt_rand_u64(&seed) % 4) {
    case 0: return x;
    case 1: return (x & 0xFFFFFFFF00000000ull) | (pick64() & 0xFFFFFFFFull);
    case 2: return (x & 0xFFFFFFFFull) | (pick64() & 0xFFFFFFFF00000000ull);
    default: return pick64();
  }
}

/* -1, 0, 1 as x is below, equal to or above y (i64 if sgn, else u64), by 32-bit halves. */
static int order64(uint64_t x, uint64_t y, int sgn) {
  uint32_t xh = (uint32_t)(x >> 32) ^ (sgn ? 0x80000000u : 0), yh = (uint32_t)(y >> 32) ^ (sgn ? 0x80000000u : 0);
  uint32_t xl = (uint32_t)x, yl = (uint32_t)y;
  if (xh != yh) return xh < yh ? -1 : 1;
  return xl < yl ? -1 : xl > yl ? 1 : 0;
}

/* Whether mode m holds for order o; unordered (NaN) holds only for NE. */
static int holds(int o, int unordered, ptosim_tcmp_mode m) {
  if (unordered) return m == PTOSIM_TCMP_NE;
  switch (m) {
    case PTOSIM_TCMP_EQ: return o == 0;
    case PTOSIM_TCMP_NE: return o != 0;
    case PTOSIM_TCMP_LT: return o < 0;
    case PTOSIM_TCMP_LE: return o <= 0;
    case PTOSIM_TCMP_GT: return o > 0;
    default: return o >= 0;
  }
}

/* The value of bf16 bits h: the top half of an IEEE single. */
static double bf16_val(uint64_t h) {
  uint32_t w = (uint32_t)h << 16;
  float f;
  memcpy(&f, &w, 4);
  return f;
}

/* f32 bits w (not NaN) rounded to bf16 bits, nearest even. */
static uint16_t bf16_rne(uint32_t w) { return (uint16_t)((w + 0x7FFFu + (w >> 16 & 1u)) >> 16); }

/* Set predicate bit k of row r of tile d in the expected image. */
static void put_bit(env *e, const ptosim_tile *d, int r, int k, int bit) {
  uint8_t *p = e->img + d->addr + (uint64_t)r * (uint64_t)d->cols + (uint64_t)k / 8;
  *p = (uint8_t)((*p & ~(1u << (k % 8))) | (unsigned)bit << (k % 8));
}

/* A refused op: rule `rule` and the UB as it was. */
static void refuse_clean(env *e, ptosim_status st, const char *rule) {
  uint8_t *got = malloc(e->cap);
  CHECK(ptosim_mem_read(e->c, PTOSIM_UB, 0, got, e->cap) == PTOSIM_OK);
  CHECK_MSG(!memcmp(got, e->img, e->cap), "[%s]: the refused op wrote to UB", rule);
  free(got);
  refuse(e, st, rule);
}

/* ---- tcmp / tcmps ------------------------------------------------------------------------ */

static const char *const k_mode[] = {"eq", "ne", "lt", "le", "gt", "ge"};

/* tcmp (scalar 0) or tcmps of 64-bit type t on A5, mode m, valid vr x vc of a (vr + 1) x 72
 * tile; dst an u8 tile of 64-byte rows, of which the op writes 32. */
static void cmp64_case(int scalar, ptosim_dtype t, ptosim_tcmp_mode m, int vr, int vc) {
  env e = env_new_seeded(A5, &seed);
  int rows = vr + 1, cols = 72, sgn = t == PTOSIM_DT_I64;
  ptosim_tile a = ub_tile(t, 0, rows, cols, vr, vc, ROW), b = ub_tile(t, 0x2000, rows, cols, vr, vc, ROW);
  ptosim_tile d = ub_tile(PTOSIM_DT_U8, 0x4000, rows, 64, vr, (vc + 7) / 8, ROW);
  uint64_t s = pick64();
  for (int r = 0; r < rows; r++)
    for (int c = 0; c < cols; c++) {
      uint64_t x = scalar ? near64(s) : pick64();
      set_at(&e, &a, r, c, x);
      set_at(&e, &b, r, c, near64(x));
    }
  env_load(&e);
  for (int r = 0; r < vr; r++)
    for (int k = 0; k < 256; k++)
      put_bit(&e, &d, r, k, k < vc && holds(order64(bits_at(&e, &a, r, k), scalar ? s : bits_at(&e, &b, r, k), sgn), 0, m));
  ptosim_telem_params p = {.src0 = a, .src1 = b, .dst = d, .cmp = m, .scalar = {t, s}};
  char what[64];
  snprintf(what, sizeof what, "%s %s %s %dx%d", scalar ? "tcmps" : "tcmp", pt_dtype_name(t), k_mode[m], vr, vc);
  finish(&e, ptosim_exec(e.c, scalar ? PTOSIM_OP_tcmps : PTOSIM_OP_tcmp, &p, NULL), what);
}

/* The op of the case above on target tg with vc valid columns, expected refused with rule. */
static void cmp64_refused(ptosim_target tg, int scalar, ptosim_dtype t, int vc, const char *rule) {
  env e = env_new_seeded(tg, &seed);
  ptosim_tile a = ub_tile(t, 0, 2, 72, 2, vc, ROW), b = ub_tile(t, 0x2000, 2, 72, 2, vc, ROW);
  ptosim_tile d = ub_tile(PTOSIM_DT_U8, 0x4000, 2, 64, 2, 9, ROW);
  env_load(&e);
  ptosim_telem_params p = {.src0 = a, .src1 = b, .dst = d, .cmp = PTOSIM_TCMP_LT, .scalar = {t, 5}};
  refuse_clean(&e, ptosim_exec(e.c, scalar ? PTOSIM_OP_tcmps : PTOSIM_OP_tcmp, &p, NULL), rule);
}

/* A5 i64 / u64 tcmp and tcmps: every mode, one column, a tail, the 64-column maximum; more
 * columns and the A2/A3 target refused. */
static void test_cmp64(void) {
  static const ptosim_dtype ts[] = {PTOSIM_DT_I64, PTOSIM_DT_U64};
  static const int vcs[] = {1, 15, 37, 64};
  for (int k = 0; k < 2; k++)
    for (int sc = 0; sc < 2; sc++) {
      for (int m = PTOSIM_TCMP_EQ; m <= PTOSIM_TCMP_GE; m++)
        for (size_t v = 0; v < sizeof vcs / sizeof *vcs; v++) cmp64_case(sc, ts[k], (ptosim_tcmp_mode)m, 1 + (int)v, vcs[v]);
      cmp64_refused(A5, sc, ts[k], 65, sc ? "tcmps.cols" : "tcmp.cols");
      cmp64_refused(A2, sc, ts[k], 8, sc ? "tcmps.dtype" : "tcmp.dtype");
    }
}

/* bf16 edge bits: +-0, +-1, +-inf, NaN, +-max, +-smallest subnormal, neighbours of 1. */
static const uint16_t k_edge_bf16[] = {0x0000, 0x8000, 0x3F80, 0xBF80, 0x7F80, 0xFF80, 0x7FC0,
                                       0x7F7F, 0xFF7F, 0x0001, 0x8001, 0x3F81, 0x3F7F};
enum { N_EDGE_BF16 = sizeof k_edge_bf16 / sizeof k_edge_bf16[0] };

static uint16_t pick_bf16(uint16_t like) {
  uint64_t k = pt_rand_u64(&seed) % (2 * N_EDGE_BF16);
  return k < N_EDGE_BF16 ? k_edge_bf16[k] : k < N_EDGE_BF16 + 4 ? like : (uint16_t)pt_rand_u64(&seed);
}

/* A5 tcmps on bf16, mode m, valid vr x vc of a (vr + 1) x 160 tile; the scalar given as f32
 * bits sw (rounded to bf16 by the op) or as bf16 bits (f32 0). */
static void cmps_bf16_case(ptosim_tcmp_mode m, int vr, int vc, uint32_t sw) {
  env e = env_new_seeded(A5, &seed);
  int rows = vr + 1, cols = 160;
  uint16_t s = sw ? bf16_rne(sw) : pick_bf16(0x3F80);
  ptosim_tile a = ub_tile(PTOSIM_DT_BF16, 0, rows, cols, vr, vc, ROW);
  ptosim_tile d = ub_tile(PTOSIM_DT_U8, 0x2000, rows, 64, vr, (vc + 7) / 8, ROW);
  for (int r = 0; r < rows; r++)
    for (int c = 0; c < cols; c++) set_at(&e, &a, r, c, pick_bf16(s));
  env_load(&e);
  double y = bf16_val(s);
  int g = (vc + 127) / 128 * 128; /* 16-bit lanes: 128-bit repeats (psts PK) */
  for (int r = 0; r < vr; r++)
    for (int k = 0; k < g; k++) {
      double x = k < vc ? bf16_val(bits_at(&e, &a, r, k)) : 0;
      put_bit(&e, &d, r, k, k < vc && holds(x < y ? -1 : x > y, isnan(x) || isnan(y), m));
    }
  ptosim_telem_params p = {.src0 = a, .dst = d, .cmp = m};
  p.scalar = sw ? (ptosim_scalar){PTOSIM_DT_F32, sw} : (ptosim_scalar){PTOSIM_DT_BF16, s};
  char what[64];
  snprintf(what, sizeof what, "tcmps bf16 %s %dx%d scalar %04x", k_mode[m], vr, vc, s);
  finish(&e, ptosim_exec(e.c, PTOSIM_OP_tcmps, &p, NULL), what);
}

static void test_cmps_bf16(void) {
  static const int vcs[] = {1, 100, 129, 160};
  for (int m = PTOSIM_TCMP_EQ; m <= PTOSIM_TCMP_GE; m++)
    for (size_t v = 0; v < sizeof vcs / sizeof *vcs; v++) {
      cmps_bf16_case((ptosim_tcmp_mode)m, 1 + (int)v, vcs[v], 0);
      /* an f32 scalar between two bf16 values, and one exactly halfway (ties to even) */
      cmps_bf16_case((ptosim_tcmp_mode)m, 2, vcs[v], 0x3F80C000u);
      cmps_bf16_case((ptosim_tcmp_mode)m, 2, vcs[v], 0x3F818000u);
    }
  env e = env_new_seeded(A2, &seed);
  env_load(&e);
  ptosim_telem_params p = {.src0 = ub_tile(PTOSIM_DT_BF16, 0, 2, 160, 2, 100, ROW),
                           .dst = ub_tile(PTOSIM_DT_U8, 0x2000, 2, 64, 2, 13, ROW),
                           .scalar = {PTOSIM_DT_BF16, 0x3F80}};
  refuse_clean(&e, ptosim_exec(e.c, PTOSIM_OP_tcmps, &p, NULL), "tcmps.dtype");
}

/* ---- tsel / tsels ------------------------------------------------------------------------ */

/* tsel (scalar 0) or tsels of type t on target tg: valid vr x vc of (vr + 1) x cols tiles, a
 * random mask of (cols / 8 rounded up to 32)-byte rows. rule NULL: must succeed. */
static void sel_case(ptosim_target tg, int scalar, ptosim_dtype t, int cols, int vr, int vc, const char *rule) {
  env e = env_new_seeded(tg, &seed);
  int rows = vr + 1, mcols = (cols / 8 + 31) / 32 * 32;
  uint64_t span = ((uint64_t)rows * (uint64_t)cols * (uint64_t)es_of(t) + 255) / 256 * 256;
  ptosim_tile a = ub_tile(t, 0, rows, cols, vr, vc, ROW), b = ub_tile(t, span, rows, cols, vr, vc, ROW);
  ptosim_tile d = ub_tile(t, 2 * span, rows, cols, vr, vc, ROW);
  ptosim_tile mk = ub_tile(PTOSIM_DT_U8, 3 * span, rows, mcols, vr, (vc + 7) / 8, ROW);
  uint64_t s = es_of(t) == 8 ? pick64() : pt_rand_u64(&seed) & ((1ull << (8 * es_of(t))) - 1);
  if (es_of(t) == 8)
    for (int r = 0; r < rows; r++)
      for (int c = 0; c < cols; c++) set_at(&e, &a, r, c, pick64()), set_at(&e, &b, r, c, pick64());
  env_load(&e);
  ptosim_telem_params p = {.src0 = a, .src1 = b, .dst = d, .mask = mk, .scalar = {t, s}};
  ptosim_status st = ptosim_exec(e.c, scalar ? PTOSIM_OP_tsels : PTOSIM_OP_tsel, &p, NULL);
  if (rule) {
    refuse_clean(&e, st, rule);
    return;
  }
  for (int r = 0; r < vr; r++)
    for (int c = 0; c < vc; c++) {
      int bit = e.img[mk.addr + (uint64_t)r * (uint64_t)mcols + (uint64_t)c / 8] >> (c % 8) & 1;
      set_at(&e, &d, r, c, bit ? bits_at(&e, &a, r, c) : scalar ? s : bits_at(&e, &b, r, c));
    }
  char what[64];
  snprintf(what, sizeof what, "%s %s target %d %dx%d", scalar ? "tsels" : "tsel", pt_dtype_name(t), (int)tg, vr, vc);
  finish(&e, st, what);
}

/* A5 tsel takes every element of 1, 2, 4 or 8 bytes (a5 TSel.hpp: sizeof only): the 8-bit
 * floats and FP4 pairs, bf16, 64-bit integers; tsels its list (a5 TSels.hpp: no bf16, no
 * 8-bit floats). A2/A3 (a2a3 TSel.hpp / TSels.hpp): 2- and 4-byte types only. */
static void test_sel_types(void) {
  static const ptosim_dtype b8[] = {PTOSIM_DT_I8,   PTOSIM_DT_U8,     PTOSIM_DT_F8E4M3,   PTOSIM_DT_F8E5M2,
                                    PTOSIM_DT_HIF8, PTOSIM_DT_F8E8M0, PTOSIM_DT_F4E1M2X2, PTOSIM_DT_F4E2M1X2};
  for (size_t k = 0; k < sizeof b8 / sizeof *b8; k++) {
    int ints = b8[k] == PTOSIM_DT_I8 || b8[k] == PTOSIM_DT_U8;
    sel_case(A5, 0, b8[k], 288, 3, 256, NULL);
    sel_case(A5, 0, b8[k], 288, 2, 77, NULL);
    sel_case(A5, 1, b8[k], 288, 3, 288, ints ? NULL : "tsels.dtype"); /* tsels: 32-byte mask steps */
    sel_case(A2, 0, b8[k], 288, 2, 77, "tsel.dtype");
    sel_case(A2, 1, b8[k], 288, 2, 77, "tsels.dtype");
  }
  sel_case(A5, 0, PTOSIM_DT_BF16, 160, 3, 130, NULL);
  sel_case(A2, 0, PTOSIM_DT_BF16, 160, 3, 130, NULL);
  sel_case(A2, 1, PTOSIM_DT_BF16, 160, 3, 130, NULL);
  sel_case(A5, 1, PTOSIM_DT_BF16, 160, 3, 130, "tsels.dtype");
  static const ptosim_dtype b64[] = {PTOSIM_DT_I64, PTOSIM_DT_U64};
  for (int k = 0; k < 2; k++)
    for (int sc = 0; sc < 2; sc++) {
      sel_case(A5, sc, b64[k], 72, 4, 64, NULL);
      sel_case(A5, sc, b64[k], 72, 3, 13, NULL);
      sel_case(A5, sc, b64[k], 72, 1, 1, NULL);
      sel_case(A5, sc, b64[k], 72, 2, 65, sc ? "tsels.cols" : "tsel.cols");
      sel_case(A2, sc, b64[k], 72, 2, 13, sc ? "tsels.dtype" : "tsel.dtype");
    }
}

/* 8-bit tsel on A5 past 256 columns: a5 TSel_b16_8 steps the mask 16 bytes per 256-lane
 * repeat (plds NORM reads 32), so column 256 + k would select by bit 128 + k: refused. */
static void test_sel_b8_wide(void) {
  sel_case(A5, 0, PTOSIM_DT_U8, 288, 2, 257, "tsel.cols");
  sel_case(A5, 0, PTOSIM_DT_I8, 512, 1, 512, "tsel.cols");
  sel_case(A5, 0, PTOSIM_DT_I16, 288, 2, 288, NULL); /* 16-bit: 16-byte steps, 128 lanes */
}

/* ---- tcmp operands of different widths ----------------------------------------------------- */

/* tcmp EQ on i32 / u32 / i16 (type t) of target tg: src0 vr x 200 of a tile acols wide, src1
 * of a tile bcols wide; rule NULL: must compute each row against its own row. */
static void stride_case(ptosim_target tg, ptosim_dtype t, int vr, int acols, int bcols, const char *rule) {
  env e = env_new_seeded(tg, &seed);
  int rows = vr + 1, vc = 200;
  ptosim_tile a = ub_tile(t, 0, rows, acols, vr, vc, ROW), b = ub_tile(t, 0x4000, rows, bcols, vr, vc, ROW);
  ptosim_tile d = ub_tile(PTOSIM_DT_U8, 0x8000, rows, 64, vr, 25, ROW);
  for (int r = 0; r < rows; r++) /* few distinct values: ties */
    for (int c = 0; c < bcols; c++) {
      if (c < acols) set_at(&e, &a, r, c, pt_rand_u64(&seed) % 5);
      set_at(&e, &b, r, c, pt_rand_u64(&seed) % 5);
    }
  env_load(&e);
  ptosim_telem_params p = {.src0 = a, .src1 = b, .dst = d, .cmp = PTOSIM_TCMP_EQ};
  ptosim_status st = ptosim_exec(e.c, PTOSIM_OP_tcmp, &p, NULL);
  if (rule) {
    refuse_clean(&e, st, rule);
    return;
  }
  int g = tg == A5 ? 128 : 256 / (int)es_of(t); /* bits per repeat */
  for (int r = 0; r < vr; r++)
    for (int k = 0; k < (vc + g - 1) / g * g; k++) /* values 0..4 */
      put_bit(&e, &d, r, k, k < vc && holds(order64(bits_at(&e, &a, r, k), bits_at(&e, &b, r, k), 0), 0, PTOSIM_TCMP_EQ));
  finish(&e, st, "tcmp of tiles of different widths");
}

/* a5 TCmp_32B swaps the row strides of src0 and src1 for half of each repeat pair: 32-bit
 * tcmp on A5 of tiles of different column counts is refused past one row; one row, 16-bit
 * elements and A2/A3 (TCmp.hpp: each tile's own Cols) compute as the formula says. */
static void test_cmp_stride(void) {
  stride_case(A5, PTOSIM_DT_I32, 3, 200, 232, "tcmp.stride");
  stride_case(A5, PTOSIM_DT_U32, 2, 232, 200, "tcmp.stride");
  stride_case(A5, PTOSIM_DT_I32, 1, 200, 232, NULL);
  stride_case(A5, PTOSIM_DT_U32, 3, 232, 232, NULL);
  stride_case(A5, PTOSIM_DT_I16, 3, 208, 240, NULL);
  stride_case(A2, PTOSIM_DT_I32, 3, 200, 232, NULL);
}

/* ---- text form ----------------------------------------------------------------------------- */

#define TI "!pto.tile_buf<loc=vec, dtype=i64, rows=16, cols=32, v_row=16, v_col=32, blayout=row_major, slayout=none_box, fractal=512, pad=0>"
#define TM "!pto.tile_buf<loc=vec, dtype=i8, rows=16, cols=32, v_row=16, v_col=4, blayout=row_major, slayout=none_box, fractal=512, pad=0>"
#define PV "!pto.partition_tensor_view<16x32xi64>"
#define VIEW(n)                                                                                                  \
  "%v" n " = pto.make_tensor_view %" n ", shape = [%c16, %c32], strides = [%c32, %c1] : !pto.tensor_view<?x?xi64>\n" \
  "%p" n " = pto.partition_view %v" n ", offsets = [%c0, %c0], sizes = [%c16, %c32] : !pto.tensor_view<?x?xi64> -> " PV "\n"

/* On A5: o = a > -1 ? a : b (tcmps, tsel), e = a < b ? a : -1 (tcmp, tsels), on i64 tiles. */
static const char *const k_text64 =
    "module {\n"
    "func.func @k(%a: !pto.ptr<i64>, %b: !pto.ptr<i64>, %o: !pto.ptr<i64>, %e: !pto.ptr<i64>) {\n"
    "%c0 = arith.constant 0 : index\n%c1 = arith.constant 1 : index\n"
    "%c16 = arith.constant 16 : index\n%c32 = arith.constant 32 : index\n%s = arith.constant -1 : i64\n"
    VIEW("a") VIEW("b") VIEW("o") VIEW("e")
    "%ta = pto.alloc_tile : " TI "\n%tb = pto.alloc_tile : " TI "\n%tc = pto.alloc_tile : " TI "\n"
    "%tt = pto.alloc_tile : " TI "\n%tm = pto.alloc_tile : " TM "\n"
    "pto.tload ins(%pa : " PV ") outs(%ta : " TI ")\n"
    "pto.tload ins(%pb : " PV ") outs(%tb : " TI ")\n"
    "pto.tcmps ins(%ta, %s {cmpMode = #pto<cmp gt>} : " TI ", i64) outs(%tm : " TM ")\n"
    "pto.tsel ins(%tm, %ta, %tb, %tt : " TM ", " TI ", " TI ", " TI ") outs(%tc : " TI ")\n"
    "pto.tstore ins(%tc : " TI ") outs(%po : " PV ")\n"
    "pto.tcmp ins(%ta, %tb {cmpMode = #pto<cmp lt>} : " TI ", " TI ") outs(%tm : " TM ")\n"
    "pto.tsels ins(%tm, %ta, %s : " TM ", " TI ", i64) outs(%tc : " TI ")\n"
    "pto.tstore ins(%tc : " TI ") outs(%pe : " PV ")\n"
    "return\n}\n}\n";

static void test_text64(void) {
  enum { N = 16 * 32 };
  int64_t a[N], b[N], o[N], e[N];
  for (int i = 0; i < N; i++) a[i] = (int64_t)pick64(), b[i] = (int64_t)near64((uint64_t)a[i]);
  void *bufs[4] = {a, b, o, e};
  size_t sizes[4] = {sizeof a, sizeof b, sizeof o, sizeof e};
  run_text(k_text64, A5, bufs, sizes, 4);
  for (int i = 0; i < N; i++) {
    CHECK_MSG(o[i] == (order64((uint64_t)a[i], ~0ull, 1) > 0 ? a[i] : b[i]), "o[%d] = %" PRIx64, i, (uint64_t)o[i]);
    CHECK_MSG(e[i] == (order64((uint64_t)a[i], (uint64_t)b[i], 1) < 0 ? a[i] : -1), "e[%d] = %" PRIx64, i, (uint64_t)e[i]);
  }
}

int main(void) {
  RUN(test_cmp64);
  RUN(test_cmps_bf16);
  RUN(test_sel_types);
  RUN(test_sel_b8_wide);
  RUN(test_cmp_stride);
  RUN(test_text64);
  return pt_test_finish();
}
