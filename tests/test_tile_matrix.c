/* Tile matrix ops (src/isa/tile_matrix.c, src/isa/tile_mov.c) against naive references.
 *
 * The reference places logical elements with its own per-layout address formulas (written
 * from pto-isa include/pto/common/pto_tile.hpp GetTileOffset and docs/spec-notes.md 3.1, not
 * from src/isa/tile_geom.h or core/layout.h), computes every result with plain loops over
 * logical indices, and predicts whole memory spaces: every byte outside the written region
 * keeps its random sentinel. Value decoding and conversion use core/dtype.h (test_dtype). */
#include <float.h>
#include <inttypes.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "core/dtype.h"
#include "core/machine.h"
#include "core/mem.h"
#include "core/profile.h"
#include "harness.h"
#include "isa/tile_geom.h"
#include "ptosim/ptosim.h"

static unsigned long long rng_state = 0x2545F4914F6CDD1Dull;
static uint64_t rnd(void) { return pt_rand_u64(&rng_state); }

#define SPACE_MAX (512 * 1024)

/* ---- tiles and their storage (the reference's own formulas) ----------------------------- */

static ptosim_tile tile(ptosim_space sp, ptosim_dtype t, int rows, int cols, int vr, int vc, ptosim_blayout bl,
                        ptosim_slayout sl, int fractal, uint64_t addr) {
  ptosim_tile x = {.space = sp,
                   .addr = addr,
                   .dtype = t,
                   .rows = rows,
                   .cols = cols,
                   .valid_rows = vr,
                   .valid_cols = vc,
                   .blayout = bl,
                   .slayout = sl,
                   .fractal = fractal};
  return x;
}

static ptosim_tile compact(ptosim_tile t) {
  t.compact = 1;
  return t;
}

static int64_t up(int64_t a, int64_t b) { return (a + b - 1) / b * b; }

/* Byte offset of logical element (r, c) of tile t from its address. */
static int64_t off(const ptosim_tile *t, int64_t r, int64_t c) {
  int64_t es = pt_dtype_size(t->dtype);
  if (t->space == PTOSIM_L0A && t->rows == 1) return c * es; /* GEMV vector: dense */
  if (t->slayout == PTOSIM_SL_NONE_BOX)
    return (t->blayout == PTOSIM_BL_ROW_MAJOR ? r * t->cols + c : c * t->rows + r) * es;
  int64_t unit = t->fractal / 16 / es;                 /* the box side that is not 16 */
  bool inner_rows = t->slayout == PTOSIM_SL_ROW_MAJOR; /* rows of `unit` elements inside a box */
  int64_t bh = inner_rows ? 16 : unit, bw = inner_rows ? unit : 16;
  int64_t R = up(t->compact == 1 ? t->valid_rows : t->rows, bh), C = up(t->compact == 1 ? t->valid_cols : t->cols, bw);
  if (t->compact == 2 || (t->space == PTOSIM_UB && t->compact != 1)) R = t->rows; /* vec: Rows (a5 TInsert.hpp) */
  int64_t in = inner_rows ? (r % bh) * bw + c % bw : (c % bw) * bh + r % bh;
  if (t->blayout == PTOSIM_BL_COL_MAJOR) /* boxes down the columns: a column block holds R rows */
    return ((c / bw) * R * bw + (r / bh) * bh * bw + in) * es;
  return ((r / bh) * C * bh + (c / bw) * bh * bw + in) * es; /* boxes along the rows */
}

typedef struct mem {
  ptosim_core *core;
  ptosim_space sp;
  uint64_t size;
  uint8_t img[SPACE_MAX];
} mem;

/* A space of a core filled with random sentinel bytes, its image kept in m. */
static void mem_init(mem *m, ptosim_machine *mc, ptosim_core *c, ptosim_space sp) {
  m->core = c;
  m->sp = sp;
  m->size = ptosim_space_capacity(mc, sp);
  for (uint64_t i = 0; i < m->size; i++) m->img[i] = (uint8_t)rnd();
  CHECK(ptosim_mem_write(c, sp, 0, m->img, m->size) == PTOSIM_OK);
}

static void mem_sync(mem *m) { CHECK(ptosim_mem_write(m->core, m->sp, 0, m->img, m->size) == PTOSIM_OK); }

/* Whole-space comparison of the core's bytes with the expected image. */
static bool mem_same(const mem *m, const char *what) {
  static uint8_t got[SPACE_MAX];
  CHECK(ptosim_mem_read(m->core, m->sp, 0, got, m->size) == PTOSIM_OK);
  for (uint64_t i = 0; i < m->size; i++)
    if (got[i] != m->img[i]) {
      fprintf(stderr, "  %s: byte 0x%" PRIx64 " is %02x, expected %02x\n", what, i, got[i], m->img[i]);
      return false;
    }
  return true;
}

static uint64_t get_elem(const mem *m, const ptosim_tile *t, int64_t r, int64_t c) {
  uint64_t v = 0;
  memcpy(&v, m->img + t->addr + off(t, r, c), pt_dtype_size(t->dtype));
  return v;
}

static void set_elem(mem *m, const ptosim_tile *t, int64_t r, int64_t c, uint64_t v) {
  memcpy(m->img + t->addr + off(t, r, c), &v, pt_dtype_size(t->dtype));
}

static float f32_of(uint32_t u) {
  float f;
  memcpy(&f, &u, 4);
  return f;
}
static uint32_t bits_f(float f) {
  uint32_t u;
  memcpy(&u, &f, 4);
  return u;
}

/* A random finite value of type t, moderate magnitude, as its stored bits. */
static uint32_t gen(ptosim_dtype t) {
  uint64_t r = rnd();
  if (t == PTOSIM_DT_I8 || t == PTOSIM_DT_U8) return (uint32_t)(r & 0xFF);
  if (t == PTOSIM_DT_I32) return (uint32_t)r;
  float v = ldexpf(1.0f + (float)(r >> 44) / (float)(1u << 20), (int)((r >> 8) % 7) - 3);
  if (r & 1) v = -v;
  if (r % 13 == 0) v = 0.0f;
  uint8_t buf[4] = {0};
  pt_store_from_f32(t, buf, v, PT_RND_RINT, PT_SAT_ON);
  uint32_t u = 0;
  memcpy(&u, buf, pt_dtype_size(t));
  if (t != PTOSIM_DT_F32 || !u) return u;
  /* f32 edge cases of the TF32 roundings: subnormals, and the halfway points of e8m10 and e8m11 */
  if (r % 17 == 0) return (u & 0x80000000u) | (uint32_t)(r >> 41);
  if (r % 19 == 0) return (u & ~0x1FFFu) | (r & 2 ? 0x1000u : 0x800u);
  return u;
}

static float value_of(ptosim_dtype t, uint32_t v) {
  uint8_t buf[4];
  memcpy(buf, &v, 4);
  return pt_load_as_f32(t, buf);
}

/* Expect a failure with rule id `rule`. */
static void expect_rule(ptosim_machine *m, ptosim_status st, const char *rule) {
  CHECK_MSG(st != PTOSIM_OK && !strcmp(ptosim_last_diag(m)->rule, rule), "expected %s, got status %d rule %s: %s", rule,
            (int)st, ptosim_last_diag(m)->rule, ptosim_last_diag(m)->msg);
}

/* ---- matmul ------------------------------------------------------------------------------ */

typedef struct mm_case {
  ptosim_target tgt;
  ptosim_opcode op;
  ptosim_dtype ta, tb, tc;
  int m, k, n;            /* valid shapes (m is the lhs v_row, 1 for tgemv) */
  int lr, lc, rr, rc, cr; /* static shapes; 0: the valid extent rounded up to whole boxes */
  int compact;            /* compact mode of lhs, rhs and dst */
  bool acc_in_apart;      /* acc forms: acc_in is a tile of its own */
  ptosim_tf32_mode tf32;
  /* 0: tf32 in the params; 1: pto.settf32mode / pto.sethf32mode (the target's op) enables it
   * in CTRL instead; 2: enabled, then disabled again (no TF32 rounding expected) */
  int ctrl;
} mm_case;

/* The common fields of a case: target, op, element types, valid m x k x n. */
#define MMC(t, o, a, b, c, m_, k_, n_)                                                                          \
  .tgt = PTOSIM_TARGET_##t, .op = PTOSIM_OP_##o, .ta = PTOSIM_DT_##a, .tb = PTOSIM_DT_##b, .tc = PTOSIM_DT_##c, \
  .m = m_, .k = k_, .n = n_

static bool op_is(ptosim_opcode op, const char *suffix) {
  const char *s = ptosim_op_spelling(op);
  size_t n = strlen(s), k = strlen(suffix);
  return n >= k && !strcmp(s + n - k, suffix);
}
static bool is_gemv(ptosim_opcode op) { return !strncmp(ptosim_op_spelling(op), "pto.tgemv", 9); }
static bool is_mx(ptosim_opcode op) { return strstr(ptosim_op_spelling(op), ".mx") != NULL; }

/* The target's TF32 of pattern u: A5 keeps 10 mantissa bits (e8m10); A2/A3 keeps 11 (HF32,
 * e8m11) and reads subnormals as +-0 (pto-isa pto_tile.hpp SetMadTF32Mode, a2a3 tmatmul golden). */
static uint32_t tf32_round(uint32_t u, ptosim_tf32_mode mode, bool a5) {
  if (mode == PTOSIM_TF32_NONE || (u & 0x7F800000u) == 0x7F800000u) return u;
  if (!a5 && (u & 0x7F800000u) == 0) return u & 0x80000000u;
  uint32_t ulp = a5 ? 0x2000u : 0x1000u, rest = u % ulp, keep = u - rest;
  bool rnd_up = 2 * rest > ulp || (2 * rest == ulp && (mode == PTOSIM_TF32_ROUND_AWAY || (keep & ulp)));
  return rnd_up ? keep + ulp : keep;
}

static float e8m0(uint8_t s) { return s == 0xFF ? NAN : ldexpf(1.0f, (int)s - 127); }

static void run_mm(const mm_case *c) {
  ptosim_machine *mc = ptosim_machine_new(c->tgt, 1);
  ptosim_core *aic = ptosim_core_of(mc, 0, PTOSIM_AIC);
  static mem l0a, l0b, l0c, bt, sa, sb;
  mem_init(&l0a, mc, aic, PTOSIM_L0A);
  mem_init(&l0b, mc, aic, PTOSIM_L0B);
  mem_init(&l0c, mc, aic, PTOSIM_L0C);
  mem_init(&bt, mc, aic, PTOSIM_BT);
  bool a5 = c->tgt == PTOSIM_TARGET_A5, gemv = is_gemv(c->op), mx = is_mx(c->op);
  bool acc = op_is(c->op, ".acc"), bias = op_is(c->op, ".bias");
  if (mx) {
    mem_init(&sa, mc, aic, PTOSIM_L0A_MX);
    mem_init(&sb, mc, aic, PTOSIM_L0B_MX);
  }
  int ea = pt_dtype_size(c->ta), eb = pt_dtype_size(c->tb), cwa = 32 / ea, k0b = 32 / eb;
  int lr = c->lr ? c->lr : up(c->m, 16), lc = c->lc ? c->lc : (int)up(c->k, cwa);
  int rr = c->rr ? c->rr : (int)up(c->k, k0b), rc = c->rc ? c->rc : (int)up(c->n, 16);
  int cr = c->cr ? c->cr : lr;
  ptosim_tmatmul_params p = {.tf32 = c->ctrl ? PTOSIM_TF32_NONE : c->tf32};
  ptosim_tf32_mode ref_tf32 = c->ctrl == 2 ? PTOSIM_TF32_NONE : c->tf32;
  for (int step = 0; step < c->ctrl; step++) { /* settf32mode, and sethf32mode (no-op on A5) */
    ptosim_tmode_params mp = {.enable = step == 0,
                              .mode = c->tf32 == PTOSIM_TF32_ROUND_AWAY ? PTOSIM_TMODE_ROUND : PTOSIM_TMODE_RINT};
    CHECK(ptosim_settf32mode(aic, &mp) == PTOSIM_OK && ptosim_sethf32mode(aic, &mp) == PTOSIM_OK);
  }
  p.lhs = tile(PTOSIM_L0A, c->ta, lr, lc, c->m, c->k, a5 ? PTOSIM_BL_COL_MAJOR : PTOSIM_BL_ROW_MAJOR,
               PTOSIM_SL_ROW_MAJOR, 512, 0x1000);
  p.rhs = tile(PTOSIM_L0B, c->tb, rr, rc, c->k, c->n, PTOSIM_BL_ROW_MAJOR, PTOSIM_SL_COL_MAJOR, 512, 0x2000);
  p.dst = tile(PTOSIM_L0C, c->tc, cr, rc, c->m, c->n, PTOSIM_BL_COL_MAJOR, PTOSIM_SL_ROW_MAJOR, 1024, 0x800);
  p.lhs.compact = p.rhs.compact = p.dst.compact = c->compact;
  p.acc_in = p.dst;
  if (c->acc_in_apart) p.acc_in.addr = 0x800 + (uint64_t)up(cr, 16) * up(rc, 16) * 4 + 0x200;
  p.bias = tile(PTOSIM_BT, c->tc, 1, rc, 1, c->n, PTOSIM_BL_ROW_MAJOR, PTOSIM_SL_NONE_BOX, 512, 0x40);
  int g = c->k / 32;
  /* Scale tiles: one e8m0 per 32 k, in the k extent of the MAD (two groups per box). */
  int g2 = (int)up(g, 2);
  p.lhs_scale = tile(PTOSIM_L0A_MX, PTOSIM_DT_F8E8M0, lr, g2, c->m, g, PTOSIM_BL_ROW_MAJOR, PTOSIM_SL_ROW_MAJOR, 32,
                     p.lhs.addr >> 4);
  p.rhs_scale = tile(PTOSIM_L0B_MX, PTOSIM_DT_F8E8M0, g2, rc, g, c->n, PTOSIM_BL_COL_MAJOR, PTOSIM_SL_COL_MAJOR, 32,
                     p.rhs.addr >> 4);
  /* Logical data; everything else keeps its sentinel. */
  for (int i = 0; i < c->m; i++)
    for (int k = 0; k < c->k; k++) set_elem(&l0a, &p.lhs, i, k, gen(c->ta));
  for (int k = 0; k < c->k; k++)
    for (int j = 0; j < c->n; j++) set_elem(&l0b, &p.rhs, k, j, gen(c->tb));
  for (int i = 0; i < c->m; i++)
    for (int j = 0; j < c->n; j++) set_elem(&l0c, &p.acc_in, i, j, gen(c->tc));
  for (int j = 0; j < c->n; j++) set_elem(&bt, &p.bias, 0, j, gen(c->tc));
  if (mx) {
    for (int i = 0; i < c->m; i++)
      for (int q = 0; q < g; q++) set_elem(&sa, &p.lhs_scale, i, q, 120 + (uint32_t)(rnd() % 14));
    for (int q = 0; q < g; q++)
      for (int j = 0; j < c->n; j++) set_elem(&sb, &p.rhs_scale, q, j, 120 + (uint32_t)(rnd() % 14));
    mem_sync(&sa);
    mem_sync(&sb);
  }
  mem_sync(&l0a);
  mem_sync(&l0b);
  mem_sync(&l0c);
  mem_sync(&bt);
  /* Reference: rows the cube computes (a2a3 raises m = 1 to 16 outside GEMV mode). */
  bool dense = p.lhs.rows == 1;
  int mad_m = !gemv && !(a5 && dense) && c->m == 1 ? 16 : c->m;
  static uint32_t want[4096 * 64];
  for (int i = 0; i < mad_m; i++)
    for (int j = 0; j < c->n; j++) {
      uint32_t seed = acc ? get_elem(&l0c, &p.acc_in, i, j) : bias ? get_elem(&bt, &p.bias, 0, j) : 0;
      if (c->tc == PTOSIM_DT_I32) {
        uint32_t s = seed;
        for (int k = 0; k < c->k; k++)
          s += (uint32_t)((int8_t)get_elem(&l0a, &p.lhs, i, k) * (int8_t)get_elem(&l0b, &p.rhs, k, j));
        want[i * c->n + j] = s;
        continue;
      }
      float s = f32_of(seed);
      for (int k = 0; k < c->k; k++) {
        uint32_t a = get_elem(&l0a, &p.lhs, i, k), b = get_elem(&l0b, &p.rhs, k, j);
        if (c->ta == PTOSIM_DT_F32) a = tf32_round(a, ref_tf32, a5), b = tf32_round(b, ref_tf32, a5);
        float av = value_of(c->ta, a), bv = value_of(c->tb, b);
        if (mx) av *= e8m0((uint8_t)get_elem(&sa, &p.lhs_scale, i, k / 32));
        if (mx) bv *= e8m0((uint8_t)get_elem(&sb, &p.rhs_scale, k / 32, j));
        s = fmaf(av, bv, s);
      }
      want[i * c->n + j] = isnan(s) ? 0x7FC00000u : bits_f(s);
    }
  ptosim_status st = ptosim_exec(aic, c->op, &p, NULL);
  CHECK_MSG(st == PTOSIM_OK, "%s %s %dx%dx%d: %s", ptosim_op_spelling(c->op), pt_dtype_name(c->ta), c->m, c->k, c->n,
            ptosim_last_diag(mc)->msg);
  ptosim_tile d = p.dst;
  for (int i = 0; i < mad_m; i++)
    for (int j = 0; j < c->n; j++) set_elem(&l0c, &d, i, j, want[i * c->n + j]);
  CHECK_MSG(mem_same(&l0c, "l0c") && mem_same(&l0a, "l0a") && mem_same(&l0b, "l0b") && mem_same(&bt, "bt"),
            "%s %s x %s target %s %dx%dx%d", ptosim_op_spelling(c->op), pt_dtype_name(c->ta), pt_dtype_name(c->tb),
            a5 ? "a5" : "a2a3", c->m, c->k, c->n);
  ptosim_machine_free(mc);
}

static void test_matmul_dtypes(void) {
  static const struct {
    ptosim_dtype a, b, c;
    bool a2a3;
  } combos[] = {
      {PTOSIM_DT_F16, PTOSIM_DT_F16, PTOSIM_DT_F32, true},
      {PTOSIM_DT_BF16, PTOSIM_DT_BF16, PTOSIM_DT_F32, true},
      {PTOSIM_DT_F32, PTOSIM_DT_F32, PTOSIM_DT_F32, true},
      {PTOSIM_DT_I8, PTOSIM_DT_I8, PTOSIM_DT_I32, true},
      {PTOSIM_DT_F8E4M3, PTOSIM_DT_F8E4M3, PTOSIM_DT_F32, false},
      {PTOSIM_DT_F8E4M3, PTOSIM_DT_F8E5M2, PTOSIM_DT_F32, false},
      {PTOSIM_DT_F8E5M2, PTOSIM_DT_F8E4M3, PTOSIM_DT_F32, false},
      {PTOSIM_DT_F8E5M2, PTOSIM_DT_F8E5M2, PTOSIM_DT_F32, false},
      {PTOSIM_DT_HIF8, PTOSIM_DT_HIF8, PTOSIM_DT_F32, false},
  };
  static const int shapes[][3] = {{16, 16, 16}, {20, 40, 33}, {1, 70, 17}, {48, 100, 64}, {31, 7, 5}};
  static const ptosim_opcode ops[] = {PTOSIM_OP_tmatmul, PTOSIM_OP_tmatmul_acc, PTOSIM_OP_tmatmul_bias};
  for (int t = 0; t < 2; t++)
    for (size_t i = 0; i < sizeof combos / sizeof combos[0]; i++) {
      if (t == PTOSIM_TARGET_A2A3 && !combos[i].a2a3) continue;
      for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++)
        for (size_t o = 0; o < 3; o++) {
          mm_case c = {.tgt = (ptosim_target)t,
                       .op = ops[o],
                       .ta = combos[i].a,
                       .tb = combos[i].b,
                       .tc = combos[i].c,
                       .m = shapes[s][0],
                       .k = shapes[s][1],
                       .n = shapes[s][2]};
          run_mm(&c);
        }
    }
}

static void test_matmul_shapes(void) {
  /* Valid shapes inside the last box (v_row < rows), compact tiles, separate acc_in tiles. */
  static const mm_case cases[] = {
      {MMC(A5, tmatmul, F16, F16, F32, 20, 24, 30), .lr = 32, .lc = 32, .rr = 32, .rc = 32, .cr = 32},
      {MMC(A2A3, tmatmul, F16, F16, F32, 20, 24, 30), .lr = 32, .lc = 32, .rr = 32, .rc = 32, .cr = 32},
      {MMC(A5, tmatmul, F32, F32, F32, 20, 24, 30), .lr = 64, .lc = 48, .rr = 48, .rc = 64, .cr = 64, .compact = 1},
      {MMC(A2A3, tmatmul_acc, BF16, BF16, F32, 40, 33, 17), .lr = 64, .lc = 64, .rr = 64, .rc = 32, .cr = 64,
       .compact = 1},
      {MMC(A5, tmatmul_acc, F16, F16, F32, 33, 40, 50), .acc_in_apart = true},
      {MMC(A2A3, tmatmul_acc, I8, I8, I32, 17, 64, 33), .acc_in_apart = true},
      {MMC(A5, tmatmul, F32, F32, F32, 24, 40, 24), .tf32 = PTOSIM_TF32_ROUND_EVEN},
      {MMC(A5, tmatmul, F32, F32, F32, 24, 40, 24), .tf32 = PTOSIM_TF32_ROUND_AWAY},
      {MMC(A2A3, tmatmul, F32, F32, F32, 24, 40, 24), .tf32 = PTOSIM_TF32_ROUND_EVEN},
      {MMC(A5, tmatmul, F32, F32, F32, 24, 40, 24), .tf32 = PTOSIM_TF32_ROUND_EVEN, .ctrl = 1},
      {MMC(A5, tmatmul_acc, F32, F32, F32, 24, 40, 24), .tf32 = PTOSIM_TF32_ROUND_AWAY, .ctrl = 1},
      {MMC(A5, tgemv_bias, F32, F32, F32, 1, 40, 24), .lr = 1, .cr = 1, .lc = 64, .rr = 64, .tf32 = PTOSIM_TF32_ROUND_AWAY, .ctrl = 1},
      {MMC(A5, tmatmul, F32, F32, F32, 24, 40, 24), .tf32 = PTOSIM_TF32_ROUND_AWAY, .ctrl = 2},
      {MMC(A2A3, tmatmul, F32, F32, F32, 24, 40, 24), .tf32 = PTOSIM_TF32_ROUND_EVEN, .ctrl = 1},
      {MMC(A2A3, tmatmul, F32, F32, F32, 24, 40, 24), .tf32 = PTOSIM_TF32_ROUND_AWAY, .ctrl = 1},
      {MMC(A2A3, tmatmul_bias, F32, F32, F32, 5, 75, 11), .tf32 = PTOSIM_TF32_ROUND_AWAY},
      {MMC(A2A3, tmatmul, F32, F32, F32, 24, 40, 24), .tf32 = PTOSIM_TF32_ROUND_EVEN, .ctrl = 2},
      {MMC(A5, tmatmul, F16, F16, F32, 128, 192, 128)},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) run_mm(&cases[i]);
}

static void test_gemv(void) {
  /* tgemv* on both targets, and tmatmul with a 1-row left tile (A5 GEMV mode). */
  static const ptosim_opcode ops[] = {PTOSIM_OP_tgemv, PTOSIM_OP_tgemv_acc, PTOSIM_OP_tgemv_bias, PTOSIM_OP_tmatmul};
  static const int kn[][2] = {{16, 16}, {70, 33}, {256, 5}};
  for (int t = 0; t < 2; t++)
    for (size_t o = 0; o < 4; o++)
      for (size_t s = 0; s < 3; s++) {
        if (ops[o] == PTOSIM_OP_tmatmul && t == PTOSIM_TARGET_A2A3) continue;
        /* A 1-row left tile is dense: whole 512-byte fractals. */
        mm_case c = {.tgt = (ptosim_target)t,
                     .op = ops[o],
                     .ta = PTOSIM_DT_F16,
                     .tb = PTOSIM_DT_F16,
                     .tc = PTOSIM_DT_F32,
                     .m = 1,
                     .k = kn[s][0],
                     .n = kn[s][1],
                     .lr = 1,
                     .cr = 1};
        c.lc = c.rr = (int)up(c.k, 512 / 2);
        run_mm(&c);
        c.ta = c.tb = PTOSIM_DT_I8, c.tc = PTOSIM_DT_I32, c.lc = c.rr = (int)up(c.k, 512);
        run_mm(&c);
      }
  /* pto-isa's GEMV kernels (tests/npu/{a5,a2a3}/.../tmatmul_kernel.cpp RunTGEMV): a 1 x
   * align(k, 512 B) left tile, a right tile of align(k, 32 B) rows and a 16-row acc, static
   * shapes that do not chain; the NPU code takes k and n from the right tile's valid shape. */
  static const ptosim_opcode gv[] = {PTOSIM_OP_tgemv, PTOSIM_OP_tgemv_bias, PTOSIM_OP_tgemv_acc};
  for (int t = 0; t < 2; t++)
    for (size_t o = 0; o < 3; o++) {
      mm_case c = {MMC(A5, tgemv, F16, F16, F32, 1, 300, 60), .lr = 1, .lc = 512, .rr = 304, .cr = 16};
      c.tgt = (ptosim_target)t, c.op = gv[o];
      run_mm(&c);
    }
}

static void test_mx(void) {
  static const ptosim_opcode ops[] = {PTOSIM_OP_tmatmul_mx, PTOSIM_OP_tmatmul_mx_acc, PTOSIM_OP_tmatmul_mx_bias,
                                      PTOSIM_OP_tgemv_mx,   PTOSIM_OP_tgemv_mx_acc,   PTOSIM_OP_tgemv_mx_bias};
  static const ptosim_dtype f8[] = {PTOSIM_DT_F8E4M3, PTOSIM_DT_F8E5M2};
  for (size_t o = 0; o < 6; o++)
    for (int a = 0; a < 2; a++)
      for (int b = 0; b < 2; b++) {
        bool gv = is_gemv(ops[o]);
        mm_case c = {.tgt = PTOSIM_TARGET_A5,
                     .op = ops[o],
                     .ta = f8[a],
                     .tb = f8[b],
                     .tc = PTOSIM_DT_F32,
                     .m = gv ? 1 : 20,
                     .k = 128,
                     .n = 40,
                     .lr = gv ? 1 : 0,
                     .lc = gv ? 512 : 0,
                     .rr = gv ? 512 : 0,
                     .cr = gv ? 1 : 0};
        run_mm(&c);
      }
}

/* The accumulate forms seed the FMA chain with C0: with C0 = 1 and two products of 2^-24 the
 * chain rounds 1 + 2^-24 to 1 twice (ties to even), while (sum of products) + C0 would give
 * 1 + 2^-23. */
static void test_acc_seeds_chain(void) {
  ptosim_machine *mc = ptosim_machine_new(PTOSIM_TARGET_A5, 1);
  ptosim_core *aic = ptosim_core_of(mc, 0, PTOSIM_AIC);
  ptosim_tmatmul_params p = {0};
  p.lhs = tile(PTOSIM_L0A, PTOSIM_DT_F16, 16, 16, 16, 2, PTOSIM_BL_COL_MAJOR, PTOSIM_SL_ROW_MAJOR, 512, 0);
  p.rhs = tile(PTOSIM_L0B, PTOSIM_DT_F16, 16, 16, 2, 16, PTOSIM_BL_ROW_MAJOR, PTOSIM_SL_COL_MAJOR, 512, 0);
  p.dst = tile(PTOSIM_L0C, PTOSIM_DT_F32, 16, 16, 16, 16, PTOSIM_BL_COL_MAJOR, PTOSIM_SL_ROW_MAJOR, 1024, 0);
  p.acc_in = p.dst;
  uint16_t a[16 * 16], b[16 * 16];
  float c[16 * 16];
  for (int i = 0; i < 256; i++) a[i] = b[i] = 0x0C00; /* 2^-12 everywhere: every product is 2^-24 */
  for (int i = 0; i < 256; i++) c[i] = 1.0f;
  CHECK(ptosim_mem_write(aic, PTOSIM_L0A, 0, a, sizeof a) == PTOSIM_OK);
  CHECK(ptosim_mem_write(aic, PTOSIM_L0B, 0, b, sizeof b) == PTOSIM_OK);
  CHECK(ptosim_mem_write(aic, PTOSIM_L0C, 0, c, sizeof c) == PTOSIM_OK);
  CHECK(ptosim_tmatmul_acc(aic, &p) == PTOSIM_OK);
  CHECK(ptosim_mem_read(aic, PTOSIM_L0C, 0, c, sizeof c) == PTOSIM_OK);
  CHECK(bits_f(c[0]) == 0x3F800000u && bits_f(c[255]) == 0x3F800000u); /* not 0x3F800001 */
  ptosim_machine_free(mc);
}

/* A valid 32 x 32 x 32 f16 matmul on target t (MX: f8E4M3 with k = 64). */
static ptosim_tmatmul_params base_mm(ptosim_target t, bool mx) {
  ptosim_dtype a = mx ? PTOSIM_DT_F8E4M3 : PTOSIM_DT_F16;
  int k = mx ? 64 : 32;
  ptosim_tmatmul_params p = {0};
  p.lhs = tile(PTOSIM_L0A, a, 32, k, 32, k, t == PTOSIM_TARGET_A5 ? PTOSIM_BL_COL_MAJOR : PTOSIM_BL_ROW_MAJOR,
               PTOSIM_SL_ROW_MAJOR, 512, 0x1000);
  p.rhs = tile(PTOSIM_L0B, a, k, 32, k, 32, PTOSIM_BL_ROW_MAJOR, PTOSIM_SL_COL_MAJOR, 512, 0x2000);
  p.dst = tile(PTOSIM_L0C, PTOSIM_DT_F32, 32, 32, 32, 32, PTOSIM_BL_COL_MAJOR, PTOSIM_SL_ROW_MAJOR, 1024, 0);
  p.acc_in = p.dst;
  p.bias = tile(PTOSIM_BT, PTOSIM_DT_F32, 1, 32, 1, 32, PTOSIM_BL_ROW_MAJOR, PTOSIM_SL_NONE_BOX, 512, 0);
  p.lhs_scale =
      tile(PTOSIM_L0A_MX, PTOSIM_DT_F8E8M0, 32, 2, 32, 2, PTOSIM_BL_ROW_MAJOR, PTOSIM_SL_ROW_MAJOR, 32, 0x100);
  p.rhs_scale =
      tile(PTOSIM_L0B_MX, PTOSIM_DT_F8E8M0, 2, 32, 2, 32, PTOSIM_BL_COL_MAJOR, PTOSIM_SL_COL_MAJOR, 32, 0x200);
  return p;
}

static void test_matmul_negative(void) {
  ptosim_machine *a5 = ptosim_machine_new(PTOSIM_TARGET_A5, 1), *a3 = ptosim_machine_new(PTOSIM_TARGET_A2A3, 1);
  ptosim_core *c5 = ptosim_core_of(a5, 0, PTOSIM_AIC), *c3 = ptosim_core_of(a3, 0, PTOSIM_AIC);
  ptosim_tmatmul_params p = base_mm(PTOSIM_TARGET_A5, false);
  CHECK(ptosim_tmatmul(c5, &p) == PTOSIM_OK);
  CHECK(ptosim_tmatmul_mx_bias(c5, &(ptosim_tmatmul_params){0}) != PTOSIM_OK);
  p = base_mm(PTOSIM_TARGET_A2A3, false);
  CHECK(ptosim_tmatmul_bias(c3, &p) == PTOSIM_OK);
  p = base_mm(PTOSIM_TARGET_A5, true);
  CHECK(ptosim_tmatmul_mx_acc(c5, &p) == PTOSIM_OK);

  expect_rule(a5, ptosim_tmatmul(ptosim_core_of(a5, 0, PTOSIM_AIV0), &p), "op.unit");
  p = base_mm(PTOSIM_TARGET_A5, false), p.lhs.space = PTOSIM_L1;
  expect_rule(a5, ptosim_tmatmul(c5, &p), "tmatmul.loc");
  p = base_mm(PTOSIM_TARGET_A5, false), p.bias.space = PTOSIM_FB;
  expect_rule(a5, ptosim_tmatmul_bias(c5, &p), "tmatmul.loc");
  p = base_mm(PTOSIM_TARGET_A5, false), p.rhs.valid_rows = 40;
  expect_rule(a5, ptosim_tmatmul(c5, &p), "tile.valid");
  p = base_mm(PTOSIM_TARGET_A5, false), p.dst.fractal = 100;
  expect_rule(a5, ptosim_tmatmul(c5, &p), "tile.fractal");
  p = base_mm(PTOSIM_TARGET_A5, false), p.rhs.compact = 4;
  expect_rule(a5, ptosim_tmatmul(c5, &p), "tile.enum");
  p = base_mm(PTOSIM_TARGET_A5, false), p.dst.cols = 0;
  expect_rule(a5, ptosim_tmatmul(c5, &p), "tile.shape");
  p = base_mm(PTOSIM_TARGET_A2A3, false); /* an A2/A3 (ZZ) left tile on A5 */
  expect_rule(a5, ptosim_tmatmul(c5, &p), "tmatmul.layout");
  p = base_mm(PTOSIM_TARGET_A5, false), p.rhs.slayout = PTOSIM_SL_ROW_MAJOR;
  expect_rule(a5, ptosim_tmatmul(c5, &p), "tmatmul.layout");
  p = base_mm(PTOSIM_TARGET_A5, false), p.dst.fractal = 512;
  expect_rule(a5, ptosim_tmatmul(c5, &p), "tmatmul.layout");
  p = base_mm(PTOSIM_TARGET_A2A3, false), p.lhs.dtype = p.rhs.dtype = PTOSIM_DT_F8E4M3;
  expect_rule(a3, ptosim_tmatmul(c3, &p), "tmatmul.dtype");
  p = base_mm(PTOSIM_TARGET_A5, false), p.rhs.dtype = PTOSIM_DT_BF16;
  expect_rule(a5, ptosim_tmatmul(c5, &p), "tmatmul.dtype");
  p = base_mm(PTOSIM_TARGET_A5, false), p.dst.dtype = PTOSIM_DT_I32;
  expect_rule(a5, ptosim_tmatmul(c5, &p), "tmatmul.dtype");
  p = base_mm(PTOSIM_TARGET_A5, true), p.lhs.dtype = p.rhs.dtype = PTOSIM_DT_HIF8;
  expect_rule(a5, ptosim_tmatmul_mx(c5, &p), "tmatmul.dtype");
  p = base_mm(PTOSIM_TARGET_A2A3, true);
  expect_rule(a3, ptosim_tgemv_mx(c3, &p), "tmatmul.mx_target");
  p = base_mm(PTOSIM_TARGET_A5, false), p.acc_in.dtype = PTOSIM_DT_I32;
  expect_rule(a5, ptosim_tmatmul_acc(c5, &p), "tmatmul.acc_dtype");
  p = base_mm(PTOSIM_TARGET_A5, false), p.bias.dtype = PTOSIM_DT_F16;
  expect_rule(a5, ptosim_tmatmul_bias(c5, &p), "tmatmul.bias_dtype");
  p = base_mm(PTOSIM_TARGET_A5, true), p.rhs_scale.dtype = PTOSIM_DT_U8;
  expect_rule(a5, ptosim_tmatmul_mx(c5, &p), "tmatmul.scale_dtype");
  p = base_mm(PTOSIM_TARGET_A5, false), p.bias.rows = 2;
  expect_rule(a5, ptosim_tmatmul_bias(c5, &p), "tmatmul.bias_shape");
  p = base_mm(PTOSIM_TARGET_A5, false), p.bias.valid_cols = 16;
  expect_rule(a5, ptosim_tmatmul_bias(c5, &p), "tmatmul.shape");
  p = base_mm(PTOSIM_TARGET_A5, false), p.lhs.valid_cols = 20;
  expect_rule(a5, ptosim_tmatmul(c5, &p), "tmatmul.shape");
  p = base_mm(PTOSIM_TARGET_A5, false), p.lhs.valid_rows = 16; /* dst's valid 32 rows > m = 16 */
  expect_rule(a5, ptosim_tmatmul(c5, &p), "tmatmul.shape");
  p = base_mm(PTOSIM_TARGET_A2A3, false), p.rhs.valid_cols = 16; /* dst's valid 32 columns > n = 16 */
  expect_rule(a3, ptosim_tmatmul(c3, &p), "tmatmul.shape");
  p = base_mm(PTOSIM_TARGET_A5, false), p.acc_in.valid_cols = 16;
  expect_rule(a5, ptosim_tmatmul_acc(c5, &p), "tmatmul.shape");
  p = base_mm(PTOSIM_TARGET_A5, false), p.rhs.cols = p.rhs.valid_cols = p.dst.cols = p.dst.valid_cols = 4096;
  expect_rule(a5, ptosim_tmatmul(c5, &p), "tmatmul.range");
  p = base_mm(PTOSIM_TARGET_A2A3, false), p.dst.cols = 48;
  expect_rule(a3, ptosim_tmatmul(c3, &p), "tmatmul.static_shape");
  p = base_mm(PTOSIM_TARGET_A5, true), p.lhs.valid_cols = p.rhs.valid_rows = 32;
  expect_rule(a5, ptosim_tmatmul_mx(c5, &p), "tmatmul.mx_k");
  p = base_mm(PTOSIM_TARGET_A5, false), p.lhs.valid_rows = p.dst.valid_rows = 1;
  expect_rule(a5, ptosim_tgemv(c5, &p), "tmatmul.gemv_left"); /* 32-column NZ left tile in GEMV mode */
  p = base_mm(PTOSIM_TARGET_A2A3, false), p.lhs.rows = p.lhs.valid_rows = p.dst.rows = p.dst.valid_rows = 1;
  expect_rule(a3, ptosim_tmatmul(c3, &p), "tmatmul.gemv_left");
  p = base_mm(PTOSIM_TARGET_A5, false), p.lhs.rows = p.dst.rows = 64, p.lhs.valid_rows = p.dst.valid_rows = 20;
  expect_rule(a5, ptosim_tmatmul(c5, &p), "tmatmul.fractal_extent"); /* left column blocks of 64, cube reads 32 */
  p = base_mm(PTOSIM_TARGET_A5, false), p.rhs.cols = 64, p.rhs.valid_cols = 20, p.dst.valid_cols = 20;
  expect_rule(a5, ptosim_tmatmul(c5, &p), "tmatmul.fractal_extent");
  p = base_mm(PTOSIM_TARGET_A2A3, false), p.lhs.cols = p.rhs.rows = 64, p.lhs.valid_cols = p.rhs.valid_rows = 20;
  expect_rule(a3, ptosim_tmatmul(c3, &p), "tmatmul.fractal_extent"); /* ZZ row blocks of 4 fractals, cube reads 2 */
  p = base_mm(PTOSIM_TARGET_A5, true), p.lhs_scale.addr = 0x40;
  expect_rule(a5, ptosim_tmatmul_mx(c5, &p), "tmatmul.scale_addr");
  p = base_mm(PTOSIM_TARGET_A5, false), p.acc_in.addr = 0x400;
  expect_rule(a5, ptosim_tmatmul_acc(c5, &p), "tmatmul.acc_in_overlap");
  p = base_mm(PTOSIM_TARGET_A5, false), p.dst.addr = 0x3FFC0;
  expect_rule(a5, ptosim_tmatmul(c5, &p), "mem.bounds");
  ptosim_machine_free(a5);
  ptosim_machine_free(a3);
}

/* ---- moves: tmov, textract, tinsert -------------------------------------------------------- */

#define BL_R PTOSIM_BL_ROW_MAJOR
#define BL_C PTOSIM_BL_COL_MAJOR
#define SL_N PTOSIM_SL_NONE_BOX
#define SL_R PTOSIM_SL_ROW_MAJOR
#define SL_C PTOSIM_SL_COL_MAJOR
#define DT(x) PTOSIM_DT_##x

/* Tiles by loc and layout: r x c static, vr x vc valid. */
#define MAT(t, bl, sl, r, c, vr, vc, a) tile(PTOSIM_L1, DT(t), r, c, vr, vc, bl, sl, 512, a)
#define VEC(t, bl, sl, r, c, vr, vc, a) tile(PTOSIM_UB, DT(t), r, c, vr, vc, bl, sl, 512, a)
#define ACC(t, r, c, vr, vc, a) tile(PTOSIM_L0C, DT(t), r, c, vr, vc, BL_C, SL_R, 1024, a)

typedef struct mv_case {
  ptosim_target tgt;
  ptosim_opcode op;
  ptosim_tmov_params p;
  int h, w; /* the region the op moves, from the rules stated in src/isa/tile_mov.c */
  bool packed; /* dst holds the compact layout although its tile is not compact */
} mv_case;

enum { M_L1, M_L0A, M_L0B, M_L0C, M_BT, M_FB, M_SA, M_SB, M_UB0, M_UB1, M_COUNT };
static mem g_mem[M_COUNT];

static mem *img_of(ptosim_space sp, int ub) {
  switch (sp) {
    case PTOSIM_L1: return &g_mem[M_L1];
    case PTOSIM_L0A: return &g_mem[M_L0A];
    case PTOSIM_L0B: return &g_mem[M_L0B];
    case PTOSIM_L0C: return &g_mem[M_L0C];
    case PTOSIM_BT: return &g_mem[M_BT];
    case PTOSIM_FB: return &g_mem[M_FB];
    case PTOSIM_L0A_MX: return &g_mem[M_SA];
    case PTOSIM_L0B_MX: return &g_mem[M_SB];
    default: return &g_mem[ub ? M_UB1 : M_UB0];
  }
}

/* A machine whose every space holds random sentinel bytes, mirrored in g_mem. */
static ptosim_machine *fresh_machine(ptosim_target t) {
  ptosim_machine *m = ptosim_machine_new(t, 1);
  ptosim_core *aic = ptosim_core_of(m, 0, PTOSIM_AIC);
  static const ptosim_space cube[] = {PTOSIM_L1, PTOSIM_L0A, PTOSIM_L0B,    PTOSIM_L0C,
                                      PTOSIM_BT, PTOSIM_FB,  PTOSIM_L0A_MX, PTOSIM_L0B_MX};
  for (int i = 0; i < 8; i++)
    if (ptosim_space_capacity(m, cube[i])) mem_init(&g_mem[i], m, aic, cube[i]);
  mem_init(&g_mem[M_UB0], m, ptosim_core_of(m, 0, PTOSIM_AIV0), PTOSIM_UB);
  mem_init(&g_mem[M_UB1], m, ptosim_core_of(m, 0, PTOSIM_AIV1), PTOSIM_UB);
  return m;
}

static bool all_same(ptosim_machine *m) {
  bool ok = true;
  for (int i = 0; i < M_COUNT; i++)
    if (i < 8 ? ptosim_space_capacity(m, g_mem[i].sp) != 0 : true)
      ok = mem_same(&g_mem[i], pt_space_name(g_mem[i].sp)) && ok;
  return ok;
}

/* The FIXPIPE conversion of one acc element (fixpipe_quant.h pipeline, written from the mode
 * families of 16-cube-matmul.md): scale (and, for i32 sources and 8-bit results, offset) from
 * the QUANT_PRE word or the fp word of the channel, relu, then the conversion. */
static void ref_acc(const ptosim_tmov_params *p, uint32_t acc, int64_t ch, uint8_t *out) {
  ptosim_dtype st = p->src.dtype, dt = p->dst.dtype;
  bool quant = p->has_fp || p->has_quant_scalar, int8 = dt == DT(I8) || dt == DT(U8);
  if (dt == st && (!quant || st == DT(I32) || dt == DT(F32))) { /* the accumulator type: no scaling */
    int32_t v = (int32_t)acc;
    if (p->relu == PTOSIM_RELU_NORMAL)
      acc = st == DT(I32) ? (v < 0 ? 0 : acc) : bits_f(f32_of(acc) > 0 ? f32_of(acc) : 0);
    memcpy(out, &acc, 4);
    return;
  }
  uint64_t word = p->quant_scalar;
  if (p->has_fp) memcpy(&word, img_of(PTOSIM_FB, 0)->img + p->fp.addr + 8 * ch, 8);
  uint32_t sbits = p->has_fp ? (uint32_t)word & 0xFFFFE000u : (uint32_t)word;
  int ofs = (int)((word >> 37) & 0x1FF);
  if (ofs >= 256) ofs -= 512;
  bool sign = (word >> 46) & 1;
  float x = st == DT(I32) ? (float)(int32_t)acc : f32_of(acc);
  float y = quant ? x * f32_of(sbits) : x;
  if (quant && (st == DT(I32) || int8)) y += (float)ofs;
  if (p->relu == PTOSIM_RELU_NORMAL) y = y > 0 ? y : 0.0f;
  if (int8) {
    int64_t v = pt_f32_to_int(y, PT_RND_RINT, sign ? -128 : 0, sign ? 127 : 255);
    out[0] = (uint8_t)v;
    return;
  }
  pt_store_from_f32(dt, out, y, dt == DT(HIF8) ? PT_RND_AWAY : PT_RND_RINT, PT_SAT_OFF);
}

static void run_mv(const mv_case *c) {
  ptosim_machine *m = fresh_machine(c->tgt);
  const ptosim_tmov_params *p = &c->p;
  bool ext = c->op == PTOSIM_OP_textract || c->op == PTOSIM_OP_textract_fp;
  bool ins = c->op == PTOSIM_OP_tinsert || c->op == PTOSIM_OP_tinsert_fp;
  int64_t sr = ext ? p->index_row : 0, sc = ext ? p->index_col : 0, dr = ins ? p->index_row : 0,
          dc = ins ? p->index_col : 0;
  mem *src = img_of(p->src.space, 0), *fb = img_of(PTOSIM_FB, 0);
  bool acc = p->src.space == PTOSIM_L0C;
  ptosim_tile dref = p->dst; /* the layout the reference writes */
  if (c->packed) dref.compact = 1;
  /* Moderate accumulator values, and quant words (scale in [1/4, 4), offset, sign bit). */
  if (acc)
    for (int64_t i = 0; i < p->src.rows; i++)
      for (int64_t j = 0; j < p->src.cols; j++)
        set_elem(src, &p->src, i, j, p->src.dtype == DT(I32) ? (uint32_t)(int32_t)(rnd() % 2001) - 1000 : gen(DT(F32)));
  if (p->has_fp)
    for (int64_t j = 0; j < p->fp.cols; j++) {
      uint64_t w = bits_f(ldexpf(1.0f + (float)(rnd() % 1024) / 1024.0f, (int)(rnd() % 4) - 2)) |
                   (uint64_t)(rnd() % 512) << 37 | (uint64_t)(rnd() & 1) << 46;
      memcpy(fb->img + p->fp.addr + 8 * j, &w, 8);
    }
  mem_sync(src);
  mem_sync(fb);
  bool dual = p->acc_to_vec >= PTOSIM_A2V_DUAL_SPLIT_M;
  int64_t hh = p->acc_to_vec == PTOSIM_A2V_DUAL_SPLIT_M ? c->h / 2 : c->h;
  int64_t hw = p->acc_to_vec == PTOSIM_A2V_DUAL_SPLIT_N ? c->w / 2 : c->w;
  for (int64_t i = 0; i < c->h; i++)
    for (int64_t j = 0; j < c->w; j++) {
      int half = dual ? (i >= hh || j >= hw) : 0;
      mem *dst = img_of(p->dst.space, dual ? half : p->acc_to_vec == PTOSIM_A2V_SINGLE_VEC1);
      int64_t di = dr + (i >= hh ? i - hh : i), dj = dc + (j >= hw ? j - hw : j);
      uint64_t v = get_elem(src, &p->src, sr + i, sc + j);
      uint8_t out[8] = {0};
      if (acc) {
        ref_acc(p, (uint32_t)v, sc + j, out);
        memcpy(&v, out, 8);
      } else if (p->src.dtype != p->dst.dtype) { /* bias widening */
        v = bits_f(value_of(p->src.dtype, (uint32_t)v));
      }
      set_elem(dst, &dref, di, dj, v);
    }
  ptosim_core *core = ptosim_core_of(m, 0, p->src.space == PTOSIM_UB ? PTOSIM_AIV0 : PTOSIM_AIC);
  ptosim_status st = ptosim_exec(core, c->op, p, NULL);
  CHECK_MSG(st == PTOSIM_OK, "%s %s -> %s: %s [%s]", ptosim_op_spelling(c->op), pt_space_name(p->src.space),
            pt_space_name(p->dst.space), ptosim_last_diag(m)->msg, ptosim_last_diag(m)->rule);
  CHECK_MSG(all_same(m), "%s %s %s -> %s %s", ptosim_op_spelling(c->op), pt_dtype_name(p->src.dtype),
            pt_space_name(p->src.space), pt_space_name(p->dst.space), pt_dtype_name(p->dst.dtype));
  ptosim_machine_free(m);
}

#define MV(t, o) .tgt = PTOSIM_TARGET_##t, .op = PTOSIM_OP_##o
#define SRC(x) .p.src = x
#define DST(x) .p.dst = x
#define AT(r, c) .p.index_row = r, .p.index_col = c
#define FP(n) .p.has_fp = true, .p.fp = tile(PTOSIM_FB, DT(U64), 1, n, 1, n, BL_R, SL_N, 512, 0x100)

static void test_tmov_cube(void) {
  const mv_case cases[] = {
      /* mat -> left / right: NZ or ZN sources, the whole destination */
      {MV(A5, tmov), SRC(MAT(F16, BL_C, SL_R, 32, 48, 32, 48, 0x40)),
       DST(tile(PTOSIM_L0A, DT(F16), 32, 48, 20, 40, BL_C, SL_R, 512, 0x200)), .h = 32, .w = 48},
      {MV(A5, tmov), SRC(MAT(F16, BL_R, SL_C, 32, 48, 32, 48, 0x40)),
       DST(tile(PTOSIM_L0A, DT(F16), 32, 48, 32, 48, BL_C, SL_R, 512, 0)), .h = 32, .w = 48},
      {MV(A2A3, tmov), SRC(MAT(F16, BL_C, SL_R, 32, 48, 32, 48, 0x40)),
       DST(tile(PTOSIM_L0A, DT(F16), 32, 48, 32, 48, BL_R, SL_R, 512, 0x400)), .h = 32, .w = 48},
      {MV(A2A3, tmov), SRC(MAT(F32, BL_R, SL_C, 16, 32, 16, 32, 0)),
       DST(tile(PTOSIM_L0A, DT(F32), 16, 32, 16, 32, BL_R, SL_R, 512, 0)), .h = 16, .w = 32},
      {MV(A5, tmov), SRC(MAT(F32, BL_C, SL_R, 32, 32, 32, 32, 0x1000)),
       DST(tile(PTOSIM_L0B, DT(F32), 32, 32, 32, 32, BL_R, SL_C, 512, 0x200)), .h = 32, .w = 32},
      {MV(A5, tmov), SRC(MAT(I8, BL_R, SL_C, 64, 64, 64, 64, 0x1000)),
       DST(tile(PTOSIM_L0B, DT(I8), 64, 64, 64, 64, BL_R, SL_C, 512, 0)), .h = 64, .w = 64},
      {MV(A2A3, tmov), SRC(MAT(BF16, BL_C, SL_R, 48, 32, 48, 32, 0)),
       DST(tile(PTOSIM_L0B, DT(BF16), 48, 32, 48, 32, BL_R, SL_C, 512, 0)), .h = 48, .w = 32},
      {MV(A5, tmov), SRC(MAT(F8E4M3, BL_C, SL_R, 32, 64, 32, 64, 0)),
       DST(tile(PTOSIM_L0A, DT(F8E4M3), 32, 64, 32, 64, BL_C, SL_R, 512, 0)), .h = 32, .w = 64},
      /* compact destination: the valid shape in whole fractals */
      {MV(A5, tmov), SRC(MAT(F16, BL_C, SL_R, 64, 64, 64, 64, 0)),
       DST(compact(tile(PTOSIM_L0A, DT(F16), 64, 64, 20, 40, BL_C, SL_R, 512, 0))), .h = 32, .w = 48},
      /* a 1-row ND source into a GEMV vector: whole 512-byte fractals of the valid columns */
      {MV(A5, tmov), SRC(MAT(F16, BL_R, SL_N, 1, 512, 1, 512, 0x80)),
       DST(tile(PTOSIM_L0A, DT(F16), 1, 512, 1, 300, BL_C, SL_R, 512, 0x40)), .h = 1, .w = 512},
      /* MX scales */
      {MV(A5, tmov), SRC(tile(PTOSIM_L1, DT(F8E8M0), 32, 4, 32, 4, BL_R, SL_R, 32, 0x20)),
       DST(tile(PTOSIM_L0A_MX, DT(F8E8M0), 32, 4, 32, 4, BL_R, SL_R, 32, 0x40)), .h = 32, .w = 4},
      {MV(A5, tmov), SRC(tile(PTOSIM_L1, DT(F8E8M0), 4, 48, 4, 48, BL_C, SL_C, 32, 0x20)),
       DST(tile(PTOSIM_L0B_MX, DT(F8E8M0), 4, 48, 4, 48, BL_C, SL_C, 32, 0)), .h = 4, .w = 48},
      /* bias (widening) and scaling rows */
      {MV(A5, tmov), SRC(MAT(F16, BL_R, SL_N, 1, 32, 1, 32, 0x20)),
       DST(tile(PTOSIM_BT, DT(F32), 1, 32, 1, 32, BL_R, SL_N, 512, 0x40)), .h = 1, .w = 32},
      {MV(A5, tmov), SRC(MAT(BF16, BL_R, SL_N, 1, 64, 1, 64, 0)),
       DST(tile(PTOSIM_BT, DT(F32), 1, 64, 1, 64, BL_R, SL_N, 512, 0)), .h = 1, .w = 64},
      {MV(A2A3, tmov), SRC(MAT(I32, BL_R, SL_N, 1, 16, 1, 16, 0)),
       DST(tile(PTOSIM_BT, DT(I32), 1, 16, 1, 16, BL_R, SL_N, 512, 0x100)), .h = 1, .w = 16},
      {MV(A2A3, tmov), SRC(MAT(F16, BL_R, SL_N, 1, 32, 1, 32, 0)),
       DST(tile(PTOSIM_BT, DT(F32), 1, 32, 1, 32, BL_R, SL_N, 512, 0)), .h = 1, .w = 32},
      {MV(A5, tmov), SRC(MAT(U64, BL_R, SL_N, 1, 32, 1, 32, 0x100)),
       DST(tile(PTOSIM_FB, DT(U64), 1, 32, 1, 32, BL_R, SL_N, 512, 0x80)), .h = 1, .w = 32},
      {MV(A2A3, tmov), SRC(MAT(I64, BL_R, SL_N, 1, 16, 1, 16, 0)),
       DST(tile(PTOSIM_FB, DT(I64), 1, 16, 1, 16, BL_R, SL_N, 512, 0)), .h = 1, .w = 16},
      /* textract: windows of whole fractals */
      {MV(A5, textract), SRC(MAT(F16, BL_C, SL_R, 64, 64, 64, 64, 0)), AT(32, 16),
       DST(tile(PTOSIM_L0A, DT(F16), 32, 32, 32, 32, BL_C, SL_R, 512, 0)), .h = 32, .w = 32},
      {MV(A5, textract), SRC(MAT(F16, BL_C, SL_R, 64, 64, 64, 64, 0)), AT(16, 32),
       DST(tile(PTOSIM_L0B, DT(F16), 32, 32, 32, 32, BL_R, SL_C, 512, 0x400)), .h = 32, .w = 32},
      {MV(A2A3, textract), SRC(MAT(F32, BL_R, SL_C, 32, 64, 32, 64, 0)), AT(8, 16),
       DST(tile(PTOSIM_L0B, DT(F32), 16, 32, 16, 32, BL_R, SL_C, 512, 0)), .h = 16, .w = 32},
      {MV(A2A3, textract), SRC(MAT(I8, BL_C, SL_R, 64, 128, 64, 128, 0)), AT(16, 64),
       DST(tile(PTOSIM_L0A, DT(I8), 32, 64, 32, 64, BL_R, SL_R, 512, 0)), .h = 32, .w = 64},
      {MV(A5, textract), SRC(tile(PTOSIM_L1, DT(F8E8M0), 64, 8, 64, 8, BL_R, SL_R, 32, 0)), AT(16, 2),
       DST(tile(PTOSIM_L0A_MX, DT(F8E8M0), 32, 4, 32, 4, BL_R, SL_R, 32, 0)), .h = 32, .w = 4},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) run_mv(&cases[i]);
}

static void test_tmov_vec(void) {
  const mv_case cases[] = {
      /* vec -> vec: the smaller valid shape */
      {MV(A5, tmov), SRC(VEC(F32, BL_R, SL_N, 16, 24, 10, 20, 0x100)), DST(VEC(F32, BL_R, SL_N, 16, 24, 12, 18, 0x800)),
       .h = 10, .w = 18},
      {MV(A2A3, tmov), SRC(VEC(I16, BL_R, SL_N, 8, 48, 8, 40, 0)), DST(VEC(I16, BL_R, SL_N, 8, 48, 7, 48, 0x400)),
       .h = 7, .w = 40},
      /* DN -> DN of one column (a row-wise copy moves element r: a2a3/a5 TMov.hpp TMovToVec) */
      {MV(A2A3, tmov), SRC(VEC(F32, BL_C, SL_N, 16, 1, 12, 1, 0x100)), DST(VEC(F32, BL_C, SL_N, 16, 1, 10, 1, 0x800)),
       .h = 10, .w = 1},
      {MV(A5, tmov), SRC(VEC(F16, BL_C, SL_N, 32, 1, 32, 1, 0x40)), DST(VEC(F16, BL_C, SL_N, 32, 1, 27, 1, 0x800)),
       .h = 27, .w = 1},
      /* ND -> NZ, ND -> ZN (A5) */
      {MV(A5, tmov), SRC(VEC(F16, BL_R, SL_N, 40, 40, 40, 40, 0)), DST(VEC(F16, BL_C, SL_R, 48, 48, 40, 40, 0x1000)),
       .h = 40, .w = 40},
      {MV(A5, tmov), SRC(VEC(I8, BL_R, SL_N, 20, 70, 20, 70, 0)), DST(VEC(I8, BL_C, SL_R, 32, 96, 20, 70, 0x1000)),
       .h = 20, .w = 70},
      {MV(A5, tmov), SRC(VEC(F16, BL_R, SL_N, 32, 48, 32, 48, 0)), DST(VEC(F16, BL_R, SL_C, 32, 48, 32, 48, 0x1000)),
       .h = 32, .w = 48},
      {MV(A5, tmov), SRC(VEC(F32, BL_R, SL_N, 16, 32, 16, 32, 0)), DST(VEC(F32, BL_R, SL_C, 16, 32, 16, 32, 0x1000)),
       .h = 16, .w = 32},
      /* vec -> mat (A5): ND as is, NZ in whole fractals of the destination valid shape */
      {MV(A5, tmov), SRC(VEC(F16, BL_R, SL_N, 16, 64, 16, 64, 0)), DST(MAT(F16, BL_R, SL_N, 16, 64, 16, 64, 0x20)),
       .h = 16, .w = 64},
      {MV(A5, tmov), SRC(VEC(F16, BL_C, SL_R, 32, 32, 32, 32, 0)), DST(MAT(F16, BL_C, SL_R, 32, 32, 20, 20, 0x400)),
       .h = 32, .w = 32},
      /* textract vec -> vec / mat */
      {MV(A2A3, textract), SRC(VEC(F16, BL_R, SL_N, 32, 64, 32, 64, 0)), AT(3, 5),
       DST(VEC(F16, BL_R, SL_N, 16, 32, 13, 27, 0x2000)), .h = 13, .w = 27},
      {MV(A5, textract), SRC(VEC(F32, BL_C, SL_R, 64, 32, 64, 32, 0)), AT(16, 8),
       DST(MAT(F32, BL_C, SL_R, 32, 16, 20, 10, 0)), .h = 32, .w = 16},
      /* NZ textract vec -> vec (TExtractVecToVecNZ*): a5 whole 32-byte stripes of the valid
         columns from any row; a2a3 from a fractal row, the valid columns (1-byte: rounded down
         to even); a 1 x 1 window is one element anywhere (hardware test textract_vec) */
      {MV(A5, textract), SRC(VEC(F16, BL_C, SL_R, 32, 64, 32, 64, 0)), AT(3, 16),
       DST(VEC(F16, BL_C, SL_R, 16, 32, 10, 20, 0x1000)), .h = 10, .w = 32},
      {MV(A2A3, textract), SRC(VEC(I8, BL_C, SL_R, 32, 128, 32, 128, 0)), AT(16, 32),
       DST(VEC(I8, BL_C, SL_R, 16, 64, 9, 39, 0x1000)), .h = 9, .w = 38},
      {MV(A2A3, textract), SRC(VEC(F32, BL_C, SL_R, 32, 32, 32, 32, 0)), AT(16, 8),
       DST(VEC(F32, BL_C, SL_R, 16, 16, 16, 12, 0x1000)), .h = 16, .w = 12},
      {MV(A2A3, textract), SRC(VEC(F16, BL_C, SL_R, 32, 32, 32, 32, 0)), AT(5, 9),
       DST(VEC(F16, BL_C, SL_R, 16, 32, 1, 1, 0x1000)), .h = 1, .w = 1},
      {MV(A5, textract), SRC(VEC(I8, BL_C, SL_R, 32, 64, 32, 64, 0)), AT(20, 33),
       DST(VEC(I8, BL_C, SL_R, 16, 64, 1, 1, 0x1000)), .h = 1, .w = 1},
      /* tinsert vec -> vec / mat (A5) */
      {MV(A5, tinsert), SRC(VEC(F16, BL_R, SL_N, 8, 16, 7, 13, 0)), AT(2, 3),
       DST(VEC(F16, BL_R, SL_N, 32, 32, 32, 32, 0x800)), .h = 7, .w = 13},
      /* ... and on a2a3 (TInsert.hpp TINSERT_IMPL vec -> vec: ND at 32-byte columns or a single
         element anywhere, NZ in whole blocks; hardware test tinsert_vec) */
      {MV(A2A3, tinsert), SRC(VEC(F16, BL_R, SL_N, 8, 16, 7, 13, 0)), AT(2, 16),
       DST(VEC(F16, BL_R, SL_N, 32, 48, 32, 48, 0x800)), .h = 7, .w = 13},
      {MV(A2A3, tinsert), SRC(VEC(F32, BL_R, SL_N, 1, 8, 1, 1, 0)), AT(5, 7),
       DST(VEC(F32, BL_R, SL_N, 16, 16, 16, 16, 0x800)), .h = 1, .w = 1},
      {MV(A2A3, tinsert), SRC(VEC(I8, BL_C, SL_R, 16, 64, 16, 64, 0)), AT(16, 32),
       DST(VEC(I8, BL_C, SL_R, 32, 96, 32, 96, 0x800)), .h = 16, .w = 64},
      /* NZ vec tiles whose rows are not whole 16-row boxes: column blocks Rows rows apart
         (a5 TInsert.hpp:221-251; hardware test tinsert dblinput: 17- and 129-row tiles) */
      {MV(A5, tinsert), SRC(VEC(F32, BL_C, SL_R, 17, 16, 17, 16, 0)), AT(5, 8),
       DST(VEC(F32, BL_C, SL_R, 33, 32, 33, 32, 0x1000)), .h = 17, .w = 16},
      /* NZ valid columns that end inside a 32-byte stripe: the whole stripes, then the tail
         columns in 2-byte units (TInsertVecToVecNZUnaligned): f16 all 20, i8 38 of 39, 44 of 45 */
      {MV(A2A3, tinsert), SRC(VEC(F16, BL_C, SL_R, 16, 32, 10, 20, 0)), AT(5, 16),
       DST(VEC(F16, BL_C, SL_R, 32, 64, 32, 64, 0x800)), .h = 10, .w = 20},
      {MV(A2A3, tinsert), SRC(VEC(I8, BL_C, SL_R, 16, 64, 9, 39, 0)), AT(7, 32),
       DST(VEC(I8, BL_C, SL_R, 32, 128, 32, 128, 0x800)), .h = 9, .w = 38},
      {MV(A2A3, tinsert), SRC(VEC(I8, BL_C, SL_R, 16, 64, 16, 45, 0)), AT(0, 0),
       DST(VEC(I8, BL_C, SL_R, 32, 128, 32, 128, 0x800)), .h = 16, .w = 44},
      {MV(A5, tinsert), SRC(VEC(F16, BL_C, SL_R, 16, 32, 10, 20, 0)), AT(5, 16),
       DST(VEC(F16, BL_C, SL_R, 32, 64, 32, 64, 0x800)), .h = 10, .w = 32},
      {MV(A5, tinsert), SRC(VEC(BF16, BL_R, SL_N, 8, 32, 8, 32, 0)), AT(4, 16),
       DST(MAT(BF16, BL_R, SL_N, 32, 64, 32, 64, 0x40)), .h = 8, .w = 32},
      {MV(A5, tinsert), SRC(VEC(I8, BL_C, SL_R, 16, 64, 9, 40, 0)), AT(7, 32),
       DST(MAT(I8, BL_C, SL_R, 32, 128, 32, 128, 0x40)), .h = 9, .w = 64},
      /* ... of i32 and e8m0 elements too (a5 TInsert.hpp TINSERT_IMPL's type list; hardware test
         TInsertTest.case_nz_4: an NZ i32 tile) */
      {MV(A5, tinsert), SRC(VEC(I32, BL_C, SL_R, 32, 32, 32, 32, 0x100)), AT(0, 0),
       DST(MAT(I32, BL_C, SL_R, 32, 32, 32, 32, 0)), .h = 32, .w = 32},
      {MV(A5, tinsert), SRC(VEC(I32, BL_C, SL_R, 16, 16, 10, 16, 0)), AT(16, 8),
       DST(MAT(I32, BL_C, SL_R, 48, 32, 48, 32, 0x200)), .h = 10, .w = 16},
      {MV(A5, tinsert), SRC(VEC(F8E8M0, BL_R, SL_N, 4, 64, 4, 64, 0)), AT(3, 32),
       DST(MAT(F8E8M0, BL_R, SL_N, 16, 128, 16, 128, 0x40)), .h = 4, .w = 64},
      /* ZN vec -> mat (a5 TInsert.hpp TInsertZNImpl: 32-byte columns of whole row boxes, at a
         row-box boundary and any column; hardware test tinsert_zn) */
      {MV(A5, tinsert), SRC(VEC(F16, BL_R, SL_C, 32, 32, 32, 32, 0)), AT(16, 8),
       DST(MAT(F16, BL_R, SL_C, 64, 64, 64, 64, 0x40)), .h = 32, .w = 32},
      {MV(A5, tinsert), SRC(VEC(F32, BL_R, SL_C, 8, 16, 8, 13, 0x20)), AT(8, 24),
       DST(MAT(F32, BL_R, SL_C, 16, 48, 16, 48, 0)), .h = 8, .w = 13},
      {MV(A5, tinsert), SRC(VEC(I8, BL_R, SL_C, 64, 32, 32, 17, 0)), AT(32, 5),
       DST(MAT(I8, BL_R, SL_C, 64, 64, 64, 64, 0x400)), .h = 32, .w = 17},
      {MV(A5, tinsert), SRC(VEC(F8E8M0, BL_R, SL_C, 32, 32, 32, 32, 0)), AT(0, 0),
       DST(MAT(F8E8M0, BL_R, SL_C, 32, 32, 32, 32, 0)), .h = 32, .w = 32},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) run_mv(&cases[i]);
}

/* Every layout pair of the copies (tile_geom.c pt_tile_copy: runs along the same dimension,
 * or transposed blocks), both targets, each element size: valid shapes smaller than the
 * tiles, fractal-aligned windows and insert positions, partial boxes at the region edges.
 * The region of each case follows the rules stated in src/isa/tile_mov.c plan(). */
typedef enum lk { K_ND, K_NZ, K_ZN, K_ZZ } lk;

static ptosim_tile ktile(ptosim_space sp, ptosim_dtype t, lk k, int r, int c, int vr, int vc, uint64_t a) {
  static const ptosim_blayout bl[] = {BL_R, BL_C, BL_R, BL_R};
  static const ptosim_slayout sl[] = {SL_N, SL_R, SL_C, SL_R};
  return tile(sp, t, r, c, vr, vc, bl[k], sl[k], 512, a);
}

static void test_tmov_pairs(void) {
  static const ptosim_dtype dts[] = {DT(I8), DT(F16), DT(F32), DT(BF16), DT(F8E4M3)};
  for (int a5 = 0; a5 < 2; a5++) {
    ptosim_target tg = a5 ? PTOSIM_TARGET_A5 : PTOSIM_TARGET_A2A3;
    for (size_t d = 0; d < sizeof dts / sizeof dts[0]; d++) {
      ptosim_dtype t = dts[d];
      if (!a5 && t == DT(F8E4M3)) continue;
      int c0 = 32 / (int)pt_dtype_size(t); /* elements of a 32-byte fractal row */
      /* mat -> left / right: the whole destination, from NZ, ZN and ND sources */
      for (lk sk = K_ND; sk <= K_ZN; sk++)
        for (int right = 0; right < 2; right++) {
          ptosim_space ds = right ? PTOSIM_L0B : PTOSIM_L0A;
          lk dk = right ? K_ZN : a5 ? K_NZ : K_ZZ;
          mv_case mv = {.tgt = tg, .op = PTOSIM_OP_tmov, .h = 64, .w = 64};
          mv.p.src = ktile(PTOSIM_L1, t, sk, 64, 64, 64, 64, 0x40);
          mv.p.dst = ktile(ds, t, dk, 64, 64, 50, 40, 0x200);
          /* 1-byte data from fractals of the other inner order (a transposing load) is stored
           * compact whatever the tile says (pto-isa a5 TMov.hpp TMovToLeft / TMovToRight:
           * TExtractTo{A,B}TransCompact when sizeof(T) == 1): the valid 50 x 40 in whole
           * fractals, 16 x 32 (left) or 32 x 16 (right). */
          if (pt_dtype_size(t) == 1 && sk != K_ND && mv.p.src.slayout != mv.p.dst.slayout)
            mv.packed = true, mv.w = right ? 48 : 64;
          run_mv(&mv);
          mv.op = PTOSIM_OP_textract, mv.p.index_row = 32, mv.p.index_col = 64;
          mv.p.src = ktile(PTOSIM_L1, t, sk, 128, 128, 128, 128, 0x400);
          run_mv(&mv);
        }
      if (t == DT(BF16) || t == DT(F8E4M3)) continue;
      /* vec -> vec: ND -> ND on both targets */
      mv_case mv = {.tgt = tg, .op = PTOSIM_OP_tmov, .h = 10, .w = 40};
      mv.p.src = ktile(PTOSIM_UB, t, K_ND, 16, 64, 10, 50, 0x20);
      mv.p.dst = ktile(PTOSIM_UB, t, K_ND, 16, 64, 12, 40, 0x4000);
      run_mv(&mv);
      mv = (mv_case){.tgt = tg, .op = PTOSIM_OP_textract, .h = 13, .w = 27};
      mv.p.src = ktile(PTOSIM_UB, t, K_ND, 64, 64, 64, 64, 0x20), mv.p.index_row = 3, mv.p.index_col = 5;
      mv.p.dst = ktile(PTOSIM_UB, t, K_ND, 16, 32, 13, 27, 0x8000);
      run_mv(&mv);
      if (!a5) continue;
      /* ND -> NZ (partial boxes), ND -> ZN (whole fractals) */
      mv = (mv_case){.tgt = tg, .op = PTOSIM_OP_tmov, .h = 37, .w = 41};
      mv.p.src = ktile(PTOSIM_UB, t, K_ND, 40, 64, 37, 50, 0x20);
      mv.p.dst = ktile(PTOSIM_UB, t, K_NZ, 48, 64, 45, 41, 0x4000);
      run_mv(&mv);
      mv = (mv_case){.tgt = tg, .op = PTOSIM_OP_tmov, .h = 2 * c0, .w = 48};
      mv.p.src = ktile(PTOSIM_UB, t, K_ND, 64, 64, 64, 48, 0x20);
      mv.p.dst = ktile(PTOSIM_UB, t, K_ZN, 64, 64, 2 * c0, 48, 0x4000);
      run_mv(&mv);
      /* tinsert vec -> vec: ND, and NZ in whole 32-byte blocks */
      mv = (mv_case){.tgt = tg, .op = PTOSIM_OP_tinsert, .h = 7, .w = 13};
      mv.p.src = ktile(PTOSIM_UB, t, K_ND, 8, 32, 7, 13, 0x20), mv.p.index_row = 2, mv.p.index_col = 3;
      mv.p.dst = ktile(PTOSIM_UB, t, K_ND, 32, 64, 32, 64, 0x4000);
      run_mv(&mv);
      mv = (mv_case){.tgt = tg, .op = PTOSIM_OP_tinsert, .h = 10, .w = 2 * c0};
      mv.p.src = ktile(PTOSIM_UB, t, K_NZ, 16, 2 * c0, 10, c0 + 3, 0x20), mv.p.index_row = 5, mv.p.index_col = c0;
      mv.p.dst = ktile(PTOSIM_UB, t, K_NZ, 32, 4 * c0, 32, 4 * c0, 0x4000);
      run_mv(&mv);
      /* vec -> mat: ND as is; NZ in whole fractals of the destination valid shape */
      mv = (mv_case){.tgt = tg, .op = PTOSIM_OP_tmov, .h = 12, .w = 40};
      mv.p.src = ktile(PTOSIM_UB, t, K_ND, 16, 64, 16, 64, 0x20);
      mv.p.dst = ktile(PTOSIM_L1, t, K_ND, 16, 64, 12, 40, 0x100);
      run_mv(&mv);
      mv = (mv_case){.tgt = tg, .op = PTOSIM_OP_tmov, .h = 32, .w = 2 * c0};
      mv.p.src = ktile(PTOSIM_UB, t, K_NZ, 32, 2 * c0, 32, 2 * c0, 0x20);
      mv.p.dst = ktile(PTOSIM_L1, t, K_NZ, 32, 2 * c0, 20, c0 + 1, 0x100);
      run_mv(&mv);
      mv = (mv_case){.tgt = tg, .op = PTOSIM_OP_textract, .h = 32, .w = c0};
      mv.p.src = ktile(PTOSIM_UB, t, K_NZ, 64, 4 * c0, 64, 4 * c0, 0x20), mv.p.index_row = 16, mv.p.index_col = c0;
      mv.p.dst = ktile(PTOSIM_L1, t, K_NZ, 32, 2 * c0, 20, c0 - 1, 0x100);
      run_mv(&mv);
      mv = (mv_case){.tgt = tg, .op = PTOSIM_OP_tinsert, .h = 9, .w = 2 * c0};
      mv.p.src = ktile(PTOSIM_UB, t, K_NZ, 16, 2 * c0, 9, c0 + 2, 0x20), mv.p.index_row = 7, mv.p.index_col = 2 * c0;
      mv.p.dst = ktile(PTOSIM_L1, t, K_NZ, 32, 4 * c0, 32, 4 * c0, 0x100);
      run_mv(&mv);
    }
  }
}

/* pt_tile_transposer: the vector and the element-by-element kernels against the definition,
 * every element size, block shapes around the 16-byte squares, bytes beside the block kept. */
static void test_transpose_kernels(void) {
  static uint8_t src[64 * 64 * 8], want[64 * 64 * 8 + 64], got[2][sizeof want];
  for (size_t i = 0; i < sizeof src; i++) src[i] = (uint8_t)rnd();
  static const unsigned sizes[] = {1, 2, 4, 8};
  for (int n = 0; n < 200; n++) {
    unsigned es = sizes[rnd() % 4];
    int64_t bh = 1 + (int64_t)(rnd() % 40), bw = 1 + (int64_t)(rnd() % 40);
    int64_t sstr = (bw + (int64_t)(rnd() % 8)) * es, dstr = (bh + (int64_t)(rnd() % 8)) * es;
    for (size_t i = 0; i < sizeof want; i++) want[i] = got[0][i] = got[1][i] = (uint8_t)(i * 29 + 3);
    for (int64_t o = 0; o < bh; o++)
      for (int64_t i = 0; i < bw; i++)
        for (unsigned b = 0; b < es; b++) want[32 + i * dstr + o * es + b] = src[o * sstr + i * es + b];
    for (int simd = 0; simd < 2; simd++) {
      pt_tile_transposer(es, simd)(got[simd] + 32, dstr, src, sstr, es, bh, bw);
      CHECK_MSG(!memcmp(got[simd], want, sizeof want), "transpose %ux(%" PRId64 " x %" PRId64 ") simd %d", es, bh, bw,
                simd);
    }
  }
}

#define QW(scale, ofs, sgn) \
  .p.has_quant_scalar = true, .p.quant_scalar = (uint64_t)(scale) | (uint64_t)(ofs) << 37 | (uint64_t)(sgn) << 46

static void test_tmov_acc(void) {
  const mv_case cases[] = {
      /* casts to NZ: every stored acc row, columns in whole destination blocks */
      {MV(A5, tmov), SRC(ACC(F32, 32, 32, 20, 20, 0x400)), DST(MAT(F16, BL_C, SL_R, 32, 32, 32, 32, 0x40)), .h = 32,
       .w = 32},
      {MV(A2A3, tmov), SRC(ACC(F32, 32, 48, 32, 40, 0)), DST(MAT(BF16, BL_C, SL_R, 32, 48, 32, 48, 0)), .h = 32,
       .w = 48},
      {MV(A5, tmov), SRC(ACC(F32, 16, 32, 16, 20, 0)), DST(MAT(F32, BL_C, SL_R, 16, 32, 16, 32, 0)), .h = 16, .w = 24},
      {MV(A5, tmov), SRC(ACC(F32, 16, 32, 16, 20, 0)),
       DST(tile(PTOSIM_L1, DT(F32), 16, 32, 16, 32, BL_C, SL_R, 1024, 0)), .h = 16, .w = 32},
      {MV(A5, tmov), SRC(ACC(I32, 16, 16, 16, 16, 0x800)), DST(MAT(I32, BL_C, SL_R, 16, 16, 16, 16, 0)), .h = 16,
       .w = 16},
      /* ND / DN destinations (A5): the valid shape */
      {MV(A5, tmov), SRC(ACC(F32, 48, 32, 40, 30, 0)), DST(VEC(F16, BL_R, SL_N, 48, 32, 40, 30, 0x100)), .h = 40,
       .w = 30},
      {MV(A5, tmov), SRC(ACC(F32, 32, 32, 17, 31, 0)), DST(VEC(F32, BL_C, SL_N, 32, 32, 17, 31, 0x100)), .h = 17,
       .w = 31},
      {MV(A5, tmov), SRC(ACC(F32, 32, 32, 32, 32, 0)), DST(VEC(BF16, BL_C, SL_R, 32, 32, 32, 32, 0)), .h = 32, .w = 32},
      {MV(A5, tmov), SRC(ACC(F32, 32, 32, 30, 25, 0)), DST(MAT(F32, BL_R, SL_N, 32, 32, 30, 25, 0)), .h = 30, .w = 25},
      {MV(A5, tmov), SRC(ACC(F32, 16, 32, 16, 32, 0)), DST(VEC(F32, BL_R, SL_N, 16, 32, 16, 32, 0)),
       .p.acc_to_vec = PTOSIM_A2V_SINGLE_VEC1, .h = 16, .w = 32},
      {MV(A5, tmov), SRC(ACC(F32, 32, 32, 32, 32, 0)), DST(VEC(F32, BL_R, SL_N, 16, 32, 16, 32, 0x40)),
       .p.acc_to_vec = PTOSIM_A2V_DUAL_SPLIT_M, .h = 32, .w = 32},
      {MV(A5, tmov), SRC(ACC(I32, 16, 64, 16, 64, 0)), DST(VEC(I32, BL_R, SL_N, 16, 32, 16, 32, 0)),
       .p.acc_to_vec = PTOSIM_A2V_DUAL_SPLIT_N, .h = 16, .w = 64},
      /* relu, scalar and vector quant */
      {MV(A5, tmov), SRC(ACC(F32, 16, 32, 16, 32, 0)), DST(VEC(F16, BL_R, SL_N, 16, 32, 16, 32, 0)),
       .p.relu = PTOSIM_RELU_NORMAL, .h = 16, .w = 32},
      {MV(A2A3, tmov), SRC(ACC(F32, 16, 32, 16, 32, 0)), DST(MAT(I8, BL_C, SL_R, 16, 32, 16, 32, 0)),
       QW(0x40400000u, 0x1F3, 1), .h = 16, .w = 32},
      {MV(A5, tmov), SRC(ACC(F32, 16, 32, 16, 32, 0)), DST(MAT(U8, BL_C, SL_R, 16, 32, 16, 32, 0)),
       QW(0x41000000u, 5, 0), .p.relu = PTOSIM_RELU_NORMAL, .h = 16, .w = 32},
      {MV(A5, tmov), SRC(ACC(F32, 16, 32, 16, 30, 0)), DST(VEC(F16, BL_R, SL_N, 16, 32, 16, 30, 0)),
       QW(0x3E800000u, 0, 0), .h = 16, .w = 30},
      {MV(A5, tmov), SRC(ACC(F32, 16, 32, 16, 32, 0)), DST(VEC(HIF8, BL_R, SL_N, 16, 32, 16, 32, 0)),
       QW(0x40000000u, 0, 0), .h = 16, .w = 32},
      {MV(A5, tmov), SRC(ACC(F32, 16, 32, 16, 32, 0)), DST(VEC(F8E4M3, BL_R, SL_N, 16, 32, 16, 32, 0)),
       QW(0x3F000000u, 0, 0), .h = 16, .w = 32},
      {MV(A2A3, tmov), SRC(ACC(I32, 16, 32, 16, 32, 0)), DST(MAT(F16, BL_C, SL_R, 16, 32, 16, 32, 0)),
       QW(0x3C000000u, 0x10, 0), .h = 16, .w = 32},
      {MV(A5, tmov), SRC(ACC(I32, 16, 32, 16, 32, 0)), DST(VEC(BF16, BL_R, SL_N, 16, 32, 16, 32, 0)),
       QW(0x3C000000u, 0x1FF, 0), .h = 16, .w = 32},
      {MV(A5, tmov), SRC(ACC(F32, 32, 48, 32, 48, 0)), DST(MAT(I8, BL_C, SL_R, 32, 64, 32, 64, 0x200)), FP(48), .h = 32,
       .w = 64},
      {MV(A2A3, tmov_fp), SRC(ACC(I32, 16, 32, 16, 32, 0)), DST(MAT(U8, BL_C, SL_R, 16, 32, 16, 32, 0)), FP(32),
       .h = 16, .w = 32},
      {MV(A5, tmov_fp), SRC(ACC(F32, 16, 32, 16, 32, 0)), DST(VEC(F16, BL_R, SL_N, 16, 32, 16, 32, 0)), FP(32), .h = 16,
       .w = 32},
      /* textract / tinsert from acc */
      {MV(A5, textract), SRC(ACC(F32, 48, 64, 48, 64, 0)), AT(16, 16), DST(MAT(F16, BL_C, SL_R, 32, 32, 20, 20, 0)),
       .h = 20, .w = 32},
      {MV(A2A3, textract), SRC(ACC(F32, 48, 64, 48, 64, 0)), AT(5, 32), DST(MAT(F16, BL_C, SL_R, 32, 32, 32, 30, 0)),
       .h = 32, .w = 32},
      {MV(A5, textract), SRC(ACC(F32, 48, 64, 48, 64, 0)), AT(5, 7), DST(VEC(F32, BL_R, SL_N, 32, 32, 30, 30, 0x20)),
       .h = 30, .w = 30},
      {MV(A5, textract_fp), SRC(ACC(F32, 32, 64, 32, 64, 0)), AT(0, 16), DST(MAT(I8, BL_C, SL_R, 32, 32, 32, 32, 0)),
       FP(64), .h = 32, .w = 32},
      {MV(A2A3, tinsert), SRC(ACC(F32, 16, 32, 10, 20, 0)), AT(16, 32), DST(MAT(F16, BL_C, SL_R, 64, 64, 64, 64, 0)),
       .h = 16, .w = 32},
      {MV(A5, tinsert), SRC(ACC(F32, 16, 16, 16, 16, 0)), AT(3, 16), DST(MAT(F32, BL_C, SL_R, 32, 64, 32, 64, 0)),
       .h = 16, .w = 16},
      {MV(A5, tinsert), SRC(ACC(F32, 16, 16, 9, 11, 0)), AT(3, 5), DST(VEC(F16, BL_R, SL_N, 32, 32, 32, 32, 0)), .h = 9,
       .w = 11},
      {MV(A5, tinsert_fp), SRC(ACC(I32, 16, 32, 16, 32, 0)), AT(16, 32), DST(MAT(I8, BL_C, SL_R, 32, 64, 32, 64, 0)),
       FP(32), .h = 16, .w = 32},
      /* PTOAS's forms: the plain ops with `fp %fp` or a quant scalar, both targets */
      {MV(A2A3, textract), SRC(ACC(F32, 32, 64, 32, 64, 0)), AT(0, 16), DST(MAT(I8, BL_C, SL_R, 32, 32, 32, 32, 0)),
       FP(64), .h = 32, .w = 32},
      {MV(A5, tinsert), SRC(ACC(I32, 16, 32, 16, 32, 0)), AT(16, 32), DST(MAT(I8, BL_C, SL_R, 32, 64, 32, 64, 0)),
       FP(32), .h = 16, .w = 32},
      {MV(A2A3, tinsert), SRC(ACC(I32, 16, 32, 16, 32, 0)), AT(0, 32), DST(MAT(F16, BL_C, SL_R, 32, 64, 32, 64, 0)),
       .p.has_quant_scalar = true, .p.quant_scalar = 0x3E800000u | 5ull << 37, .h = 16, .w = 32},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) run_mv(&cases[i]);
}

/* Run one op on a fresh machine's core `kind`, expect rule `rule`. */
static void expect_mv(ptosim_target t, ptosim_opcode op, ptosim_core_kind kind, ptosim_tmov_params p,
                      const char *rule) {
  ptosim_machine *m = ptosim_machine_new(t, 1);
  expect_rule(m, ptosim_exec(ptosim_core_of(m, 0, kind), op, &p, NULL), rule);
  ptosim_machine_free(m);
}

static void test_tmov_negative(void) {
  const ptosim_tile left = tile(PTOSIM_L0A, DT(F16), 32, 32, 32, 32, BL_C, SL_R, 512, 0);
  const ptosim_tile mat = MAT(F16, BL_C, SL_R, 32, 32, 32, 32, 0);
  const ptosim_tile acc = ACC(F32, 32, 32, 32, 32, 0), vnd = VEC(F32, BL_R, SL_N, 16, 32, 16, 32, 0);
  const ptosim_tile fp = tile(PTOSIM_FB, DT(U64), 1, 32, 1, 32, BL_R, SL_N, 512, 0);
  const ptosim_core_kind C = PTOSIM_AIC, V = PTOSIM_AIV0;
  const ptosim_target A5 = PTOSIM_TARGET_A5, A3 = PTOSIM_TARGET_A2A3;
  ptosim_tmov_params p = {.src = mat, .dst = left};
  expect_mv(A5, PTOSIM_OP_tmov, V, p, "tmov.unit");
  p.relu = PTOSIM_RELU_NORMAL;
  expect_mv(A5, PTOSIM_OP_tmov, C, p, "tmov.acc_only");
  p.relu = PTOSIM_RELU_SCALAR;
  expect_mv(A5, PTOSIM_OP_tmov, C, p, "tmov.relu");
  p = (ptosim_tmov_params){.src = mat, .dst = left, .acc_to_vec = PTOSIM_A2V_SINGLE_VEC1};
  expect_mv(A5, PTOSIM_OP_tmov, C, p, "tmov.acc_to_vec");
  p = (ptosim_tmov_params){.src = mat, .dst = left}, p.dst.valid_cols = 0;
  expect_mv(A5, PTOSIM_OP_tmov, C, p, "tile.empty");
  p = (ptosim_tmov_params){.src = mat, .dst = left}, p.src.dtype = DT(I4);
  expect_mv(A5, PTOSIM_OP_tmov, C, p, "tile.dtype");
  p = (ptosim_tmov_params){.src = mat, .dst = left}, p.dst.blayout = BL_R, p.dst.slayout = SL_C;
  expect_mv(A5, PTOSIM_OP_tmov, C, p, "tmov.layout"); /* a ZN left tile */
  p = (ptosim_tmov_params){.src = mat, .dst = left}, p.src.dtype = DT(F32);
  expect_mv(A5, PTOSIM_OP_tmov, C, p, "tmov.dtype");
  p = (ptosim_tmov_params){.src = mat, .dst = left}, p.src.dtype = p.dst.dtype = DT(HIF8), p.dst.blayout = BL_R;
  expect_mv(A3, PTOSIM_OP_tmov, C, p, "tmov.dtype");
  p = (ptosim_tmov_params){.src = mat, .dst = left}, p.src.cols = 64, p.src.valid_cols = 64;
  expect_mv(A5, PTOSIM_OP_tmov, C, p, "tmov.static_shape");
  p = (ptosim_tmov_params){.src = left, .dst = mat};
  expect_mv(A5, PTOSIM_OP_tmov, C, p, "tmov.loc");
  p = (ptosim_tmov_params){.src = vnd, .dst = MAT(F32, BL_R, SL_N, 16, 32, 16, 32, 0)};
  expect_mv(A3, PTOSIM_OP_tmov, V, p, "tmov.loc");
  expect_mv(A5, PTOSIM_OP_tmov, C, p, "tmov.unit");
  p.dst = MAT(F32, BL_C, SL_R, 16, 32, 16, 32, 0);
  expect_mv(A5, PTOSIM_OP_tmov, V, p, "tmov.layout"); /* vec -> mat keeps the layout */
  p = (ptosim_tmov_params){.src = VEC(F32, BL_C, SL_N, 16, 8, 16, 8, 0), .dst = VEC(F32, BL_C, SL_N, 16, 8, 16, 8, 0x400)};
  expect_mv(A3, PTOSIM_OP_tmov, V, p, "tmov.layout"); /* DN -> DN only of one column */
  p.dst = VEC(F32, BL_R, SL_N, 16, 8, 16, 8, 0x400);
  expect_mv(A5, PTOSIM_OP_tmov, V, p, "tmov.layout"); /* DN -> ND */
  p = (ptosim_tmov_params){.src = vnd, .dst = vnd, .has_quant_scalar = true};
  expect_mv(A5, PTOSIM_OP_tmov, V, p, "tmov.acc_only");
  p = (ptosim_tmov_params){.src = VEC(F16, BL_R, SL_N, 8, 32, 8, 32, 0),
                           .dst = VEC(F16, BL_R, SL_C, 8, 32, 8, 32, 0x400)};
  expect_mv(A5, PTOSIM_OP_tmov, V, p, "tmov.zn_shape");
  /* NZ textract vec -> vec: a2a3 from a fractal row; both from a 32-byte column block; NZ
     extracts to NZ only (ND -> NZ is legal: test_tile_mov_types.c) */
  p = (ptosim_tmov_params){.src = VEC(F16, BL_C, SL_R, 32, 32, 32, 32, 0), .dst = VEC(F16, BL_C, SL_R, 16, 16, 16, 16, 0x800)};
  p.index_row = 8;
  expect_mv(A3, PTOSIM_OP_textract, V, p, "textract.index_align");
  p.index_row = 0, p.index_col = 8;
  expect_mv(A5, PTOSIM_OP_textract, V, p, "textract.index_align");
  p.index_col = 0, p.dst = VEC(F16, BL_R, SL_N, 16, 16, 16, 16, 0x800);
  expect_mv(A5, PTOSIM_OP_textract, V, p, "textract.layout");
  /* ZN vec -> mat inserts: rows in whole row boxes from a row-box boundary; not for tmov / a2a3 */
  p = (ptosim_tmov_params){.src = VEC(F16, BL_R, SL_C, 16, 32, 16, 32, 0), .dst = MAT(F16, BL_R, SL_C, 48, 64, 48, 64, 0)};
  p.index_row = 8;
  expect_mv(A5, PTOSIM_OP_tinsert, V, p, "tinsert.index_align");
  p.index_row = 16, p.src.valid_rows = 12;
  expect_mv(A5, PTOSIM_OP_tinsert, V, p, "tinsert.index_align");
  p.src.valid_rows = 16;
  expect_mv(A3, PTOSIM_OP_tinsert, V, p, "tinsert.loc");
  p.index_row = 0, p.dst = MAT(F16, BL_R, SL_C, 16, 32, 16, 32, 0);
  expect_mv(A5, PTOSIM_OP_tmov, V, p, "tmov.layout");
  /* bias / scaling rows */
  p = (ptosim_tmov_params){.src = MAT(F32, BL_R, SL_N, 1, 8, 1, 8, 0),
                           .dst = tile(PTOSIM_BT, DT(F32), 1, 8, 1, 8, BL_R, SL_N, 512, 0)};
  expect_mv(A5, PTOSIM_OP_tmov, C, p, "tmov.bias_shape");
  p.src.dtype = DT(I32);
  expect_mv(A5, PTOSIM_OP_tmov, C, p, "tmov.dtype");
  p = (ptosim_tmov_params){.src = MAT(U64, BL_R, SL_N, 2, 16, 2, 16, 0),
                           .dst = tile(PTOSIM_FB, DT(U64), 2, 16, 2, 16, BL_R, SL_N, 512, 0)};
  expect_mv(A5, PTOSIM_OP_tmov, C, p, "tmov.scaling_shape");
  p.src.dtype = p.dst.dtype = DT(U32);
  expect_mv(A5, PTOSIM_OP_tmov, C, p, "tmov.dtype");
  /* acc sources */
  p = (ptosim_tmov_params){.src = acc, .dst = MAT(I8, BL_C, SL_R, 32, 32, 32, 32, 0)};
  expect_mv(A5, PTOSIM_OP_tmov, C, p, "tmov.dtype"); /* f32 -> i8 needs a quant parameter */
  p = (ptosim_tmov_params){.src = acc, .dst = MAT(F32, BL_C, SL_R, 32, 32, 32, 32, 0)};
  expect_mv(A3, PTOSIM_OP_tmov, C, p, "tmov.dtype"); /* a2a3 casts f32 -> f16 / bf16 only */
  p = (ptosim_tmov_params){
      .src = ACC(I32, 32, 32, 32, 32, 0), .dst = MAT(I16, BL_C, SL_R, 32, 32, 32, 32, 0), .has_quant_scalar = true};
  expect_mv(A3, PTOSIM_OP_tmov, C, p, "tmov.quant_unsupported");
  p = (ptosim_tmov_params){.src = acc, .dst = MAT(F16, BL_C, SL_R, 32, 32, 32, 32, 0)};
  p.src.fractal = 512;
  expect_mv(A5, PTOSIM_OP_tmov, C, p, "tmov.layout");
  p = (ptosim_tmov_params){.src = acc, .dst = VEC(F16, BL_R, SL_N, 32, 8, 32, 8, 0)};
  p.src.valid_cols = 8;
  expect_mv(A5, PTOSIM_OP_tmov, C, p, "tmov.dst_stride"); /* 16-byte ND rows */
  expect_mv(A3, PTOSIM_OP_tmov, C, p, "tmov.loc");        /* no acc -> vec on a2a3 */
  p = (ptosim_tmov_params){
      .src = acc, .dst = VEC(F32, BL_R, SL_N, 32, 8, 32, 8, 0), .acc_to_vec = PTOSIM_A2V_DUAL_SPLIT_N};
  p.src.valid_cols = 16;
  expect_mv(A5, PTOSIM_OP_tmov, C, p, "tmov.dual"); /* split_n of 16 columns */
  p = (ptosim_tmov_params){
      .src = acc, .dst = VEC(F16, BL_R, SL_N, 16, 32, 16, 32, 0), .acc_to_vec = PTOSIM_A2V_DUAL_SPLIT_M};
  expect_mv(A5, PTOSIM_OP_tmov, C, p, "tmov.dual"); /* dual modes do not convert */
  p = (ptosim_tmov_params){.src = acc, .dst = MAT(I8, BL_C, SL_R, 32, 32, 32, 32, 0), .has_fp = true, .fp = fp};
  p.fp.space = PTOSIM_L1;
  expect_mv(A5, PTOSIM_OP_tmov, C, p, "tmov.fp");
  p.fp = fp, p.fp.valid_cols = 16;
  expect_mv(A5, PTOSIM_OP_tmov, C, p, "tmov.fp");
  p.fp = fp, p.has_quant_scalar = true;
  expect_mv(A5, PTOSIM_OP_tmov, C, p, "tmov.fp");
  p.has_quant_scalar = false, p.has_fp = false;
  expect_mv(A5, PTOSIM_OP_tmov_fp, C, p, "tmov.fp");
  expect_mv(A5, PTOSIM_OP_textract_fp, C, p, "textract.fp"); /* the _fp forms need the tile */
  expect_mv(A5, PTOSIM_OP_tinsert_fp, C, p, "tinsert.fp");
  /* windows */
  p = (ptosim_tmov_params){.src = MAT(F16, BL_C, SL_R, 64, 64, 64, 64, 0), .dst = left, .index_row = 48};
  expect_mv(A5, PTOSIM_OP_textract, C, p, "textract.bounds");
  p.index_row = 8;
  expect_mv(A5, PTOSIM_OP_textract, C, p, "textract.index_align");
  p = (ptosim_tmov_params){
      .src = ACC(F32, 16, 16, 16, 16, 0), .dst = MAT(F16, BL_C, SL_R, 32, 32, 32, 32, 0), .index_col = 8};
  expect_mv(A5, PTOSIM_OP_tinsert, C, p, "tinsert.index_align");
  p.index_col = 32;
  expect_mv(A5, PTOSIM_OP_tinsert, C, p, "tinsert.bounds");
  /* a2a3 ND vec -> vec inserts of more than one element start on a 32-byte block (TInsert.hpp) */
  p = (ptosim_tmov_params){.src = VEC(F32, BL_R, SL_N, 8, 8, 4, 8, 0), .dst = VEC(F32, BL_R, SL_N, 16, 32, 16, 32, 0x400),
                           .index_col = 4};
  expect_mv(A3, PTOSIM_OP_tinsert, V, p, "tinsert.index_align");
  /* i32 vec -> mat: tinsert only (a5 TExtract.hpp / TMov.hpp vec -> mat keep the fractal types) */
  p = (ptosim_tmov_params){.src = VEC(I32, BL_C, SL_R, 16, 16, 16, 16, 0), .dst = MAT(I32, BL_C, SL_R, 16, 16, 16, 16, 0)};
  expect_mv(A5, PTOSIM_OP_tmov, V, p, "tmov.dtype");
  p = (ptosim_tmov_params){.src = mat, .dst = tile(PTOSIM_BT, DT(F32), 1, 32, 1, 32, BL_R, SL_N, 512, 0)};
  expect_mv(A5, PTOSIM_OP_textract, C, p, "textract.loc");
}

/* Events: the pipe of each path, the owner of each range, the matmul work. */
static pt_event last_event;
static void keep_event(void *user, const pt_event *ev) {
  (void)user;
  last_event = *ev;
}

static void test_events(void) {
  ptosim_machine *m = ptosim_machine_new(PTOSIM_TARGET_A5, 1);
  ptosim_core *aic = ptosim_core_of(m, 0, PTOSIM_AIC), *aiv0 = ptosim_core_of(m, 0, PTOSIM_AIV0);
  m->listener = keep_event;
  const pt_event *ev = &last_event;
  ptosim_tmatmul_params mm = base_mm(PTOSIM_TARGET_A5, false);
  CHECK(ptosim_tmatmul(aic, &mm) == PTOSIM_OK);
  CHECK(ev->pipe == PTOSIM_PIPE_M && ev->work == 32 * 32 * 32 && ev->work_dtype == PTOSIM_DT_F16);
  ptosim_tmov_params p = {.src = MAT(F16, BL_C, SL_R, 32, 32, 32, 32, 0),
                          .dst = tile(PTOSIM_L0A, DT(F16), 32, 32, 32, 32, BL_C, SL_R, 512, 0x400)};
  CHECK(ptosim_tmov(aic, &p) == PTOSIM_OK);
  CHECK(ev->pipe == PTOSIM_PIPE_MTE1 && ev->nranges == 2);
  CHECK(ev->ranges[1].space == PTOSIM_L0A && ev->ranges[1].access == PT_WRITE && ev->ranges[1].addr == 0x400 &&
        ev->ranges[1].count[0] * ev->ranges[1].count[1] * ev->ranges[1].len == 32 * 32 * 2);
  p = (ptosim_tmov_params){.src = ACC(F32, 16, 16, 16, 16, 0),
                           .dst = VEC(F16, BL_R, SL_N, 16, 16, 16, 16, 0x40),
                           .acc_to_vec = PTOSIM_A2V_SINGLE_VEC1};
  CHECK(ptosim_tmov(aic, &p) == PTOSIM_OK);
  CHECK(ev->pipe == PTOSIM_PIPE_FIX && ev->ranges[1].owner == ptosim_core_of(m, 0, PTOSIM_AIV1));
  CHECK(ev->ranges[1].count[0] == 16 && ev->ranges[1].len == 32 && ev->ranges[1].stride[0] == 32);
  p = (ptosim_tmov_params){.src = VEC(F16, BL_R, SL_N, 16, 16, 16, 16, 0),
                           .dst = MAT(F16, BL_R, SL_N, 16, 16, 16, 16, 0)};
  CHECK(ptosim_tmov(aiv0, &p) == PTOSIM_OK);
  CHECK(ev->pipe == PTOSIM_PIPE_MTE3 && ev->ranges[0].owner == aiv0 && ev->ranges[1].owner == aic);
  p.dst = VEC(F16, BL_R, SL_N, 16, 16, 16, 16, 0x1000);
  CHECK(ptosim_textract(aiv0, &p) == PTOSIM_OK);
  CHECK(ev->pipe == PTOSIM_PIPE_V);
  m->listener = NULL;
  ptosim_machine_free(m);
}

/* settf32mode / sethf32mode on CTRL: the MAD mode bits 46 (enable) and 47 (1: CAST_ROUND);
 * settf32mode on both targets, sethf32mode on A2/A3 only (nothing on A5); an undefined mode
 * is refused. */
static void test_mode_ops(void) {
  for (int t = 0; t < 2; t++) {
    ptosim_machine *m = ptosim_machine_new((ptosim_target)t, 1);
    ptosim_core *c = ptosim_core_of(m, 0, PTOSIM_AIC);
    bool a5 = t == PTOSIM_TARGET_A5;
    uint64_t ctrl = 0, reset = 0;
    ptosim_reg_read_params rd = {.out = &ctrl};
    CHECK(ptosim_get_ctrl(c, &rd) == PTOSIM_OK);
    reset = ctrl;
    ptosim_tmode_params on_round = {.enable = true, .mode = PTOSIM_TMODE_ROUND};
    ptosim_tmode_params on_rint = {.enable = true, .mode = PTOSIM_TMODE_RINT}, off = {.enable = false};
    if (a5) { /* sethf32mode: no effect on A5 */
      CHECK(ptosim_sethf32mode(c, &on_round) == PTOSIM_OK);
      CHECK(ptosim_get_ctrl(c, &rd) == PTOSIM_OK && ctrl == reset);
    } else { /* settf32mode writes the bits on A2/A3 too */
      CHECK(ptosim_settf32mode(c, &on_round) == PTOSIM_OK && ptosim_get_ctrl(c, &rd) == PTOSIM_OK);
      CHECK(ctrl == (reset | 3ull << 46));
      CHECK(ptosim_settf32mode(c, &off) == PTOSIM_OK && ptosim_get_ctrl(c, &rd) == PTOSIM_OK);
      CHECK(ctrl == (reset | 1ull << 47));
      CHECK(ptosim_settf32mode(c, &on_rint) == PTOSIM_OK && ptosim_get_ctrl(c, &rd) == PTOSIM_OK);
      CHECK(ctrl == (reset | 1ull << 46));
      CHECK(ptosim_settf32mode(c, &off) == PTOSIM_OK);
    }
    ptosim_status (*op)(ptosim_core *, const ptosim_tmode_params *) = a5 ? ptosim_settf32mode : ptosim_sethf32mode;
    CHECK(op(c, &on_round) == PTOSIM_OK && ptosim_get_ctrl(c, &rd) == PTOSIM_OK);
    CHECK(ctrl == (reset | 3ull << 46));
    CHECK(op(c, &on_rint) == PTOSIM_OK && ptosim_get_ctrl(c, &rd) == PTOSIM_OK);
    CHECK(ctrl == (reset | 1ull << 46));
    CHECK(op(c, &on_round) == PTOSIM_OK && op(c, &off) == PTOSIM_OK && ptosim_get_ctrl(c, &rd) == PTOSIM_OK);
    CHECK(ctrl == (reset | 1ull << 47)); /* disable clears bit 46 only (ResetMadMode) */
    ptosim_tmode_params bad = {.enable = true, .mode = (ptosim_tmode_round)7};
    expect_rule(m, ptosim_settf32mode(c, &bad), "settf32mode.mode");
    expect_rule(m, ptosim_sethf32mode(c, &bad), "sethf32mode.mode");
    ptosim_machine_free(m);
  }
}

/* A dst valid region smaller than m x n (pto-isa TMATMUL_IMPL reads m, k, n from the operands
 * alone; hardware test TMOVTest.case11): the cube still writes all of m x n, so L0C ends as
 * after the same matmul into a dst of valid m x n. */
static void test_matmul_small_dst_valid(void) {
  for (int t = 0; t < 2; t++) {
    uint8_t *img[2], a[4096], b[4096]; /* f16 operands in [0.5, 1) and (-1, -0.5] */
    for (size_t i = 0; i < sizeof a; i += 2) {
      uint16_t ha = (uint16_t)(0x3800 + rnd() % 0x400), hb = (uint16_t)(0xB800 + rnd() % 0x400);
      memcpy(a + i, &ha, 2), memcpy(b + i, &hb, 2);
    }
    for (int run = 0; run < 2; run++) {
      ptosim_machine *m = ptosim_machine_new((ptosim_target)t, 1);
      ptosim_core *c = ptosim_core_of(m, 0, PTOSIM_AIC);
      ptosim_tmatmul_params p = base_mm((ptosim_target)t, false);
      CHECK(ptosim_mem_write(c, PTOSIM_L0A, p.lhs.addr, a, sizeof a) == PTOSIM_OK);
      CHECK(ptosim_mem_write(c, PTOSIM_L0B, p.rhs.addr, b, sizeof b) == PTOSIM_OK);
      if (run) p.dst.valid_rows = 17, p.dst.valid_cols = 19;
      CHECK_MSG(ptosim_tmatmul(c, &p) == PTOSIM_OK, "%s", ptosim_last_diag(m)->msg);
      img[run] = malloc(32 * 32 * 4);
      CHECK(ptosim_mem_read(c, PTOSIM_L0C, 0, img[run], 32 * 32 * 4) == PTOSIM_OK);
      ptosim_machine_free(m);
    }
    CHECK(!memcmp(img[0], img[1], 32 * 32 * 4));
    free(img[0]), free(img[1]);
  }
}

/* A 1-byte transposing TMOV into a left / right tile that is not compact stores the compact
 * layout (test_tmov_pairs), and the matmul reads the tile so: the product equals a naive one.
 * Another move into the same tile (not transposing) forgets that: the matmul refuses the tile
 * (tmatmul.fractal_extent), as any tile whose storage the cube would misread. */
static void test_matmul_packed_operands(void) {
  enum { M = 40, K = 40, N = 33, R = 64 }; /* valid m x k x n of 64 x 64 tiles */
  for (int t = 0; t < 2; t++) {
    bool a5 = t == PTOSIM_TARGET_A5;
    ptosim_machine *m = ptosim_machine_new((ptosim_target)t, 1);
    ptosim_core *c = ptosim_core_of(m, 0, PTOSIM_AIC);
    int8_t A[R][R], B[R][R];
    for (int i = 0; i < R; i++)
      for (int j = 0; j < R; j++) A[i][j] = (int8_t)(rnd() % 255 - 127), B[i][j] = (int8_t)(rnd() % 255 - 127);
    /* A in a ZN mat tile (column-major 32 x 16 boxes), B in an NZ one (16 x 32 boxes): both
     * fractal orders differ from the left (NZ / ZZ) and right (ZN) tiles'. */
    ptosim_tile am = tile(PTOSIM_L1, DT(I8), R, R, R, R, BL_R, SL_C, 512, 0);
    ptosim_tile bm = tile(PTOSIM_L1, DT(I8), R, R, R, R, BL_C, SL_R, 512, 0x2000);
    static uint8_t l1[0x4000];
    for (int i = 0; i < R; i++)
      for (int j = 0; j < R; j++) {
        l1[(i / 32) * (R * 32) + (j / 16) * 512 + (j % 16) * 32 + i % 32] = (uint8_t)A[i][j]; /* ZN, box rows first */
        l1[0x2000 + (j / 32) * (R * 32) + (i / 16) * 512 + (i % 16) * 32 + j % 32] = (uint8_t)B[i][j]; /* NZ */
      }
    CHECK(ptosim_mem_write(c, PTOSIM_L1, 0, l1, sizeof l1) == PTOSIM_OK);
    ptosim_tmov_params ma = {.src = am, .dst = tile(PTOSIM_L0A, DT(I8), R, R, M, K, a5 ? BL_C : BL_R, SL_R, 512, 0)};
    ptosim_tmov_params mb = {.src = bm, .dst = tile(PTOSIM_L0B, DT(I8), R, R, K, N, BL_R, SL_C, 512, 0)};
    CHECK(ptosim_tmov(c, &ma) == PTOSIM_OK && ptosim_tmov(c, &mb) == PTOSIM_OK);
    ptosim_tmatmul_params p = {.lhs = ma.dst, .rhs = mb.dst};
    p.dst = tile(PTOSIM_L0C, DT(I32), R, R, M, N, BL_C, SL_R, 1024, 0);
    p.dst.compact = 1;
    CHECK_MSG(ptosim_tmatmul(c, &p) == PTOSIM_OK, "%s", ptosim_last_diag(m)->msg);
    int bad = 0;
    for (int i = 0; i < M; i++)
      for (int j = 0; j < N; j++) {
        int32_t want = 0, got;
        for (int k = 0; k < K; k++) want += A[i][k] * B[k][j];
        int64_t m16 = (M + 15) / 16 * 16; /* compact acc: column blocks of m16 rows of 16 */
        CHECK(ptosim_mem_read(c, PTOSIM_L0C, (uint64_t)(((j / 16) * m16 + i) * 16 + j % 16) * 4, &got, 4) ==
              PTOSIM_OK);
        bad += got != want;
      }
    CHECK_MSG(bad == 0, "%s: %d of %d products differ", a5 ? "a5" : "a2a3", bad, M * N);
    /* the right tile moved again without a transpose (from the ZN mat of A): stored by its
     * 64 static columns, so its row blocks are 64 columns apart, where the cube reads 48 */
    ptosim_tmov_params again = {.src = am, .dst = mb.dst};
    CHECK(ptosim_tmov(c, &again) == PTOSIM_OK);
    expect_rule(m, ptosim_tmatmul(c, &p), "tmatmul.fractal_extent");
    ptosim_machine_free(m);
  }
}

/* The acc pitch (tmatmul writes column blocks of m16 = align16(m) rows whatever the acc tile
 * says; each reader steps by its own, pto-isa a5 TMov.hpp GetTmovAccSrcStride / TInsert.hpp):
 * m = 20 into a 64-row f32 acc, read back as a 20 x 32 vec tile of AIV0 by tmov (valid rows
 * given at run time: read at align16(20) = 32), tinsert (into a row-major vec tile: the same),
 * a compact acc (the same); tmov of a static-valid acc reads 64 rows a block: refused. */
static void test_acc_pitch_readers(void) {
  enum { M = 20, K = 32, N = 32 };
  for (int form = 0; form < 4; form++) {
    ptosim_machine *m = ptosim_machine_new(PTOSIM_TARGET_A5, 1);
    ptosim_core *c = ptosim_core_of(m, 0, PTOSIM_AIC), *v0 = ptosim_core_of(m, 0, PTOSIM_AIV0);
    uint16_t a[32 * K], b[K * N]; /* NZ left (16 x 16 boxes, column blocks of 32 rows), ZN right */
    float want[M][N];
    memset(a, 0, sizeof a);
    for (int i = 0; i < M; i++)
      for (int k = 0; k < K; k++) a[(k / 16) * 32 * 16 + (i / 16) * 256 + (i % 16) * 16 + k % 16] = pt_f32_to_f16((float)((i + 2 * k) % 7 - 3), PT_RND_RINT, PT_SAT_OFF);
    for (int k = 0; k < K; k++)
      for (int j = 0; j < N; j++) b[(k / 16) * N * 16 + (j / 16) * 256 + (j % 16) * 16 + k % 16] = pt_f32_to_f16((float)((3 * k + j) % 5 - 2), PT_RND_RINT, PT_SAT_OFF);
    for (int i = 0; i < M; i++)
      for (int j = 0; j < N; j++) {
        want[i][j] = 0;
        for (int k = 0; k < K; k++) want[i][j] += (float)((i + 2 * k) % 7 - 3) * (float)((3 * k + j) % 5 - 2);
      }
    CHECK(ptosim_mem_write(c, PTOSIM_L0A, 0, a, sizeof a) == PTOSIM_OK);
    CHECK(ptosim_mem_write(c, PTOSIM_L0B, 0, b, sizeof b) == PTOSIM_OK);
    ptosim_tmatmul_params p = {.lhs = tile(PTOSIM_L0A, DT(F16), 32, K, M, K, BL_C, SL_R, 512, 0),
                               .rhs = tile(PTOSIM_L0B, DT(F16), K, N, K, N, BL_R, SL_C, 512, 0)};
    p.dst = tile(PTOSIM_L0C, DT(F32), 64, N, M, N, BL_C, SL_R, 1024, 0);
    if (form == 0) p.dst.dyn_valid = PTOSIM_DYN_VALID_ROWS;
    if (form == 2) p.dst.compact = 1;
    CHECK_MSG(ptosim_tmatmul(c, &p) == PTOSIM_OK, "%s", ptosim_last_diag(m)->msg);
    ptosim_tmov_params mv = {.src = p.dst, .dst = tile(PTOSIM_UB, DT(F32), M, N, M, N, BL_R, SL_N, 512, 0x100)};
    ptosim_status st = form == 1 ? ptosim_tinsert(c, &mv) : ptosim_tmov(c, &mv);
    if (form == 3) {
      expect_rule(m, st, "tmov.acc_pitch");
    } else {
      CHECK_MSG(st == PTOSIM_OK, "form %d: %s", form, ptosim_last_diag(m)->msg);
      float got[M][N];
      CHECK(ptosim_mem_read(v0, PTOSIM_UB, 0x100, got, sizeof got) == PTOSIM_OK);
      CHECK_MSG(!memcmp(got, want, sizeof got), "form %d: got[0][16] %g want %g", form, (double)got[0][16],
                (double)want[0][16]);
    }
    ptosim_machine_free(m);
  }
}

int main(void) {
  RUN(test_acc_pitch_readers);
  RUN(test_matmul_small_dst_valid);
  RUN(test_matmul_packed_operands);
  RUN(test_matmul_dtypes);
  RUN(test_matmul_shapes);
  RUN(test_gemv);
  RUN(test_mx);
  RUN(test_acc_seeds_chain);
  RUN(test_matmul_negative);
  RUN(test_tmov_cube);
  RUN(test_tmov_vec);
  RUN(test_tmov_pairs);
  RUN(test_transpose_kernels);
  RUN(test_tmov_acc);
  RUN(test_tmov_negative);
  RUN(test_events);
  RUN(test_mode_ops);
  return pt_test_finish();
}
