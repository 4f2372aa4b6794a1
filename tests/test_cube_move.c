/* Cube data movement: pto.mte_gm_l1_frac, pto.mte_l1_l0a / l0b (+ raw load_cbuf_to_ca / cb),
 * pto.mte_l1_l0a_mx / l0b_mx, pto.mte_l1_bt, pto.mte_l1_fb.
 * Every positive case pre-fills the whole destination space with a random sentinel, applies
 * an independent reference (naive loops over logical indices, written from the formulas in
 * the spec / docs/spec-notes.md, not from the code under test) to a copy of it, runs the op
 * and compares the whole space byte for byte. */
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "core/dtype.h"
#include "harness.h"
#include "isa/mx_layout.h"
#include "ptosim/ptosim.h"

static unsigned long long seed = 0x9E3779B97F4A7C15ull;

typedef struct env {
  ptosim_machine *m;
  ptosim_core *c;
} env;

static env env_new(ptosim_target t) {
  env e;
  e.m = ptosim_machine_new(t, 1);
  e.c = ptosim_core_of(e.m, 0, PTOSIM_AIC);
  return e;
}

static void rand_fill(uint8_t *p, size_t n) {
  for (size_t i = 0; i < n; i++) p[i] = (uint8_t)pt_rand_u64(&seed);
}

/* Fill a whole local space with random bytes; return a copy (the expected image). */
static uint8_t *sentinel(env *e, ptosim_space s) {
  size_t cap = (size_t)ptosim_space_capacity(e->m, s);
  uint8_t *img = malloc(cap);
  rand_fill(img, cap);
  CHECK(ptosim_mem_write(e->c, s, 0, img, cap) == PTOSIM_OK);
  return img;
}

static uint8_t *snapshot(env *e, ptosim_space s) {
  size_t cap = (size_t)ptosim_space_capacity(e->m, s);
  uint8_t *img = malloc(cap);
  CHECK(ptosim_mem_read(e->c, s, 0, img, cap) == PTOSIM_OK);
  return img;
}

/* Compare a whole space with the expected image; report the first differing byte. */
static void space_equals(env *e, ptosim_space s, const uint8_t *expect, const char *what) {
  size_t cap = (size_t)ptosim_space_capacity(e->m, s);
  uint8_t *got = snapshot(e, s);
  size_t i = 0;
  while (i < cap && got[i] == expect[i]) i++;
  CHECK_MSG(i == cap, "%s: space %d byte 0x%zx got %02x want %02x", what, (int)s, i, i < cap ? got[i] : 0,
            i < cap ? expect[i] : 0);
  free(got);
}

/* End of a positive case: the op returned st == OK and the whole space s equals the expected
 * image. Frees both images and the machine. */
static void finish(env *e, ptosim_status st, ptosim_space s, uint8_t *img, uint8_t *src_img, const char *what) {
  CHECK_MSG(st == PTOSIM_OK, "%s: %s", what, ptosim_last_diag(e->m)->msg);
  space_equals(e, s, img, what);
  free(img);
  free(src_img);
  ptosim_machine_free(e->m);
}

/* A negative case: the op returned `want` with diagnostic rule `rule`. */
static void expect(env *e, ptosim_status got, ptosim_status want, const char *rule) {
  const ptosim_diag *d = ptosim_last_diag(e->m);
  CHECK_MSG(got == want && !strcmp(d->rule, rule), "want status %d [%s], got %d [%s] (%s)", (int)want, rule, (int)got,
            d->rule, d->msg);
}

static int64_t cdiv(int64_t a, int64_t b) { return (a + b - 1) / b; }

static int64_t esz(ptosim_dtype t) { return (int64_t)pt_dtype_size(t); }

/* ======================================================================================= */
/* pto.mte_gm_l1_frac */
typedef struct frac_case {
  ptosim_dtype t;
  ptosim_frac_mode mode;
  int64_t n, d, inner, outer, groups, l2, l3, l4;
  bool small;
  uint64_t dst;
} frac_case;

/* Source byte offset of logical element [g][n][d] (spec "Reference addressing"). */
static int64_t frac_src(const frac_case *f, int64_t g, int64_t n, int64_t d) {
  int64_t es = esz(f->t);
  return g * f->outer + (f->mode == PTOSIM_ND2NZ ? n * f->inner + d * es : d * f->inner + n * es);
}

/* Reference: normal mode writes [g][n][d] at g*L4*32 + (d/C0)*L3*32 + n*L2*32 + (d%C0)*es and
 * zeros in lanes d_value .. end of the last C0 block; small-C0 writes 4 lanes per row densely
 * from g*L4*32 (zeros for d >= d_value) and zeros up to the next 32-byte boundary. */
static void ref_frac(uint8_t *l1, const uint8_t *gm, const frac_case *f) {
  int64_t es = esz(f->t), c0 = 32 / es;
  for (int64_t g = 0; g < f->groups; g++) {
    uint8_t *base = l1 + f->dst + g * f->l4 * 32;
    if (f->small) {
      int64_t end = cdiv(f->n * 4 * es, 32) * 32;
      memset(base, 0, (size_t)end);
      for (int64_t n = 0; n < f->n; n++)
        for (int64_t d = 0; d < f->d; d++) memcpy(base + (n * 4 + d) * es, gm + frac_src(f, g, n, d), (size_t)es);
      continue;
    }
    for (int64_t n = 0; n < f->n; n++)
      for (int64_t d = 0; d < cdiv(f->d, c0) * c0; d++) {
        uint8_t *t = base + (d / c0) * f->l3 * 32 + n * f->l2 * 32 + (d % c0) * es;
        if (d < f->d)
          memcpy(t, gm + frac_src(f, g, n, d), (size_t)es);
        else
          memset(t, 0, (size_t)es);
      }
  }
}

/* GM bytes the case reads (for sizing its buffer). */
static int64_t frac_src_extent(const frac_case *f) {
  return frac_src(f, f->groups - 1, f->n - 1, f->d - 1) + esz(f->t);
}

static ptosim_frac_params frac_params(const frac_case *f, uint64_t gm) {
  ptosim_frac_params p = {
      .src = ptosim_ptr_make(PTOSIM_GM, f->t, gm),
      .dst = ptosim_ptr_make(PTOSIM_L1, f->t, f->dst),
      .mode = f->mode,
      .n_value = f->n,
      .d_value = f->d,
      .src_inner_stride = f->inner,
      .src_outer_stride = f->outer,
      .group_count = f->groups,
      .dst_loop2_stride = f->l2,
      .dst_loop3_stride = f->l3,
      .dst_loop4_stride = f->l4,
      .l2_cache_ctrl = 2,
      .smallc0_en = f->small,
  };
  return p;
}

static void run_frac(ptosim_target tgt, const frac_case *f) {
  env e = env_new(tgt);
  size_t bytes = (size_t)frac_src_extent(f);
  uint8_t *gm = malloc(bytes);
  rand_fill(gm, bytes);
  uint64_t ga;
  CHECK(ptosim_gm_map(e.m, gm, bytes, &ga) == PTOSIM_OK);
  uint8_t *img = sentinel(&e, PTOSIM_L1);
  ref_frac(img, gm, f);
  ptosim_frac_params p = frac_params(f, ga);
  char what[160];
  snprintf(what, sizeof what, "frac %s %s n=%lld d=%lld g=%lld l2=%lld l3=%lld l4=%lld small=%d",
           f->mode == PTOSIM_ND2NZ ? "nd2nz" : "dn2nz", pt_dtype_name(f->t), (long long)f->n, (long long)f->d,
           (long long)f->groups, (long long)f->l2, (long long)f->l3, (long long)f->l4, f->small);
  finish(&e, ptosim_mte_gm_l1_frac(e.c, &p), PTOSIM_L1, img, gm, what);
}

static const ptosim_dtype frac_types[] = {PTOSIM_DT_F16, PTOSIM_DT_F32,  PTOSIM_DT_I8,     PTOSIM_DT_BF16,
                                          PTOSIM_DT_I32, PTOSIM_DT_HIF8, PTOSIM_DT_F8E4M3, PTOSIM_DT_U16};

/* Many shapes, strides with gaps, several groups, both modes, every width, both targets. */
static void test_frac_shapes(void) {
  static const int64_t shapes[][2] = {{1, 1},   {3, 5},   {16, 16}, {17, 33}, {40, 50},
                                      {50, 60}, {7, 100}, {33, 8},  {2, 64}};
  for (int tg = 0; tg < 2; tg++)
    for (size_t ti = 0; ti < sizeof frac_types / sizeof *frac_types; ti++)
      for (size_t si = 0; si < sizeof shapes / sizeof *shapes; si++)
        for (int mode = 0; mode < 2; mode++) {
          frac_case f = {.t = frac_types[ti], .mode = (ptosim_frac_mode)mode, .n = shapes[si][0], .d = shapes[si][1]};
          int64_t es = esz(f.t), c1 = cdiv(f.d * es, 32);
          int64_t gap = (int64_t)(si % 3) * es * 3; /* bytes of gap after each source line */
          f.inner = (mode == PTOSIM_ND2NZ ? f.d : f.n) * es + gap;
          f.groups = 1 + (int64_t)(si % 3);
          f.outer = (mode == PTOSIM_ND2NZ ? f.n : f.d) * f.inner + (int64_t)(ti % 2) * 64;
          f.l2 = 1 + (int64_t)(ti % 2);
          f.l3 = (f.n - 1) * f.l2 + 1 + (int64_t)(si % 2) * 5; /* padded rows per C0 block */
          f.l4 = c1 * f.l3 + (int64_t)(si % 2);
          f.dst = 32 * (uint64_t)(si * 7 % 5);
          run_frac(tg ? PTOSIM_TARGET_A5 : PTOSIM_TARGET_A2A3, &f);
        }
}

/* Interleaved placements that are legal: blocks between rows (L3 < L2), groups between rows
 * (L4 = 1, the FractalZ use of pto-isa TLoadNCHW2FractalZ), and a non-nested pattern. */
static void test_frac_interleaved(void) {
  /* rows 3 units apart, their 3 C0 blocks 1 apart */
  frac_case a = {PTOSIM_DT_F16, PTOSIM_ND2NZ, 5, 40, 80, 0, 1, 3, 1, 0, false, 0};
  run_frac(PTOSIM_TARGET_A5, &a);
  frac_case b = {PTOSIM_DT_F32, PTOSIM_DN2NZ, 6, 12, 64, 4096, 4, 4, 4 * 6, 1, false, 64};
  run_frac(PTOSIM_TARGET_A5, &b);
  /* rows at 0, 2, 4 and C0 blocks +3: {0,2,4,3,5,7}, not a nest but disjoint */
  frac_case c = {PTOSIM_DT_I8, PTOSIM_ND2NZ, 3, 64, 64, 0, 1, 2, 3, 0, false, 0};
  run_frac(PTOSIM_TARGET_A2A3, &c);
  /* the two cases of the corpus gating kernel cube-load-frac-layouts (shapes and strides) */
  frac_case g1 = {PTOSIM_DT_F16, PTOSIM_ND2NZ, 40, 50, 100, 0, 1, 1, 48, 0, false, 0};
  frac_case g2 = {PTOSIM_DT_F16, PTOSIM_ND2NZ, 50, 60, 120, 0, 1, 1, 64, 0, false, 8192};
  run_frac(PTOSIM_TARGET_A5, &g1);
  run_frac(PTOSIM_TARGET_A5, &g2);
  /* the spec example: shape(32,16) src_layout(32,1024) dst_group(2,1,16,64) */
  frac_case ex = {PTOSIM_DT_F16, PTOSIM_ND2NZ, 32, 16, 32, 1024, 2, 1, 16, 64, false, 0};
  run_frac(PTOSIM_TARGET_A5, &ex);
}

/* Small-C0 packing (A5): every width, d = 1..4, several groups, both modes. */
static void test_frac_smallc0(void) {
  static const ptosim_dtype ts[] = {PTOSIM_DT_F16, PTOSIM_DT_F32, PTOSIM_DT_I8, PTOSIM_DT_BF16};
  for (size_t ti = 0; ti < 4; ti++)
    for (int64_t d = 1; d <= 4; d++)
      for (int mode = 0; mode < 2; mode++) {
        int64_t n = 5 + d * 3, es = esz(ts[ti]);
        frac_case f = {.t = ts[ti], .mode = (ptosim_frac_mode)mode, .n = n, .d = d, .groups = 3, .small = true};
        f.inner = (mode == PTOSIM_ND2NZ ? d : n) * es + 2 * es;
        f.outer = (mode == PTOSIM_ND2NZ ? n : d) * f.inner + 4;
        f.l2 = 7; /* ignored in small-C0 mode */
        f.l3 = 0;
        f.l4 = cdiv(n * 4 * es, 32) + (int64_t)ti;
        f.dst = 96;
        run_frac(PTOSIM_TARGET_A5, &f);
      }
}

/* n_value == 0 / d_value == 0 are no-ops: nothing is written, nothing read. */
static void test_frac_nop(void) {
  env e = env_new(PTOSIM_TARGET_A5);
  uint8_t *img = sentinel(&e, PTOSIM_L1);
  frac_case f = {PTOSIM_DT_F16, PTOSIM_ND2NZ, 0, 16, 32, 0, 1, 1, 16, 0, false, 0};
  ptosim_frac_params p = frac_params(&f, 0); /* GM address 0 is unmapped: must not be touched */
  CHECK(ptosim_mte_gm_l1_frac(e.c, &p) == PTOSIM_OK);
  p.n_value = 4;
  p.d_value = 0;
  CHECK(ptosim_mte_gm_l1_frac(e.c, &p) == PTOSIM_OK);
  finish(&e, PTOSIM_OK, PTOSIM_L1, img, NULL, "frac nop");
}

static void frac_expect(ptosim_target tgt, frac_case f, void (*edit)(ptosim_frac_params *), ptosim_status want,
                        const char *rule) {
  env e = env_new(tgt);
  static uint8_t gm[1 << 16];
  uint64_t ga;
  CHECK(ptosim_gm_map(e.m, gm, sizeof gm, &ga) == PTOSIM_OK);
  ptosim_frac_params p = frac_params(&f, ga);
  if (edit) edit(&p);
  expect(&e, ptosim_mte_gm_l1_frac(e.c, &p), want, rule);
  ptosim_machine_free(e.m);
}

static void e_src_l1(ptosim_frac_params *p) { p->src.space = PTOSIM_L1; }

static void e_dst_ub(ptosim_frac_params *p) { p->dst.space = PTOSIM_UB; }

static void e_i4(ptosim_frac_params *p) { p->src.dtype = p->dst.dtype = PTOSIM_DT_I4; }

static void e_i64(ptosim_frac_params *p) { p->src.dtype = p->dst.dtype = PTOSIM_DT_I64; }

static void e_mixed(ptosim_frac_params *p) { p->dst.dtype = PTOSIM_DT_F32; }

static void e_mode(ptosim_frac_params *p) { p->mode = (ptosim_frac_mode)7; }

static void e_n_big(ptosim_frac_params *p) { p->n_value = 65536; }

static void e_d_big(ptosim_frac_params *p) { p->d_value = 1 << 21; }

static void e_n_neg(ptosim_frac_params *p) { p->n_value = -1; }

static void e_groups0(ptosim_frac_params *p) { p->group_count = 0; }

static void e_l2c(ptosim_frac_params *p) { p->l2_cache_ctrl = 16; }

static void e_loop2_neg(ptosim_frac_params *p) { p->dst_loop2_stride = -1; }

static void e_loop4_big(ptosim_frac_params *p) { p->dst_loop4_stride = 65536; }

static void e_inner_big(ptosim_frac_params *p) { p->src_inner_stride = (int64_t)1 << 40; }

static void e_outer_neg(ptosim_frac_params *p) { p->src_outer_stride = -32; }

static void e_small5(ptosim_frac_params *p) {
  p->smallc0_en = true;
  p->d_value = 5;
}

static void e_small(ptosim_frac_params *p) {
  p->smallc0_en = true;
  p->d_value = 3;
}

static void e_dst_misalign(ptosim_frac_params *p) { p->dst.addr = 16; }

static void e_dst_far(ptosim_frac_params *p) { p->dst.addr = 512 * 1024 - 256; }

static void e_src_far(ptosim_frac_params *p) { p->n_value = 4096; }

static void test_frac_errors(void) {
  frac_case ok = {PTOSIM_DT_F16, PTOSIM_ND2NZ, 16, 16, 32, 0, 1, 1, 16, 0, false, 0};
  frac_expect(PTOSIM_TARGET_A5, ok, e_src_l1, PTOSIM_E_VERIFY, "op.space");
  frac_expect(PTOSIM_TARGET_A5, ok, e_dst_ub, PTOSIM_E_VERIFY, "op.space");
  frac_expect(PTOSIM_TARGET_A5, ok, e_i4, PTOSIM_E_VERIFY, "frac.dtype");
  frac_expect(PTOSIM_TARGET_A5, ok, e_i64, PTOSIM_E_VERIFY, "frac.dtype");
  frac_expect(PTOSIM_TARGET_A5, ok, e_mixed, PTOSIM_E_VERIFY, "frac.dtype");
  frac_expect(PTOSIM_TARGET_A5, ok, e_mode, PTOSIM_E_VERIFY, "frac.mode");
  frac_expect(PTOSIM_TARGET_A5, ok, e_n_big, PTOSIM_E_VERIFY, "frac.range");
  frac_expect(PTOSIM_TARGET_A5, ok, e_d_big, PTOSIM_E_VERIFY, "frac.range");
  frac_expect(PTOSIM_TARGET_A5, ok, e_n_neg, PTOSIM_E_VERIFY, "frac.range");
  frac_expect(PTOSIM_TARGET_A5, ok, e_groups0, PTOSIM_E_VERIFY, "frac.range");
  frac_expect(PTOSIM_TARGET_A5, ok, e_l2c, PTOSIM_E_VERIFY, "frac.range");
  frac_expect(PTOSIM_TARGET_A5, ok, e_loop2_neg, PTOSIM_E_VERIFY, "frac.range");
  frac_expect(PTOSIM_TARGET_A5, ok, e_loop4_big, PTOSIM_E_VERIFY, "frac.range");
  frac_expect(PTOSIM_TARGET_A5, ok, e_inner_big, PTOSIM_E_VERIFY, "frac.range");
  frac_expect(PTOSIM_TARGET_A5, ok, e_outer_neg, PTOSIM_E_VERIFY, "frac.range");
  frac_expect(PTOSIM_TARGET_A5, ok, e_small5, PTOSIM_E_VERIFY, "frac.smallc0_d");
  frac_expect(PTOSIM_TARGET_A2A3, ok, e_small, PTOSIM_E_VERIFY, "frac.smallc0_target");
  frac_expect(PTOSIM_TARGET_A5, ok, e_dst_misalign, PTOSIM_E_FAULT, "mem.align");
  frac_expect(PTOSIM_TARGET_A5, ok, e_dst_far, PTOSIM_E_FAULT, "mem.bounds");
  frac_expect(PTOSIM_TARGET_A5, ok, e_src_far, PTOSIM_E_FAULT, "mem.bounds");
  /* overlapping destination pieces */
  frac_case rows0 = {PTOSIM_DT_F16, PTOSIM_ND2NZ, 2, 16, 32, 0, 1, 0, 16, 0, false, 0};
  frac_expect(PTOSIM_TARGET_A5, rows0, NULL, PTOSIM_E_VERIFY, "frac.dst_overlap");
  frac_case blocks = {PTOSIM_DT_F16, PTOSIM_ND2NZ, 16, 40, 80, 0, 1, 1, 8, 0, false, 0};
  frac_expect(PTOSIM_TARGET_A5, blocks, NULL, PTOSIM_E_VERIFY, "frac.dst_overlap");
  frac_case groups = {PTOSIM_DT_F32, PTOSIM_DN2NZ, 16, 8, 64, 512, 2, 1, 16, 15, false, 0};
  frac_expect(PTOSIM_TARGET_A2A3, groups, NULL, PTOSIM_E_VERIFY, "frac.dst_overlap");
  frac_case bitmap = {PTOSIM_DT_I8, PTOSIM_ND2NZ, 3, 64, 64, 0, 1, 2, 4, 0, false, 0}; /* {0,2,4}+{0,4} */
  frac_expect(PTOSIM_TARGET_A5, bitmap, NULL, PTOSIM_E_VERIFY, "frac.dst_overlap");
  frac_case small = {PTOSIM_DT_F16, PTOSIM_ND2NZ, 9, 3, 6, 64, 2, 1, 0, 2, true, 0}; /* 9 rows = 3 units > 2 */
  frac_expect(PTOSIM_TARGET_A5, small, NULL, PTOSIM_E_VERIFY, "frac.dst_overlap");
}

/* ======================================================================================= */
/* L1 -> L0A / L0B */

/* Reference of one fractal load in element terms. Destination element [r][c] (r < rows,
 * c < cols, padded extents) is written at NZ offset (c/C0)*dpitch*32 + r*32 + (c%C0)*es (or,
 * zz, at the ZZ offset with cols/C0 blocks per 16-row block). Its source is element [x][y]
 * of the L1 NZ image (x = c, y = r when transposed, else x = r, y = c) at
 * (y/C0 + sc)*spitch*32 + (x + 16*sr)*32 + (y%C0)*es. */
typedef struct l0_ref {
  int64_t es, rows, cols, dpitch, spitch, sr, sc;
  bool tr, zz;
} l0_ref;

static void ref_l0(uint8_t *l0, uint64_t dst, const uint8_t *l1, uint64_t src, const l0_ref *q) {
  int64_t c0 = 32 / q->es;
  for (int64_t r = 0; r < q->rows; r++)
    for (int64_t c = 0; c < q->cols; c++) {
      int64_t x = q->tr ? c : r, y = q->tr ? r : c;
      int64_t so = (y / c0 + q->sc) * q->spitch * 32 + (x + 16 * q->sr) * 32 + (y % c0) * q->es;
      int64_t dof = q->zz ? (r / 16) * (q->cols / c0) * 512 + (c / c0) * 512 + (r % 16) * 32 + (c % c0) * q->es
                          : (c / c0) * q->dpitch * 32 + r * 32 + (c % c0) * q->es;
      memcpy(l0 + dst + dof, l1 + src + so, (size_t)q->es);
    }
}

/* The wrapper's expected reference geometry (outer = M for l0a / N for l0b, k = K). */
static l0_ref wrapper_ref(ptosim_dtype t, int64_t outer, int64_t k, int64_t sr, int64_t sc, bool tr, bool zz) {
  int64_t es = esz(t), c0 = 32 / es, g = c0 > 16 ? c0 : 16;
  l0_ref q = {.es = es, .sr = sr, .sc = sc, .tr = tr, .zz = zz};
  if (!tr) {
    q.rows = q.dpitch = q.spitch = cdiv(outer, 16) * 16;
    q.cols = cdiv(k, c0) * c0;
  } else {
    q.rows = q.dpitch = cdiv(outer, g) * g;
    q.cols = q.spitch = cdiv(k, g) * g;
  }
  return q;
}

static void run_l0(ptosim_target tgt, bool is_a, ptosim_dtype t, int64_t rows, int64_t cols, int64_t sr, int64_t sc,
                   bool tr, uint64_t src, uint64_t dst) {
  env e = env_new(tgt);
  ptosim_space ds = is_a ? PTOSIM_L0A : PTOSIM_L0B;
  uint8_t *l1 = sentinel(&e, PTOSIM_L1);
  uint8_t *img = sentinel(&e, ds);
  int64_t outer = is_a ? rows : cols, k = is_a ? cols : rows;
  l0_ref q = wrapper_ref(t, outer, k, sr, sc, tr, is_a && tgt == PTOSIM_TARGET_A2A3);
  ref_l0(img, dst, l1, src, &q);
  ptosim_l0_load_params p = {ptosim_ptr_make(PTOSIM_L1, t, src), ptosim_ptr_make(ds, t, dst), rows, cols, sr, sc, tr};
  char what[160];
  snprintf(what, sizeof what, "%s %s %s %lldx%lld start %lld,%lld tr=%d", tgt == PTOSIM_TARGET_A5 ? "a5" : "a2a3",
           is_a ? "l0a" : "l0b", pt_dtype_name(t), (long long)rows, (long long)cols, (long long)sr, (long long)sc, tr);
  finish(&e, is_a ? ptosim_mte_l1_l0a(e.c, &p) : ptosim_mte_l1_l0b(e.c, &p), ds, img, l1, what);
}

static const ptosim_dtype l0_types[] = {PTOSIM_DT_F16, PTOSIM_DT_BF16, PTOSIM_DT_F32,    PTOSIM_DT_I32,
                                        PTOSIM_DT_I8,  PTOSIM_DT_HIF8, PTOSIM_DT_F8E4M3, PTOSIM_DT_F8E5M2};

static void test_l0_wrapper(void) {
  static const int64_t shapes[][2] = {{16, 16}, {1, 32}, {17, 33}, {40, 50}, {32, 64}, {48, 8}, {5, 100}, {64, 96}};
  for (int tg = 0; tg < 2; tg++)
    for (size_t ti = 0; ti < sizeof l0_types / sizeof *l0_types; ti++)
      for (size_t si = 0; si < sizeof shapes / sizeof *shapes; si++)
        for (int is_a = 0; is_a < 2; is_a++)
          for (int tr = 0; tr < 2; tr++) {
            ptosim_target tgt = tg ? PTOSIM_TARGET_A5 : PTOSIM_TARGET_A2A3;
            int64_t rows = shapes[si][0], cols = shapes[si][1];
            int64_t g = esz(l0_types[ti]) == 1 ? 32 : 16;
            if (tgt == PTOSIM_TARGET_A2A3 && tr) { /* A2/A3 transposes whole blocks only */
              rows = cdiv(rows, g) * g;
              cols = cdiv(cols, g) * g;
            }
            int64_t sr = (int64_t)(si % 3), sc = (int64_t)(ti % 2);
            run_l0(tgt, is_a, l0_types[ti], rows, cols, sr, sc, tr, 1024 * (uint64_t)(si % 4), 32 * (uint64_t)(si % 3));
          }
}

/* The layout contract with the mad family (src/core/layout.h), checked end to end from GM
 * with formulas written here: A (m x k, ND in GM) -> nd2nz -> l0a; B (k x n, ND in GM) ->
 * nd2nz -> l0b transposed, and B via dn2nz as B^T -> l0b not transposed. */
static int64_t l0a_addr(bool zz, int64_t m, int64_t k, int64_t M, int64_t K, int64_t es) {
  int64_t c0 = 32 / es;
  if (zz) return (m / 16) * cdiv(K, c0) * 512 + (k / c0) * 512 + (m % 16) * 32 + (k % c0) * es;
  return (k / c0) * cdiv(M, 16) * 16 * 32 + m * 32 + (k % c0) * es;
}

/* One group, rows packed (loop2 = 1), `l3` rows per C0 block, GM -> L1 address l1. */
static ptosim_status frac_one(env *e, ptosim_dtype t, uint64_t gm, uint64_t l1, ptosim_frac_mode mode, int64_t n,
                              int64_t d, int64_t inner, int64_t l3) {
  frac_case f = {.t = t, .mode = mode, .n = n, .d = d, .inner = inner, .groups = 1, .l2 = 1, .l3 = l3, .dst = l1};
  ptosim_frac_params p = frac_params(&f, gm);
  return ptosim_mte_gm_l1_frac(e->c, &p);
}

static void contract_case(ptosim_target tgt, ptosim_dtype t, int64_t M, int64_t N, int64_t K) {
  env e = env_new(tgt);
  int64_t es = esz(t);
  size_t ab = (size_t)(M * K * es), bb = (size_t)(K * N * es);
  uint8_t *a = malloc(ab), *b = malloc(bb);
  rand_fill(a, ab);
  rand_fill(b, bb);
  uint64_t ga = 0, gb = 0;
  CHECK(ptosim_gm_map(e.m, a, ab, &ga) == PTOSIM_OK && ptosim_gm_map(e.m, b, bb, &gb) == PTOSIM_OK);
  int64_t mp = cdiv(M, 16) * 16, np = cdiv(N, 16) * 16, kp = cdiv(K, 16) * 16;
  /* A: rows M (padded to 16) per C0 block; B: rows K (padded to 16); B^T: rows N (padded) */
  CHECK(frac_one(&e, t, ga, 0, PTOSIM_ND2NZ, M, K, K * es, mp) == PTOSIM_OK);
  CHECK(frac_one(&e, t, gb, 131072, PTOSIM_ND2NZ, K, N, N * es, kp) == PTOSIM_OK);
  CHECK(frac_one(&e, t, gb, 262144, PTOSIM_DN2NZ, N, K, N * es, np) == PTOSIM_OK);
  ptosim_l0_load_params la = {ptosim_ptr_make(PTOSIM_L1, t, 0), ptosim_ptr_make(PTOSIM_L0A, t, 0), M, K, 0, 0, false};
  ptosim_l0_load_params lb = {ptosim_ptr_make(PTOSIM_L1, t, 131072), ptosim_ptr_make(PTOSIM_L0B, t, 0), K, N, 0, 0, 1};
  ptosim_l0_load_params lbt = la;
  lbt.src.addr = 262144;
  lbt.dst = ptosim_ptr_make(PTOSIM_L0B, t, 32768);
  lbt.rows = K;
  lbt.cols = N;
  CHECK(ptosim_mte_l1_l0a(e.c, &la) == PTOSIM_OK);
  CHECK_MSG(ptosim_mte_l1_l0b(e.c, &lb) == PTOSIM_OK, "%s", ptosim_last_diag(e.m)->msg);
  CHECK(ptosim_mte_l1_l0b(e.c, &lbt) == PTOSIM_OK);
  uint8_t *l0a = snapshot(&e, PTOSIM_L0A), *l0b = snapshot(&e, PTOSIM_L0B);
  int bad = 0;
  bool zz = tgt == PTOSIM_TARGET_A2A3;
  for (int64_t m = 0; m < M; m++)
    for (int64_t k = 0; k < K; k++)
      bad += memcmp(l0a + l0a_addr(zz, m, k, M, K, es), a + (m * K + k) * es, (size_t)es) != 0;
  for (int64_t k = 0; k < K; k++)
    for (int64_t n = 0; n < N; n++) {
      int64_t off = l0a_addr(false, n, k, N, K, es); /* B^T [n][k] stored NZ, rows N */
      bad += memcmp(l0b + off, b + (k * N + n) * es, (size_t)es) != 0;
      bad += memcmp(l0b + 32768 + off, b + (k * N + n) * es, (size_t)es) != 0;
    }
  CHECK_MSG(bad == 0, "contract %s M=%lld N=%lld K=%lld: %d mismatches", pt_dtype_name(t), (long long)M, (long long)N,
            (long long)K, bad);
  free(l0a);
  free(l0b);
  free(a);
  free(b);
  ptosim_machine_free(e.m);
}

static void test_l0_contract(void) {
  contract_case(PTOSIM_TARGET_A5, PTOSIM_DT_F16, 40, 60, 50);
  contract_case(PTOSIM_TARGET_A5, PTOSIM_DT_F32, 17, 24, 33);
  contract_case(PTOSIM_TARGET_A5, PTOSIM_DT_BF16, 1, 16, 32);
  contract_case(PTOSIM_TARGET_A5, PTOSIM_DT_F8E4M3, 16, 64, 64); /* 8-bit transposed: N multiple of 32 */
  contract_case(PTOSIM_TARGET_A5, PTOSIM_DT_I8, 33, 32, 96);
  contract_case(PTOSIM_TARGET_A2A3, PTOSIM_DT_F16, 48, 32, 64);
  contract_case(PTOSIM_TARGET_A2A3, PTOSIM_DT_F32, 16, 16, 32);
  contract_case(PTOSIM_TARGET_A2A3, PTOSIM_DT_I8, 32, 64, 64);
}

/* 8-bit transposed l0b with n % 32 != 0 (corpus mad_mx / mad_hif8: k = 64, n = 16): the
 * destination K blocks are 32*32 bytes apart (PTOAS dst_stride = 32/16 = 2), so the second
 * half of each transposed 32x32 block sits where the MAD (rows 16) reads the next K block. */
static void test_l0_b8_corpus_shape(void) {
  env e = env_new(PTOSIM_TARGET_A5);
  uint8_t *l1 = sentinel(&e, PTOSIM_L1);
  uint8_t *img = sentinel(&e, PTOSIM_L0B);
  uint8_t b[64 * 16];
  for (int i = 0; i < 64 * 16; i++) b[i] = (uint8_t)(i * 7 + 1);
  CHECK(ptosim_mem_write(e.c, PTOSIM_L1, 1088, b, sizeof b) == PTOSIM_OK); /* raw bytes as in the corpus */
  memcpy(l1 + 1088, b, sizeof b);
  ptosim_ptr src = ptosim_ptr_make(PTOSIM_L1, PTOSIM_DT_F8E4M3, 1088);
  ptosim_l0_load_params p = {src, ptosim_ptr_make(PTOSIM_L0B, PTOSIM_DT_F8E4M3, 0), 64, 16, 0, 0, true};
  ptosim_status st = ptosim_mte_l1_l0b(e.c, &p);
  /* B is the NZ image with 64 rows of 32 bytes; T[n][k] = B[k][n] for n < 32, k < 64 goes to
   * (k/32)*1024 + n*32 + k%32 */
  for (int n = 0; n < 32; n++)
    for (int k = 0; k < 64; k++) img[(k / 32) * 1024 + n * 32 + k % 32] = l1[1088 + k * 32 + n];
  uint8_t got[1024];
  CHECK(ptosim_mem_read(e.c, PTOSIM_L0B, 0, got, sizeof got) == PTOSIM_OK);
  /* what a rows-16 reader sees as B^T[n][k] for k in 32..63 is B[k-32][n+16] */
  CHECK(got[512 + 3 * 32 + 5] == b[5 * 32 + 3 + 16]);
  finish(&e, st, PTOSIM_L0B, img, l1, "b8 transposed n=16");
}

/* Raw A5 control: L1 src -> l0a / l0b dst, fractal starts, steps and strides (ops.h units). */
static ptosim_l0_raw_params raw_ctl(bool is_a, ptosim_dtype t, uint64_t src, uint64_t dst, const int64_t c[6],
                                    bool tr) {
  ptosim_l0_raw_params p = {.src = ptosim_ptr_make(PTOSIM_L1, t, src), .transpose = tr};
  p.dst = ptosim_ptr_make(is_a ? PTOSIM_L0A : PTOSIM_L0B, t, dst);
  p.m_start = c[0], p.k_start = c[1], p.m_step = c[2], p.k_step = c[3], p.src_stride = c[4], p.dst_stride = c[5];
  return p;
}

/* Raw A5 form: explicit fractal control, every width, transposed and not. */
static void run_raw(bool is_a, ptosim_dtype t, ptosim_l0_raw_params p) {
  env e = env_new(PTOSIM_TARGET_A5);
  ptosim_space ds = is_a ? PTOSIM_L0A : PTOSIM_L0B;
  uint8_t *l1 = sentinel(&e, PTOSIM_L1);
  uint8_t *img = sentinel(&e, ds);
  int64_t es = esz(t), c0 = 32 / es;
  l0_ref q = {.es = es,
              .dpitch = 16 * p.dst_stride,
              .spitch = 16 * p.src_stride,
              .sr = p.m_start,
              .sc = p.k_start,
              .tr = p.transpose};
  q.rows = p.transpose ? c0 * p.k_step : 16 * p.m_step;
  q.cols = p.transpose ? 16 * p.m_step : c0 * p.k_step;
  ref_l0(img, p.dst.addr, l1, p.src.addr, &q);
  p.src.dtype = p.dst.dtype = t;
  finish(&e, is_a ? ptosim_load_cbuf_to_ca(e.c, &p) : ptosim_load_cbuf_to_cb(e.c, &p), ds, img, l1,
         is_a ? "load_cbuf_to_ca" : "load_cbuf_to_cb");
}

static void test_l0_raw(void) {
  for (size_t ti = 0; ti < sizeof l0_types / sizeof *l0_types; ti++)
    for (int is_a = 0; is_a < 2; is_a++)
      for (int tr = 0; tr < 2; tr++) {
        static const int64_t strided[6] = {1, 2, 4, 2, 7, 5}, packed[6] = {0, 0, 2, 2, 2, 4};
        run_raw(is_a, l0_types[ti], raw_ctl(is_a, PTOSIM_DT_NONE, 2048, 512, strided, tr));
        run_raw(is_a, l0_types[ti], raw_ctl(is_a, PTOSIM_DT_NONE, 0, 0, packed, tr));
      }
  /* the corpus GEMV operand load: load_cbuf_to_ca(0, 0, 1, 1, 1, 1) of one f16 fractal */
  static const int64_t gemv[6] = {0, 0, 1, 1, 1, 1};
  run_raw(true, PTOSIM_DT_F16, raw_ctl(true, PTOSIM_DT_NONE, 0, 0, gemv, false));
}

static ptosim_status l0_try(env *e, bool is_a, ptosim_l0_load_params p) {
  return is_a ? ptosim_mte_l1_l0a(e->c, &p) : ptosim_mte_l1_l0b(e->c, &p);
}

static void test_l0_errors(void) {
  env e = env_new(PTOSIM_TARGET_A5), e3 = env_new(PTOSIM_TARGET_A2A3);
  ptosim_ptr l1 = ptosim_ptr_make(PTOSIM_L1, PTOSIM_DT_F16, 0);
  ptosim_ptr l0a = ptosim_ptr_make(PTOSIM_L0A, PTOSIM_DT_F16, 0), l0b = ptosim_ptr_make(PTOSIM_L0B, PTOSIM_DT_F16, 0);
  ptosim_l0_load_params p = {l1, l0a, 16, 16, 0, 0, false};
  p.dst = l0b;
  expect(&e, l0_try(&e, true, p), PTOSIM_E_VERIFY, "op.space");
  p.dst = l0a;
  p.src.space = PTOSIM_GM;
  expect(&e, l0_try(&e, true, p), PTOSIM_E_VERIFY, "op.space");
  p.src = l1;
  p.dst.dtype = PTOSIM_DT_F32;
  expect(&e, l0_try(&e, true, p), PTOSIM_E_VERIFY, "l0.dtype");
  p.dst.dtype = PTOSIM_DT_F16;
  p.src.dtype = p.dst.dtype = PTOSIM_DT_I4;
  expect(
      &e,
      l0_try(&e, false, (ptosim_l0_load_params){p.src, ptosim_ptr_make(PTOSIM_L0B, PTOSIM_DT_I4, 0), 16, 16, 0, 0, 0}),
      PTOSIM_E_VERIFY, "l0.dtype");
  p.src = l1;
  p.dst = l0a;
  p.rows = 0;
  expect(&e, l0_try(&e, true, p), PTOSIM_E_VERIFY, "l0.shape");
  p.rows = 16;
  p.start_row = -1;
  expect(&e, l0_try(&e, true, p), PTOSIM_E_VERIFY, "l0.range");
  p.start_row = 0;
  p.start_col = 65536;
  expect(&e, l0_try(&e, true, p), PTOSIM_E_VERIFY, "l0.range");
  p.start_col = 0;
  p.rows = 5000; /* m_step 313 > 255 */
  expect(&e, l0_try(&e, true, p), PTOSIM_E_VERIFY, "l0.range");
  p.rows = 256;
  p.cols = 256; /* 128 KiB > 64 KiB of L0A */
  expect(&e, l0_try(&e, true, p), PTOSIM_E_FAULT, "mem.bounds");
  p.rows = p.cols = 16;
  p.dst.addr = 16;
  expect(&e, l0_try(&e, true, p), PTOSIM_E_FAULT, "mem.align");
  p.dst.addr = 0;
  p.src.addr = 8;
  expect(&e, l0_try(&e, false, (ptosim_l0_load_params){p.src, l0b, 16, 16, 0, 0, 0}), PTOSIM_E_FAULT, "mem.align");
  p.src.addr = 0;
  /* A2/A3 transposes whole blocks only */
  ptosim_l0_load_params t3 = {l1, l0a, 17, 16, 0, 0, true};
  expect(&e3, l0_try(&e3, true, t3), PTOSIM_E_VERIFY, "l0.transpose_granularity");
  CHECK(l0_try(&e, true, t3) == PTOSIM_OK);
  /* issued from a vector core */
  expect(&e, ptosim_mte_l1_l0a(ptosim_core_of(e.m, 0, PTOSIM_AIV0), &p), PTOSIM_E_VERIFY, "op.unit");
  /* raw form */
  ptosim_l0_raw_params r = {l1, l0a, 0, 0, 1, 1, 1, 1, false};
  expect(&e3, ptosim_load_cbuf_to_ca(e3.c, &r), PTOSIM_E_VERIFY, "l0.raw_target");
  r.m_step = 256;
  expect(&e, ptosim_load_cbuf_to_ca(e.c, &r), PTOSIM_E_VERIFY, "l0.range");
  r.m_step = 1;
  r.dst_stride = 65536;
  expect(&e, ptosim_load_cbuf_to_cb(e.c, &(ptosim_l0_raw_params){l1, l0b, 0, 0, 1, 1, 1, 65536, false}),
         PTOSIM_E_VERIFY, "l0.range");
  static const int64_t odd_m[6] = {0, 0, 3, 1, 4, 2}, odd_k[6] = {0, 0, 2, 3, 2, 2};
  ptosim_l0_raw_params b8 = raw_ctl(false, PTOSIM_DT_I8, 0, 0, odd_m, true);
  expect(&e, ptosim_load_cbuf_to_cb(e.c, &b8), PTOSIM_E_VERIFY, "l0.transpose_granularity");
  ptosim_l0_raw_params b32 = raw_ctl(true, PTOSIM_DT_F32, 0, 0, odd_k, true);
  expect(&e, ptosim_load_cbuf_to_ca(e.c, &b32), PTOSIM_E_VERIFY, "l0.transpose_granularity");
  b32.k_step = 4;
  CHECK(ptosim_load_cbuf_to_ca(e.c, &b32) == PTOSIM_OK);
  ptosim_machine_free(e.m);
  ptosim_machine_free(e3.m);
}

/* ======================================================================================= */
/* MX scale loads */
static void test_mx_layout(void) {
  /* the header's formula against one written here, and the corpus golden (byte m*2+g) */
  for (int64_t k = 32; k <= 256; k += 32)
    for (int64_t r = 0; r < 48; r++)
      for (int64_t g = 0; g < cdiv(k, 32); g++) {
        int64_t boxes = cdiv(k, 64), want = (r / 16) * boxes * 32 + (g / 2) * 32 + (r % 16) * 2 + (g & 1);
        CHECK((int64_t)pt_mx_left_off((uint64_t)r, (uint64_t)g, (uint64_t)k) == want);
        CHECK((int64_t)pt_mx_right_off((uint64_t)g, (uint64_t)r, (uint64_t)k) == want);
        CHECK(want < (int64_t)pt_mx_tile_bytes(48, (uint64_t)k));
      }
  for (int m = 0; m < 16; m++)
    for (int g = 0; g < 2; g++) CHECK(pt_mx_left_off((uint64_t)m, (uint64_t)g, 64) == (uint64_t)(m * 2 + g));
  CHECK(pt_mx_scale_base(512) == 32 && pt_mx_tile_bytes(16, 64) == 32 && pt_mx_tile_bytes(17, 65) == 128);
}

/* The tile of `rows` x k scales starting at 16-row block sr and box sc of the L1 image
 * (pitch: the tile's own boxes per row block) lands at dst. */
static void run_mx(bool left, int64_t rows, int64_t k, uint64_t src, uint64_t dst, int64_t sr, int64_t sc) {
  env e = env_new(PTOSIM_TARGET_A5);
  ptosim_space ss = left ? PTOSIM_L0A_MX : PTOSIM_L0B_MX;
  uint8_t *l1 = sentinel(&e, PTOSIM_L1), *img = sentinel(&e, ss);
  uint8_t *other = sentinel(&e, left ? PTOSIM_L0A : PTOSIM_L0B);
  /* every scale of the logical tile moves to the same offset */
  for (int64_t r = 0; r < cdiv(rows, 16) * 16; r++)
    for (int64_t g = 0; g < cdiv(k, 64) * 2; g++) {
      int64_t off = ((r / 16) * cdiv(k, 64) + g / 2) * 32 + (r % 16) * 2 + g % 2;
      int64_t from = ((r / 16 + sr) * cdiv(k, 64) + g / 2 + sc) * 32 + (r % 16) * 2 + g % 2;
      img[dst + (uint64_t)off] = l1[src + (uint64_t)from];
    }
  ptosim_mx_load_params p = {ptosim_ptr_make(PTOSIM_L1, PTOSIM_DT_F8E4M3, src),
                             ptosim_ptr_make(left ? PTOSIM_L0A : PTOSIM_L0B, PTOSIM_DT_F8E4M3, dst), left ? rows : k,
                             left ? k : rows, sr, sc};
  ptosim_status st = left ? ptosim_mte_l1_l0a_mx(e.c, &p) : ptosim_mte_l1_l0b_mx(e.c, &p);
  space_equals(&e, left ? PTOSIM_L0A : PTOSIM_L0B, other, "mx data buffer untouched");
  free(other);
  finish(&e, st, ss, img, l1, left ? "l0a_mx" : "l0b_mx");
}

static void test_mx_loads(void) {
  static const int64_t shapes[][2] = {{16, 64}, {1, 32}, {17, 64}, {48, 128}, {33, 96}, {64, 256}};
  for (int left = 0; left < 2; left++)
    for (size_t i = 0; i < sizeof shapes / sizeof *shapes; i++)
      run_mx(left, shapes[i][0], shapes[i][1], 1024 + 32 * i, 64 * i, (int64_t)i % 3, (int64_t)i / 2);
}

/* Text forms: vpto-dev's %src, %dst, %m, %k and tonibohnlein's six-operand form with
 * start_row / start_col (here row block 1, box 1 of a K = 128 image: bytes from 96). */
static void test_mx_text(void) {
  static const char src[] =
      "module attributes {pto.kernel_kind = #pto.kernel_kind<cube>} {\n"
      "  func.func @k() attributes {pto.kernel} {\n"
      "    %c0 = arith.constant 0 : i64\n"
      "    %c1 = arith.constant 1 : i64\n"
      "    %c16 = arith.constant 16 : i64\n"
      "    %c64 = arith.constant 64 : i64\n"
      "    %c128 = arith.constant 128 : i64\n"
      "    %l = pto.castptr %c0 : i64 -> !pto.ptr<f8E4M3FN, l1>\n"
      "    %a = pto.castptr %c0 : i64 -> !pto.ptr<f8E4M3FN, l0a>\n"
      "    %b = pto.castptr %c0 : i64 -> !pto.ptr<f8E4M3FN, l0b>\n"
      "    pto.mte_l1_l0a_mx %l, %a, %c16, %c128, %c1, %c1 : !pto.ptr<f8E4M3FN, l1>, !pto.ptr<f8E4M3FN, l0a>, i64, i64, i64, i64\n"
      "    pto.mte_l1_l0b_mx %l, %b, %c64, %c16 : !pto.ptr<f8E4M3FN, l1>, !pto.ptr<f8E4M3FN, l0b>, i64, i64\n"
      "    return\n"
      "  }\n"
      "}\n";
  ptosim_program *p = pt_test_load(src, sizeof src - 1);
  CHECK(p != NULL);
  if (!p) return;
  env e = env_new(PTOSIM_TARGET_A5);
  uint8_t l1[256], a[64], b[32];
  rand_fill(l1, sizeof l1);
  CHECK(ptosim_mem_write(e.c, PTOSIM_L1, 0, l1, sizeof l1) == PTOSIM_OK);
  CHECK_MSG(ptosim_program_run(p, e.m, NULL) == PTOSIM_OK, "%s", ptosim_last_diag(e.m)->msg);
  CHECK(ptosim_mem_read(e.c, PTOSIM_L0A_MX, 0, a, sizeof a) == PTOSIM_OK);
  CHECK(ptosim_mem_read(e.c, PTOSIM_L0B_MX, 0, b, sizeof b) == PTOSIM_OK);
  CHECK(!memcmp(a, l1 + (1 * 2 + 1) * 32, sizeof a)); /* 2 boxes per row block */
  CHECK(!memcmp(b, l1, sizeof b));
  ptosim_machine_free(e.m);
  ptosim_program_free(p);
}

static void test_mx_errors(void) {
  env e = env_new(PTOSIM_TARGET_A5), e3 = env_new(PTOSIM_TARGET_A2A3);
  ptosim_mx_load_params p = {ptosim_ptr_make(PTOSIM_L1, PTOSIM_DT_F8E4M3, 0),
                             ptosim_ptr_make(PTOSIM_L0A, PTOSIM_DT_F8E4M3, 0), 16, 64, 0, 0};
  expect(&e3, ptosim_mte_l1_l0a_mx(e3.c, &p), PTOSIM_E_VERIFY, "mx.target");
  expect(&e, ptosim_mte_l1_l0b_mx(e.c, &p), PTOSIM_E_VERIFY, "op.space"); /* dst must say l0b */
  p.dst.space = PTOSIM_L0A_MX;
  expect(&e, ptosim_mte_l1_l0a_mx(e.c, &p), PTOSIM_E_VERIFY, "op.space");
  p.dst.space = PTOSIM_L0A;
  p.src.dtype = PTOSIM_DT_F16;
  expect(&e, ptosim_mte_l1_l0a_mx(e.c, &p), PTOSIM_E_VERIFY, "mx.dtype");
  p.src.dtype = PTOSIM_DT_F8E4M3;
  p.a = 0;
  expect(&e, ptosim_mte_l1_l0a_mx(e.c, &p), PTOSIM_E_VERIFY, "mx.range");
  p.a = 16;
  p.b = 8161;
  expect(&e, ptosim_mte_l1_l0a_mx(e.c, &p), PTOSIM_E_VERIFY, "mx.range");
  p.a = 512; /* 32 row blocks x 4 boxes x 32 B = 4 KiB fits; one more row block does not */
  p.b = 256;
  CHECK(ptosim_mte_l1_l0a_mx(e.c, &p) == PTOSIM_OK);
  p.a = 513;
  expect(&e, ptosim_mte_l1_l0a_mx(e.c, &p), PTOSIM_E_FAULT, "mem.bounds");
  p.a = 16;
  p.start_col = -1;
  expect(&e, ptosim_mte_l1_l0a_mx(e.c, &p), PTOSIM_E_VERIFY, "mx.range");
  p.start_col = 0, p.start_row = 65536;
  expect(&e, ptosim_mte_l1_l0a_mx(e.c, &p), PTOSIM_E_VERIFY, "mx.range");
  p.start_row = 0;
  p.dst.addr = 16;
  expect(&e, ptosim_mte_l1_l0a_mx(e.c, &p), PTOSIM_E_FAULT, "mem.align");
  ptosim_machine_free(e.m);
  ptosim_machine_free(e3.m);
}

/* ======================================================================================= */
/* pto.mte_l1_bt / pto.mte_l1_fb                                                            */

/* f16 -> f32 bit pattern, written from the IEEE encodings (exact widening). */
static uint32_t ref_f16_bits(uint16_t h) {
  uint32_t sign = (uint32_t)(h >> 15) << 31, ex = (h >> 10) & 31u, f = h & 1023u;
  if (ex == 31) return sign | 0x7F800000u | f << 13;
  if (ex == 0) {
    if (f == 0) return sign;
    uint32_t sh = 0;
    while (!(f & 1024u)) {
      f <<= 1;
      sh++;
    }
    return sign | (113u - sh) << 23 | (f & 1023u) << 13;
  }
  return sign | (ex + 112u) << 23 | f << 13;
}

static uint32_t ref_widen(ptosim_dtype s, const uint8_t *p) {
  uint32_t v = 0;
  if (esz(s) == 4) {
    memcpy(&v, p, 4);
    return v;
  }
  uint16_t h;
  memcpy(&h, p, 2);
  return s == PTOSIM_DT_BF16 ? (uint32_t)h << 16 : ref_f16_bits(h);
}

static void run_bt(ptosim_target tgt, ptosim_dtype s, ptosim_dtype d, ptosim_gap_copy_params p) {
  env e = env_new(tgt);
  int64_t unit = tgt == PTOSIM_TARGET_A5 ? 32 : 64, es = esz(s), per = unit / es;
  uint8_t *l1 = sentinel(&e, PTOSIM_L1), *img = sentinel(&e, PTOSIM_BT);
  for (int64_t b = 0; b < p.count; b++)
    for (int64_t i = 0; i < p.len_burst * per; i++) {
      uint32_t v = ref_widen(s, l1 + p.src.addr + (uint64_t)((b * (p.len_burst + p.src_gap) * per + i) * es));
      memcpy(img + p.dst.addr + (uint64_t)((b * (p.len_burst + p.dst_gap) * per + i) * 4), &v, 4);
    }
  p.src.dtype = s;
  p.dst.dtype = d;
  char what[96];
  snprintf(what, sizeof what, "bt %s->%s %s", pt_dtype_name(s), pt_dtype_name(d),
           tgt == PTOSIM_TARGET_A5 ? "a5" : "a2a3");
  finish(&e, ptosim_mte_l1_bt(e.c, &p), PTOSIM_BT, img, l1, what);
}

static void test_bt(void) {
  static const ptosim_dtype pairs[][2] = {{PTOSIM_DT_F32, PTOSIM_DT_F32},
                                          {PTOSIM_DT_I32, PTOSIM_DT_I32},
                                          {PTOSIM_DT_F16, PTOSIM_DT_F32},
                                          {PTOSIM_DT_BF16, PTOSIM_DT_F32},
                                          {PTOSIM_DT_U32, PTOSIM_DT_I32}};
  for (int tg = 0; tg < 2; tg++)
    for (size_t i = 0; i < sizeof pairs / sizeof *pairs; i++) {
      ptosim_target tgt = tg ? PTOSIM_TARGET_A5 : PTOSIM_TARGET_A2A3;
      ptosim_ptr src = ptosim_ptr_make(PTOSIM_L1, PTOSIM_DT_NONE, 4096),
                 dst = ptosim_ptr_make(PTOSIM_BT, PTOSIM_DT_NONE, 64);
      run_bt(tgt, pairs[i][0], pairs[i][1], (ptosim_gap_copy_params){src, dst, 1, 1, 0, 0});
      run_bt(tgt, pairs[i][0], pairs[i][1], (ptosim_gap_copy_params){src, dst, 1, 3, 2, 1});
      run_bt(tgt, pairs[i][0], pairs[i][1],
             (ptosim_gap_copy_params){src, ptosim_ptr_make(PTOSIM_BT, PTOSIM_DT_NONE, 0), 2, 2, 1, 0});
    }
  /* special values widen exactly: zeros, subnormals, inf, NaN payloads */
  env e = env_new(PTOSIM_TARGET_A5);
  uint16_t h[16] = {0x0000, 0x8000, 0x0001, 0x03FF, 0x0400, 0x7BFF, 0x7C00, 0xFC00,
                    0x7C01, 0x7E00, 0xFFFF, 0x3C00, 0xC000, 0x8001, 0x3555, 0x0200};
  CHECK(ptosim_mem_write(e.c, PTOSIM_L1, 0, h, sizeof h) == PTOSIM_OK);
  ptosim_gap_copy_params p = {
      ptosim_ptr_make(PTOSIM_L1, PTOSIM_DT_F16, 0), ptosim_ptr_make(PTOSIM_BT, PTOSIM_DT_F32, 0), 1, 1, 0, 0};
  CHECK(ptosim_mte_l1_bt(e.c, &p) == PTOSIM_OK);
  uint32_t w[16];
  CHECK(ptosim_mem_read(e.c, PTOSIM_BT, 0, w, sizeof w) == PTOSIM_OK);
  CHECK(w[0] == 0 && w[1] == 0x80000000u && w[2] == 0x33800000u && w[6] == 0x7F800000u && w[7] == 0xFF800000u);
  CHECK(w[8] == 0x7F802000u && w[11] == 0x3F800000u && w[12] == 0xC0000000u);
  for (int i = 0; i < 16; i++) CHECK(w[i] == ref_f16_bits(h[i]));
  ptosim_machine_free(e.m);
}

static void test_bt_errors(void) {
  env e = env_new(PTOSIM_TARGET_A5), e3 = env_new(PTOSIM_TARGET_A2A3);
  ptosim_gap_copy_params p = {
      ptosim_ptr_make(PTOSIM_L1, PTOSIM_DT_F16, 0), ptosim_ptr_make(PTOSIM_BT, PTOSIM_DT_F16, 0), 1, 1, 0, 0};
  expect(&e, ptosim_mte_l1_bt(e.c, &p), PTOSIM_E_VERIFY, "bt.dtype");
  p.src.dtype = PTOSIM_DT_F32;
  expect(&e, ptosim_mte_l1_bt(e.c, &p), PTOSIM_E_VERIFY, "bt.dtype");
  p.src.dtype = PTOSIM_DT_I16;
  p.dst.dtype = PTOSIM_DT_I32;
  expect(&e, ptosim_mte_l1_bt(e.c, &p), PTOSIM_E_VERIFY, "bt.dtype");
  p.src.dtype = PTOSIM_DT_I32;
  p.dst.dtype = PTOSIM_DT_F32;
  expect(&e, ptosim_mte_l1_bt(e.c, &p), PTOSIM_E_VERIFY, "bt.dtype");
  p.src.dtype = PTOSIM_DT_F16;
  p.count = 4096;
  expect(&e, ptosim_mte_l1_bt(e.c, &p), PTOSIM_E_VERIFY, "bt.range");
  p.count = 1;
  p.len_burst = -1;
  expect(&e, ptosim_mte_l1_bt(e.c, &p), PTOSIM_E_VERIFY, "bt.range");
  p.len_burst = 1;
  p.dst_gap = 65536;
  expect(&e, ptosim_mte_l1_bt(e.c, &p), PTOSIM_E_VERIFY, "bt.range");
  p.dst_gap = 0;
  p.dst.space = PTOSIM_FB;
  expect(&e, ptosim_mte_l1_bt(e.c, &p), PTOSIM_E_VERIFY, "op.space");
  p.dst.space = PTOSIM_BT;
  p.len_burst = 64; /* 64 x 32 B of f16 -> 4 KiB of f32: exactly fits the A5 bias table */
  CHECK(ptosim_mte_l1_bt(e.c, &p) == PTOSIM_OK);
  p.dst.addr = 32;
  expect(&e, ptosim_mte_l1_bt(e.c, &p), PTOSIM_E_FAULT, "mem.bounds");
  p.dst.addr = 0;
  p.len_burst = 5; /* A2/A3: 5 x 64 B of f16 = 160 values = 640 B; two bursts with a gap of 1 unit overflow 1 KiB */
  p.count = 2;
  p.dst_gap = 1;
  expect(&e3, ptosim_mte_l1_bt(e3.c, &p), PTOSIM_E_FAULT, "mem.bounds");
  p.count = 1;
  p.dst.addr = 8;
  expect(&e, ptosim_mte_l1_bt(e.c, &p), PTOSIM_E_FAULT, "mem.align");
  ptosim_machine_free(e.m);
  ptosim_machine_free(e3.m);
}

static void run_fb(ptosim_target tgt, ptosim_gap_copy_params p) {
  env e = env_new(tgt);
  int64_t unit = tgt == PTOSIM_TARGET_A5 ? 64 : 128;
  uint8_t *l1 = sentinel(&e, PTOSIM_L1), *img = sentinel(&e, PTOSIM_FB);
  for (int64_t b = 0; b < p.count; b++)
    for (int64_t i = 0; i < p.len_burst * unit; i++)
      img[p.dst.addr + (uint64_t)(b * (p.len_burst + p.dst_gap) * unit + i)] =
          l1[p.src.addr + (uint64_t)(b * (p.len_burst + p.src_gap) * unit + i)];
  finish(&e, ptosim_mte_l1_fb(e.c, &p), PTOSIM_FB, img, l1, tgt == PTOSIM_TARGET_A5 ? "fb a5" : "fb a2a3");
}

static void test_fb(void) {
  for (int tg = 0; tg < 2; tg++) {
    ptosim_target tgt = tg ? PTOSIM_TARGET_A5 : PTOSIM_TARGET_A2A3;
    ptosim_ptr src = ptosim_ptr_make(PTOSIM_L1, PTOSIM_DT_U64, 2048),
               dst = ptosim_ptr_make(PTOSIM_FB, PTOSIM_DT_U64, 128);
    run_fb(tgt, (ptosim_gap_copy_params){src, dst, 2, 1, 0, 0});
    run_fb(tgt, (ptosim_gap_copy_params){src, dst, 1, 3, 2, 1});
    run_fb(tgt, (ptosim_gap_copy_params){src, ptosim_ptr_make(PTOSIM_FB, PTOSIM_DT_F32, 0), 3, 2, 0, 2});
  }
  /* corpus shape: 512-byte payload with len 8 on A5 */
  run_fb(PTOSIM_TARGET_A5, (ptosim_gap_copy_params){ptosim_ptr_make(PTOSIM_L1, PTOSIM_DT_F32, 0),
                                                    ptosim_ptr_make(PTOSIM_FB, PTOSIM_DT_F32, 0), 8, 1, 0, 0});
}

static void test_fb_errors(void) {
  env e = env_new(PTOSIM_TARGET_A5), e3 = env_new(PTOSIM_TARGET_A2A3);
  ptosim_gap_copy_params p = {
      ptosim_ptr_make(PTOSIM_L1, PTOSIM_DT_F32, 0), ptosim_ptr_make(PTOSIM_FB, PTOSIM_DT_F32, 0), 1, 1, 0, 0};
  p.src.space = PTOSIM_UB;
  expect(&e, ptosim_mte_l1_fb(e.c, &p), PTOSIM_E_VERIFY, "op.space");
  p.src.space = PTOSIM_L1;
  p.src_gap = -1;
  expect(&e, ptosim_mte_l1_fb(e.c, &p), PTOSIM_E_VERIFY, "fb.range");
  p.src_gap = 0;
  p.len_burst = 65536;
  expect(&e, ptosim_mte_l1_fb(e.c, &p), PTOSIM_E_VERIFY, "fb.range");
  p.len_burst = 64; /* 64 x 64 B = 4 KiB = the A5 FB */
  CHECK(ptosim_mte_l1_fb(e.c, &p) == PTOSIM_OK);
  p.len_burst = 16; /* 16 x 128 B = 2 KiB = the A2/A3 FB; one more unit overflows */
  CHECK(ptosim_mte_l1_fb(e3.c, &p) == PTOSIM_OK);
  p.len_burst = 17;
  expect(&e3, ptosim_mte_l1_fb(e3.c, &p), PTOSIM_E_FAULT, "mem.bounds");
  ptosim_machine_free(e.m);
  ptosim_machine_free(e3.m);
}

int main(void) {
  RUN(test_frac_shapes);
  RUN(test_frac_interleaved);
  RUN(test_frac_smallc0);
  RUN(test_frac_nop);
  RUN(test_frac_errors);
  RUN(test_l0_wrapper);
  RUN(test_l0_contract);
  RUN(test_l0_b8_corpus_shape);
  RUN(test_l0_raw);
  RUN(test_l0_errors);
  RUN(test_mx_layout);
  RUN(test_mx_loads);
  RUN(test_mx_text);
  RUN(test_mx_errors);
  RUN(test_bt);
  RUN(test_bt_errors);
  RUN(test_fb);
  RUN(test_fb_errors);
  return pt_test_finish();
}
