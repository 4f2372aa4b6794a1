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
#include "harness.h"
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
  if (t->compact == 2) R = t->rows;
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

static uint32_t get_elem(const mem *m, const ptosim_tile *t, int64_t r, int64_t c) {
  uint32_t v = 0;
  memcpy(&v, m->img + t->addr + off(t, r, c), pt_dtype_size(t->dtype));
  return v;
}

static void set_elem(mem *m, const ptosim_tile *t, int64_t r, int64_t c, uint32_t v) {
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

static uint32_t tf32_round(uint32_t u, ptosim_tf32_mode mode) {
  if (mode == PTOSIM_TF32_NONE || (u & 0x7F800000u) == 0x7F800000u) return u;
  uint32_t rest = u & 0x1FFFu, keep = u & ~0x1FFFu;
  bool rnd_up = rest > 0x1000u || (rest == 0x1000u && (mode == PTOSIM_TF32_ROUND_AWAY || (keep & 0x2000u)));
  return rnd_up ? keep + 0x2000u : keep;
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
  ptosim_tmatmul_params p = {.tf32 = c->tf32};
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
        if (c->ta == PTOSIM_DT_F32 && a5) a = tf32_round(a, c->tf32), b = tf32_round(b, c->tf32);
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
  expect_rule(a5, ptosim_tmatmul(c5, &p), "tmatmul.tile");
  p = base_mm(PTOSIM_TARGET_A5, false), p.dst.fractal = 100;
  expect_rule(a5, ptosim_tmatmul(c5, &p), "tmatmul.tile");
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
  p = base_mm(PTOSIM_TARGET_A5, false), p.dst.valid_rows = 16;
  expect_rule(a5, ptosim_tmatmul(c5, &p), "tmatmul.shape");
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

int main(void) {
  RUN(test_matmul_dtypes);
  RUN(test_matmul_shapes);
  RUN(test_gemv);
  RUN(test_mx);
  RUN(test_acc_seeds_chain);
  RUN(test_matmul_negative);
  return pt_test_finish();
}
